//! Diagnostics and run-time findings as text for people (miette) or JSON.

use grimoire_interpreter::engine::ExecError;
use grimoire_interpreter::model::Loc;
use grimoire_interpreter::{Diagnostic, Source};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, NamedSource, Severity};
use serde::Serialize;

/// How to print diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ErrorFormat {
    /// Boxes, arrows and colours when the terminal has them.
    Human,
    /// Human, without colours or unicode art (for logs and tests).
    Plain,
    /// One JSON document.
    Json,
}

fn handler(format: ErrorFormat) -> GraphicalReportHandler {
    let theme = if format == ErrorFormat::Plain || std::env::var_os("NO_COLOR").is_some() {
        GraphicalTheme::unicode_nocolor()
    } else {
        GraphicalTheme::unicode()
    };
    GraphicalReportHandler::new_themed(theme).with_width(100)
}

fn report(handler: &GraphicalReportHandler, d: MietteDiagnostic, src: Option<&Source>) -> String {
    let mut out = String::new();
    let result = match src {
        Some(s) => {
            let report = miette::Report::new(d).with_source_code(NamedSource::new(&s.name, s.text.clone()));
            handler.render_report(&mut out, report.as_ref())
        }
        None => handler.render_report(&mut out, &d),
    };
    if result.is_err() {
        out.push_str("(the diagnostic could not be rendered)\n");
    }
    out
}

/// Render resolution diagnostics for people.
pub fn human(diags: &[Diagnostic], sources: &[Source], format: ErrorFormat) -> String {
    let h = handler(format);
    let mut out = String::new();
    for d in diags {
        let src = sources.get(d.at.file.idx());
        let mut labels = vec![LabeledSpan::at(d.at.span, d.label.clone())];
        let mut help = d.help.clone();
        for (loc, label) in &d.related {
            if loc.file == d.at.file {
                labels.push(LabeledSpan::at(loc.span, label.clone()));
            } else {
                let other = sources.get(loc.file.idx()).map(|s| s.name.as_str()).unwrap_or("?");
                let note = format!("{label}: in `{other}`");
                help = Some(match help {
                    Some(h) => format!("{h}\n{note}"),
                    None => note,
                });
            }
        }
        let mut md = MietteDiagnostic::new(d.message.clone()).with_code(d.code).with_severity(Severity::Error).with_labels(labels);
        if let Some(h) = help {
            md = md.with_help(h);
        }
        out.push_str(&report(&h, md, src));
    }
    out
}

/// A diagnostic as JSON.
#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: &'a str,
    message: &'a str,
    file: &'a str,
    line: usize,
    column: usize,
    start: usize,
    end: usize,
    label: &'a str,
    help: Option<&'a str>,
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map(|l| l.chars().count()).unwrap_or(0) + 1;
    (line, col)
}

/// Render resolution diagnostics as one JSON array.
pub fn json(diags: &[Diagnostic], sources: &[Source]) -> String {
    let items: Vec<JsonDiagnostic> = diags
        .iter()
        .map(|d| {
            let src = sources.get(d.at.file.idx());
            let (line, column) = src.map(|s| line_col(&s.text, d.at.span.start)).unwrap_or((0, 0));
            JsonDiagnostic {
                code: d.code,
                message: &d.message,
                file: src.map(|s| s.name.as_str()).unwrap_or(""),
                line,
                column,
                start: d.at.span.start,
                end: d.at.span.end,
                label: &d.label,
                help: d.help.as_deref(),
            }
        })
        .collect();
    serde_json::to_string_pretty(&items).unwrap_or_else(|_| "[]".into())
}

/// Render a run-time finding with the rulebook text it points at.
pub fn exec_error(e: &ExecError, sources: &[Source], format: ErrorFormat) -> String {
    let h = handler(format);
    let mut md = MietteDiagnostic::new(e.message.clone()).with_code(e.kind.code()).with_severity(Severity::Error);
    if let Some(rule) = &e.rule {
        md = md.with_help(format!("while running `{rule}`"));
    }
    let src = e.at.and_then(|Loc { file, span }| {
        md = md.clone().with_label(LabeledSpan::at(span, "here"));
        sources.get(file.idx())
    });
    report(&h, md, src)
}

/// Render a validator finding with the rulebook text it points at.
pub fn finding(f: &grimoire_interpreter::validate::Finding, sources: &[Source], format: ErrorFormat) -> String {
    use grimoire_interpreter::validate::Severity as S;
    let h = handler(format);
    let severity = if f.severity == S::Error { Severity::Error } else { Severity::Warning };
    let mut title = f.message.clone();
    if let Some(p) = f.players {
        title.push_str(&format!(" ({p} players"));
        if !f.options.is_empty() {
            title.push_str(&format!(", options {}", f.options.join(", ")));
        }
        if let Some(s) = f.seed {
            title.push_str(&format!(", seed {s}"));
        }
        title.push(')');
    }
    let mut md = MietteDiagnostic::new(title).with_code(f.code.clone()).with_severity(severity);
    if let Some(help) = &f.help {
        md = md.with_help(help.clone());
    }
    let mut src = None;
    if let Some(Loc { file, span }) = f.at {
        let mut labels = vec![LabeledSpan::at(span, "here")];
        for (loc, label) in &f.related {
            if loc.file == file {
                labels.push(LabeledSpan::at(loc.span, label.clone()));
            }
        }
        md = md.with_labels(labels);
        src = sources.get(file.idx());
    }
    report(&h, md, src)
}
