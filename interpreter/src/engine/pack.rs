//! A state as a short string of bytes, for the explorer's frontier: millions
//! of states wait there between two levels, so each keeps only what the
//! game's future depends on, in varints. Zones are written as the first
//! piece of each zone and the piece behind each piece; the rest of the links
//! is rebuilt on reading.
//! Rule coverage is not kept (it restarts at zero), nor the random
//! generator (an explored game has none: its chance is enumerated).

use super::simultaneous::{SimSlot, Simultaneous};
use super::state::{Frame, Outcome, Pending, Stage, State, NIL};
use super::value::Value;
use super::zone_hash::ZoneWords;
use crate::model::{FileId, Loc, ProcId};
use grimoire_grammar::ast::Span;

/// Writes numbers as LEB128 varints (signed ones zigzagged): most numbers
/// of a state are small, so most take one byte.
struct Out<'a>(&'a mut Vec<u8>);

impl Out<'_> {
    fn u8(&mut self, x: u8) {
        self.0.push(x);
    }
    fn var(&mut self, x: u64) {
        crate::varint::put(self.0, x);
    }
    fn int(&mut self, x: i64) {
        self.var(((x << 1) ^ (x >> 63)) as u64);
    }
    /// A piece or zone number, `NIL` as 0.
    fn id(&mut self, x: u16) {
        self.var(u64::from(x.wrapping_add(1)));
    }
    fn slot(&mut self, slot: SimSlot) {
        match slot {
            SimSlot::Counter(c) => self.var(u64::from(c) << 1),
            SimSlot::Var(v) => self.var(u64::from(v) << 1 | 1),
        }
    }
    /// A value: a small number or a space (most options and locals) in
    /// two bytes written here, inline; any other by [`Out::other_value`].
    /// The bytes are the same either way.
    #[inline]
    fn value(&mut self, v: Value) {
        match v {
            // A number of 0..64 zigzags to one varint byte; so does a
            // space numbered below 128.
            Value::Int(i) if (0..64).contains(&i) => self.0.extend_from_slice(&[1, (i << 1) as u8]),
            Value::Zone(z) if z < 0x80 => self.0.extend_from_slice(&[6, z as u8]),
            _ => self.other_value(v),
        }
    }

    #[inline(never)]
    fn other_value(&mut self, v: Value) {
        match v {
            Value::None => self.u8(0),
            Value::Int(i) => {
                self.u8(1);
                self.int(i);
            }
            Value::False => self.u8(2),
            Value::True => self.u8(3),
            Value::Player(p) => {
                self.u8(4);
                self.u8(p as u8);
            }
            Value::Piece(p) => {
                self.u8(5);
                self.var(p);
            }
            Value::Zone(z) => {
                self.u8(6);
                self.var(z);
            }
            Value::Face(f) => {
                self.u8(7);
                self.var(f);
            }
            Value::Variant(x) => {
                self.u8(8);
                self.var(x);
            }
            Value::Dir(d) => self.u8(if d > 0 { 9 } else { 10 }),
            Value::Row(packed) => {
                let (t, r) = Value::row_parts(packed);
                self.u8(11);
                self.var(u64::from(t));
                self.var(u64::from(r));
            }
        }
    }
}

/// Reads what [`Out`] wrote; `None` past the end.
struct In<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl In<'_> {
    fn u8(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }
    fn var(&mut self) -> Option<u64> {
        crate::varint::get(self.bytes, &mut self.at)
    }
    fn int(&mut self) -> Option<i64> {
        let z = self.var()?;
        Some(((z >> 1) as i64) ^ -((z & 1) as i64))
    }
    fn u16(&mut self) -> Option<u16> {
        u16::try_from(self.var()?).ok()
    }
    fn u32(&mut self) -> Option<u32> {
        u32::try_from(self.var()?).ok()
    }
    fn id(&mut self) -> Option<u16> {
        Some(self.u16()?.wrapping_sub(1))
    }
    fn slot(&mut self) -> Option<SimSlot> {
        let x = self.var()?;
        let i = u32::try_from(x >> 1).ok()?;
        Some(if x & 1 == 0 { SimSlot::Counter(i) } else { SimSlot::Var(i) })
    }
    /// What [`Out::value`] wrote: the two-byte forms of small numbers and
    /// spaces here, inline; any other by [`In::other_value`].
    #[inline]
    fn value(&mut self) -> Option<Value> {
        if let (Some(&tag @ (1 | 6)), Some(&x)) = (self.bytes.get(self.at), self.bytes.get(self.at + 1)) {
            if x < 0x80 {
                self.at += 2;
                return Some(if tag == 1 { Value::Int(i64::from(x >> 1) ^ -i64::from(x & 1)) } else { Value::zone(u16::from(x)) });
            }
        }
        self.other_value()
    }

    #[inline(never)]
    fn other_value(&mut self) -> Option<Value> {
        Some(match self.u8()? {
            0 => Value::None,
            1 => Value::Int(self.int()?),
            2 => Value::False,
            3 => Value::True,
            4 => Value::player(self.u8()?),
            5 => Value::piece(self.u16()?),
            6 => Value::zone(self.u16()?),
            7 => Value::face(self.u16()?),
            8 => Value::variant(self.u16()?),
            9 => Value::Dir(1),
            10 => Value::Dir(-1),
            11 => Value::row(self.u16()?, self.u16()?),
            _ => return None,
        })
    }
}

impl State {
    /// Whether every link (`head` and `next`: a piece number or `NIL`) is
    /// written in one byte: fewer than 127 pieces.
    fn links_fit_a_byte(&self) -> bool {
        self.loc.len() < 0x7f
    }

    /// Append this state's bytes to `out`.
    pub fn pack(&self, out: &mut Vec<u8>) {
        let mut o = Out(out);
        if self.links_fit_a_byte() {
            // Every link is a piece number or `NIL`, below 127 + 1: each
            // varint is its one byte, written without the varint's loop.
            o.0.extend(self.head.iter().chain(&self.next).map(|x| x.wrapping_add(1) as u8));
        } else {
            self.head.iter().for_each(|x| o.id(*x));
            self.next.iter().for_each(|x| o.id(*x));
        }
        self.counters.iter().for_each(|x| o.int(*x));
        self.vars.iter().for_each(|v| o.value(*v));
        o.var(self.stack.len() as u64);
        self.stack.iter().for_each(|v| o.value(*v));
        o.var(self.frames.len() as u64);
        for f in &self.frames {
            o.var(u64::from(f.proc.0));
            o.var(u64::from(f.pc));
            o.var(u64::from(f.base));
            o.u8(f.actor);
            o.u8(f.depth);
            o.u8(u8::from(f.phase) | u8::from(f.end) << 1);
        }
        match self.pending {
            None => o.u8(0),
            Some(p) => {
                o.u8(1);
                o.u8(p.player);
                o.var(u64::from(p.base));
                o.var(u64::from(p.pc));
                o.id(p.shuffle.unwrap_or(NIL));
            }
        }
        o.u8(self.arity);
        o.var(self.options.len() as u64);
        self.options.iter().for_each(|v| o.value(*v));
        match self.outcome {
            None => o.u8(0),
            Some(Outcome::Winner(p)) => {
                o.u8(1);
                o.u8(p);
            }
            Some(Outcome::Shared(m)) => {
                o.u8(2);
                o.var(u64::from(m));
            }
            Some(Outcome::Draw) => o.u8(3),
            Some(Outcome::Ended) => o.u8(4),
        }
        o.var(u64::from(self.round));
        o.u8(match self.stage {
            Stage::Start => 0,
            Stage::Setup => 1,
            Stage::Rounds => 2,
        });
        o.var(u64::from(self.decisions));
        o.var(u64::from(self.plies));
        o.var(self.box_after_setup.map_or(0, |b| u64::from(b) + 1));
        match self.box_moved_at {
            None => o.var(0),
            Some(at) => {
                o.var(u64::from(at.file.0) + 1);
                o.var(at.span.start as u64);
                o.var(at.span.end as u64);
            }
        }
        o.u8(u8::from(self.forced_decisions) | u8::from(self.exploring) << 1 | u8::from(self.sampled_shuffle) << 2);
        match &self.sim {
            None => o.u8(0),
            Some(sim) => {
                o.u8(1);
                o.u8(sim.player.map_or(0, |p| p + 1));
                o.var(u64::from(sim.decisions));
                o.var(u64::from(sim.had_turn));
                o.var(sim.sealed.len() as u64);
                for (slot, v, p) in &sim.sealed {
                    o.slot(*slot);
                    o.value(*v);
                    o.u8(*p);
                }
                o.var(sim.undo.len() as u64);
                for (slot, v) in &sim.undo {
                    o.slot(*slot);
                    o.value(*v);
                }
            }
        }
    }

    /// Overwrite this state (of the same game) with packed bytes; `None` if
    /// the bytes are not a state of this game.
    pub fn unpack(&mut self, bytes: &[u8]) -> Option<()> {
        self.unpack_keeping(bytes, None)
    }

    /// [`State::unpack`], keeping the zone hashes when the game's tables
    /// are given (`zone_hash.rs`).
    pub(super) fn unpack_keeping(&mut self, bytes: &[u8], words: Option<&ZoneWords>) -> Option<()> {
        self.ends_checked_for = None;
        self.zone_hash.clear();
        let mut i = In { bytes, at: 0 };
        let links = self.head.len() + self.next.len();
        match bytes.get(..links) {
            // What `pack` wrote in one byte a link (a byte of 0x80 or more
            // would start a longer varint: read those the long way).
            Some(short) if self.links_fit_a_byte() && short.iter().all(|b| *b < 0x80) => {
                let (heads, nexts) = short.split_at(self.head.len());
                for (h, b) in self.head.iter_mut().zip(heads) {
                    *h = u16::from(*b).wrapping_sub(1);
                }
                for (n, b) in self.next.iter_mut().zip(nexts) {
                    *n = u16::from(*b).wrapping_sub(1);
                }
                i.at = links;
            }
            _ => {
                for h in self.head.iter_mut() {
                    *h = i.id()?;
                }
                for n in self.next.iter_mut() {
                    *n = i.id()?;
                }
            }
        }
        // What players know is no part of a packed state (no rule reads it).
        self.known.iter_mut().for_each(|k| *k = 0);
        // Rebuild the rest of the links by walking each zone.
        for z in 0..self.head.len() {
            let (mut p, mut before, mut count, mut hash) = (self.head[z], NIL, 0u16, 0u64);
            while p != NIL {
                let pi = p as usize;
                *self.prev.get_mut(pi)? = before;
                *self.loc.get_mut(pi)? = z as u16;
                if let Some(t) = words {
                    hash = hash.wrapping_add(t.at(p, count));
                }
                before = p;
                count += 1;
                if count as usize > self.loc.len() {
                    return None;
                }
                p = self.next[pi];
            }
            self.tail[z] = before;
            self.len[z] = count;
            if words.is_some() {
                self.zone_hash.push(count, hash);
            }
        }
        for c in self.counters.iter_mut() {
            *c = i.int()?;
        }
        for v in self.vars.iter_mut() {
            *v = i.value()?;
        }
        let n = i.u32()? as usize;
        self.stack.clear();
        for _ in 0..n {
            let v = i.value()?;
            self.stack.push(v);
        }
        let n = i.u32()? as usize;
        self.frames.clear();
        for _ in 0..n {
            let (proc, pc, base, actor, depth, flags) = (i.u16()?, i.u32()?, i.u32()?, i.u8()?, i.u8()?, i.u8()?);
            self.frames.push(Frame { proc: ProcId(proc), pc, base, actor, depth, phase: flags & 1 != 0, end: flags & 2 != 0 });
        }
        self.pending = match i.u8()? {
            0 => None,
            _ => {
                let (player, base, pc, shuffle) = (i.u8()?, i.u32()?, i.u32()?, i.id()?);
                Some(Pending { player, base, pc, shuffle: (shuffle != NIL).then_some(shuffle) })
            }
        };
        self.arity = i.u8()?;
        let n = i.u32()? as usize;
        self.options.clear();
        for _ in 0..n {
            let v = i.value()?;
            self.options.push(v);
        }
        self.outcome = match i.u8()? {
            0 => None,
            1 => Some(Outcome::Winner(i.u8()?)),
            2 => Some(Outcome::Shared(i.u16()?)),
            3 => Some(Outcome::Draw),
            _ => Some(Outcome::Ended),
        };
        self.round = i.u32()?;
        self.stage = match i.u8()? {
            0 => Stage::Start,
            1 => Stage::Setup,
            _ => Stage::Rounds,
        };
        self.decisions = i.u32()?;
        self.plies = i.u32()?;
        self.box_after_setup = i.u32()?.checked_sub(1);
        self.box_moved_at = match i.u16()?.checked_sub(1) {
            None => None,
            Some(file) => Some(Loc { file: FileId(file), span: Span { start: usize::try_from(i.var()?).ok()?, end: usize::try_from(i.var()?).ok()? } }),
        };
        let flags = i.u8()?;
        self.forced_decisions = flags & 1 != 0;
        self.exploring = flags & 2 != 0;
        self.sampled_shuffle = flags & 4 != 0;
        self.sim = match i.u8()? {
            0 => None,
            _ => {
                let mut sim = Simultaneous { player: i.u8()?.checked_sub(1), decisions: i.u32()?, had_turn: i.u32()?, ..Simultaneous::default() };
                for _ in 0..i.u32()? {
                    sim.sealed.push((i.slot()?, i.value()?, i.u8()?));
                }
                for _ in 0..i.u32()? {
                    sim.undo.push((i.slot()?, i.value()?));
                }
                Some(Box::new(sim))
            }
        };
        self.fired.iter_mut().for_each(|f| *f = 0);
        self.ends_fired.iter_mut().for_each(|f| *f = 0);
        self.branches.iter_mut().for_each(|f| *f = 0);
        self.scratch.clear();
        self.zone_hash.kept = words.is_some();
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The inline forms of small numbers and spaces write the bytes the
    /// general form writes, and every value reads back as itself.
    #[test]
    fn values_read_back_and_small_ones_take_the_general_bytes() {
        let values = [
            Value::Int(0), Value::Int(1), Value::Int(63), Value::Int(64), Value::Int(-1), Value::Int(-64), Value::Int(-65), Value::Int(i64::MAX), Value::Int(i64::MIN + 1),
            Value::zone(0), Value::zone(127), Value::zone(128), Value::zone(u16::MAX - 1), Value::None, Value::True, Value::False, Value::player(3), Value::piece(200),
        ];
        for v in values {
            let (mut fast, mut general) = (Vec::new(), Vec::new());
            Out(&mut fast).value(v);
            Out(&mut general).other_value(v);
            assert_eq!(fast, general, "{v:?}");
            let mut input = In { bytes: &fast, at: 0 };
            assert_eq!(input.value(), Some(v), "{v:?}");
            assert_eq!(input.at, fast.len(), "{v:?}");
        }
    }
}
