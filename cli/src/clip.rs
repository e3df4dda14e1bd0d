//! Long source lines, cut around what a diagnostic points at. A rulebook
//! line can be 40,000 characters long (a generated file, a minified table):
//! a diagnostic shows a window of it around its labels, the cut marked with
//! an ellipsis at either end, instead of the whole line. The line numbers,
//! and the column in each snippet's header, stay those of the real file.

use miette::{LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// Lines longer than this many characters are cut.
pub const MAX_LINE: usize = 120;

/// Characters kept before the first label of a cut line.
const BEFORE: usize = 40;

/// What marks a cut.
pub const MARK: &str = "…";

/// What marks a cut in ASCII (`--error-format plain`).
pub const ASCII_MARK: &str = "...";

/// A file's text with its long lines cut, as miette reads it.
pub struct Clipped {
    name: String,
    text: String,
    cuts: Vec<Cut>,
}

/// One line that was cut.
struct Cut {
    /// Its number, from 0.
    line: usize,
    /// Characters of the real line left out before the window.
    removed: usize,
    /// Characters of the mark put before the window (0 when nothing was
    /// removed).
    mark: usize,
}

/// Where one line lies in the real text and in the clipped one.
struct Piece {
    /// The real line, its newline excluded: `start..end`.
    start: usize,
    end: usize,
    /// The window kept, in the real text.
    keep: (usize, usize),
    /// Where the line starts in the clipped text.
    new_start: usize,
    /// Bytes of the mark before the window.
    mark: usize,
}

impl Piece {
    /// A real offset of this line (or of its newline) in the clipped text.
    /// An offset before the window is taken to the window's start; one
    /// after it, past the closing mark, so that a label running beyond the
    /// window underlines the mark.
    fn map(&self, offset: usize, closing: usize) -> usize {
        let in_window = offset.clamp(self.keep.0, self.keep.1) - self.keep.0;
        let past = if offset > self.keep.1 && offset <= self.end { closing } else { 0 };
        let newline = offset.saturating_sub(self.end);
        self.new_start + self.mark + in_window + past + newline
    }
}

impl Clipped {
    /// `text` with every line longer than [`MAX_LINE`] characters cut
    /// around the labels on it (or kept from its start when none is), and
    /// the labels moved to the clipped text.
    pub fn new(name: &str, text: &str, labels: &[LabeledSpan], mark: &str) -> (Clipped, Vec<LabeledSpan>) {
        let mut out = String::with_capacity(text.len().min(1 << 16));
        let mut pieces: Vec<Piece> = Vec::new();
        let mut cuts = Vec::new();
        let mut start = 0;
        for (number, line) in text.split('\n').enumerate() {
            let end = start + line.len();
            let keep = if line.chars().nth(MAX_LINE).is_some() { window(line, start, labels) } else { (start, end) };
            let opening = if keep.0 > start { mark.len() } else { 0 };
            if keep != (start, end) {
                let removed = text.get(start..keep.0).map_or(0, |r| r.chars().count());
                cuts.push(Cut { line: number, removed, mark: if opening > 0 { mark.chars().count() } else { 0 } });
            }
            pieces.push(Piece { start, end, keep, new_start: out.len(), mark: opening });
            if opening > 0 {
                out.push_str(mark);
            }
            out.push_str(text.get(keep.0..keep.1).unwrap_or(""));
            if keep.1 < end {
                out.push_str(mark);
            }
            out.push('\n');
            start = end + 1;
        }
        // `split` gave one line more than the text ends with: no newline after the last.
        out.pop();
        let map = |offset: usize| -> usize {
            let i = pieces.partition_point(|p| p.end < offset).min(pieces.len().saturating_sub(1));
            match pieces.get(i) {
                Some(p) if offset >= p.start => p.map(offset, if p.keep.1 < p.end { mark.len() } else { 0 }),
                Some(p) => p.new_start,
                None => offset,
            }
        };
        let moved = labels
            .iter()
            .map(|l| {
                let from = map(l.offset());
                let to = map(l.offset() + l.len()).max(from);
                let label = l.label().map(str::to_string);
                if l.primary() {
                    LabeledSpan::new_primary_with_span(label, (from, to - from))
                } else {
                    LabeledSpan::new_with_span(label, (from, to - from))
                }
            })
            .collect();
        (Clipped { name: name.to_string(), text: out, cuts }, moved)
    }

    /// The clipped text (for tests).
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// The part of a long line (at `start` in the text) to keep: from a little
/// before its first label's start or end, [`MAX_LINE`] characters; from its
/// start when no label starts or ends on it.
fn window(line: &str, start: usize, labels: &[LabeledSpan]) -> (usize, usize) {
    let end = start + line.len();
    let first = labels.iter().flat_map(|l| [l.offset(), l.offset() + l.len()]).filter(|&o| o >= start && o <= end).min();
    // From `first`, back BEFORE characters, then MAX_LINE characters on.
    let from = match first {
        Some(o) => {
            let at = (o - start).min(line.len());
            let mut back = at;
            for (i, _) in line.char_indices().rev().filter(|(i, _)| *i <= at).take(BEFORE + 1) {
                back = i;
            }
            back
        }
        None => 0,
    };
    let to = line.get(from..).and_then(|rest| rest.char_indices().nth(MAX_LINE)).map_or(line.len(), |(i, _)| from + i);
    (start + from, start + to)
}

impl SourceCode for Clipped {
    fn read_span<'a>(&'a self, span: &SourceSpan, before: usize, after: usize) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let c = self.text.read_span(span, before, after)?;
        let mut column = c.column();
        // Without lines before, the column is the span's (the snippet's
        // header): that of the real line, in characters as `short` and the
        // JSON count it (miette counts bytes).
        if before == 0 {
            let at = span.offset().min(self.text.len());
            let line_start = self.text.get(..at).and_then(|t| t.rfind(['\n', '\r'])).map_or(0, |i| i + 1);
            column = self.text.get(line_start..at).map_or(column, |p| p.chars().count());
            if let Some(cut) = self.cuts.iter().find(|k| k.line == c.line()) {
                column = column.saturating_sub(cut.mark) + cut.removed;
            }
        }
        Ok(Box::new(MietteSpanContents::new_named(self.name.clone(), c.data(), *c.span(), c.line(), column, c.line_count())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lines_are_kept_as_they_are() {
        let text = "rulebook r { players 2..2 }\npiece p 1\n";
        let labels = [LabeledSpan::at(28..33, "here")];
        let (c, moved) = Clipped::new("r.rules", text, &labels, MARK);
        assert_eq!(c.text(), text);
        assert_eq!((moved[0].offset(), moved[0].len()), (28, 5));
    }

    #[test]
    fn a_long_line_is_cut_around_its_label_and_later_lines_follow() {
        let long = format!("let x = {}oops{}", "a".repeat(20_000), "b".repeat(20_000));
        let text = format!("first line\n{long}\nlast line\n");
        let oops = text.find("oops").unwrap_or(0);
        let last = text.find("last").unwrap_or(0);
        let labels = [LabeledSpan::at(oops..oops + 4, "here"), LabeledSpan::at(last..last + 4, "and here")];
        let (c, moved) = Clipped::new("r.rules", &text, &labels, MARK);
        let lines: Vec<&str> = c.text().lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[1].starts_with(MARK) && lines[1].ends_with(MARK), "{}", lines[1]);
        assert_eq!(lines[1].chars().count(), MAX_LINE + 2, "the window and its two marks");
        assert_eq!(&c.text()[moved[0].offset()..moved[0].offset() + moved[0].len()], "oops");
        assert_eq!(&c.text()[moved[1].offset()..moved[1].offset() + moved[1].len()], "last");
        assert_eq!(lines[1].find("oops"), Some(MARK.len() + BEFORE), "{BEFORE} characters before the label");
        // The header's column is the real one (in characters, from 0).
        let header = c.read_span(moved[0].inner(), 0, 0).map(|s| (s.line(), s.column())).ok();
        assert_eq!(header, Some((1, oops - "first line\n".len())));
    }

    #[test]
    fn the_header_column_counts_characters_on_cut_lines_and_others() {
        let short = "titre « été » oops";
        let long = format!("{} oops", "é".repeat(1_000));
        for (line, mark) in [(short.to_string(), MARK), (long.clone(), MARK), (long, ASCII_MARK)] {
            let text = format!("first\n{line}\n");
            let oops = text.find("oops").unwrap_or(0);
            let labels = [LabeledSpan::at(oops..oops + 4, "here")];
            let (c, moved) = Clipped::new("r.rules", &text, &labels, mark);
            let column = c.read_span(moved[0].inner(), 0, 0).map(|s| s.column()).ok();
            assert_eq!(column, Some(line.chars().count() - 4), "{mark}: {}", c.text());
        }
    }

    #[test]
    fn a_label_longer_than_the_window_underlines_the_cut() {
        let text = format!("x {}", "é".repeat(500));
        let labels = [LabeledSpan::at(2..text.len(), "all of it")];
        let (c, moved) = Clipped::new("r.rules", &text, &labels, MARK);
        assert!(c.text().ends_with(MARK) && !c.text().starts_with(MARK), "{}", c.text());
        assert_eq!(moved[0].offset() + moved[0].len(), c.text().len(), "to the end of the closing mark");
        assert!(c.text().is_char_boundary(moved[0].offset()));
    }

    #[test]
    fn a_long_line_without_a_label_keeps_its_start() {
        let text = format!("{}\nshort", "c".repeat(1_000));
        let labels = [LabeledSpan::at(1_001..1_006, "here")];
        let (c, moved) = Clipped::new("r.rules", &text, &labels, MARK);
        assert_eq!(c.text(), format!("{}{MARK}\nshort", "c".repeat(MAX_LINE)));
        assert_eq!(&c.text()[moved[0].offset()..moved[0].offset() + moved[0].len()], "short");
    }
}
