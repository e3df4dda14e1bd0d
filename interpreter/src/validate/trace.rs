//! Source traceability: every citation is found in its source, and the
//! source's paragraphs are covered by some rule, assumption, discrepancy or
//! narrative.
//!
//! Quotes are compared after normalising what PDF and Word extraction change
//! without changing the words: how accented letters are stored (Unicode NFC:
//! an « e » followed by a combining acute accent is « é »), case, runs of
//! whitespace and line breaks, words cut by a hyphen at the end of a line, the
//! shape of quotation marks and apostrophes, the spaces French typography puts
//! before `: ; ! ?` and inside « », and markdown emphasis (`*`). Accents are
//! kept: « é » and « e » are different letters (`normalise.rs`).
//!
//! A citation covers a paragraph only when it is a substantive part of it:
//! at least [`MIN_WORDS`] of the paragraph's words, or all of them when the
//! paragraph is shorter. A shorter quote is still looked up (T001 when it is
//! not there) but covers nothing by itself: the paragraphs that only such
//! quotes reach are listed apart (`short_only`, T011). A line range counts
//! for the lines of the file it names, and only when they lie in that file
//! (T003).

use super::{Finding, Severity, SourceText};
use crate::model::{Citation, Loc, Model, RecordKind};
use serde::Serialize;
use super::normalise::{normalise, normalise_quote};
use unicode_normalization::UnicodeNormalization;
pub use super::normalise::{quote_in, word_count};

/// Code: a quote is not in its source.
pub const QUOTE_NOT_FOUND: &str = "T001";
/// Where the command line looks for source texts, as its messages say it.
pub const WHERE_SOURCES_ARE: &str = "source texts are looked up in the `--sources` folders, next to the rulebook, and in `seeds/` and `shared/seeds/` of its folder and the folders above it";

/// Code: a cited source file cannot be found.
pub const SOURCE_MISSING: &str = "T002";
/// Code: a line citation is outside the file.
pub const LINES_OUTSIDE: &str = "T003";
/// Code: a narrative rule or a discrepancy that cites nothing.
pub const CITES_NOTHING: &str = "T004";
/// Code: a declaration that neither cites the source nor assumes.
pub const UNTRACED: &str = "T006";
/// Code: one declaration or statement cites the same thing twice.
pub const CITED_TWICE: &str = "T005";
/// Code: paragraphs of a source are not cited.
pub const UNCITED: &str = "T010";
/// Code: paragraphs of a source are reached only by quotes too short to
/// cover them.
pub const SHORT_ONLY: &str = "T011";
/// Code: a cited source text holds no paragraph.
pub const EMPTY_SOURCE: &str = "T012";
/// Code: a quote found only inside longer words of its source.
pub const QUOTE_CUTS_WORDS: &str = "T013";
/// Code: a quote that begins right after a negation it leaves out.
pub const QUOTE_AFTER_NEGATION: &str = "T014";

/// The fewest words of a paragraph one citation must quote to cover it; a
/// paragraph with fewer words must be quoted whole.
///
/// Why 4, measured on the rulebooks of the repository (Grail Cup, Merlin
/// alone and with each of its modules, the four classic games; 1,039
/// distinct quotes): a one-letter quote (`cite "e"`) is found in nearly
/// every paragraph and a two- or three-word one (`cite "le dé"`) in many, so
/// they say where a rule comes from, not that a paragraph was transcribed;
/// 147 of the quotes have one to three words (18, 52 and 77), and none of
/// them is needed to cover a paragraph unless it quotes the paragraph whole
/// (102 of the 411 paragraphs of the two seeds are headings or list items
/// of fewer than 4 words). With 4, every paragraph the rulebooks covered
/// stays covered. With 5, two would not, each quoted only by whole list
/// items of four words (« Reculez de 2 cases. », « 1 marqueur de score & »):
/// honest citations that a higher threshold would reject; with 6, five.
pub const MIN_WORDS: usize = 4;

/// A paragraph no citation covers.
#[derive(Debug, Clone, Serialize)]
pub struct Uncited {
    /// First line (from 1).
    pub line: u32,
    /// The beginning of its text.
    pub text: String,
}

/// A paragraph of the source and what cites it, for the side-by-side view.
#[derive(Debug, Clone, Serialize)]
pub struct Paragraph {
    /// First line (from 1).
    pub first_line: u32,
    /// Last line.
    pub last_line: u32,
    /// Its text.
    pub text: String,
    /// Indexes in `Model::records` of what covers it.
    pub cited_by: Vec<usize>,
    /// Indexes in `Model::records` of what quotes it too briefly to cover it
    /// (and does not cover it otherwise).
    pub short_by: Vec<usize>,
    /// Where the quotes that reach it are written (a quote that runs over
    /// two paragraphs reaches both), in the order they were checked.
    pub quoted_at: Vec<Loc>,
}

/// Coverage of one source text.
#[derive(Debug, Clone, Serialize)]
pub struct SourceCoverage {
    /// File name.
    pub source: String,
    /// Paragraphs (runs of non-blank lines).
    pub paragraphs: usize,
    /// Paragraphs covered by some citation.
    pub covered: usize,
    /// `covered / paragraphs`, in percent.
    pub percent: f64,
    /// The paragraphs nothing cites.
    pub uncited: Vec<Uncited>,
    /// The paragraphs only quotes shorter than [`MIN_WORDS`] words reach:
    /// not covered, and not in `uncited`.
    pub short_only: Vec<Uncited>,
    /// Every paragraph with what cites it (left out of the JSON report).
    #[serde(skip)]
    pub side_by_side: Vec<Paragraph>,
}

/// The traceability report.
#[derive(Debug, Clone, Serialize, Default)]
pub struct TraceReport {
    /// Citations checked.
    pub citations: usize,
    /// Citations not found.
    pub not_found: usize,
    /// Citations of a source text that could not be read (T002): counted
    /// in `citations`, checked against nothing.
    pub unread: usize,
    /// Per source.
    pub sources: Vec<SourceCoverage>,
}

/// Paragraphs: (first line, last line, preview).
fn paragraphs(text: &str) -> Vec<(u32, u32, String)> {
    let mut out = Vec::new();
    let mut start: Option<(u32, String)> = None;
    let mut last = 0u32;
    for (i, l) in text.lines().enumerate() {
        let n = i as u32 + 1;
        if l.trim().is_empty() {
            if let Some((s, p)) = start.take() {
                out.push((s, last, p));
            }
        } else {
            if start.is_none() {
                start = Some((n, opening(l.trim())));
            }
            last = n;
        }
    }
    if let Some((s, p)) = start {
        out.push((s, last, p));
    }
    out
}

/// The most characters of a paragraph's first line a finding shows.
const OPENING_CHARS: usize = 70;

/// The start of a paragraph's first line that a finding shows: all of it
/// when it is short, else up to [`OPENING_CHARS`] characters cut after a
/// whole word, marked `…` (a word cut in two read as a misquote).
fn opening(line: &str) -> String {
    let chars: Vec<char> = line.nfc().collect();
    if chars.len() <= OPENING_CHARS {
        return chars.into_iter().collect();
    }
    let cut = &chars[..OPENING_CHARS];
    // Cut before the word that does not fit, unless that loses most of it.
    let end = match cut.iter().rposition(|c| c.is_whitespace()) {
        Some(space) if space >= OPENING_CHARS / 2 && !chars[OPENING_CHARS].is_whitespace() => space,
        _ => OPENING_CHARS,
    };
    let kept: String = cut[..end].iter().collect();
    format!("{}…", kept.trim_end())
}

/// What reaches each paragraph of one source: the records that cover it, and
/// those that only quote it too briefly.
struct Reach {
    /// The fewest words that cover a paragraph ([`MIN_WORDS`]).
    min_words: usize,
    /// Words of each paragraph.
    words: Vec<usize>,
    cited_by: Vec<Vec<usize>>,
    short_by: Vec<Vec<usize>>,
    /// The first short citation of each paragraph, to point at.
    short_at: Vec<Option<Loc>>,
    /// The quotes that reach each paragraph, by where they are written.
    quoted_at: Vec<Vec<Loc>>,
}

impl Reach {
    /// Record `record` quoting `words` whole words of paragraph `para`.
    fn quote(&mut self, record: usize, para: usize, words: usize, at: Loc) {
        if let Some(quoted) = self.quoted_at.get_mut(para) {
            if !quoted.contains(&at) {
                quoted.push(at);
            }
        }
        let whole = self.words.get(para).copied().unwrap_or(0);
        let (Some(cited), Some(short)) = (self.cited_by.get_mut(para), self.short_by.get_mut(para)) else { return };
        if words >= self.min_words.min(whole) {
            if !cited.contains(&record) {
                cited.push(record);
            }
            short.retain(|r| *r != record);
        } else if !cited.contains(&record) && !short.contains(&record) {
            short.push(record);
            if let Some(first @ None) = self.short_at.get_mut(para) {
                *first = Some(at);
            }
        }
    }
}

/// Check every citation and measure coverage.
pub fn check(model: &Model, sources: &[SourceText]) -> (TraceReport, Vec<Finding>) {
    check_with(model, sources, MIN_WORDS)
}

/// [`check`] with another threshold than [`MIN_WORDS`] (to measure it).
pub fn check_with(model: &Model, sources: &[SourceText], min_words: usize) -> (TraceReport, Vec<Finding>) {
    let mut findings = Vec::new();
    let mut report = TraceReport::default();
    let mut names: Vec<String> = model.records.iter().flat_map(|r| r.cites.iter()).map(|c| source_of(c).to_string()).collect();
    names.extend(model.source.clone());
    names.sort();
    names.dedup();
    for name in names {
        let text = sources.iter().find(|s| s.name == name).and_then(|s| s.text.as_deref());
        // Only the citations of this very file: a quote or a line range
        // counts for the source it names and for no other.
        let cites: Vec<(usize, &Citation)> = model.records.iter().enumerate().flat_map(|(i, r)| r.cites.iter().map(move |c| (i, c))).filter(|(_, c)| source_of(c) == name).collect();
        let Some(text) = text else {
            // Counted, though they cannot be checked (T002 says so).
            report.citations += cites.len();
            report.unread += cites.len();
            // At the header that names it, else at its first citation.
            let at = model.source_clauses.iter().find(|(n, _)| *n == name).map(|(_, at)| *at).or_else(|| cites.first().map(|(_, c)| at_of(c)));
            if name.is_empty() {
                // No `in "FILE"`, in a file whose header names no source: at each such citation.
                for (_, c) in &cites {
                    findings.push(
                        Finding::new(SOURCE_MISSING, Severity::Error, "this citation names no source text, and the header of its file names no default one", Some(at_of(c)))
                            .help("add `source \"FILE\"` to the header of the rulebook or module (`rulebook NAME { source \"rules.txt\" ... }`), or write `cite \"...\" in \"FILE\"`"),
                    );
                }
                continue;
            }
            findings.push(
                Finding::new(SOURCE_MISSING, Severity::Error, format!("the source text `{name}` cannot be found, so its {} citation(s) cannot be checked", cites.len()), at)
                    .help(format!(
                        "{WHERE_SOURCES_ARE}: give its folder with `--sources DIR`, or fix the file name in {}",
                        if model.source.as_deref() == Some(name.as_str()) { "the header's `source \"...\"`" } else { "the citation's `in \"...\"` (or in its file's header `source`)" }
                    )),
            );
            continue;
        };
        let norm = normalise(text);
        let paras = paragraphs(text);
        let total_lines = text.lines().count() as u32;
        // Words on each line (by the line of their first letter), then in
        // each paragraph.
        let mut words_on_line = vec![0usize; total_lines as usize + 2];
        for (start, _) in &norm.words {
            if let Some(n) = norm.line_of.get(*start).and_then(|l| words_on_line.get_mut(*l as usize)) {
                *n += 1;
            }
        }
        let words_in = |lo: u32, hi: u32| -> usize { (lo..=hi).map(|l| words_on_line.get(l as usize).copied().unwrap_or(0)).sum() };
        let mut reach = Reach {
            min_words,
            words: paras.iter().map(|(a, b, _)| words_in(*a, *b)).collect(),
            cited_by: vec![Vec::new(); paras.len()],
            short_by: vec![Vec::new(); paras.len()],
            short_at: vec![None; paras.len()],
            quoted_at: vec![Vec::new(); paras.len()],
        };
        // Cut into sentences when a quote is not found, once per source.
        let mut sentences: Option<super::closest::Sentences> = None;
        for (record, c) in cites.iter().copied() {
            report.citations += 1;
            match c {
                Citation::Quote { quote, at, .. } => {
                    let q = normalise_quote(quote);
                    let mut found = false;
                    // Where the quote cuts words of the source (« Dragon » in
                    // « Dragonnier »): such a place reaches nothing when the
                    // quote is also found as whole words; found only so, it
                    // reaches as it always did and T013 says so.
                    let occurrences: Vec<(usize, usize, bool)> = norm.text.match_indices(&q).filter(|_| !q.is_empty()).map(|(s, _)| (s, s + q.len(), super::normalise::whole_words(&norm.text, s, s + q.len()))).collect();
                    let some_whole = occurrences.iter().any(|(_, _, whole)| *whole);
                    if let (false, Some((start, end, _))) = (some_whole, occurrences.first()) {
                        let line = norm.line_of.get(*start).copied().unwrap_or(0);
                        findings.push(
                            Finding::new(QUOTE_CUTS_WORDS, Severity::Warning, format!("this quote is in `{name}` only as part of longer words (line {line}: « {} »)", super::normalise::around(&norm.text, *start, *end)), Some(*at))
                                .help("quote whole words: a quote that starts or ends inside a word can say what the source does not (« placé » in « déplacé »)"),
                        );
                    }
                    // Every place it is found begins right after a negation it
                    // leaves out: found, but it may say the opposite.
                    let places: Vec<usize> = occurrences.iter().filter(|(_, _, whole)| *whole || !some_whole).map(|(s, _, _)| *s).collect();
                    // A quote that starts a line of the source starts a list
                    // item or a heading as often as it continues a sentence:
                    // what ends the line before is not looked at.
                    let starts_a_line = |s: usize| s.checked_sub(1).and_then(|b| norm.line_of.get(b)) < norm.line_of.get(s);
                    let negated: Option<Vec<String>> = places.iter().map(|s| if starts_a_line(*s) { None } else { super::negation::negation_before(&norm.text, *s) }).collect();
                    if let (Some(words), Some(first), false) = (negated, places.first(), super::negation::holds_negation(&q)) {
                        let line = norm.line_of.get(*first).copied().unwrap_or(0);
                        findings.push(
                            Finding::new(QUOTE_AFTER_NEGATION, Severity::Warning, format!("this quote begins just after « {} », a negation it leaves out (`{name}`, line {line}): the sentence may say the opposite of the quote", words.first().cloned().unwrap_or_default()), Some(*at))
                                .help("quote the negation too, or the whole sentence"),
                        );
                    }
                    if !q.is_empty() {
                        for (start, end, whole) in occurrences {
                            if some_whole && !whole {
                                continue;
                            }
                            let lo = norm.line_of.get(start).copied().unwrap_or(0);
                            let hi = norm.line_of.get(end - 1).copied().unwrap_or(lo);
                            // The words this occurrence holds whole, counted in
                            // the paragraph of each.
                            let mut quoted: Vec<(usize, usize)> = paras.iter().enumerate().filter(|(_, (a, b, _))| *a <= hi && lo <= *b).map(|(i, _)| (i, 0)).collect();
                            let first = norm.words.partition_point(|(s, _)| *s < start);
                            for (s, _) in norm.words.get(first..).unwrap_or_default().iter().take_while(|(_, e)| *e <= end) {
                                let line = norm.line_of.get(*s).copied().unwrap_or(0);
                                if let Some((_, n)) = quoted.iter_mut().find(|(i, _)| paras.get(*i).is_some_and(|(a, b, _)| *a <= line && line <= *b)) {
                                    *n += 1;
                                }
                            }
                            for (para, n) in quoted {
                                reach.quote(record, para, n, *at);
                            }
                            found = true;
                        }
                    }
                    if !found && q.is_empty() {
                        report.not_found += 1;
                        findings.push(
                            Finding::new(QUOTE_NOT_FOUND, Severity::Error, "this quote is empty once its punctuation and spacing are set aside (quotes are matched by their words): it quotes nothing of the source".to_string(), Some(*at))
                                .help("copy a sentence with words from the source; a paragraph without words (a row of `*`, a rule) is cited by its line: `cite line N`"),
                        );
                    } else if !found {
                        report.not_found += 1;
                        let sentences = sentences.get_or_insert_with(|| super::closest::Sentences::of(text));
                        let nearest = sentences.nearest(&q).map(|(line, s)| format!("; the nearest sentence, line {line}: « {s} »")).unwrap_or_default();
                        findings.push(
                            Finding::new(QUOTE_NOT_FOUND, Severity::Error, format!("this quote is not in `{name}`"), Some(*at))
                                .help(format!("copy the sentence from the source; case, spacing, line breaks, the shape of quotation marks and how accents are stored are ignored, accents are not{nearest}")),
                        );
                    }
                }
                Citation::Lines { from, to, at, .. } => {
                    if *to < *from {
                        findings.push(
                            Finding::new(LINES_OUTSIDE, Severity::Error, format!("the line range {from}..{to} is empty: its first line is after its last"), Some(*at))
                                .help(format!("write the first line first: `cite lines {to}..{from}`")),
                        );
                    } else if *from == 0 || *to > u64::from(total_lines) {
                        findings.push(
                            Finding::new(LINES_OUTSIDE, Severity::Error, format!("lines {from}..{to} are not within `{name}`, which has {total_lines} line{}", if total_lines == 1 { "" } else { "s" }), Some(*at))
                                .help("a line range counts for the file it names (`cite lines A..B in \"file.txt\"`, else the rulebook's `source`), and must lie within it"),
                        );
                    } else if !paras.iter().any(|(a, b, _)| u64::from(*a) <= *to && *from <= u64::from(*b)) {
                        // Blank lines only: the text moved, or the number is off.
                        let range = if from == to { format!("line {from}") } else { format!("lines {from}..{to}") };
                        findings.push(
                            Finding::new(LINES_OUTSIDE, Severity::Error, format!("{range} of `{name}` {} blank: it cites nothing", if from == to { "is" } else { "are" }), Some(*at))
                                .help("cite the lines of the sentence (line numbers move when the source is edited; a quote does not)"),
                        );
                    } else {
                        for (i, (a, b, _)) in paras.iter().enumerate() {
                            if u64::from(*a) <= *to && *from <= u64::from(*b) {
                                // Within the file here, so the numbers fit.
                                reach.quote(record, i, words_in((*a).max(u32::try_from(*from).unwrap_or(u32::MAX)), (*b).min(u32::try_from(*to).unwrap_or(u32::MAX))), *at);
                            }
                        }
                    }
                }
            }
        }
        let Reach { cited_by, short_by, short_at, quoted_at, .. } = reach;
        let listed = |short: bool| -> Vec<Uncited> {
            paras
                .iter()
                .zip(cited_by.iter().zip(&short_by))
                .filter(|(_, (c, s))| c.is_empty() && s.is_empty() != short)
                .map(|((l, _, t), _)| Uncited { line: *l, text: t.clone() })
                .collect()
        };
        let uncited = listed(false);
        let short_only = listed(true);
        let lines: Vec<&str> = text.lines().collect();
        let side_by_side = paras
            .iter()
            .zip(cited_by.into_iter().zip(short_by).zip(quoted_at))
            .map(|((a, b, _), ((by, short), quoted_at))| Paragraph {
                first_line: *a,
                last_line: *b,
                text: lines.get(*a as usize - 1..*b as usize).map(|l| l.join("\n")).unwrap_or_default(),
                cited_by: by,
                short_by: short,
                quoted_at,
            })
            .collect();
        let n = paras.len();
        let done = n - uncited.len() - short_only.len();
        if !uncited.is_empty() {
            findings.push(
                Finding::new(UNCITED, Severity::Warning, format!("{} of the {n} paragraphs of `{name}` {} not cited by any rule, assumption, discrepancy or narrative ({})", uncited.len(), is_are(uncited.len()), lines_of(uncited.iter().map(|u| u.line))), None)
                    .help(format!("first uncited paragraph, line {}: « {} »", uncited.first().map(|u| u.line).unwrap_or(0), uncited.first().map(|u| u.text.as_str()).unwrap_or(""))),
            );
        }
        if let Some(first) = short_only.first() {
            let at = paras.iter().position(|(l, _, _)| *l == first.line).and_then(|i| short_at.get(i).copied().flatten());
            findings.push(
                Finding::new(
                    SHORT_ONLY,
                    Severity::Warning,
                    format!("{} of the {n} paragraphs of `{name}` {} covered only by short quotes (fewer than {min_words} of their words), which do not count ({})", short_only.len(), is_are(short_only.len()), lines_of(short_only.iter().map(|u| u.line))),
                    at,
                )
                .help(format!(
                    "first such paragraph, line {}: « {} »; quote at least {min_words} consecutive words of it verbatim, or all of it when it is shorter",
                    first.line, first.text
                )),
            );
        }
        if n == 0 {
            let at = cites.first().map(|(_, c)| at_of(c));
            findings.push(
                Finding::new(EMPTY_SOURCE, Severity::Warning, format!("the source text `{name}` holds no paragraph (it is empty or blank): its coverage says nothing"), at)
                    .help("check that the text was extracted whole, and that the rulebook names the right file"),
            );
        }
        report.sources.push(SourceCoverage { source: name.clone(), paragraphs: n, covered: done, percent: if n == 0 { 100.0 } else { 100.0 * done as f64 / n as f64 }, uncited, short_only, side_by_side });
    }
    findings.extend(citing_nothing(model));
    findings.extend(untraced(model));
    findings.extend(cited_twice(model));
    (report, findings)
}

fn source_of(c: &Citation) -> &str {
    match c {
        Citation::Quote { source, .. } | Citation::Lines { source, .. } => source,
    }
}

fn at_of(c: &Citation) -> Loc {
    match c {
        Citation::Quote { at, .. } | Citation::Lines { at, .. } => *at,
    }
}

/// The first lines of some paragraphs, for a message that must say where
/// they are without its help (`--error-format short`): "line 4",
/// "lines 4, 9 and 12", "lines 4, 9, 12 and 5 more".
fn lines_of(lines: impl Iterator<Item = u32>) -> String {
    const SHOWN: usize = 3;
    let lines: Vec<u32> = lines.collect();
    let shown: Vec<String> = lines.iter().take(SHOWN).map(u32::to_string).collect();
    match (lines.len(), shown.as_slice()) {
        (1, [one]) => format!("line {one}"),
        (n, _) if n > SHOWN => format!("lines {} and {} more", shown.join(", "), n - SHOWN),
        (_, [init @ .., last]) => format!("lines {} and {last}", init.join(", ")),
        _ => String::new(),
    }
}

/// "is" for one, "are" for several.
fn is_are(n: usize) -> &'static str {
    if n == 1 {
        "is"
    } else {
        "are"
    }
}

/// T004: a narrative rule is a sentence of the source kept as text, and a
/// discrepancy is between passages of it: one that cites nothing accounts
/// for no sentence the coverage can see. (An assumption may cite nothing:
/// it is where the text is silent.)
fn citing_nothing(model: &Model) -> Vec<Finding> {
    model
        .records
        .iter()
        .filter(|r| r.cites.is_empty())
        .filter_map(|r| {
            let (what, help) = match r.kind {
                RecordKind::Narrative => ("narrative rule", "cite the sentence of the source it keeps as text (`cite \"...\"` or `cite line N`)"),
                RecordKind::Discrepancy => ("discrepancy", "cite the passages that disagree, one `cite` each"),
                RecordKind::Encoded | RecordKind::Assumption => return None,
            };
            Some(Finding::new(CITES_NOTHING, Severity::Warning, format!("the {what} `{}` cites nothing: no sentence of the source is accounted for by it", r.name), Some(r.at)).help(help))
        })
        .collect()
}

/// T006: a declaration of the game (a rule, a piece, a zone, a counter, the
/// player count...) with no `cite` and no `assume`: nothing says which
/// sentence of the source it encodes, or that the source is silent on it.
/// (Narratives, discrepancies and assumptions are T004's; statements
/// inside a declaration share its provenance.)
fn untraced(model: &Model) -> Vec<Finding> {
    model
        .records
        .iter()
        .filter(|r| r.kind == RecordKind::Encoded && r.declaration && r.cites.is_empty() && r.assumes.is_empty())
        .map(|r| {
            Finding::new(UNTRACED, Severity::Warning, format!("`{}` cites no sentence of the source and assumes nothing: it is traced to nothing", r.name), Some(r.at))
                .help("cite the sentence it encodes (`cite \"...\"` or `cite line N`), or, where the source is silent, say what is assumed (`assume \"...\"`)")
        })
        .collect()
}

/// T005: a declaration or statement that cites the same quote (or the same
/// lines) of the same source twice: a slip of copy and paste, where the
/// second citation was meant for another sentence.
fn cited_twice(model: &Model) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in &model.records {
        for (i, c) in r.cites.iter().enumerate() {
            let again = r.cites.iter().take(i).any(|earlier| match (earlier, c) {
                (Citation::Quote { source: s1, quote: q1, .. }, Citation::Quote { source: s2, quote: q2, .. }) => s1 == s2 && normalise_quote(q1) == normalise_quote(q2),
                (Citation::Lines { source: s1, from: f1, to: t1, .. }, Citation::Lines { source: s2, from: f2, to: t2, .. }) => s1 == s2 && (f1, t1) == (f2, t2),
                _ => false,
            });
            if again {
                out.push(
                    Finding::new(CITED_TWICE, Severity::Warning, format!("`{}` cites the same {} twice", r.name, if matches!(c, Citation::Quote { .. }) { "quote" } else { "lines" }), Some(at_of(c)))
                        .help("remove the second citation, or cite the sentence it was meant for"),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_are_runs_of_lines() {
        let p = paragraphs("a\nb\n\n\nc\n");
        assert_eq!(p.iter().map(|(a, b, _)| (*a, *b)).collect::<Vec<_>>(), vec![(1, 2), (5, 5)]);
    }

    #[test]
    fn a_long_first_line_is_shown_up_to_a_whole_word() {
        let short = "Chaque joueur pose ses pierres.";
        assert_eq!(opening(short), short);
        let long = "Au début de la partie, chaque joueur place les graines dans chacune de ses six cases.";
        // 70 characters end inside `ses`: the line is cut before it.
        assert_eq!(opening(long), "Au début de la partie, chaque joueur place les graines dans chacune de…");
        // A line with no space to cut at is cut at the limit.
        assert_eq!(opening(&"x".repeat(90)), format!("{}…", "x".repeat(70)));
    }
}
