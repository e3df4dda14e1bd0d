//! The options of a `choose`: its collections walked as nested loops in
//! binding order, and the tuples kept where the condition holds.
//!
//! With several bindings, the condition's parts (joined by `and`) that read
//! only the first bindings are tested once for those values, not once per
//! tuple: when `owner(top(from)) == p` fails, no `to` is tried with that
//! `from`. To keep what the condition means, a part is tested where the
//! plain nested loops would first have tested it: at the first tuple that
//! reaches the condition (so a `from` with no `to` at all never tests it),
//! after the parts written before it. Its result then holds for the rest of
//! the tuples that share those values, and when it failed, the later
//! collections are not walked further for them. When the later collections
//! are constants that are never empty, that first tuple is certain, and the
//! part is tested as soon as its binding is (`tested_at_once`).

use super::compile::conds::ItemTest;
use super::compile::{with_cond, BoolF, Cond, IntF, IntOp, Items, ValOp, MAX_RANGE};
use super::error::{ExecError, ExecErrorKind};
use super::run::Run;
use super::value::Value;

/// Most options one decision may offer (docs/language.md, Limits): each
/// is kept until the decision is taken, and a tool that tries every
/// option holds them all; 16 million pairs of a 64 x 64 grid's cells ran
/// out of memory.
pub const MAX_OPTIONS: usize = 1_000_000;

/// Room for one more tuple of `arity` values; when there is none, the
/// error (R0012) that stops the rules.
#[inline]
fn room_for_one_more(r: &mut Run, arity: usize) -> bool {
    if r.st.options.len() < MAX_OPTIONS * arity {
        return true;
    }
    too_many_options(r);
    false
}

#[cold]
#[inline(never)]
fn too_many_options(r: &mut Run) {
    if r.err.is_none() {
        let msg = format!("this decision has more than {MAX_OPTIONS} options (the limit of one decision): split it into decisions taken one after the other");
        r.err = Some(Box::new(ExecError::new(ExecErrorKind::OutOfRange, msg, None)));
    }
}

/// The condition of a `choose`, split by the binding each part waits for.
pub(crate) struct Staged {
    /// `early[d]`: the parts that read no binding after binding `d`, for
    /// every binding but the last (`None`: no such part); empty when no
    /// part can be tested early.
    pub(crate) early: Vec<Option<BoolF>>,
    /// The rest, tested for each tuple.
    pub(crate) last: Option<BoolF>,
    /// When the last binding walks the cells of a grid and the first part
    /// that reads it is `row(b) == n` or `col(b) == n` (`n` not reading
    /// it), or comes after parts that only test the cell (`count(b) == 0`):
    /// the line only is walked ([`last_on_line`]).
    pub(crate) line: Option<LastLine>,
    /// The whole condition, when it is tests of the last binding's item
    /// read in place (`count(dest) == 0`, conds.rs): then nothing else is
    /// set, and the last binding is walked as a `choose` of one binding
    /// ([`last_in_place`]).
    pub(crate) last_tested: Option<Cond>,
}

/// The row or column of a grid that the first part reading the last
/// binding keeps: its number, read once per walk of that binding.
pub(crate) struct LastLine {
    pub(crate) column: bool,
    pub(crate) number: IntF,
}

impl Staged {
    /// A condition tested whole, for each tuple.
    pub(crate) fn whole(cond: Option<BoolF>) -> Self {
        Staged { early: Vec::new(), last: cond, line: None, last_tested: None }
    }
}

/// The early parts that were tested for the values bound now: bit `d` of
/// `known` is set once part `d` has been tested (its result is bit `d` of
/// `held`). Changing binding `d` forgets what parts `d` and after gave.
#[derive(Default)]
struct Known {
    known: u64,
    held: u64,
    /// `sure_from` of the bindings walked.
    sure: usize,
}

impl Known {
    fn forget_from(&mut self, d: usize) {
        let keep = if d >= 64 { u64::MAX } else { (1u64 << d) - 1 };
        self.known &= keep;
        self.held &= keep;
    }
}

/// Append to `st.options` every tuple of the bindings' collections for which
/// the condition holds. One binding has its condition in `tested` (tests
/// read in place, conds.rs), several in `cond`.
pub(crate) fn collect_tuples(r: &mut Run, binds: &[(u16, Items)], cond: &Staged, tested: Option<&Cond>) {
    if let [(_, items)] = binds {
        // One binding, the usual case: its items are the options.
        match tested {
            None => {
                items.walk(r, |r, v| {
                    if !room_for_one_more(r, 1) {
                        return false;
                    }
                    r.st.options.push(v);
                    true
                });
            }
            Some(tested) => with_cond!(tested, c => {
                items.walk_kept(r, c, |r, v| {
                    if !room_for_one_more(r, 1) {
                        return false;
                    }
                    r.st.options.push(v);
                    true
                });
            }),
        }
        return;
    }
    if cond.early.is_empty() && cond.line.is_none() && cond.last_tested.is_none() {
        every_tuple(r, binds, 0, cond.last.as_ref());
    } else {
        let sure = sure_from(binds);
        walk(r, binds, 0, cond, &mut Known { sure, ..Known::default() });
    }
}

/// The first binding from which every collection is sure to have a first
/// item, known before the walk: constants, never empty, that read no
/// binding (`dr from [-1, 1]`, `c from 1..8`, the spaces of a board).
/// From the binding before it, the first tuple is reached whatever is
/// bound, so an early part can be tested as soon as its binding is.
fn sure_from(binds: &[(u16, Items)]) -> usize {
    binds.iter().rposition(|(_, items)| first_of_constant(items).is_none()).map_or(0, |i| i + 1)
}

/// The first item of a collection that is a constant and never empty.
fn first_of_constant(items: &Items) -> Option<Value> {
    match items {
        Items::Players(n) if *n > 0 => Some(Value::player(0)),
        Items::Range(IntOp::Const(a), IntOp::Const(b), _) if a <= b && b.saturating_sub(*a) < MAX_RANGE => Some(Value::Int(*a)),
        Items::Spaces { base, len } if *len > 0 => Some(Value::zone(*base)),
        Items::Pieces { first, n } if *n > 0 => Some(Value::piece(*first)),
        Items::List(items) => match items.first() {
            Some(ValOp::Const(v)) => Some(*v),
            _ => None,
        },
        _ => None,
    }
}

/// The early part of binding `depth`, just bound, tested at once when
/// the walk below is sure to reach a first tuple (`Known::sure`): the
/// plain walk would go down to it, each binding below taking its first
/// item for a step, and test the part there, with the same values. When
/// the part fails, those steps are spent and those names bound as the
/// plain walk leaves them, and nothing below is walked; when it holds,
/// its result waits in `known` for the walk below. `Some(false)`: it
/// failed; `None`: not tested here (or an error).
fn tested_at_once(r: &mut Run, binds: &[(u16, Items)], depth: usize, cond: &Staged, known: &mut Known) -> Option<bool> {
    let below = binds.get(depth + 1..)?;
    if below.is_empty() || depth + 1 < known.sure {
        return None;
    }
    let part = cond.early.get(depth)?.as_ref()?;
    // With less fuel than the steps below, the plain walk stops on the way
    // down: it runs instead, to stop where it always did.
    if r.fuel < below.len() as u64 {
        return None;
    }
    let holds = part(r);
    if r.err.is_some() {
        return None;
    }
    let bit = 1u64 << depth;
    known.known |= bit;
    if holds {
        known.held |= bit;
        return Some(true);
    }
    if !r.spend(below.len() as u64) {
        return None;
    }
    for (slot, items) in below {
        if let Some(first) = first_of_constant(items) {
            r.set_local(*slot, first);
        }
    }
    Some(false)
}

/// The tuples from binding `depth` on, the whole condition tested for each:
/// a condition with no early part costs nothing more than that.
fn every_tuple(r: &mut Run, binds: &[(u16, Items)], depth: usize, cond: Option<&BoolF>) {
    let Some((slot, items)) = binds.get(depth) else {
        if cond.is_none_or(|c| c(r)) && r.err.is_none() {
            push_tuple(r, binds);
        }
        return;
    };
    let slot = *slot;
    items.walk(r, |r, v| {
        r.set_local(slot, v);
        every_tuple(r, binds, depth + 1, cond);
        r.err.is_none()
    });
}

fn push_tuple(r: &mut Run, binds: &[(u16, Items)]) {
    if !room_for_one_more(r, binds.len()) {
        return;
    }
    for (slot, _) in binds {
        let v = r.local(*slot);
        r.st.options.push(v);
    }
}

/// Walk binding `depth` and the ones after it. Returns `Some(d)` when an
/// early part of binding `d` failed: the walks of the bindings after `d`
/// stop, and binding `d` goes on to its next value.
fn walk(r: &mut Run, binds: &[(u16, Items)], depth: usize, cond: &Staged, known: &mut Known) -> Option<usize> {
    let Some((slot, items)) = binds.get(depth) else {
        return leaf(r, binds, cond, known);
    };
    let slot = *slot;
    if let (Some(tested), true) = (&cond.last_tested, depth + 1 == binds.len()) {
        with_cond!(tested, c => last_in_place(r, binds, items, c));
        return None;
    }
    if let (Some(line), Items::Spaces { base, len }, true) = (&cond.line, items, depth + 1 == binds.len()) {
        if let Some(failed) = last_on_line(r, binds, slot, *base, *len, line, cond, known) {
            return failed;
        }
    }
    let mut failed = None;
    items.walk(r, |r, v| {
        r.set_local(slot, v);
        known.forget_from(depth);
        match tested_at_once(r, binds, depth, cond, known) {
            Some(false) => return r.err.is_none(),
            // The part failed with an error, as at the first tuple.
            _ if r.err.is_some() => return false,
            _ => {}
        }
        match walk(r, binds, depth + 1, cond, known) {
            Some(d) if d < depth => {
                failed = Some(d);
                false
            }
            _ => r.err.is_none(),
        }
    });
    failed
}

/// The last binding's walk when the whole condition is tests of its item
/// read in place (`Staged::last_tested`): the walk of a `choose` of one
/// binding, each item kept pushed with the values of the bindings before
/// it. No part of an earlier binding waits to be tested, and no test reads
/// the walk's name, so what the general walk would do differs only in the
/// bindings no one reads (conds.rs, `ItemTest::bare`).
fn last_in_place<C: ItemTest>(r: &mut Run, binds: &[(u16, Items)], items: &Items, tested: &C) {
    items.walk_kept(r, tested, |r, item| {
        // The item as the walk gives it, not read back from its binding:
        // just written there in two halves, it was read whole, which waits
        // for the writes to land (38 % of a 15 x 15 board's walk).
        if room_for_one_more(r, binds.len()) {
            for (slot, _) in binds.split_last().map_or(&[][..], |(_, earlier)| earlier) {
                let v = r.local(*slot);
                r.st.options.push(v);
            }
            r.st.options.push(item);
        }
        r.err.is_none()
    });
}

/// Every binding holds a value: test the parts not yet tested, in order.
fn leaf(r: &mut Run, binds: &[(u16, Items)], cond: &Staged, known: &mut Known) -> Option<usize> {
    if let Some(d) = early_failed(r, cond, known) {
        return Some(d);
    }
    if r.err.is_none() && cond.last.as_ref().is_none_or(|c| c(r)) && r.err.is_none() {
        push_tuple(r, binds);
    }
    None
}

/// Test the early parts not tested yet for the values bound now, in order:
/// the binding whose part failed, if one did (`None` too after an error).
fn early_failed(r: &mut Run, cond: &Staged, known: &mut Known) -> Option<usize> {
    for (d, part) in cond.early.iter().enumerate() {
        let Some(part) = part else { continue };
        let bit = 1u64 << d;
        if known.known & bit == 0 {
            let holds = part(r);
            if r.err.is_some() {
                return None;
            }
            known.known |= bit;
            if holds {
                known.held |= bit;
            }
        }
        if known.held & bit == 0 {
            return Some(d);
        }
    }
    None
}

/// The last binding's walk over the cells of a grid (zones `base..base +
/// len`) when the first part that reads it keeps one row or column
/// (`row(to) == row(from) + 1`), or comes after parts that only test the
/// cell without fail or cost (`count(to) == 0`): only that line's cells
/// are tried, where
/// the general walk tries every cell and the part turns all the others
/// down. What the general walk does is kept: the first cell is tried first
/// (its step, its binding, then the parts of the earlier bindings not
/// tested yet, and the number of the line, as the part reads it there),
/// every cell costs its step, the tuples come in the same order, and the
/// name is left on the last cell. `None`: not a grid, or too little fuel
/// left to charge the cells skipped (the general walk then runs).
#[allow(clippy::too_many_arguments, reason = "the walk of one binding in the context of the others")]
fn last_on_line(r: &mut Run, binds: &[(u16, Items)], slot: u16, base: u16, len: u16, line: &LastLine, cond: &Staged, known: &mut Known) -> Option<Option<usize>> {
    let (rows, cols) = r.g.geometry.grid_of(base, len)?;
    if len == 0 || r.fuel < u64::from(len) || r.err.is_some() {
        return None;
    }
    // The number of the line first: plain arithmetic that reads no binding
    // of this walk, spends nothing and changes nothing. Should it fail (a
    // `none` in it), the general walk runs instead and fails where it would
    // have read it (parts before the line's, `count(b) == 0`, may turn
    // every cell down before it is read there).
    let number = (line.number)(r);
    if r.err.is_some() {
        r.err = None;
        return None;
    }
    if !r.going() {
        return Some(None);
    }
    r.set_local(slot, Value::zone(base));
    known.forget_from(binds.len() - 1);
    if let Some(d) = early_failed(r, cond, known) {
        return Some(Some(d));
    }
    if r.err.is_some() {
        return Some(None);
    }
    let (rows, cols) = (u64::from(rows), u64::from(cols));
    // The line's cells, as places in the walk (row by row, from 0), as
    // `walk_line` (items.rs) finds them for one binding: one function for
    // both measured 5 % slower on this walk (an iterator of the places, 8 %
    // slower on connect four's).
    let (first, stride, count) = match number {
        c if line.column && (1..=cols as i64).contains(&c) => (c as u64 - 1, cols, rows),
        row if !line.column && (1..=rows as i64).contains(&row) => ((row as u64 - 1) * cols, 1, cols),
        _ => (0, 1, 0),
    };
    // Cells charged so far: the first, and every cell before the last one tried.
    let mut walked = 1u64;
    for k in 0..count {
        let place = first + k * stride;
        if place > 0 {
            // The cells skipped cost their steps (the parts tested may
            // have spent fuel: `spend` stops at what is left).
            if !r.spend(place - walked) || !r.going() {
                return Some(None);
            }
            walked = place + 1;
            r.set_local(slot, Value::zone(base + place as u16));
        }
        if cond.last.as_ref().is_none_or(|c| c(r)) && r.err.is_none() {
            push_tuple(r, binds);
        }
        if r.err.is_some() {
            return Some(None);
        }
    }
    let len = u64::from(len);
    if walked < len {
        if !r.spend(len - walked) {
            return Some(None);
        }
        r.set_local(slot, Value::zone(base + (len - 1) as u16));
    }
    Some(None)
}

/// Write the tuple that starts at `first` in the options into the bindings.
pub(crate) fn take_option(r: &mut Run, binds: &[(u16, Items)], first: usize) {
    for (k, (slot, _)) in binds.iter().enumerate() {
        let v = r.st.options.get(first + k).copied().unwrap_or_default();
        r.set_local(*slot, v);
    }
}
