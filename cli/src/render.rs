//! Diagnostics and run-time findings as text for people (miette), as one
//! line each (`--error-format short`), or as JSON.

use crate::ui::{line_col, MAX_SHOWN};
use grimoire_interpreter::engine::ExecError;
use grimoire_interpreter::model::Loc;
use grimoire_interpreter::{Diagnostic, Source};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, Severity};
use serde::Serialize;

/// How to print diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ErrorFormat {
    /// The rulebook's text with boxes and arrows (Unicode), coloured on a
    /// terminal (`--color`).
    Human,
    /// The same in ASCII only: no Unicode boxes or box-drawing characters
    /// (for logs, screen readers and old terminals).
    Plain,
    /// One line per diagnostic or finding: `file:line:col: CODE message`.
    Short,
    /// The command's JSON document on stdout (the same as `--json`).
    Json,
}

/// How to draw: the format and whether the stream has colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// The format.
    pub format: ErrorFormat,
    /// ANSI colours.
    pub color: bool,
}

impl From<ErrorFormat> for Style {
    /// A format without colour.
    fn from(format: ErrorFormat) -> Style {
        Style { format, color: false }
    }
}

fn handler(style: Style) -> GraphicalReportHandler {
    let theme = match (style.format, style.color) {
        (ErrorFormat::Plain, true) => GraphicalTheme::ascii(),
        (ErrorFormat::Plain, false) => GraphicalTheme::none(),
        (_, true) => GraphicalTheme::unicode(),
        (_, false) => GraphicalTheme::unicode_nocolor(),
    };
    GraphicalReportHandler::new_themed(theme).with_width(100)
}

/// Draw `d`, with the text of `src` its labels point into; a line longer
/// than [`crate::clip::MAX_LINE`] characters is shown cut around them.
fn report(handler: &GraphicalReportHandler, mut d: MietteDiagnostic, src: Option<&Source>, style: Style) -> String {
    // Messages and helps quote text the parser never saw (a source text's
    // paragraph, a label read from a log): a terminal must not obey it.
    d.message = printable_words(&d.message).into_owned();
    d.help = d.help.map(|h| printable_words(&h).into_owned());
    if let Some(labels) = d.labels.as_mut() {
        for l in labels.iter_mut() {
            if let Some(std::borrow::Cow::Owned(text)) = l.label().map(printable_words) {
                *l = LabeledSpan::new(Some(text), l.offset(), l.len());
            }
        }
    }
    let mut out = String::new();
    let result = match src {
        Some(s) => {
            let mark = if style.format == ErrorFormat::Plain { crate::clip::ASCII_MARK } else { crate::clip::MARK };
            // A byte order mark is no column: the text is drawn without it,
            // and the labels are moved back by its three bytes.
            let body = s.text.strip_prefix('\u{feff}').unwrap_or(&s.text);
            let skip = s.text.len() - body.len();
            let moved: Vec<LabeledSpan> = d.labels.as_deref().unwrap_or(&[]).iter().map(|l| LabeledSpan::new(l.label().map(str::to_owned), l.offset().saturating_sub(skip), l.len())).collect();
            let shown = printable(body);
            let (clipped, labels) = crate::clip::Clipped::new(&s.name, &shown, &moved, mark);
            d.labels = d.labels.is_some().then_some(labels);
            let report = miette::Report::new(d).with_source_code(clipped);
            handler.render_report(&mut out, report.as_ref())
        }
        None => handler.render_report(&mut out, &d),
    };
    if result.is_err() {
        out.push_str("(the diagnostic could not be rendered)\n");
    }
    out
}

/// Render resolution diagnostics for people, all of them, without colour.
pub fn human(diags: &[Diagnostic], sources: &[Source], format: ErrorFormat) -> String {
    diags.iter().map(|d| diagnostic(d, sources, format.into())).collect()
}

/// Render resolution diagnostics in a text format (human, plain or short),
/// the first [`MAX_SHOWN`] of them, then how many more there are.
pub fn diagnostics(diags: &[Diagnostic], sources: &[Source], style: Style) -> String {
    let mut out: String = diags.iter().take(MAX_SHOWN).map(|d| diagnostic(d, sources, style)).collect();
    out.push_str(&more(diags.len()));
    out
}

/// "... and N more" when `total` passes [`MAX_SHOWN`], else nothing.
pub fn more(total: usize) -> String {
    if total > MAX_SHOWN {
        format!("... and {} more (every one of them with --json)\n", total - MAX_SHOWN)
    } else {
        String::new()
    }
}

/// One diagnostic in a text format.
pub fn diagnostic(d: &Diagnostic, sources: &[Source], style: Style) -> String {
    let src = sources.get(d.at.file.idx());
    if style.format == ErrorFormat::Short {
        return short(src, Some(d.at), d.code, &d.message) + "\n";
    }
    let h = handler(style);
    let mut labels = vec![LabeledSpan::at(d.at.span, d.label.clone())];
    let mut help = d.help.clone();
    for (loc, label) in &d.related {
        if shown_together(sources, d.at, *loc) {
            labels.push(LabeledSpan::at(loc.span, label.clone()));
        } else {
            help = Some(with_note(help, &format!("{label}: {}", place_in(sources, *loc))));
        }
    }
    let mut md = MietteDiagnostic::new(d.message.clone()).with_code(d.code).with_severity(Severity::Error).with_labels(labels);
    if let Some(h) = help {
        md = md.with_help(h);
    }
    report(&h, md, src, style)
}

/// `file:line:col: CODE message` (line and column from 1, the column in
/// characters), or `file: CODE message` without a place, on one line.
fn short(src: Option<&Source>, at: Option<Loc>, code: &str, message: &str) -> String {
    let message = printable_words(message).split_whitespace().collect::<Vec<_>>().join(" ");
    let name = src.map(|s| s.name.as_str()).unwrap_or("grimoire");
    match (src, at) {
        (Some(s), Some(at)) => {
            let (line, col) = line_col(&s.text, at.span.start);
            format!("{name}:{line}:{col}: {code} {message}")
        }
        _ => format!("{name}: {code} {message}"),
    }
}

/// A diagnostic as JSON: its code, message and help, its own place with
/// its label, and the other places it names.
#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: &'a str,
    message: &'a str,
    #[serde(flatten)]
    place: JsonPlace<'a>,
    help: Option<&'a str>,
    /// Other places the diagnostic names (the first of two replacements).
    related: Vec<JsonPlace<'a>>,
}

/// A place in a rulebook file, with its label.
#[derive(Serialize)]
struct JsonPlace<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    start: usize,
    end: usize,
    label: &'a str,
}

impl<'a> JsonPlace<'a> {
    fn of(at: Loc, label: &'a str, sources: &'a [Source]) -> Self {
        let src = sources.get(at.file.idx());
        let (line, column) = src.map(|s| line_col(&s.text, at.span.start)).unwrap_or((0, 0));
        JsonPlace { file: src.map(|s| s.name.as_str()).unwrap_or(""), line, column, start: at.span.start, end: at.span.end, label }
    }
}

/// Resolution diagnostics as a JSON array, every one of them.
pub fn json_value(diags: &[Diagnostic], sources: &[Source]) -> serde_json::Value {
    let items: Vec<JsonDiagnostic> = diags
        .iter()
        .map(|d| JsonDiagnostic {
            code: d.code,
            message: &d.message,
            place: JsonPlace::of(d.at, &d.label, sources),
            help: d.help.as_deref(),
            related: d.related.iter().map(|(at, label)| JsonPlace::of(*at, label, sources)).collect(),
        })
        .collect();
    serde_json::to_value(items).unwrap_or_else(|_| serde_json::Value::Array(Vec::new()))
}

/// Render resolution diagnostics as one JSON array.
pub fn json(diags: &[Diagnostic], sources: &[Source]) -> String {
    serde_json::to_string_pretty(&json_value(diags, sources)).unwrap_or_else(|_| "[]".into())
}

/// Render a run-time finding with the rulebook text it points at.
pub fn exec_error(e: &ExecError, sources: &[Source], style: Style) -> String {
    if style.format == ErrorFormat::Short {
        let src = e.at.and_then(|at| sources.get(at.file.idx())).or(sources.first());
        let rule = e.rule.as_ref().map(|r| format!(" (while running `{r}`)")).unwrap_or_default();
        return short(src, e.at, e.kind.code(), &format!("{}{rule}", e.message)) + "\n";
    }
    let h = handler(style);
    let mut md = MietteDiagnostic::new(e.message.clone()).with_code(e.kind.code()).with_severity(Severity::Error);
    if let Some(rule) = &e.rule {
        md = md.with_help(format!("while running `{rule}`"));
    }
    let src = e.at.and_then(|Loc { file, span }| {
        md = md.clone().with_label(LabeledSpan::at(span, "here"));
        sources.get(file.idx())
    });
    report(&h, md, src, style)
}

/// A run-time error as JSON: `code`, `message`, `rule` (the procedure
/// running, or null) and its place (`file`, `line`, `column`, `start`,
/// `end`; null when the error has none).
pub fn exec_error_json(e: &ExecError, sources: &[Source]) -> serde_json::Value {
    stop_json(e.kind.code(), &e.message, e.rule.as_deref(), e.at, sources)
}

/// What stopped a game, as JSON: `code`, `message`, `rule` (or null) and
/// the place in the rulebook (`file`, `line`, `column`, `start`, `end`;
/// null where there is none): a run-time error, or a broken invariant.
pub fn stop_json(code: &str, message: &str, rule: Option<&str>, at: Option<Loc>, sources: &[Source]) -> serde_json::Value {
    let place = at.and_then(|at| sources.get(at.file.idx()).map(|s| (s, at)));
    let (file, line, column, start, end) = match place {
        Some((s, at)) => {
            let (line, column) = line_col(&s.text, at.span.start);
            (Some(s.name.as_str()), Some(line), Some(column), Some(at.span.start), Some(at.span.end))
        }
        None => (None, None, None, None, None),
    };
    serde_json::json!({
        "code": code, "message": message, "rule": rule,
        "file": file, "line": line, "column": column, "start": start, "end": end,
    })
}

/// Render a validator finding with the rulebook text it points at.
pub fn finding(f: &grimoire_interpreter::validate::Finding, sources: &[Source], style: Style) -> String {
    use grimoire_interpreter::validate::Severity as S;
    let severity = if f.severity == S::Error { Severity::Error } else { Severity::Warning };
    let mut title = f.message.clone();
    if let Some(p) = f.players {
        title.push_str(&format!(" ({}", crate::ui::plural(u64::from(p), "player")));
        if !f.options.is_empty() {
            title.push_str(&format!(", options {}", f.options.join(", ")));
        }
        if let Some(s) = f.seed {
            title.push_str(&format!(", seed {s}"));
        }
        title.push(')');
    }
    if style.format == ErrorFormat::Short {
        let src = f.at.and_then(|at| sources.get(at.file.idx())).or(sources.first());
        return short(src, f.at, &f.code, &title) + "\n";
    }
    let h = handler(style);
    let mut md = MietteDiagnostic::new(title).with_code(f.code.clone()).with_severity(severity);
    let mut help = f.help.clone();
    let mut src = None;
    if let Some(Loc { file, span }) = f.at {
        let mut labels = vec![LabeledSpan::at(span, "here")];
        for (loc, label) in &f.related {
            if shown_together(sources, Loc { file, span }, *loc) {
                labels.push(LabeledSpan::at(loc.span, label.clone()));
            } else {
                // Another file than the one shown, or far from it: named
                // with its place.
                help = Some(with_note(help, &format!("{label}: {}", place_in(sources, *loc))));
            }
        }
        md = md.with_labels(labels);
        src = sources.get(file.idx());
    }
    if let Some(help) = help {
        md = md.with_help(help);
    }
    report(&h, md, src, style)
}

/// Most lines between two places of one excerpt: farther apart, the
/// second is named by its place in the help. One excerpt shows every line
/// between its places, and a name declared twice 60 lines apart printed
/// 73 lines (an outside tester's).
const MAX_LINES_BETWEEN: usize = 8;

/// Whether `other` is shown in the excerpt of `at`: the same file, and
/// close enough.
fn shown_together(sources: &[Source], at: Loc, other: Loc) -> bool {
    let Some(s) = sources.get(at.file.idx()).filter(|_| other.file == at.file) else { return false };
    let line = |offset: usize| line_col(&s.text, offset).0;
    let (first, second) = if at.span.start <= other.span.start { (at, other) } else { (other, at) };
    line(second.span.start).saturating_sub(line(first.span.end)) <= MAX_LINES_BETWEEN
}

/// `file:line:col` of a place in one of `sources` (`?` for a file that
/// is not one of them).
pub fn place_in(sources: &[Source], loc: Loc) -> String {
    match sources.get(loc.file.idx()) {
        Some(s) => {
            let (line, col) = line_col(&s.text, loc.span.start);
            format!("{}:{line}:{col}", s.name)
        }
        None => "?".to_string(),
    }
}

/// A help with one more line.
fn with_note(help: Option<String>, note: &str) -> String {
    match help {
        Some(h) => format!("{h}\n{note}"),
        None => note.to_string(),
    }
}

/// A message or help with the characters a terminal would obey (see
/// [`printable`]) written as `?`; line ends and tabs are kept.
pub fn printable_words(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(grimoire_grammar::is_forbidden_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars().map(|c| if grimoire_grammar::is_forbidden_char(c) { '?' } else { c }).collect::<String>().into()
}

/// `text` with the characters a terminal would obey (control characters,
/// bidirectional overrides: the parser refuses them, E0001, and the snippet
/// shows where) replaced by as many bytes of `?`, or by U+FFFD for three:
/// the labels' byte offsets still point at the same places.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(grimoire_grammar::is_forbidden_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match (grimoire_grammar::is_forbidden_char(c), c.len_utf8()) {
            (false, _) => out.push(c),
            (true, 3) => out.push('\u{fffd}'),
            (true, n) => out.extend(std::iter::repeat_n('?', n)),
        }
    }
    std::borrow::Cow::Owned(out)
}
