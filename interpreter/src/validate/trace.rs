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
//! kept: « é » and « e » are different letters.

use super::{Finding, Severity, SourceText};
use crate::model::{Citation, Loc, Model};
use serde::Serialize;
use unicode_normalization::UnicodeNormalization;

/// Code: a quote is not in its source.
pub const QUOTE_NOT_FOUND: &str = "T001";
/// Code: a cited source file cannot be found.
pub const SOURCE_MISSING: &str = "T002";
/// Code: a line citation is outside the file.
pub const LINES_OUTSIDE: &str = "T003";
/// Code: paragraphs of a source are not cited.
pub const UNCITED: &str = "T010";

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
    /// Indexes in `Model::records` of what cites it.
    pub cited_by: Vec<usize>,
}

/// Coverage of one source text.
#[derive(Debug, Clone, Serialize)]
pub struct SourceCoverage {
    /// File name.
    pub source: String,
    /// Paragraphs (runs of non-blank lines).
    pub paragraphs: usize,
    /// Paragraphs cited by something.
    pub covered: usize,
    /// `covered / paragraphs`, in percent.
    pub percent: f64,
    /// The paragraphs nothing cites.
    pub uncited: Vec<Uncited>,
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
    /// Per source.
    pub sources: Vec<SourceCoverage>,
}

/// Text normalised for comparison, with the source line of every byte.
struct Normalised {
    text: String,
    line_of: Vec<u32>,
}

fn fold(c: char) -> Option<char> {
    Some(match c {
        '’' | '‘' | 'ʼ' | '′' | '`' | '´' => '\'',
        '“' | '”' | '„' | '«' | '»' | '‹' | '›' => '"',
        '*' => return None,
        c if c.is_whitespace() => ' ',
        c => c,
    })
}

fn normalise(text: &str) -> Normalised {
    let mut out = String::with_capacity(text.len());
    let mut line_of = Vec::with_capacity(text.len());
    let mut line = 1u32;
    // Composed first (NFC), so that a letter and its combining accent are one
    // character whichever way the file stores them; a line break is never
    // composed with anything, so the line count is unchanged.
    let mut chars = text.nfc().peekable();
    while let Some(c) = chars.next() {
        if c == '-' && chars.peek() == Some(&'\n') {
            // A word cut at the end of a PDF line: join its halves.
            chars.next();
            line += 1;
            continue;
        }
        let here = line;
        if c == '\n' {
            line += 1;
        }
        let Some(f) = fold(c) else { continue };
        if f == ' ' {
            // French typography puts spaces inside « » and before : ; ! ?;
            // extraction keeps or drops them at random, so none are kept there.
            if out.ends_with(' ') || out.ends_with('"') || out.is_empty() {
                continue;
            }
            out.push(' ');
            line_of.push(here);
            continue;
        }
        if matches!(f, '"' | ':' | ';' | '!' | '?') && out.ends_with(' ') {
            out.pop();
            line_of.pop();
        }
        for l in f.to_lowercase() {
            let before = out.len();
            out.push(l);
            line_of.extend(std::iter::repeat_n(here, out.len() - before));
        }
    }
    Normalised { text: out, line_of }
}

fn normalise_quote(q: &str) -> String {
    normalise(q).text.trim().to_string()
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
                start = Some((n, l.trim().nfc().take(70).collect()));
            }
            last = n;
        }
    }
    if let Some((s, p)) = start {
        out.push((s, last, p));
    }
    out
}

/// Check every citation and measure coverage.
pub fn check(model: &Model, sources: &[SourceText]) -> (TraceReport, Vec<Finding>) {
    let mut findings = Vec::new();
    let mut report = TraceReport::default();
    let mut names: Vec<String> = model.records.iter().flat_map(|r| r.cites.iter()).map(|c| source_of(c).to_string()).collect();
    names.extend(model.source.clone());
    names.sort();
    names.dedup();
    for name in names {
        let text = sources.iter().find(|s| s.name == name).and_then(|s| s.text.as_deref());
        let cites: Vec<(usize, &Citation)> = model.records.iter().enumerate().flat_map(|(i, r)| r.cites.iter().map(move |c| (i, c))).filter(|(_, c)| source_of(c) == name).collect();
        let Some(text) = text else {
            let at = cites.first().map(|(_, c)| at_of(c));
            findings.push(
                Finding::new(SOURCE_MISSING, Severity::Error, format!("the source text `{name}` cannot be found, so its {} citation(s) cannot be checked", cites.len()), at)
                    .help("give its folder with `--sources DIR`, or fix the file name in `source \"...\"`"),
            );
            continue;
        };
        let norm = normalise(text);
        let paras = paragraphs(text);
        let total_lines = text.lines().count() as u32;
        let mut cited_by: Vec<Vec<usize>> = vec![Vec::new(); paras.len()];
        let mut cover = |record: usize, lo: u32, hi: u32| {
            for (i, (a, b, _)) in paras.iter().enumerate() {
                if *a <= hi && lo <= *b && !cited_by[i].contains(&record) {
                    cited_by[i].push(record);
                }
            }
        };
        for (record, c) in cites {
            report.citations += 1;
            match c {
                Citation::Quote { quote, at, .. } => {
                    let q = normalise_quote(quote);
                    let mut found = false;
                    if !q.is_empty() {
                        let mut from = 0;
                        while let Some(pos) = norm.text.get(from..).and_then(|t| t.find(&q)) {
                            let start = from + pos;
                            let end = start + q.len() - 1;
                            let lo = norm.line_of.get(start).copied().unwrap_or(0);
                            let hi = norm.line_of.get(end).copied().unwrap_or(lo);
                            cover(record, lo, hi);
                            found = true;
                            from = start + q.len();
                        }
                    }
                    if !found {
                        report.not_found += 1;
                        findings.push(
                            Finding::new(QUOTE_NOT_FOUND, Severity::Error, format!("this quote is not in `{name}`"), Some(*at))
                                .help("copy the sentence from the source; case, spacing, line breaks, the shape of quotation marks and how accents are stored are ignored, accents are not"),
                        );
                    }
                }
                Citation::Lines { from, to, at, .. } => {
                    if *from == 0 || *to < *from || *to > total_lines {
                        findings.push(Finding::new(LINES_OUTSIDE, Severity::Error, format!("lines {from}..{to} are not within `{name}`, which has {total_lines} lines"), Some(*at)));
                    } else {
                        cover(record, *from, *to);
                    }
                }
            }
        }
        let uncited: Vec<Uncited> = paras.iter().zip(&cited_by).filter(|(_, c)| c.is_empty()).map(|((l, _, t), _)| Uncited { line: *l, text: t.clone() }).collect();
        let lines: Vec<&str> = text.lines().collect();
        let side_by_side = paras
            .iter()
            .zip(cited_by)
            .map(|((a, b, _), by)| Paragraph {
                first_line: *a,
                last_line: *b,
                text: lines.get(*a as usize - 1..*b as usize).map(|l| l.join("\n")).unwrap_or_default(),
                cited_by: by,
            })
            .collect();
        let n = paras.len();
        let done = n - uncited.len();
        if !uncited.is_empty() {
            findings.push(
                Finding::new(UNCITED, Severity::Warning, format!("{} of the {n} paragraphs of `{name}` are not cited by any rule, assumption, discrepancy or narrative", uncited.len()), None)
                    .help(format!("first uncited paragraph, line {}: {}", uncited.first().map(|u| u.line).unwrap_or(0), uncited.first().map(|u| u.text.as_str()).unwrap_or(""))),
            );
        }
        report.sources.push(SourceCoverage { source: name.clone(), paragraphs: n, covered: done, percent: if n == 0 { 100.0 } else { 100.0 * done as f64 / n as f64 }, uncited, side_by_side });
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalisation_ignores_layout_but_keeps_accents() {
        let src = normalise("Le  Dragon « vole »\nsur la ca-\nse Rouge. L’épée");
        assert!(src.text.contains(&normalise_quote("le dragon \"vole\" sur la case rouge")));
        assert!(src.text.contains(&normalise_quote("l'épée")));
        assert!(!src.text.contains(&normalise_quote("l'epee")));
    }

    #[test]
    fn accents_are_compared_composed() {
        // « é » stored as « e » + U+0301, as PDF extractors often write it.
        let src = normalise("Le joueur lance le de\u{301} et avance.");
        assert!(src.text.contains(&normalise_quote("lance le dé")));
        assert!(!src.text.contains(&normalise_quote("lance le de et")));
        assert_eq!(src.line_of.len(), src.text.len());
    }

    #[test]
    fn paragraphs_are_runs_of_lines() {
        let p = paragraphs("a\nb\n\n\nc\n");
        assert_eq!(p.iter().map(|(a, b, _)| (*a, *b)).collect::<Vec<_>>(), vec![(1, 2), (5, 5)]);
    }
}
