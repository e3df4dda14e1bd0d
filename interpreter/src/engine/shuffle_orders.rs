//! The orders of a shuffle that exploring tells apart. Pieces that look
//! alike (the same code in the canonical form: kind, variant, owner and
//! per-piece values, in a zone that forgets which is which once shuffled)
//! make one position in whatever order they lie, so a shuffle has as many
//! outcomes as its multiset has distinct orders: n! / (m1! m2! ...). Five
//! identical cards have one, not 120; a deck of 3 kings and 2 queens has 10.

/// Each item's group (the index of its code's first occurrence) and the
/// number of items in each group, indexed the same way.
fn groups<T: PartialEq>(codes: &[T]) -> (Vec<usize>, Vec<u64>) {
    let mut group = Vec::with_capacity(codes.len());
    let mut count = vec![0u64; codes.len()];
    for (i, c) in codes.iter().enumerate() {
        let first = codes.iter().position(|d| d == c).unwrap_or(i);
        group.push(first);
        if let Some(n) = count.get_mut(first) {
            *n += 1;
        }
    }
    (group, count)
}

/// How many distinct orders the items can lie in, if it is at most `limit`.
pub(crate) fn distinct_orders<T: PartialEq>(codes: &[T], limit: u64) -> Option<u64> {
    // The count for the first i items, item by item: multiplying by i and
    // dividing by how many of its group came so far keeps it whole (each
    // step is a binomial coefficient), and it never decreases, so the walk
    // stops as soon as it passes the limit: a deck of different cards
    // looks at five of them, whatever its size.
    let mut seen = vec![0u64; codes.len()];
    let mut orders = 1u64;
    for (i, c) in codes.iter().enumerate() {
        let g = codes.iter().position(|d| d == c).unwrap_or(i);
        let m = seen.get_mut(g)?;
        *m += 1;
        orders = orders.checked_mul(i as u64 + 1)? / *m;
        if orders > limit {
            return None;
        }
    }
    Some(orders)
}

/// The `k`-th distinct order (from 0, below [`distinct_orders`]) of the
/// items, as positions into `codes`: the groups taken in the order of their
/// first item, and within a group its items front first.
pub(crate) fn nth_order<T: PartialEq>(codes: &[T], k: u64) -> Vec<usize> {
    let (group, mut count) = groups(codes);
    let Some(total) = distinct_orders(codes, u64::MAX) else { return (0..codes.len()).collect() };
    // The items of each group still to place, front first.
    let mut next_of: Vec<std::collections::VecDeque<usize>> = vec![std::collections::VecDeque::new(); codes.len()];
    for (i, g) in group.iter().enumerate() {
        if let Some(q) = next_of.get_mut(*g) {
            q.push_back(i);
        }
    }
    let (mut k, mut total, mut left) = (k % total.max(1), total, codes.len() as u64);
    let mut order = Vec::with_capacity(codes.len());
    while left > 0 {
        // With group g placed first, the rest lie in total * m_g / left
        // orders: skip whole blocks of orders until k falls in one.
        let mut placed = false;
        for g in 0..count.len() {
            let m = count.get(g).copied().unwrap_or(0);
            if m == 0 {
                continue;
            }
            let block = total * m / left;
            if k < block {
                if let Some(item) = next_of.get_mut(g).and_then(|q| q.pop_front()) {
                    order.push(item);
                }
                if let Some(c) = count.get_mut(g) {
                    *c -= 1;
                }
                total = block;
                left -= 1;
                placed = true;
                break;
            }
            k -= block;
        }
        if !placed {
            break;
        }
    }
    order
}

/// The `k`-th of `samples` sampled orders (from 0) of items whose distinct
/// orders are too many to enumerate, as positions into `codes`: orders
/// drawn by Fisher-Yates from generators seeded 0, 1, 2, ..., one that lies
/// as an earlier one does (the same codes in the same order: the same
/// position) skipped, so that the samples are as many positions as there
/// are samples. Five different cards have 120 orders; 24 of them drawn at
/// random repeat one about nine times in ten, and a repeat explored twice
/// was reported as one more order explored.
///
/// The explorer takes a shuffle's samples one after the other from the
/// same position: the last items' samples are kept, per thread, so that
/// they are drawn once, not once per sample taken.
pub(crate) fn nth_sampled_order<T: PartialEq>(codes: &[T], k: u64, samples: u64) -> Vec<usize> {
    thread_local! {
        /// The groups of the last items sampled, and their samples.
        static LAST: std::cell::RefCell<(Vec<usize>, Vec<Vec<usize>>)> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
    }
    // Two orders are one position when their items' groups read alike.
    let (group, _) = groups(codes);
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if last.0 != group || last.1.len() as u64 != samples {
            let drawn = sampled_orders(&group, samples);
            *last = (group, drawn);
        }
        last.1.get(k as usize).cloned().unwrap_or_else(|| (0..codes.len()).collect())
    })
}

/// `samples` orders of items of these groups, each a different position
/// (see [`nth_sampled_order`]).
fn sampled_orders(group: &[usize], samples: u64) -> Vec<Vec<usize>> {
    // Enough draws for the samples, at least 25 distinct orders existing
    // (else they are all enumerated); should they run out, the last draws
    // are kept, which would only repeat an order.
    const MAX_DRAWS: u64 = 10_000;
    let mut kept: Vec<Vec<usize>> = Vec::new();
    for seed in 0..MAX_DRAWS {
        if kept.len() as u64 == samples {
            break;
        }
        let order = drawn_order(group.len(), seed);
        let same_position = |o: &Vec<usize>| o.iter().zip(&order).all(|(a, b)| group.get(*a) == group.get(*b));
        if !kept.iter().any(same_position) || MAX_DRAWS - seed <= samples - kept.len() as u64 {
            kept.push(order);
        }
    }
    kept
}

/// The order of `n` items that Fisher-Yates from the back gives with a
/// generator seeded with `seed`.
fn drawn_order(n: usize, seed: u64) -> Vec<usize> {
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn the_orders_are_counted_and_listed_once_each() {
        for codes in [vec![1, 1, 1, 1, 1], vec![1, 2, 3, 4], vec![7, 7, 7, 9, 9], vec![1, 2, 1, 3, 2, 1], vec![5]] {
            let n = distinct_orders(&codes, u64::MAX);
            assert!(n.is_some(), "{codes:?}: no limit");
            let n = n.unwrap_or(0);
            let seen: HashSet<Vec<i32>> = (0..n).map(|k| nth_order(&codes, k).iter().map(|i| codes[*i]).collect()).collect();
            assert_eq!(seen.len() as u64, n, "{codes:?}: every order once");
            for k in 0..n {
                let mut positions = nth_order(&codes, k);
                positions.sort_unstable();
                assert_eq!(positions, (0..codes.len()).collect::<Vec<_>>(), "{codes:?}: each item once");
            }
        }
        assert_eq!(distinct_orders(&[1, 1, 1, 1, 1], 24), Some(1));
        assert_eq!(distinct_orders(&[7, 7, 7, 9, 9], 24), Some(10));
        assert_eq!(distinct_orders(&[1, 2, 3, 4], 24), Some(24));
        assert_eq!(distinct_orders(&[1, 2, 3, 4, 5], 24), None);
        assert_eq!(distinct_orders(&[1, 2, 1, 3, 2, 1], u64::MAX), Some(60));
    }

    #[test]
    fn sampled_orders_are_distinct_positions() {
        // Five different cards (120 orders) and a deck of 25 orders (two
        // kinds, 24 + 1 cards): plain draws repeat within 24 samples.
        for codes in [vec![1, 2, 3, 4, 5], [vec![1; 24], vec![2]].concat(), vec![1, 1, 2, 2, 3, 3]] {
            let samples: Vec<Vec<i32>> = (0..24).map(|k| nth_sampled_order(&codes, k, 24).iter().map(|i| codes[*i]).collect()).collect();
            let distinct: HashSet<&Vec<i32>> = samples.iter().collect();
            assert_eq!(distinct.len(), 24, "{codes:?}: 24 different positions");
            for k in 0..24 {
                let mut positions = nth_sampled_order(&codes, k, 24);
                positions.sort_unstable();
                assert_eq!(positions, (0..codes.len()).collect::<Vec<_>>(), "{codes:?}: each item once");
            }
        }
    }
}
