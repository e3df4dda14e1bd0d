//! How a quote and a source text are compared: both are normalised for
//! what PDF and Word extraction change without changing the words (see
//! the trace check, `trace.rs`), and cut into words the same way.

use unicode_normalization::UnicodeNormalization;

/// Text normalised for comparison, with the source line of every byte and
/// where its words are.
pub(super) struct Normalised {
    /// The text as compared.
    pub(super) text: String,
    /// The source line of each byte of `text`.
    pub(super) line_of: Vec<u32>,
    /// Byte ranges in `text` of its words, in order.
    pub(super) words: Vec<(usize, usize)>,
}

fn fold(c: char) -> Option<char> {
    Some(match c {
        '’' | '‘' | '‚' | '‛' | 'ʼ' | '′' | '`' | '´' | '＇' => '\'',
        '“' | '”' | '„' | '‟' | '«' | '»' | '‹' | '›' | '＂' | '「' | '」' | '『' | '』' => '"',
        // Emphasis, and the soft hyphen a word processor hides in a word.
        '*' | '\u{AD}' => return None,
        // What shows as nothing: zero-width spaces and joiners, the byte
        // order mark, and the marks that set the direction of the text
        // (copied from a web page or a PDF, they sit inside words).
        '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{061C}' | '\u{FEFF}' => return None,
        c if c.is_whitespace() => ' ',
        c => c,
    })
}

/// Where the next line starts when only spaces, tabs and a line break
/// (LF or CR LF) follow place `i`: a hyphen there ends its line.
fn line_end_after(chars: &[char], mut i: usize) -> Option<usize> {
    while matches!(chars.get(i), Some(' ' | '\t')) {
        i += 1;
    }
    if chars.get(i) == Some(&'\r') {
        i += 1;
    }
    (chars.get(i) == Some(&'\n')).then_some(i + 1)
}

/// Letters typeset as one character, written out (« cœur » is « coeur »).
fn ligature(c: char) -> Option<&'static str> {
    Some(match c {
        'œ' => "oe",
        'Œ' => "oe",
        'æ' => "ae",
        'Æ' => "ae",
        'ﬀ' => "ff",
        'ﬁ' => "fi",
        'ﬂ' => "fl",
        'ﬃ' => "ffi",
        'ﬄ' => "ffl",
        _ => return None,
    })
}

pub(super) fn normalise(text: &str) -> Normalised {
    let mut out = String::with_capacity(text.len());
    let mut line_of = Vec::with_capacity(text.len());
    let mut line = 1u32;
    // Composed first (NFC), so that a letter and its combining accent are one
    // character whichever way the file stores them; a line break is never
    // composed with anything, so the line count is unchanged.
    let chars: Vec<char> = text.nfc().collect();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        i += 1;
        if c == '-' {
            if let Some(after) = line_end_after(&chars, i) {
                // A word cut at the end of a PDF line: join its halves. A
                // number cut there (« 3- » then « 5 ») keeps its hyphen: it
                // is a range, and « 35 » is another number.
                let digits = chars.get(i.wrapping_sub(2)).is_some_and(char::is_ascii_digit) && chars.get(after).is_some_and(char::is_ascii_digit);
                if digits {
                    out.push('-');
                    line_of.push(line);
                }
                i = after;
                line += 1;
                continue;
            }
        }
        let here = line;
        if c == '\n' {
            line += 1;
        }
        if let Some(letters) = ligature(c) {
            for l in letters.chars() {
                out.push(l);
                line_of.push(here);
            }
            continue;
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
    let words = words_of(&out);
    Normalised { text: out, line_of, words }
}

/// The words of normalised text: what lies between two spaces or
/// quotation marks, from its first letter or digit to its last (« (x4) » is
/// the word « x4 », « l'épée » and « 1/2 » are one word each); what has no
/// letter or digit (« — », « : ») is no word. Normalising drops the spaces
/// on both sides of a quotation mark (extraction keeps or drops them at
/// random), so a quotation mark must part words too: `quatre « cinq » six`
/// is `quatre"cinq"six`, three words.
pub(super) fn words_of(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for token in text.split([' ', '"']) {
        let first = token.char_indices().find(|(_, c)| c.is_alphanumeric());
        let last = token.char_indices().rev().find(|(_, c)| c.is_alphanumeric());
        if let (Some((a, _)), Some((b, c))) = (first, last) {
            out.push((offset + a, offset + b + c.len_utf8()));
        }
        offset += token.len() + 1;
    }
    out
}

/// A character that joins the letters or digits on its two sides into one
/// word: « l'épée », « 1/2 » (normalising has made every apostrophe `'`).
fn joins_a_word(c: char) -> bool {
    matches!(c, '\'' | '/')
}

/// Whether `text[start..end]` (normalised text) begins and ends at the
/// edges of words: when its own first (or last) character is a letter or
/// digit, no letter or digit runs on into it from that side, directly or
/// across an apostrophe or a slash (« l'épée » and « 1/2 » are one word
/// each, as [`words_of`] counts them): « entre » in « n'entre » and
/// « épée » in « l'épée » cut a word (the elided negation or article is
/// dropped). Other punctuation parts words: « Le » after « normalement. »
/// glued to it by the extraction starts a word.
pub(super) fn whole_words(text: &str, start: usize, end: usize) -> bool {
    let inner = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let joins = |c: Option<char>| c.is_some_and(joins_a_word);
    let (first, last) = (text.get(start..).and_then(|t| t.chars().next()), text.get(..end).and_then(|t| t.chars().next_back()));
    let mut before = text.get(..start).map(|t| t.chars().rev()).into_iter().flatten();
    let mut after = text.get(end..).map(|t| t.chars()).into_iter().flatten();
    let (b1, a1) = (before.next(), after.next());
    let runs_in = |next: Option<char>, then: Option<char>| inner(next) || (joins(next) && inner(then));
    let cuts_at_start = inner(first) && runs_in(b1, before.next());
    let cuts_at_end = inner(last) && runs_in(a1, after.next());
    !(cuts_at_start || cuts_at_end)
}

/// The words of normalised text around `text[start..end]`, extended to
/// the edges of the words it cuts (what a quote found inside words is
/// part of).
pub(super) fn around(text: &str, start: usize, end: usize) -> String {
    // Letters and digits, and an apostrophe or a slash between two of them
    // (« n'entre », « 1/2 »), as `whole_words` reads a word.
    let reach = |chars: &mut dyn Iterator<Item = char>| {
        let mut chars = chars.peekable();
        let mut bytes = 0;
        while let Some(c) = chars.next() {
            let joined = joins_a_word(c) && chars.peek().is_some_and(|n| n.is_alphanumeric());
            if !c.is_alphanumeric() && !joined {
                break;
            }
            bytes += c.len_utf8();
        }
        bytes
    };
    let from = text.get(..start).map_or(start, |t| start - reach(&mut t.chars().rev()));
    let to = text.get(end..).map_or(end, |t| end + reach(&mut t.chars()));
    text.get(from..to).unwrap_or_default().to_string()
}

/// A quote as the check looks it up: normalised, without the spaces
/// around it.
pub(super) fn normalise_quote(q: &str) -> String {
    normalise(q).text.trim().to_string()
}

/// Whether `quote` is in `text` once both are normalised as the check
/// compares them (for the side-by-side page).
pub fn quote_in(text: &str, quote: &str) -> bool {
    let q = normalise_quote(quote);
    !q.is_empty() && normalise(text).text.contains(&q)
}

/// The number of words in `text`, counted as the coverage check counts them.
pub fn word_count(text: &str) -> usize {
    normalise(text).words.len()
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
    fn a_hyphen_that_ends_a_line_joins_a_word_and_keeps_a_range() {
        // LF, CR LF, spaces before the break: the halves of a word join.
        for text in ["Il pose son mar-\nteau.", "Il pose son mar-\r\nteau.", "Il pose son mar-  \nteau."] {
            let n = normalise(text);
            assert!(n.text.contains(&normalise_quote("son marteau")), "{text:?}: {}", n.text);
            assert_eq!(n.line_of.len(), n.text.len());
        }
        // A number range cut there keeps its hyphen: « 35 » is not in it.
        let n = normalise("de 3-\n5 joueurs");
        assert!(n.text.contains(&normalise_quote("de 3-5 joueurs")), "{}", n.text);
        assert!(!n.text.contains(&normalise_quote("de 35 joueurs")));
        assert_eq!(n.line_of.len(), n.text.len());
    }

    #[test]
    fn ligatures_and_soft_hyphens_are_the_letters_they_stand_for() {
        let n = normalise("le cœur du jeu, la ﬁn de l\u{2019}é\u{AD}pée");
        for quote in ["le coeur du jeu", "le cœur", "la fin", "l'épée"] {
            assert!(n.text.contains(&normalise_quote(quote)), "{quote}: {}", n.text);
        }
        assert_eq!(n.line_of.len(), n.text.len());
    }

    /// What shows as nothing (zero-width spaces, direction marks, copied
    /// from a web page) is left out, and the rarer apostrophes and
    /// quotation marks are the usual ones: a quote that looks right is found.
    #[test]
    fn invisible_characters_go_and_every_apostrophe_is_one() {
        let n = normalise("Le joueur \u{202E}avance\u{202C} son pi\u{200B}on; il n\u{FF07}a 「rien」 dit\u{FEFF}.");
        for quote in ["le joueur avance son pion", "il n'a \"rien\" dit", "n’a « rien »"] {
            assert!(n.text.contains(&normalise_quote(quote)), "{quote}: {}", n.text);
        }
        assert_eq!(n.line_of.len(), n.text.len());
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
    fn words_run_from_a_letter_or_digit_to_the_last() {
        let n = normalise("Lutin farceur (x4) : — l’épée, 1/2");
        let words: Vec<&str> = n.words.iter().filter_map(|(a, b)| n.text.get(*a..*b)).collect();
        assert_eq!(words, vec!["lutin", "farceur", "x4", "l'épée", "1/2"]);
        assert_eq!(word_count("e"), 1);
        assert_eq!(word_count(" : — "), 0);
    }

    #[test]
    fn quotation_marks_part_words_as_spaces_do() {
        for text in ["quatre « cinq » six", "quatre \"cinq\" six", "quatre “cinq” six", "quatre «cinq»six"] {
            let n = normalise(text);
            let words: Vec<&str> = n.words.iter().filter_map(|(a, b)| n.text.get(*a..*b)).collect();
            assert_eq!(words, vec!["quatre", "cinq", "six"], "{text}");
        }
    }
}
