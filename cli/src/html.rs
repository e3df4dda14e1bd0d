//! The translator's page: the source text and the rulebook side by side,
//! paragraph by paragraph, with the assumptions, discrepancies and
//! narrative rules listed.

use grimoire_interpreter::model::{Citation, Model, RecordKind};
use grimoire_interpreter::validate::trace::{self, Paragraph};
use grimoire_interpreter::validate::{Report, Severity};
use grimoire_interpreter::Source;
use std::fmt::Write;

/// Text for the page: HTML's special characters escaped, and the
/// characters a terminal would obey (control characters, bidirectional
/// overrides, which a source text may hold) shown as `?`, as on a terminal.
fn esc(s: &str) -> String {
    crate::render::printable_words(s).replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Text with its `quoted names` shown as code, as a terminal shows them.
fn with_code_spans(text: &str) -> String {
    esc(text).split('`').enumerate().map(|(i, part)| if i % 2 == 1 { format!("<code>{part}</code>") } else { part.to_string() }).collect()
}

/// A source's name as the start of a row's id: an id holds no space, and a
/// link's `#` starts its fragment, so both (and what HTML would need
/// escaped) are written `_`.
fn anchor_name(source: &str) -> String {
    let plain = |c: char| !(c.is_whitespace() || grimoire_grammar::is_forbidden_char(c) || matches!(c, '#' | '"' | '\'' | '<' | '>' | '&' | '%' | '?'));
    source.chars().map(|c| if plain(c) { c } else { '_' }).collect()
}

/// Where a finding points in the rulebook, and the text there (a misquote
/// is found by its words): `<br>` then the place, or nothing.
fn place_of(at: Option<grimoire_interpreter::model::Loc>, sources: &[Source]) -> String {
    let Some(at) = at else { return String::new() };
    let Some(s) = sources.get(at.file.idx()) else { return String::new() };
    let end = s.text.char_indices().map(|(i, _)| i).find(|i| *i >= at.span.end.min(at.span.start + 300)).unwrap_or(s.text.len());
    let text = s.text.get(at.span.start..end).unwrap_or("");
    format!("<br><small>{}</small> <q>{}</q>", esc(&crate::render::place_in(sources, at)), esc(text))
}

/// The line of the rulebook a record starts on (the whole line: a block's
/// record starts at its `cite`, after the `if` it belongs to), and the
/// citations of it that fall in this paragraph of the source `source`,
/// but for those written on that line.
fn excerpt(model: &Model, sources: &[Source], record: usize, source: &str, paragraph: &Paragraph) -> String {
    let Some(r) = model.records.get(record) else { return String::new() };
    let text = sources.get(r.at.file.idx()).map_or("", |src| src.text.as_str());
    let line_start = text.get(..r.at.span.start).and_then(|t| t.rfind('\n')).map_or(0, |i| i + 1);
    let line_end = text.get(line_start..).and_then(|t| t.find('\n')).map_or(text.len(), |i| line_start + i);
    let head = text.get(line_start..line_end).unwrap_or("").trim().trim_end_matches('{').trim_end();
    let on_head = |at: &grimoire_interpreter::model::Loc| at.file == r.at.file && line_start <= at.span.start && at.span.end <= line_end;
    let quotes: Vec<String> = r
        .cites
        .iter()
        .filter_map(|c| match c {
            // Shown with the line it is written on.
            Citation::Quote { at, .. } | Citation::Lines { at, .. } if on_head(at) => None,
            // A citation of another source file never belongs here, whatever its lines.
            Citation::Quote { source: s, .. } | Citation::Lines { source: s, .. } if s != source => None,
            // Every quote the check found reaching this paragraph, one that
            // runs on into the next paragraph included.
            Citation::Quote { quote, at, .. } if paragraph.quoted_at.contains(at) => Some(format!("  cite \"{quote}\"")),
            Citation::Lines { from, to, .. } if *from <= u64::from(paragraph.last_line) && u64::from(paragraph.first_line) <= *to => Some(format!("  cite lines {from}..{to}")),
            Citation::Lines { .. } | Citation::Quote { .. } => None,
        })
        .collect();
    if quotes.is_empty() {
        head.to_string()
    } else {
        format!("{head}\n{}", quotes.join("\n"))
    }
}

/// Render the page.
pub fn side_by_side(report: &Report, model: &Model, sources: &[Source]) -> String {
    let mut h = String::new();
    let title = model.title.clone().unwrap_or_else(|| model.name.clone());
    let _ = write!(
        h,
        "<!doctype html><html lang=\"fr\"><head><meta charset=\"utf-8\"><title>{t} — source and rulebook</title><style>\
body{{font-family:system-ui,sans-serif;margin:2em;max-width:110em}}table{{border-collapse:collapse;width:100%}}\
td{{vertical-align:top;border-top:1px solid #ddd;padding:.4em}}td.src{{width:45%;white-space:pre-wrap}}\
tr.uncited td.src{{background:#fee}}tr.short td.src{{background:#ffd}}.short-q{{color:#777;font-size:.85em}}pre{{margin:.2em 0;background:#f6f6f6;padding:.3em;white-space:pre-wrap}}\
.k{{font-size:.75em;padding:.1em .4em;border-radius:.3em;color:#fff}}.Encoded{{background:#357}}.Assumption{{background:#a60}}\
.Discrepancy{{background:#a03}}.Narrative{{background:#666}}.ln{{color:#999;font-size:.8em}}</style></head><body>\
<h1>{t}</h1><p>{e} error(s), {w} warning(s). {c} citations, {nf} not found.</p>",
        t = esc(&title),
        e = report.errors(),
        w = report.findings.iter().filter(|f| f.severity == Severity::Warning).count(),
        c = report.trace.citations,
        nf = report.trace.not_found
    );
    for s in &report.trace.sources {
        let _ = write!(h, "<h2>{} — {} of {} paragraphs covered ({:.1} %)</h2>", esc(&s.source), s.covered, s.paragraphs, s.percent);
        // Links to the paragraphs a translator has to look at.
        for (what, list) in [("Not cited", &s.uncited), ("Only short quotes", &s.short_only)] {
            if !list.is_empty() {
                let links: Vec<String> = list.iter().map(|u| format!("<a href=\"#{0}-{1}\">{1}</a>", anchor_name(&s.source), u.line)).collect();
                let _ = write!(h, "<p>{what} (line): {}</p>", links.join(", "));
            }
        }
        h.push_str("<table>");
        for p in &s.side_by_side {
            let class = match (p.cited_by.is_empty(), p.short_by.is_empty()) {
                (true, true) => " class=\"uncited\"",
                (true, false) => " class=\"short\"",
                _ => "",
            };
            // Each row can be linked to: `#SOURCE-LINE`.
            let anchor = format!("{}-{}", anchor_name(&s.source), p.first_line);
            let _ = write!(h, "<tr{class} id=\"{anchor}\"><td class=\"src\"><a class=\"ln\" href=\"#{anchor}\">{}–{}</a>\n{}</td><td>", p.first_line, p.last_line, esc(&p.text));
            // A declaration that reaches the paragraph only by a short quote
            // (a name, a heading) says so: a reviewer must not take it for
            // the paragraph's encoding, which it is not counted as.
            let reaching = p.cited_by.iter().map(|r| (r, false)).chain(p.short_by.iter().map(|r| (r, true)));
            for (r, short) in reaching {
                let Some(rec) = model.records.get(*r) else { continue };
                let kind = match rec.kind {
                    RecordKind::Encoded => "Encoded",
                    RecordKind::Assumption => "Assumption",
                    RecordKind::Discrepancy => "Discrepancy",
                    RecordKind::Narrative => "Narrative",
                };
                let note = if short { format!(" <i class=\"short-q\">short quote (fewer than {} of the paragraph's words): not counted</i>", trace::MIN_WORDS) } else { String::new() };
                let _ = write!(h, "<div><span class=\"k {kind}\">{kind}</span> <b>{}</b>{note}<pre>{}</pre></div>", esc(&rec.name), esc(&excerpt(model, sources, *r, &s.source, p)));
            }
            if p.cited_by.is_empty() && p.short_by.is_empty() {
                h.push_str("<i>not cited by any rule, assumption, discrepancy or narrative</i>");
            } else if p.cited_by.is_empty() {
                let _ = write!(h, "<i>covered only by short quotes (fewer than {} of its words): not counted</i>", trace::MIN_WORDS);
            }
            h.push_str("</td></tr>");
        }
        h.push_str("</table>");
    }
    for (title, notes) in [("Assumptions", &report.assumptions), ("Discrepancies", &report.discrepancies), ("Narrative rules", &report.narratives)] {
        let _ = write!(h, "<h2>{title} ({})</h2><ul>", notes.len());
        for n in notes {
            let _ = write!(h, "<li><b>{}</b>: {}</li>", esc(&n.name), esc(&n.text));
        }
        h.push_str("</ul>");
    }
    h.push_str("<h2>Findings</h2><ul>");
    for f in &report.findings {
        // The help too: for a quote not found, it gives the nearest sentence.
        let help = f.help.as_deref().map(|t| format!("<br><small>help: {}</small>", with_code_spans(t))).unwrap_or_default();
        let _ = write!(h, "<li><code>{}</code> {}{}{help}</li>", esc(&f.code), with_code_spans(&f.message), place_of(f.at, sources));
    }
    h.push_str("</ul></body></html>\n");
    h
}
