//! A quote that begins right after a negation it leaves out: « être placé
//! sur la case Ligne d'arrivée » cut from « ne peut jamais être placé sur
//! la case Ligne d'arrivée » is found in the source, yet says the opposite
//! of it (a translator's finding). The check looks at the two words before
//! the quote, in its clause (after the last `.`, `!`, `?`, `;`, `:` or `,`),
//! in the normalised text (lowercase, apostrophes as `'`); trace.rs does not
//! ask for a quote that starts a line of the source (a list item, a
//! heading), whose line before may end on a negation of its own.

/// Words that make a French or English clause negative. « n' » is caught
/// as the start of its word (« n'est »); « plus », « rien » and
/// « personne » are left out, as they often are no negation.
const NEGATIONS: &[&str] = &["ne", "pas", "jamais", "aucun", "aucune", "aucuns", "aucunes", "sans", "ni", "non", "not", "no", "never", "cannot", "can't", "without", "nor"];

fn is_negation(word: &str) -> bool {
    NEGATIONS.contains(&word) || word.starts_with("n'")
}

/// The words of normalised text, as the coverage check counts them.
fn words(text: &str) -> impl DoubleEndedIterator<Item = &str> {
    super::normalise::words_of(text).into_iter().filter_map(move |(a, b)| text.get(a..b))
}

/// Whether a (normalised) quote holds a negation of its own.
pub(super) fn holds_negation(quote: &str) -> bool {
    words(quote).any(is_negation)
}

/// The two words before `start` in its clause of the normalised `text`,
/// when one of them is a negation.
pub(super) fn negation_before(text: &str, start: usize) -> Option<String> {
    let before = text.get(..start)?;
    let clause = before.rfind(['.', '!', '?', ';', ':', ',']).map_or(before, |i| before.get(i + 1..).unwrap_or_default());
    let last: Vec<&str> = words(clause).rev().take(2).collect();
    last.iter().any(|w| is_negation(w)).then(|| last.iter().rev().copied().collect::<Vec<_>>().join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_before_a_quote_in_its_clause() {
        let text = "un chevalier ne peut jamais être placé sur la case. il peut avancer, mais pas reculer";
        let at = |q: &str| text.find(q).expect("in the text");
        assert_eq!(negation_before(text, at("être placé")).as_deref(), Some("peut jamais"));
        assert_eq!(negation_before(text, at("il peut")), None, "a new sentence");
        assert_eq!(negation_before(text, at("mais pas")), None, "a new clause, and the negation is quoted");
        assert_eq!(negation_before(text, at("reculer")).as_deref(), Some("mais pas"));
        let seul = "il n'est jamais seul";
        assert_eq!(negation_before(seul, seul.find("seul").expect("in it")).as_deref(), Some("n'est jamais"));
        assert!(holds_negation("ne peut jamais") && !holds_negation("peut avancer"));
    }
}
