//! Near misses: the name closest to one that was written, when it is close
//! enough to be a typo (the resolver's "did you mean" for names, and the
//! parser's for a misspelt keyword).

/// The closest name to `wanted` among `candidates`, if close enough to be a typo.
pub fn did_you_mean<'a>(wanted: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (wanted.chars().count() / 3).max(1);
    candidates
        .map(|c| (edit_distance(wanted, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, c)| (*d, c.len(), *c))
        .map(|(_, c)| c)
}

/// Edits from `a` to `b`: a character inserted, deleted or changed, or two
/// neighbours swapped (`scroe` is one edit from `score`, the most common
/// typo of all).
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // Three rows of the table: two rows back is what a swap needs.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev.get(j).copied().unwrap_or(0) + usize::from(ca != cb);
            let del = prev.get(j + 1).copied().unwrap_or(0) + 1;
            let ins = cur.get(j).copied().unwrap_or(0) + 1;
            let mut best = sub.min(del).min(ins);
            let swapped = i > 0 && j > 0 && a.get(i - 1) == Some(cb) && b.get(j - 1) == Some(ca) && ca != cb;
            if swapped {
                best = best.min(before.get(j - 1).copied().unwrap_or(0) + 1);
            }
            if let Some(c) = cur.get_mut(j + 1) {
                *c = best;
            }
        }
        before = std::mem::replace(&mut prev, cur);
    }
    prev.last().copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn suggests_close_names_only() {
        let names = ["dragon", "lance_supply", "knight"];
        assert_eq!(did_you_mean("dragn", names.iter().copied()), Some("dragon"));
        assert_eq!(did_you_mean("zzz", names.iter().copied()), None);
        // Two letters swapped are one typo.
        assert_eq!(did_you_mean("kinght", names.iter().copied()), Some("knight"));
        assert_eq!(edit_distance("scroe", "score"), 1);
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("abc", "ca"), 3);
    }
}
