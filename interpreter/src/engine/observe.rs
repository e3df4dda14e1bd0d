//! What one player may see, and readable labels for values.

use super::layout::Game;
use super::state::State;
use super::value::Value;
use grimoire_grammar::ast::Visibility;
use serde::Serialize;

/// The "player" who stands for the whole table in [`Game::observe`] and
/// [`Game::knows`]: he sees the public zones and vars, and the pieces a
/// `reveal` showed to every player (the final table of a game).
pub const EVERYBODY: u8 = u8::MAX;

/// One zone as a player sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ZoneView {
    /// Zone name.
    pub zone: String,
    /// Number of pieces.
    pub count: usize,
    /// The pieces, front first, if the player may see them. In a zone the
    /// player cannot see but where a `reveal` showed him some pieces, those
    /// are named and the others are `?`.
    pub pieces: Option<Vec<String>>,
}

/// Everything one player may see of a state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Observation {
    /// Whose view this is (from 0; serialized from 1, as players are
    /// numbered in every report and log).
    #[serde(serialize_with = "from_one")]
    pub player: u8,
    /// Current round.
    pub round: u32,
    /// Non-empty zones.
    pub zones: Vec<ZoneView>,
    /// Counters and vars the player may see, as `name = value`.
    pub values: Vec<String>,
    /// The options, if this player must decide now, as he is shown them
    /// ([`Game::options_seen_by`]).
    pub options: Option<Vec<String>>,
}

/// A player's number as reports give it: from 1.
fn from_one<S: serde::Serializer>(player: &u8, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u16(u16::from(*player) + 1)
}

impl Game {
    /// A roll in words: "`player_die` rolled 4 (rule `roll_dice`)".
    pub fn roll_text(&self, roll: &super::Rolled) -> String {
        let die = self.model.dice.get(roll.die.idx()).map_or("?", |d| d.name.as_str());
        format!("`{die}` rolled {} (rule `{}`)", self.label(roll.value), self.model.proc(roll.rule).name)
    }

    /// A piece shown by a `reveal`, in words: "`Baron` in hand[2] (rule `priest`)".
    pub fn reveal_text(&self, shown: &super::Revealed) -> String {
        let zone = self.zones.get(shown.zone as usize).map_or("?", |z| z.name.as_str());
        let rule = shown.rule.map(|r| format!(" (rule `{}`)", self.model.proc(r).name)).unwrap_or_default();
        format!("{} in {zone}{rule}", self.label(Value::piece(shown.piece)))
    }

    /// A readable label for a value.
    pub fn label(&self, v: Value) -> String {
        let m = &*self.model;
        match v {
            Value::None => "none".into(),
            Value::Int(i) => i.to_string(),
            Value::True => "yes".into(),
            Value::False => "no".into(),
            Value::Player(p) => format!("player {}", p + 1),
            Value::Piece(p) => {
                let i = p as usize;
                let (Some(k), Some(variant), Some(owner)) = (self.inst_kind.get(i), self.inst_variant.get(i), self.inst_owner.get(i)) else {
                    return format!("piece #{p}");
                };
                let mut s = match variant {
                    Some(v) => {
                        let var = &m.variants[v.idx()];
                        match &var.label {
                            Some(l) => format!("{} ({l})", var.name),
                            None => var.name.clone(),
                        }
                    }
                    None => m.kinds[k.idx()].name.clone(),
                };
                if let Some(o) = owner {
                    s.push_str(&format!(" of player {}", u16::from(*o) + 1));
                }
                s
            }
            Value::Zone(z) => self.zones.get(z as usize).map(|z| z.name.clone()).unwrap_or_else(|| format!("zone #{z}")),
            Value::Face(f) => m.faces.get(f as usize).map(|f| f.label.clone().unwrap_or_else(|| f.name.clone())).unwrap_or_default(),
            Value::Variant(v) => m.variants.get(v as usize).map(|v| v.name.clone()).unwrap_or_default(),
            Value::Dir(1) => "clockwise".into(),
            Value::Dir(_) => "counterclockwise".into(),
            Value::Row(packed) => {
                let (t, r) = Value::row_parts(packed);
                format!("row {} of {}", r + 1, m.tables.get(t as usize).map(|t| t.name.as_str()).unwrap_or("?"))
            }
        }
    }

    /// A readable label for an option: its value, or the values of a tuple
    /// joined by commas.
    pub fn option_label(&self, option: &[Value]) -> String {
        let parts: Vec<String> = option.iter().map(|v| self.label(*v)).collect();
        parts.join(", ")
    }

    /// The labels of the options of the decision pending in `st`, as
    /// players, logs and scenarios see them: [`Game::option_label`] of
    /// each, except that options that would read alike (three moves of
    /// "man of player 1, 1, -1") show each of their pieces with the zone it
    /// is in, "man of player 1 (board 2,2), 1, -1", when that tells them
    /// apart. Alike pieces in one zone (two veterans in the same troop)
    /// keep their plain labels: the zone would say nothing.
    pub fn option_labels(&self, st: &State) -> Vec<String> {
        let Some((_, options)) = self.choices(st) else { return Vec::new() };
        let mut labels: Vec<String> = options.iter().map(|o| self.option_label(o)).collect();
        let mut groups: std::collections::HashMap<String, Vec<usize>> = std::collections::HashMap::new();
        for (i, l) in labels.iter().enumerate() {
            groups.entry(l.clone()).or_default().push(i);
        }
        for members in groups.into_values().filter(|m| m.len() > 1) {
            let placed: Vec<String> = members.iter().map(|i| options.get(*i).map(|o| self.placed_label(st, o)).unwrap_or_default()).collect();
            if placed.iter().any(|p| Some(p) != placed.first()) {
                for (i, p) in members.into_iter().zip(placed) {
                    if let Some(l) = labels.get_mut(i) {
                        *l = p;
                    }
                }
            }
        }
        labels
    }

    /// The label of option `i` of the pending decision, as
    /// [`Game::option_labels`] gives it, without labelling every option
    /// when none can read like it: what logs record at each decision (a
    /// decision of 100,000 numbers made the validator's games thousands of
    /// times slower than `simulate`'s). Only pieces can read alike while
    /// they differ; other options read alike only when they are equal.
    pub fn option_label_at(&self, st: &State, i: usize) -> String {
        let Some((_, options)) = self.choices(st) else { return String::new() };
        let Some(chosen) = options.get(i) else { return String::new() };
        let label = self.option_label(chosen);
        let pieces = chosen.iter().any(|v| matches!(v, Value::Piece(_)));
        let alike = |o: &[Value]| if pieces { self.option_label(o) == label } else { o == chosen };
        if options.iter().enumerate().any(|(j, o)| j != i && alike(o)) {
            return self.option_labels(st).into_iter().nth(i).unwrap_or_default();
        }
        label
    }

    /// The options pending in `st` as `player` is shown them ([`Game::observe`],
    /// the screen of `grimoire play`): each option's index among
    /// [`Game::choices`] and its label. The labels are those of
    /// [`Game::option_labels`], in the engine's order, except when an option
    /// holds a piece the player cannot tell (it lies in a zone he cannot see
    /// and was not revealed to him): that piece reads as "a hidden piece of
    /// hand[2] (2nd from the front)", its place being all a blind draw lets
    /// him point at, and the options are sorted by what he sees, since the
    /// engine's order follows the pieces' identities. Logs and scenarios
    /// keep the full labels: they are written by someone who sees the game.
    pub fn options_seen_by(&self, st: &State, player: u8) -> Vec<(usize, String)> {
        let Some((_, options)) = self.choices(st) else { return Vec::new() };
        let hidden = |v: &Value| matches!(*v, Value::Piece(p) if !self.sees_piece(st, player, p as u16));
        if !options.iter().any(|o| o.iter().any(hidden)) {
            return self.option_labels(st).into_iter().enumerate().collect();
        }
        // Part by part: a hidden piece by its zone and place (before anything
        // shown), anything else by its label; the same for the sort key.
        // A part's sort key: hidden first, then zone, place and label.
        type Key = (u8, usize, usize, String);
        let part = |v: &Value| -> (Key, String) {
            match *v {
                Value::Piece(p) if !self.sees_piece(st, player, p as u16) => {
                    let z = st.loc.get(p as usize).copied().unwrap_or(u16::MAX);
                    let zone = self.zones.get(usize::from(z)).map_or("?", |i| i.name.as_str());
                    let place = st.zone_pieces(z).position(|q| u64::from(q) == p).unwrap_or(usize::MAX);
                    ((0, usize::from(z), place, String::new()), format!("a hidden piece of {zone} ({} from the front)", ordinal(place.saturating_add(1))))
                }
                other => {
                    let label = self.label(other);
                    ((1, 0, 0, label.clone()), label)
                }
            }
        };
        let mut seen: Vec<(Vec<Key>, usize, String)> = options
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let (key, labels): (Vec<_>, Vec<_>) = o.iter().map(part).unzip();
                (key, i, labels.join(", "))
            })
            .collect();
        seen.sort_by(|a, b| a.0.cmp(&b.0));
        seen.into_iter().map(|(_, i, label)| (i, label)).collect()
    }

    /// Whether two options are the same move but for which of several
    /// interchangeable pieces it takes: part by part, the same value, or
    /// pieces of one kind, variant and owner in one zone with the same
    /// per-piece counters and vars. Options that read alike and are not
    /// interchangeable cannot be told apart by their label.
    pub fn interchangeable(&self, st: &State, a: &[Value], b: &[Value]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| self.same_but_for_instance(st, *x, *y))
    }

    fn same_but_for_instance(&self, st: &State, x: Value, y: Value) -> bool {
        let (Value::Piece(p), Value::Piece(q)) = (x, y) else { return self.same(x, y) };
        let (p, q) = (p as usize, q as usize);
        let class = |i: usize| (self.inst_kind.get(i), self.inst_variant.get(i), self.inst_owner.get(i), st.loc.get(i));
        if class(p) != class(q) {
            return false;
        }
        let Some(kind) = self.inst_kind.get(p) else { return false };
        let first = self.kind_range[kind.idx()].0 as usize;
        let (p, q) = (p - first, q - first);
        let m = &self.model;
        let counters = m.counters.iter().zip(&self.counter_base).filter(|(c, _)| c.per_piece == Some(*kind)).map(|(_, b)| *b as usize);
        let vars = m.vars.iter().zip(&self.var_base).filter(|(v, _)| v.per_piece == Some(*kind)).map(|(_, b)| *b as usize);
        slots_alike(&st.counters, counters, p, q) && slots_alike(&st.vars, vars, p, q)
    }

    /// An option's label with each piece followed by the zone it is in.
    fn placed_label(&self, st: &State, option: &[Value]) -> String {
        let parts: Vec<String> = option
            .iter()
            .map(|v| match *v {
                Value::Piece(p) => match st.loc.get(p as usize).and_then(|z| self.zones.get(*z as usize)) {
                    Some(zone) => format!("{} ({})", self.label(*v), zone.name),
                    None => self.label(*v),
                },
                _ => self.label(*v),
            })
            .collect();
        parts.join(", ")
    }

    /// The slots of a var or counter that `player` may read in `st`: slot,
    /// how to write its index (`[2]`, `[sword of player 1 #1]` or nothing)
    /// and the player it belongs to. A per-piece value is his to read only
    /// where he can tell its piece: its index names the piece, and the value
    /// of a card in another's hand would tell which card it is.
    fn slots(&self, st: &State, player: u8, base: u32, per_player: bool, per_piece: Option<crate::model::KindId>) -> Vec<(usize, String, Option<u8>)> {
        let base = base as usize;
        match per_piece {
            Some(k) => {
                let (first, n) = self.kind_range[k.idx()];
                (0..n)
                    .filter(|i| self.sees_piece(st, player, first + i))
                    .map(|i| (base + i as usize, format!("[{} #{}]", self.label(Value::piece(first + i)), i + 1), self.inst_owner[(first + i) as usize]))
                    .collect()
            }
            None if per_player => (0..self.players).map(|p| (base + p as usize, format!("[{}]", p + 1), Some(p))).collect(),
            None => vec![(base, String::new(), None)],
        }
    }

    /// Whether `player` may see inside zone `z`.
    pub fn sees_zone(&self, player: u8, z: u16) -> bool {
        match self.zones.get(z as usize) {
            Some(info) => match info.visibility {
                Visibility::Public => true,
                Visibility::Owner => info.owner == Some(player),
                Visibility::Hidden => false,
            },
            None => false,
        }
    }

    /// The players who may not see inside zone `z`, one bit each: the rule
    /// of [`Game::sees_zone`] for every player at once.
    pub(crate) fn blind_to(&self, z: u16) -> u16 {
        let everybody = self.all_players();
        match self.zones.get(z as usize).map(|info| (info.visibility, info.owner)) {
            Some((Visibility::Public, _)) => 0,
            Some((Visibility::Owner, owner)) => everybody & !owner.filter(|o| *o < 16).map_or(0, |o| 1u16 << o),
            Some((Visibility::Hidden, _)) | None => everybody,
        }
    }

    /// Whether `player` may tell which piece `p` is in `st`: he sees its
    /// zone, or a `reveal` showed it to him since its zone was last shuffled.
    pub fn sees_piece(&self, st: &State, player: u8, p: u16) -> bool {
        st.loc.get(p as usize).is_some_and(|z| self.sees_zone(player, *z)) || self.knows(st, player, p)
    }

    /// Whether a `reveal` showed piece `p` to `player` since its zone was
    /// last shuffled; for [`EVERYBODY`], whether it showed it to every
    /// player (a card revealed to all is part of what the whole table sees).
    pub fn knows(&self, st: &State, player: u8, p: u16) -> bool {
        if player != EVERYBODY {
            return st.knows(player, p);
        }
        let all = self.all_players();
        st.known.get(p as usize).is_some_and(|k| all != 0 && k & all == all)
    }

    /// Every player of the game, one bit each.
    fn all_players(&self) -> u16 {
        if self.players >= 16 {
            u16::MAX
        } else {
            (1u16 << self.players) - 1
        }
    }

    /// What `player` may see of `st`.
    pub fn observe(&self, st: &State, player: u8) -> Observation {
        let m = &*self.model;
        let mut zones = Vec::new();
        for (z, info) in self.zones.iter().enumerate() {
            let z = z as u16;
            let count = st.zone_len(z);
            if count == 0 || z == self.box_zone {
                continue;
            }
            let pieces = if self.sees_zone(player, z) {
                Some(st.zone_pieces(z).map(|p| self.label(Value::piece(p))).collect())
            } else if st.zone_pieces(z).any(|p| self.knows(st, player, p)) {
                Some(st.zone_pieces(z).map(|p| if self.knows(st, player, p) { self.label(Value::piece(p)) } else { "?".to_string() }).collect())
            } else {
                None
            };
            zones.push(ZoneView { zone: info.name.clone(), count, pieces });
        }
        let mut values = Vec::new();
        let shown = |visibility: Visibility, owner: Option<u8>| match visibility {
            Visibility::Public => true,
            Visibility::Owner => owner == Some(player),
            Visibility::Hidden => false,
        };
        for (c, def) in m.counters.iter().enumerate() {
            for (slot, index, owner) in self.slots(st, player, self.counter_base[c], def.per_player, def.per_piece) {
                if shown(def.visibility, owner) {
                    values.push(format!("{}{index} = {}", def.name, st.counters[slot]));
                }
            }
        }
        for (i, def) in m.vars.iter().enumerate() {
            for (slot, index, owner) in self.slots(st, player, self.var_base[i], def.per_player, def.per_piece) {
                if shown(def.visibility, owner) {
                    // A piece as the table shows it: by name where he can tell it.
                    let value = match st.vars[slot] {
                        Value::Piece(p) if !self.sees_piece(st, player, p as u16) => "?".to_string(),
                        v => self.label(v),
                    };
                    values.push(format!("{}{index} = {value}", def.name));
                }
            }
        }
        let options = match self.choices(st) {
            Some((who, _)) if who == player => Some(self.options_seen_by(st, player).into_iter().map(|(_, label)| label).collect()),
            _ => None,
        };
        Observation { player, round: st.round, zones, values, options }
    }
}

/// Whether pieces `p` and `q` of a kind (counted from its first) hold the
/// same value in each per-piece slot that starts at one of `bases`.
fn slots_alike<T: PartialEq>(values: &[T], bases: impl Iterator<Item = usize>, p: usize, q: usize) -> bool {
    bases.into_iter().all(|base| values.get(base + p) == values.get(base + q))
}

/// "1st", "2nd", "3rd", "4th", … "11th", "12th", "13th", "21st": a place
/// in words, for the messages of the engine and of the CLI.
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
