//! The explorer's frontier: the states of a level waiting to be expanded,
//! and the children of a slice waiting to be merged. Millions of states wait
//! there, so each is stored as the bytes in which its packed form
//! (`engine/pack.rs`) differs from the state stored just before it: a
//! level is merged in order, so neighbours are mostly siblings, whose
//! packed forms differ in a few bytes (the piece that moved, the options,
//! the counters). A state is stored whole at least every `KEY_EVERY`
//! states, and where a group starts (the children of one state), so that
//! a thread can start reading anywhere and a group's bytes do not depend on
//! what was stored before it; reading in order costs one patch per state.
//!
//! A record is a varint header `len × 4 + kind`, then:
//! - kind 0, whole: `len` bytes;
//! - kind 1, patched (same length as the state before): pairs of varints
//!   (bytes kept, bytes replaced) each followed by the replacing bytes,
//!   until `len` bytes are covered;
//! - kind 2, ends kept (another length): varints (prefix kept, suffix
//!   kept), then the bytes in between.

use crate::varint::{self, put as var};

/// How often a state is stored whole.
const KEY_EVERY: usize = 32;

/// Equal bytes shorter than this between two changes are copied as part of
/// the change: a pair of varints would cost as much.
const MIN_KEPT: usize = 3;

/// States stored one after the other, each as its difference with the one
/// before.
#[derive(Default)]
pub(crate) struct Frontier {
    bytes: Vec<u8>,
    /// The whole states: their index, and where their record starts.
    keys: Vec<(usize, usize)>,
    /// The last state pushed, whole: what the next one is written against.
    last: Vec<u8>,
    len: usize,
    /// The next state is stored whole.
    whole_next: bool,
}

impl Frontier {
    /// Append a packed state.
    pub(crate) fn push(&mut self, state: &[u8]) {
        let since_key = self.keys.last().map_or(usize::MAX, |&(i, _)| self.len - i);
        if self.whole_next || since_key >= KEY_EVERY {
            self.whole_next = false;
            self.keys.push((self.len, self.bytes.len()));
            header(&mut self.bytes, state.len(), 0);
            self.bytes.extend_from_slice(state);
        } else if state.len() == self.last.len() {
            header(&mut self.bytes, state.len(), 1);
            patch(&mut self.bytes, &self.last, state);
        } else {
            header(&mut self.bytes, state.len(), 2);
            let prefix = equal_prefix(&self.last, state);
            let room = self.last.len().min(state.len()) - prefix;
            let suffix = self.last.iter().rev().zip(state.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
            var(&mut self.bytes, prefix as u64);
            var(&mut self.bytes, suffix as u64);
            self.bytes.extend_from_slice(&state[prefix..state.len() - suffix]);
        }
        self.last.clear();
        self.last.extend_from_slice(state);
        self.len += 1;
    }

    /// Append `state`, which `record` stores in another frontier right
    /// after the state this one stored last (the merge copies a slice's
    /// children in order): a record of differences there is what `push`
    /// would write here, so it is copied instead of worked out again.
    pub(crate) fn push_after_same(&mut self, state: &[u8], record: &[u8]) {
        let since_key = self.keys.last().map_or(usize::MAX, |&(i, _)| self.len - i);
        let mut input = Input { bytes: record, at: 0 };
        let is_difference = input.var().is_some_and(|h| h & 3 != 0);
        if self.whole_next || since_key >= KEY_EVERY || !is_difference {
            self.push(state);
            return;
        }
        self.bytes.extend_from_slice(record);
        self.last.clear();
        self.last.extend_from_slice(state);
        self.len += 1;
    }

    /// The next state starts a group: it is stored whole, so that the
    /// group's bytes depend on its states only.
    pub(crate) fn start_group(&mut self) {
        self.whole_next = true;
    }

    /// How many states are stored.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The bytes it holds (what the memory budget counts).
    pub(crate) fn bytes_held(&self) -> usize {
        self.bytes.capacity() + self.keys.capacity() * std::mem::size_of::<(usize, usize)>() + self.last.capacity()
    }

    /// The bytes its states take, by length: what it holds whatever the
    /// growth of its buffers.
    pub(crate) fn bytes_used(&self) -> usize {
        self.bytes.len() + self.keys.len() * std::mem::size_of::<(usize, usize)>()
    }
}

/// Reads the states of a [`Frontier`], fastest in order.
#[derive(Default)]
pub(crate) struct Reader {
    state: Vec<u8>,
    /// Where a state of another length is rebuilt.
    spare: Vec<u8>,
    /// The index of the next record, and where it starts.
    next: usize,
    at: usize,
    /// Where the record read last starts.
    last_at: usize,
}

impl Reader {
    /// State `i`, or `None` when it is not there or its record is damaged.
    pub(crate) fn get<'r>(&'r mut self, f: &Frontier, i: usize) -> Option<&'r [u8]> {
        if i >= f.len {
            return None;
        }
        if self.next == 0 || i + 1 != self.next {
            // Go on from the state read last when it is before `i` and no
            // whole state lies between; else start from i's whole state.
            let k = f.keys.partition_point(|&(at, _)| at <= i).checked_sub(1)?;
            let &(key_index, key_at) = f.keys.get(k)?;
            if self.next == 0 || i < self.next || key_index > self.next {
                self.next = key_index;
                self.at = key_at;
            }
            while self.next <= i {
                self.read(f)?;
            }
        }
        Some(&self.state)
    }

    /// [`Reader::get`], with the bytes of the state's record in `f`.
    pub(crate) fn get_with_record<'r, 'f>(&'r mut self, f: &'f Frontier, i: usize) -> Option<(&'r [u8], &'f [u8])> {
        self.get(f, i)?;
        let record = f.bytes.get(self.last_at..self.at).unwrap_or(&[]);
        Some((&self.state, record))
    }

    /// Decode the record at `at` into `state`.
    fn read(&mut self, f: &Frontier) -> Option<()> {
        self.last_at = self.at;
        let mut input = Input { bytes: &f.bytes, at: self.at };
        let h = input.var()?;
        let len = usize::try_from(h >> 2).ok()?;
        match h & 3 {
            0 => {
                self.state.clear();
                self.state.extend_from_slice(input.take(len)?);
            }
            1 => {
                if self.state.len() != len {
                    return None;
                }
                let mut pos = 0;
                while pos < len {
                    pos = pos.checked_add(usize::try_from(input.var()?).ok()?)?;
                    let n = usize::try_from(input.var()?).ok()?;
                    let with = input.take(n)?;
                    self.state.get_mut(pos..pos.checked_add(n)?)?.copy_from_slice(with);
                    pos += n;
                }
            }
            2 => {
                let prefix = usize::try_from(input.var()?).ok()?;
                let suffix = usize::try_from(input.var()?).ok()?;
                let middle = input.take(len.checked_sub(prefix)?.checked_sub(suffix)?)?;
                // Built in the spare buffer, then swapped in: no
                // allocation once both have grown to a state's length (a
                // new buffer per state was 2 % of exploring tic-tac-toe).
                let (old, new) = (&self.state, &mut self.spare);
                new.clear();
                new.extend_from_slice(old.get(..prefix)?);
                new.extend_from_slice(middle);
                new.extend_from_slice(old.get(old.len().checked_sub(suffix)?..)?);
                std::mem::swap(&mut self.state, &mut self.spare);
            }
            _ => return None,
        }
        self.at = input.at;
        self.next += 1;
        Some(())
    }
}

fn header(out: &mut Vec<u8>, len: usize, kind: u64) {
    var(out, (len as u64) << 2 | kind);
}

/// How many bytes `a` and `b` start with in common, compared eight at a
/// time: siblings' packed states share long runs, and a byte at a time
/// this was most of `push`.
fn equal_prefix(a: &[u8], b: &[u8]) -> usize {
    let mut n = 0;
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        let (x, y) = (u64::from_le_bytes(x.try_into().unwrap_or_default()), u64::from_le_bytes(y.try_into().unwrap_or_default()));
        if x != y {
            // The first differing byte is the lowest differing one.
            return n + ((x ^ y).trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + a.get(n..).unwrap_or_default().iter().zip(b.get(n..).unwrap_or_default()).take_while(|(x, y)| x == y).count()
}

/// The changes that turn `old` into `new` (of the same length).
fn patch(out: &mut Vec<u8>, old: &[u8], new: &[u8]) {
    let mut pos = 0;
    while pos < new.len() {
        let kept = equal_prefix(&old[pos..], &new[pos..]);
        let start = pos + kept;
        if start == new.len() {
            // The rest is unchanged: one last pair replacing nothing.
            var(out, kept as u64);
            var(out, 0);
            return;
        }
        // The change runs until MIN_KEPT equal bytes in a row, or the end.
        let mut end = start;
        let mut equal = 0;
        while end < new.len() && equal < MIN_KEPT {
            if old[end] == new[end] {
                equal += 1;
            } else {
                equal = 0;
            }
            end += 1;
        }
        let end = end - equal;
        var(out, kept as u64);
        var(out, (end - start) as u64);
        out.extend_from_slice(&new[start..end]);
        pos = end;
    }
}


struct Input<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Input<'a> {
    fn var(&mut self) -> Option<u64> {
        varint::get(self.bytes, &mut self.at)
    }
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }
}

#[cfg(test)]
mod tests {
    use super::{equal_prefix, Frontier, Reader, KEY_EVERY};

    /// The common prefix eight bytes at a time is the one a byte at a time
    /// gives, wherever the first difference falls and whatever the lengths.
    #[test]
    fn the_common_prefix_is_found_at_every_place() {
        let base: Vec<u8> = (0..40u8).collect();
        for len_b in [0, 1, 7, 8, 9, 16, 39, 40] {
            for at in 0..=len_b {
                let mut b = base[..len_b].to_vec();
                if let Some(x) = b.get_mut(at) {
                    *x ^= 0x80;
                }
                let slow = base.iter().zip(&b).take_while(|(x, y)| x == y).count();
                assert_eq!(equal_prefix(&base, &b), slow, "length {len_b}, difference at {at}");
                assert_eq!(equal_prefix(&b, &base), slow);
            }
        }
    }

    /// States of varied lengths and small differences, then read back in
    /// order, backwards, and by jumps.
    #[test]
    fn every_state_reads_back_as_pushed() {
        let mut states: Vec<Vec<u8>> = Vec::new();
        let mut s: Vec<u8> = (0..40).collect();
        for i in 0..300usize {
            match i % 7 {
                0 => {
                    let n = s.len();
                    s[i % n] = s[i % n].wrapping_add(1);
                }
                1 => s.push(i as u8),
                2 => {
                    s.remove(i % s.len());
                }
                3 => {
                    s[0] ^= 1;
                    let n = s.len();
                    s[n - 1] ^= 2;
                }
                4 => {}
                5 => s = (0..=(i % 50) as u8).rev().collect(),
                _ => {
                    for b in s.iter_mut().step_by(3) {
                        *b = b.wrapping_mul(3);
                    }
                }
            }
            states.push(s.clone());
        }
        let mut f = Frontier::default();
        states.iter().for_each(|s| f.push(s));
        assert_eq!(f.len(), states.len());
        let mut r = Reader::default();
        for (i, s) in states.iter().enumerate() {
            assert_eq!(r.get(&f, i), Some(&s[..]), "in order, state {i}");
        }
        for i in (0..states.len()).rev() {
            assert_eq!(r.get(&f, i), Some(&states[i][..]), "backwards, state {i}");
        }
        for i in (0..states.len()).step_by(KEY_EVERY + 5) {
            assert_eq!(Reader::default().get(&f, i), Some(&states[i][..]), "fresh reader, state {i}");
        }
        assert_eq!(r.get(&f, states.len()), None);
    }

    /// A group's bytes do not depend on what was stored before it.
    #[test]
    fn a_group_is_stored_the_same_after_anything() {
        let group: Vec<Vec<u8>> = (0..5u8).map(|i| vec![1, 2, i, 4, 5, i]).collect();
        let sizes: Vec<usize> = [vec![], vec![vec![9u8; 30]], vec![vec![1, 2, 3, 4, 5, 6]; 3]]
            .iter()
            .map(|before| {
                let mut f = Frontier::default();
                before.iter().for_each(|s| f.push(s));
                let used = f.bytes_used();
                f.start_group();
                group.iter().for_each(|s| f.push(s));
                let mut r = Reader::default();
                for (i, s) in group.iter().enumerate() {
                    assert_eq!(r.get(&f, before.len() + i), Some(&s[..]));
                }
                f.bytes_used() - used
            })
            .collect();
        assert!(sizes.windows(2).all(|w| w[0] == w[1]), "{sizes:?}");
    }

    /// Copying a record from another frontier writes what `push` writes,
    /// whether the states around it were kept or skipped.
    #[test]
    fn a_record_copied_after_the_same_state_is_what_push_writes() {
        let mut src = Frontier::default();
        let mut states: Vec<Vec<u8>> = Vec::new();
        for i in 0..200usize {
            if i % 9 == 0 {
                src.start_group();
            }
            let mut s: Vec<u8> = (0..60).map(|b| b as u8).collect();
            s[i % 60] = i as u8;
            if i % 5 == 0 {
                s.push(7);
            }
            src.push(&s);
            states.push(s);
        }
        let (mut pushed, mut copied) = (Frontier::default(), Frontier::default());
        let mut r = Reader::default();
        let mut last: Option<usize> = None;
        for (i, s) in states.iter().enumerate() {
            // Keep most states, skip some (duplicates dropped by the merge).
            if i % 7 == 3 {
                continue;
            }
            let (state, record) = r.get_with_record(&src, i).expect("readable");
            assert_eq!(state, &s[..]);
            pushed.push(s);
            if last.is_some_and(|l| l + 1 == i) {
                copied.push_after_same(state, record);
            } else {
                copied.push(state);
            }
            last = Some(i);
        }
        assert_eq!(pushed.bytes, copied.bytes);
        assert_eq!(pushed.keys, copied.keys);
    }

    /// Siblings that differ in a few bytes cost a few bytes each.
    #[test]
    fn small_differences_are_stored_small() {
        let base: Vec<u8> = (0..150).map(|i| (i * 7) as u8).collect();
        let mut f = Frontier::default();
        for i in 0..KEY_EVERY {
            let mut s = base.clone();
            s[10] = i as u8;
            s[90] = 200 + i as u8;
            f.push(&s);
        }
        // One whole state (a header of two bytes), then 31 records of two
        // changes each: a header, two pairs of (kept, replaced) with their
        // byte, and the pair that keeps the rest.
        assert_eq!(f.bytes.len(), 152 + 31 * (2 + 3 + 3 + 2));
    }
}
