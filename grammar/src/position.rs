//! Where a byte offset of a text is, as people count: line and column.
//! Shared by the parser's hints and the CLI's diagnostics.

/// Line and column of a byte offset of `text`, from 1 (the column in
/// characters); an offset inside a character counts as its start.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = text.get(..offset).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map(|l| l.chars().count()).unwrap_or(0) + 1;
    // A byte order mark is no column: editors do not show it.
    let bom = usize::from(line == 1 && before.starts_with('\u{feff}'));
    (line, col - bom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_count_from_one_in_characters() {
        assert_eq!(line_col("ab\ncdé f", 0), (1, 1));
        assert_eq!(line_col("ab\ncdé f", 3), (2, 1));
        assert_eq!(line_col("ab\ncdé f", 8), (2, 5));
        assert_eq!(line_col("ab\ncdé f", 6), (2, 3), "inside a character: its start");
        assert_eq!(line_col("\u{feff}ab\ncd", 4), (1, 2), "a byte order mark is no column");
        assert_eq!(line_col("\u{feff}ab\ncd", 7), (2, 2));
    }
}
