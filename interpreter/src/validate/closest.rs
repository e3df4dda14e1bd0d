//! The sentence of a source text nearest to a quote that is not in it:
//! what T001's help shows, so that a quote with a slip (a word changed,
//! one left out, two swapped) leads back to the sentence it meant.

use super::normalise::{normalise_quote, words_of};
use std::collections::HashMap;

/// Words of normalised text, cut as the coverage check cuts them (at
/// spaces and quotation marks, without the punctuation around them).
fn words(normalised: &str) -> Vec<String> {
    words_of(normalised).into_iter().filter_map(|(a, b)| normalised.get(a..b)).map(str::to_string).collect()
}

/// How many words the two lists share in the same order (their longest
/// common subsequence).
fn in_order(a: &[String], b: &[String]) -> usize {
    // One row of the table at a time: `row[j]` for the first `j` words of `b`.
    let mut row = vec![0usize; b.len() + 1];
    for x in a {
        let (mut diagonal, mut left) = (0, 0);
        for (y, cell) in b.iter().zip(row.iter_mut().skip(1)) {
            let above = *cell;
            *cell = if x == y { diagonal + 1 } else { above.max(left) };
            left = *cell;
            diagonal = above;
        }
    }
    row.last().copied().unwrap_or(0)
}

/// The sentences of a source text: where each starts (line), as written
/// (spacing collapsed), and its words.
pub(super) struct Sentences(Vec<(u32, String, Vec<String>)>);

/// Share of the words of the quote and the sentence together that the two
/// have in common, in order, for a sentence to be offered.
const NEAR: f64 = 0.6;
/// Longest sentence shown, in characters.
const SHOWN: usize = 200;
/// Longest quote, in words, whose nearest sentence is looked for: the help
/// is for a sentence with a slip, and comparing in order costs the quote's
/// words times the sentence's (a misquote of 75,000 words against a source
/// of a megabyte took minutes).
pub(super) const MOST_WORDS: usize = 1_000;

/// Share of a quote's words that a longer sentence must hold in order for
/// the quote to be read as a fragment of it with a slip (« Chaque joueur
/// possède deux pions de sa couleur » cut from a sentence of twenty words
/// that says « un pion »), for a quote of [`FRAGMENT_WORDS`] words or more.
const FRAGMENT: f64 = 0.75;
/// Fewest words of a quote read as a fragment.
const FRAGMENT_WORDS: usize = 4;

/// How near a sentence of `s` words, sharing `common` of them in order with
/// a quote of `q` words, is: the share of the words of the two together
/// they have in common, or, for a quote of [`FRAGMENT_WORDS`] or more, the
/// share of the quote's words the sentence holds, when that is
/// [`FRAGMENT`] or more. `None` when neither makes it near enough.
fn nearness(common: usize, q: usize, s: usize) -> Option<f64> {
    let together = 2.0 * common as f64 / (q + s) as f64;
    let of_quote = common as f64 / q.max(1) as f64;
    let together = (together >= NEAR).then_some(together);
    let fragment = (q >= FRAGMENT_WORDS && of_quote >= FRAGMENT).then_some(of_quote);
    match (together, fragment) {
        (Some(t), Some(f)) => Some(t.max(f)),
        (t, f) => t.or(f),
    }
}

/// How often each word is in a list.
fn bag(words: &[String]) -> HashMap<&str, usize> {
    let mut bag = HashMap::new();
    for w in words {
        *bag.entry(w.as_str()).or_default() += 1;
    }
    bag
}

/// How many words a sentence shares with a quote (its [`bag`], counted
/// once for all the sentences), in any order, each word as often as both
/// have it: at least the words they share in order, and cheap to count,
/// so a sentence too far by this count is never compared in order.
fn in_any_order(quote: &HashMap<&str, usize>, sentence: &[String]) -> usize {
    let mut taken: HashMap<&str, usize> = HashMap::new();
    sentence
        .iter()
        .filter(|w| {
            let there = quote.get(w.as_str()).copied().unwrap_or(0);
            let n = taken.entry(w.as_str()).or_default();
            *n += 1;
            *n <= there
        })
        .count()
}

impl Sentences {
    /// Cut `text` after each `.`, `!`, `?` and `;`, and at blank lines.
    pub(super) fn of(text: &str) -> Sentences {
        let mut out = Vec::new();
        let (mut current, mut start, mut line) = (String::new(), 1u32, 1u32);
        let mut end = |current: &mut String, start: u32| {
            let written = current.split_whitespace().collect::<Vec<_>>().join(" ");
            let w = words(&normalise_quote(&written));
            if !w.is_empty() {
                out.push((start, written, w));
            }
            current.clear();
        };
        for l in text.lines() {
            if l.trim().is_empty() {
                end(&mut current, start);
            } else {
                for c in l.chars() {
                    if current.trim().is_empty() {
                        start = line;
                    }
                    current.push(c);
                    if matches!(c, '.' | '!' | '?' | ';') {
                        end(&mut current, start);
                    }
                }
                current.push(' ');
            }
            line += 1;
        }
        end(&mut current, start);
        Sentences(out)
    }

    /// The sentence that shares the most words with `quote` (normalised),
    /// in order, when they share most of their words: its line and text.
    /// None for a quote of more than [`MOST_WORDS`] words. Only the
    /// sentences that could be near enough (by their length, then by the
    /// words they share in any order, each a bound of the words shared in
    /// order) are compared in order.
    pub(super) fn nearest(&self, quote: &str) -> Option<(u32, String)> {
        let q = words(quote);
        if q.is_empty() || q.len() > MOST_WORDS {
            return None;
        }
        let quote_bag = bag(&q);
        let could_be = |w: &[String]| nearness(q.len().min(w.len()), q.len(), w.len()).is_some() && nearness(in_any_order(&quote_bag, w), q.len(), w.len()).is_some();
        let (line, text, _) = self
            .0
            .iter()
            .filter(|(_, _, w)| could_be(w))
            .filter_map(|(l, t, w)| nearness(in_order(&q, w), q.len(), w.len()).map(|n| (l, t, n)))
            .max_by(|a, b| a.2.total_cmp(&b.2))?;
        let shown: String = text.chars().take(SHOWN).collect();
        let cut = if shown.len() < text.len() { "…" } else { "" };
        Some((*line, format!("{shown}{cut}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quote_with_a_slip_finds_its_sentence_and_a_stranger_finds_none() {
        let text = "Snakes and Ladders\n\nSeveral pawns may share a square. A pawn that lands\non a snake slides down.\n\nThe first pawn on 100 wins!\n";
        let s = Sentences::of(text);
        assert_eq!(s.nearest("several pawns can share one square"), Some((3, "Several pawns may share a square.".to_string())));
        assert_eq!(s.nearest("a pawn that lands on the snake slides down"), Some((3, "A pawn that lands on a snake slides down.".to_string())));
        assert_eq!(s.nearest("the first pawn on 100 wins"), Some((6, "The first pawn on 100 wins!".to_string())));
        assert_eq!(s.nearest("roll two dice and move"), None);
        // A fragment of a longer sentence, with a slip: three quarters of
        // its words are there in order.
        let s = Sentences::of("Chaque joueur possède un pion de sa couleur et le place sur la case de départ d'une piste de douze cases.\n\nLe dé a six faces.\n");
        assert_eq!(s.nearest("chaque joueur possède deux pions de sa couleur").map(|(l, _)| l), Some(1));
        assert_eq!(s.nearest("le dé a huit faces").map(|(l, _)| l), Some(3));
        assert_eq!(s.nearest("chaque pion"), None, "too short to be read as a fragment");
        // Quotation marks part words, as spaces do: a quote that leaves
        // them out still finds its sentence.
        let s = Sentences::of("On dit « le Graal » ici.\n");
        assert_eq!(s.nearest("on dit le graal ici"), Some((1, "On dit « le Graal » ici.".to_string())));
    }

    /// The two filters before the comparison in order never turn away a
    /// sentence it would find near enough: the words shared in any order
    /// are at least those shared in order, which are at most the shorter
    /// list's length. A quote over the limit gets no sentence.
    #[test]
    fn the_filters_keep_every_sentence_near_enough() {
        let w = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
        let cases = [("a b c d e", "a b x d e"), ("a b c d", "d c b a"), ("a a b", "a b b"), ("a b c d e f g h", "a b c"), ("x y", "y x y x")];
        for (a, b) in cases {
            let (a, b) = (w(a), w(b));
            let ordered = in_order(&a, &b);
            assert!(in_any_order(&bag(&a), &b) >= ordered && a.len().min(b.len()) >= ordered, "{a:?} {b:?}");
        }
        let long = vec!["mot"; MOST_WORDS + 1].join(" ");
        let s = Sentences::of(&format!("{long}.\n"));
        assert_eq!(s.nearest(&long), None);
        let long = vec!["mot"; MOST_WORDS].join(" ");
        let s = Sentences::of(&format!("{long}.\n"));
        assert!(s.nearest(&long).is_some());
    }
}
