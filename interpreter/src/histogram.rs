//! How many times each value came: what `simulate` and `validate` keep of
//! their games' lengths and scores. Its memory grows with the values seen, not with the
//! games played (a vector of every game's value took 4 bytes a game, 15 GB
//! at the most games `simulate` takes), and it gives the same minimum,
//! quantiles and mean as the sorted list of every value would.

use std::collections::BTreeMap;

/// Values and how many times each came.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Histogram {
    counts: BTreeMap<i64, u64>,
    len: u64,
    sum: i128,
}

impl Histogram {
    /// One more value.
    pub fn add(&mut self, v: i64) {
        *self.counts.entry(v).or_insert(0) += 1;
        self.len += 1;
        self.sum += i128::from(v);
    }

    /// The values of `other` too.
    pub fn merge(&mut self, other: Histogram) {
        for (v, n) in other.counts {
            *self.counts.entry(v).or_insert(0) += n;
        }
        self.len += other.len;
        self.sum += other.sum;
    }

    /// How many values came.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether none came.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `k`-th value in increasing order, from 0 (0 when there is none).
    pub fn nth(&self, k: u64) -> i64 {
        let mut seen = 0u64;
        for (v, n) in &self.counts {
            seen += n;
            if k < seen {
                return *v;
            }
        }
        0
    }

    /// The smallest value (0 when none came).
    pub fn min(&self) -> i64 {
        self.counts.keys().next().copied().unwrap_or(0)
    }

    /// The largest value (0 when none came).
    pub fn max(&self) -> i64 {
        self.counts.keys().next_back().copied().unwrap_or(0)
    }

    /// The upper median: the value at place `len / 2` of the sorted values.
    pub fn median(&self) -> i64 {
        self.nth(self.len / 2)
    }

    /// The value at place `round((len - 1) * q)` of the sorted values.
    pub fn quantile(&self, q: f64) -> i64 {
        self.nth(((self.len.saturating_sub(1)) as f64 * q).round().max(0.0) as u64)
    }

    /// The mean (0 when none came).
    pub fn mean(&self) -> f64 {
        if self.len == 0 {
            0.0
        } else {
            self.sum as f64 / self.len as f64
        }
    }

    /// The standard deviation of the values (of them all, not an estimate
    /// from a sample: divided by their number; 0 when none came). Worked
    /// out from the counts, so the same however the games were split.
    pub fn sd(&self) -> f64 {
        if self.len == 0 {
            return 0.0;
        }
        let mean = self.mean();
        let squares: f64 = self.counts.iter().map(|(v, n)| *n as f64 * (*v as f64 - mean).powi(2)).sum();
        (squares / self.len as f64).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_gives_what_the_sorted_values_give() {
        let values: Vec<i64> = (0..1000u64).map(|i| ((i * 7919) % 37) as i64 - 5).collect();
        let mut h = Histogram::default();
        let (first, second) = values.split_at(400);
        first.iter().for_each(|v| h.add(*v));
        let mut other = Histogram::default();
        second.iter().for_each(|v| other.add(*v));
        h.merge(other);
        let mut sorted = values.clone();
        sorted.sort_unstable();
        let at = |q: f64| sorted[((sorted.len() as f64 - 1.0) * q).round() as usize];
        assert_eq!((h.len(), h.min(), h.max(), h.median()), (1000, sorted[0], sorted[999], sorted[500]));
        for q in [0.0, 0.1, 0.5, 0.9, 1.0] {
            assert_eq!(h.quantile(q), at(q), "q = {q}");
        }
        let mean = values.iter().sum::<i64>() as f64 / 1000.0;
        assert!((h.mean() - mean).abs() < 1e-12);
        let sd = (values.iter().map(|v| (*v as f64 - mean).powi(2)).sum::<f64>() / 1000.0).sqrt();
        assert!(sd > 1.0 && (h.sd() - sd).abs() < 1e-9, "{} against {sd}", h.sd());
        let empty = Histogram::default();
        assert_eq!((empty.min(), empty.max(), empty.median(), empty.quantile(0.9), empty.mean(), empty.sd()), (0, 0, 0, 0, 0.0, 0.0));
    }
}
