//! The pieces' part of a state's canonical fingerprint, kept up to date
//! move by move while a game is explored, so that fingerprinting a child
//! does not walk every zone again (that walk was most of the time of a
//! fingerprint, and a fifth of an exploration's).
//!
//! Each piece has a code (its class when it is interchangeable with the
//! other pieces of its class, else itself: `canonical.rs`), written here as
//! a pseudo-random word `w`. A zone holding `p0, p1, … pn-1` (front first)
//! hashes to `Σ w(pi)·B^i` modulo 2^64: putting a piece at the back or at
//! the front, or taking the back or the front one, is one multiply; a piece
//! taken from the middle, or a shuffle, hashes the zone again. The pieces'
//! word is the sum over the non-empty zones of a strong mix of the zone's
//! number, length and hash. Order counts inside a zone (through the powers
//! of `B`), not between zones (the sum), so there is nothing to sort.
//!
//! A state whose hashes are not kept (a game being played, a state read
//! back from the frontier, a position built by a tool) gets the same word
//! computed from its zones: correctness never depends on the hashes being
//! kept, only speed. A game where some interchangeable piece carries values
//! of its own (a `counter ... per` one that the rules read) has codes that
//! change without a move: there the fingerprint walks the zones as before.

use super::layout::Game;
use super::state::{State, NIL};

/// The multiplier of the zones' polynomial hashes: odd, so invertible
/// modulo 2^64 (taking the front piece divides by it).
const B: u64 = 0x9fb2_1c65_1e98_df25;

/// The tables of a game whose pieces' codes never change.
#[derive(Debug, Clone, Default)]
pub(crate) struct ZoneWords {
    /// Per instance: its code as a word.
    word: Vec<u64>,
    /// `B^i` for every place `i` a zone can have, and one more.
    pow: Vec<u64>,
    /// `B^-1` modulo 2^64.
    inverse: u64,
}

impl ZoneWords {
    /// The tables for instances whose codes are `codes` (`None` when a
    /// code can change: then there are no tables).
    pub(crate) fn new(codes: &[Option<u64>]) -> Option<ZoneWords> {
        let word = codes.iter().map(|c| c.map(|c| mix(c ^ 0x5a17_c0de_0000_0000))).collect::<Option<Vec<u64>>>()?;
        let mut pow = Vec::with_capacity(word.len() + 1);
        let mut x = 1u64;
        for _ in 0..=word.len() {
            pow.push(x);
            x = x.wrapping_mul(B);
        }
        // Newton's iteration doubles the bits of the inverse that are right
        // each time: B is its own inverse modulo 8 (3 bits), 5 rounds give 64+.
        let mut inverse = B;
        for _ in 0..5 {
            inverse = inverse.wrapping_mul(2u64.wrapping_sub(B.wrapping_mul(inverse)));
        }
        Some(ZoneWords { word, pow, inverse })
    }
}

impl ZoneWords {
    /// What piece `p` adds to the hash of its zone at place `i` (front 0).
    #[inline]
    pub(super) fn at(&self, p: u16, i: u16) -> u64 {
        self.word[p as usize].wrapping_mul(self.pow[usize::from(i)])
    }
}

/// A state's zone hashes (see the module doc), when it keeps them.
#[derive(Debug, Clone, Default)]
pub(crate) struct ZoneHashes {
    /// Per zone: `Σ w(pi)·B^i`.
    per_zone: Vec<u64>,
    /// The pieces' word: the sum of the non-empty zones' terms.
    total: u64,
    /// `per_zone` and `total` are those of the state's zones. Anything that
    /// moves pieces without the game's tables at hand clears it.
    pub(crate) kept: bool,
}

/// splitmix64's finaliser: a bijection that spreads every input bit.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl ZoneHashes {
    /// Start again from no zone (then `push` each zone in order).
    pub(super) fn clear(&mut self) {
        self.per_zone.clear();
        self.total = 0;
        self.kept = false;
    }

    /// The next zone holds `len` pieces and hashes to `hash`.
    #[inline]
    pub(super) fn push(&mut self, len: u16, hash: u64) {
        self.total = self.total.wrapping_add(term(self.per_zone.len(), len, hash));
        self.per_zone.push(hash);
    }
}

/// What a zone adds to the pieces' word: 0 when it is empty.
#[inline]
fn term(z: usize, len: u16, hash: u64) -> u64 {
    if len == 0 {
        return 0;
    }
    mix(hash ^ (u64::from(len) << 32 | z as u64).wrapping_mul(0xd6e8_feb8_6659_fd93))
}

impl Game {
    /// Start keeping the zone hashes of `st` (an explored state): each move
    /// made through the game then updates them.
    pub fn keep_zone_hashes(&self, st: &mut State) {
        let Some(t) = &self.canon.zone_words else { return };
        let mut hashes = std::mem::take(&mut st.zone_hash);
        hashes.clear();
        for z in 0..st.head.len() {
            hashes.push(st.len[z], zone_hash(t, st, z));
        }
        hashes.kept = true;
        st.zone_hash = hashes;
    }

    /// Overwrite `st` with a packed state of this game, keeping its zone
    /// hashes (worked out as the links are rebuilt): what the explorer
    /// reads its frontier with. `None` if the bytes are not a state of
    /// this game.
    pub fn unpack_explored(&self, st: &mut State, bytes: &[u8]) -> Option<()> {
        st.unpack_keeping(bytes, self.canon.zone_words.as_ref())
    }

    /// The pieces' word of `st`, or `None` where pieces' codes can change
    /// (the fingerprint then walks the zones itself).
    pub(super) fn pieces_word(&self, st: &State) -> Option<u64> {
        let t = self.canon.zone_words.as_ref()?;
        if st.zone_hash.kept {
            return Some(st.zone_hash.total);
        }
        Some((0..st.head.len()).fold(0u64, |sum, z| sum.wrapping_add(term(z, st.len[z], zone_hash(t, st, z)))))
    }

    /// Move piece `p` to the back of zone `to`, or to its front, keeping
    /// the zone hashes if `st` keeps them.
    #[inline]
    pub(super) fn relocate(&self, st: &mut State, p: u16, to: u16, front: bool) {
        if st.zone_hash.kept {
            self.relocate_keeping(st, p, to, front);
        } else {
            st.unlink(p);
            st.link(p, to, front);
        }
    }

    /// [`Game::relocate`] in a state that keeps its zone hashes: out of
    /// line, so that a game being played pays one test per move.
    #[inline(never)]
    fn relocate_keeping(&self, st: &mut State, p: u16, to: u16, front: bool) {
        let Some(t) = &self.canon.zone_words else {
            st.unlink(p);
            st.link(p, to, front);
            return;
        };
        let (from, pi) = (st.loc[p as usize] as usize, p as usize);
        let (at_back, at_front, len) = (st.tail[from] == p, st.head[from] == p, st.len[from]);
        st.unlink(p);
        let w = t.word[pi];
        let old = st.zone_hash.per_zone[from];
        let new = if at_back {
            old.wrapping_sub(w.wrapping_mul(t.pow[usize::from(len) - 1]))
        } else if at_front {
            old.wrapping_sub(w).wrapping_mul(t.inverse)
        } else {
            zone_hash(t, st, from)
        };
        self.retally(st, from, len, old, new);
        let to = usize::from(to);
        let (len, old) = (st.len[to], st.zone_hash.per_zone[to]);
        st.link(p, to as u16, front);
        let new = if front { w.wrapping_add(old.wrapping_mul(B)) } else { old.wrapping_add(w.wrapping_mul(t.pow[usize::from(len)])) };
        self.retally(st, to, len, old, new);
    }

    /// Put the pieces of zone `z` in `order` (front first) after a shuffle,
    /// keeping the zone hashes if `st` keeps them.
    pub(super) fn relink(&self, st: &mut State, z: u16, order: &[super::Value]) {
        let zi = usize::from(z);
        let (len, old) = (st.len[zi], st.zone_hash.per_zone.get(zi).copied().unwrap_or(0));
        st.relink(z, order);
        if let Some(t) = self.canon.zone_words.as_ref().filter(|_| st.zone_hash.kept) {
            let new = zone_hash(t, st, zi);
            self.retally(st, zi, len, old, new);
        }
    }

    /// Zone `z`, which held `len` pieces hashing to `old`, now hashes to `new`.
    #[inline]
    fn retally(&self, st: &mut State, z: usize, len: u16, old: u64, new: u64) {
        let h = &mut st.zone_hash;
        h.per_zone[z] = new;
        h.total = h.total.wrapping_sub(term(z, len, old)).wrapping_add(term(z, st.len[z], new));
    }
}

/// The hash of zone `z`, from its pieces.
fn zone_hash(t: &ZoneWords, st: &State, z: usize) -> u64 {
    let (mut h, mut p, mut i) = (0u64, st.head[z], 0usize);
    while p != NIL && i < t.pow.len() {
        h = h.wrapping_add(t.word[p as usize].wrapping_mul(t.pow[i]));
        p = st.next[p as usize];
        i += 1;
    }
    h
}
