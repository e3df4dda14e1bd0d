//! What `grimoire play` shows the player to decide: the table, each
//! player's pieces and values, and apart, what only this player may see
//! (an `owner` zone or var of his) — in words: pieces by their label,
//! zones, counters and vars by their declared name without the index the
//! engine gives them (`hand[2]` is "hand" under "You, player 2").

use grimoire_grammar::ast::Visibility;
use grimoire_interpreter::engine::{Game, State, Value};
use grimoire_interpreter::model::KindId;

/// One section of the screen: its heading and lines.
#[derive(Default)]
struct Section {
    lines: Vec<String>,
    /// What only the player to decide sees (his own section only).
    private: Vec<String>,
}

/// The screen of player `me` (from 0): sections for the table, the other
/// players in seat order and, last, his own.
pub fn screen(game: &Game, st: &State, me: u8) -> Vec<String> {
    let players = usize::from(game.players);
    let mut table = Section::default();
    let mut seats: Vec<Section> = (0..players).map(|_| Section::default()).collect();
    zones(game, st, me, &mut table, &mut seats);
    values(game, st, me, &mut table, &mut seats);
    let mut out = Vec::new();
    if !table.lines.is_empty() {
        out.push("On the table".to_string());
        out.extend(table.lines.into_iter().map(|l| format!("  {l}")));
    }
    let you = usize::from(me);
    for (p, s) in seats.iter().enumerate().filter(|(p, _)| *p != you) {
        if !s.lines.is_empty() {
            out.push(format!("Player {}", p + 1));
            out.extend(s.lines.iter().map(|l| format!("  {l}")));
        }
    }
    if let Some(s) = seats.get(you) {
        out.push(format!("You, player {}", you + 1));
        out.extend(s.lines.iter().map(|l| format!("  {l}")));
        if !s.private.is_empty() {
            out.push("  Only you see:".to_string());
            out.extend(s.private.iter().map(|l| format!("    {l}")));
        }
    }
    out
}

/// A declared name in words: `apple_supply` is "apple supply".
fn words(name: &str) -> String {
    name.replace('_', " ")
}

/// A declaration as a person reads it: the label the rulebook gives it
/// (`zone hand "Main" ...`), else its name in words.
fn called(label: Option<&String>, name: &str) -> String {
    label.cloned().unwrap_or_else(|| words(name))
}

/// A space of a board in words: a graph node's label (`node north
/// "Nordheim"`), else its name (`board 2,2`, `north`) in words.
fn space(game: &Game, z: u16) -> String {
    let Some(info) = game.zones.get(usize::from(z)) else { return format!("zone #{z}") };
    let label = info.space.and_then(|(t, i)| game.model.tracks.get(t.idx())?.node_labels.get(usize::from(i))?.as_ref());
    called(label, &info.name)
}

/// A piece in words: its label, else its variant's or kind's name, and
/// whose it is when it is not the player's whose section it is in.
fn piece(game: &Game, p: u16, section: Option<u8>) -> String {
    let m = &*game.model;
    let i = usize::from(p);
    let variant = game.inst_variant.get(i).copied().flatten().and_then(|v| m.variants.get(v.idx()));
    let mut text = match variant {
        Some(v) => v.label.clone().unwrap_or_else(|| words(&v.name)),
        None => game.inst_kind.get(i).and_then(|k| m.kinds.get(k.idx())).map_or_else(|| format!("piece #{p}"), |k| called(k.label.as_ref(), &k.name)),
    };
    if let Some(owner) = game.inst_owner.get(i).copied().flatten() {
        if section != Some(owner) {
            text.push_str(&format!(" of player {}", u16::from(owner) + 1));
        }
    }
    text
}

/// `a, a, b` as `a ×2, b`; order kept otherwise.
fn grouped(labels: Vec<String>) -> String {
    let mut out: Vec<(String, usize)> = Vec::new();
    for l in labels {
        match out.last_mut() {
            Some((last, n)) if *last == l => *n += 1,
            _ => out.push((l, 1)),
        }
    }
    out.into_iter().map(|(l, n)| if n > 1 { format!("{l} ×{n}") } else { l }).collect::<Vec<_>>().join(", ")
}

fn zones(game: &Game, st: &State, me: u8, table: &mut Section, seats: &mut [Section]) {
    for (z, info) in game.zones.iter().enumerate() {
        let Ok(z) = u16::try_from(z) else { break };
        let count = st.zone_len(z);
        if count == 0 || z == game.box_zone {
            continue;
        }
        // A player's zone is named by its declaration, under his heading.
        // One of a zone per space (`clover_slot[path 14]`) is the zone at that space.
        let def = info.def.and_then(|d| game.model.zones.get(d.idx()));
        let name = match (info.owner, def) {
            (Some(_), Some(d)) => called(d.label.as_ref(), &d.name),
            (None, Some(d)) => match d.mult {
                grimoire_interpreter::model::ZoneMult::PerSpace(t) => {
                    // The zone of space i sits at `zone_base + i`, the space at `track_base + i`.
                    let i = info.def.and_then(|x| game.zone_base.get(x.idx())).map_or(0, |b| z - b);
                    let at = game.track_base.get(t.idx()).map_or(z, |b| b + i);
                    format!("{} at {}", called(d.label.as_ref(), &d.name), space(game, at))
                }
                _ => called(d.label.as_ref(), &d.name),
            },
            _ => space(game, z),
        };
        let shown = if game.sees_zone(me, z) {
            grouped(st.zone_pieces(z).map(|p| piece(game, p, info.owner)).collect())
        } else if st.zone_pieces(z).any(|p| game.knows(st, me, p)) {
            // In a zone he cannot see, a piece he can tell was shown to him
            // (or to all): said, so that it does not read as face up.
            let shown_to = if me == grimoire_interpreter::engine::EVERYBODY { "shown to all" } else { "shown to you" };
            grouped(st.zone_pieces(z).map(|p| if game.knows(st, me, p) { format!("{} ({shown_to})", piece(game, p, info.owner)) } else { "a hidden piece".to_string() }).collect())
        } else {
            format!("{count} hidden")
        };
        let line = format!("{name}: {shown}");
        match info.owner.and_then(|o| seats.get_mut(usize::from(o)).map(|s| (o, s))) {
            Some((o, s)) if o == me && info.visibility == Visibility::Owner => s.private.push(line),
            Some((_, s)) => s.lines.push(line),
            None => table.lines.push(line),
        }
    }
}

fn values(game: &Game, st: &State, me: u8, table: &mut Section, seats: &mut [Section]) {
    let m = &*game.model;
    for (c, def) in m.counters.iter().enumerate() {
        let base = game.counter_base.get(c).copied().unwrap_or(0);
        let name = called(def.label.as_ref(), &def.name);
        let shape = (base, def.per_player, def.per_piece, def.visibility);
        lines_of(game, st, me, shape, &name, |slot, _| Some(st.counters.get(slot).copied().unwrap_or(0).to_string())).put(table, seats);
    }
    for (i, def) in m.vars.iter().enumerate() {
        let base = game.var_base.get(i).copied().unwrap_or(0);
        let name = called(def.label.as_ref(), &def.name);
        let shape = (base, def.per_player, def.per_piece, def.visibility);
        let words = |slot: usize, whose: Option<u8>| {
            let value = st.vars.get(slot).copied().unwrap_or_default();
            // A card's value not set yet says nothing: a hand of ten cards
            // showed ten lines of "none".
            (def.per_piece.is_none() || value != Value::None).then(|| value_words(game, st, me, value, whose))
        };
        lines_of(game, st, me, shape, &name, words).put(table, seats);
    }
}

/// The lines `me` may see of one counter or var (its first slot, per
/// player, per piece, visibility): a `public` one's every slot, an `owner`
/// one's slot of his own only (under what only he sees, wherever its piece
/// lies), a `hidden` one's none. `words` gives a slot's value, or `None`
/// for a slot not shown.
fn lines_of(
    game: &Game,
    st: &State,
    me: u8,
    (base, per_player, per_piece, visibility): (u32, bool, Option<KindId>, Visibility),
    name: &str,
    words: impl Fn(usize, Option<u8>) -> Option<String>,
) -> Lines {
    let mut lines = Lines::default();
    for Slot { slot, whose, owner, of, only_mine } in slots(game, st, me, base, per_player, per_piece) {
        let (whose, private) = match visibility {
            Visibility::Public => (whose, only_mine),
            Visibility::Owner if owner == Some(me) => (owner, true),
            _ => continue,
        };
        if let Some(value) = words(slot, whose) {
            lines.add(whose, private, format!("{name}{of}"), value);
        }
    }
    lines
}

/// The lines of one counter or var, in order: the values of alike pieces
/// side by side (the same name, the same value) are one line, `×N`, as
/// their pieces are in a zone: a number of its own for each would let a
/// player follow one of them, which he cannot (docs/language.md, "What
/// players know").
#[derive(Default)]
struct Lines(Vec<(Option<u8>, bool, String, String, usize)>);

impl Lines {
    fn add(&mut self, whose: Option<u8>, private: bool, name: String, value: String) {
        match self.0.last_mut() {
            Some((w, p, n, v, count)) if *w == whose && *p == private && *n == name && *v == value => *count += 1,
            _ => self.0.push((whose, private, name, value, 1)),
        }
    }

    fn put(self, table: &mut Section, seats: &mut [Section]) {
        for (whose, private, name, value, count) in self.0 {
            let times = if count > 1 { format!(" ×{count}") } else { String::new() };
            put(table, seats, whose, private, format!("{name}{times}: {value}"));
        }
    }
}

/// A value in words; a piece as on the board, where `me` can tell it
/// (else "a hidden piece": a var does not show what the table hides).
fn value_words(game: &Game, st: &State, me: u8, v: Value, section: Option<u8>) -> String {
    match v {
        Value::Piece(p) if !game.sees_piece(st, me, p as u16) => "a hidden piece".to_string(),
        Value::Piece(p) => piece(game, p as u16, section),
        other => game.label(other),
    }
}

fn put(table: &mut Section, seats: &mut [Section], whose: Option<u8>, private: bool, line: String) {
    match whose.and_then(|o| seats.get_mut(usize::from(o))) {
        Some(s) if private => s.private.push(line),
        Some(s) => s.lines.push(line),
        None => table.lines.push(line),
    }
}

/// The slots of a counter or var: slot, the player whose section shows
/// it, what it is of (` of La Fée` for one of a piece), and whether it
/// is among what only `me` sees. A value of a piece is shown only while
/// the piece is in play where `me` can see it (or knows it): the values of
/// the cards of a face-down deck would fill the screen and say nothing. It
/// is shown with the pieces of the zone that holds it: under the player
/// whose zone it is (his hand), apart when that zone is `me`'s own.
fn slots(game: &Game, st: &State, me: u8, base: u32, per_player: bool, per_piece: Option<KindId>) -> Vec<Slot> {
    let base = base as usize;
    match per_piece {
        Some(k) => {
            let (first, n) = game.kind_range.get(k.idx()).copied().unwrap_or((0, 0));
            let in_sight = |p: &u16| (first..first + n).contains(p) && game.sees_piece(st, me, *p);
            // Zone by zone, each front first: the order a `choose` from the
            // zone offers them in, so that the values of two pieces alike
            // but for them read in the order of their options (instance
            // order listed the second option's value first, an outside
            // tester's).
            let box_zone = game.box_zone;
            (0..game.zones.len() as u16)
                .filter(|z| *z != box_zone)
                .flat_map(|z| st.zone_pieces(z).filter(&in_sight))
                .map(|p| {
                    let i = p - first;
                    let zone = st.loc.get(usize::from(p)).and_then(|z| game.zones.get(usize::from(*z)));
                    let owner = game.inst_owner.get(usize::from(p)).copied().flatten();
                    // With the pieces of its zone: a shared zone's on the
                    // table, whoever owns the piece.
                    let whose = zone.and_then(|z| z.owner);
                    let only_mine = zone.is_some_and(|z| z.visibility == Visibility::Owner && z.owner == Some(me));
                    Slot { slot: base + usize::from(i), whose, owner, of: format!(" of {}", piece(game, p, whose)), only_mine }
                })
                .collect()
        }
        None if per_player => (0..game.players).map(|p| Slot { slot: base + usize::from(p), whose: Some(p), owner: Some(p), of: String::new(), only_mine: false }).collect(),
        None => vec![Slot { slot: base, whose: None, owner: None, of: String::new(), only_mine: false }],
    }
}

/// One value of a counter or var, as the screen places it.
struct Slot {
    /// Where its value is.
    slot: usize,
    /// The player whose section shows it (none: the table).
    whose: Option<u8>,
    /// The player it belongs to, whom an `owner` var shows it to.
    owner: Option<u8>,
    /// What it is of: ` of La Fée`, or nothing.
    of: String,
    /// Its piece lies in `me`'s own `owner` zone: among what only he sees.
    only_mine: bool,
}
