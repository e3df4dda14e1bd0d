//! A model laid out for one player count and set of options: every component
//! instance, runtime zone, counter slot and var slot gets its index; the
//! boards get their lookup tables; the rules are compiled; and the state every
//! game starts from (everything in the box, counters at their initial values)
//! is built once.

use super::compile::{compile_program, Program};
use super::error::ExecError;
use super::geometry::Geometry;
use super::run::Run;
use super::recorded::Revealed;
use super::state::{Stage, State, NO_ACTOR};
use super::value::Value;
use crate::model::*;
use grimoire_grammar::ast::Visibility;
use std::sync::Arc;

/// One runtime zone.
#[derive(Debug, Clone)]
pub struct ZoneInfo {
    /// Display name: `hand[2]`, `path 12`, `lance_supply`.
    pub name: String,
    /// The declaration, if not a track space or the box.
    pub def: Option<ZoneDefId>,
    /// The player it belongs to.
    pub owner: Option<u8>,
    /// Track and index (from 0) if it is a space.
    pub space: Option<(TrackId, u16)>,
    /// Order matters.
    pub ordered: bool,
    /// Capacity.
    pub capacity: Option<u16>,
    /// Allowed kinds (empty: any).
    pub kinds: Vec<KindId>,
    /// Who sees inside.
    pub visibility: Visibility,
}

/// The game cannot be set up as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Player count outside the rulebook's range.
    #[error("the rulebook is for {min} to {max} players, not {asked}")]
    Players {
        /// Lowest allowed.
        min: u8,
        /// Highest allowed.
        max: u8,
        /// Asked for.
        asked: u8,
    },
    /// An option the rulebook does not declare: the name asked for, and
    /// the rulebook's options in words.
    #[error("the rulebook has no option `{0}`; its options are: {1}")]
    UnknownOption(String, String),
    /// More pieces or zones than the engine's 16-bit ids can number.
    #[error("{0} at this player count: at most 65,535 can be numbered")]
    TooLarge(String),
}

impl SetupError {
    /// `name` is no option of `model`: the error, with the options it has.
    pub fn unknown_option(model: &Model, name: &str) -> SetupError {
        let known = if model.options.is_empty() { "none".to_string() } else { model.options.join(", ") };
        SetupError::UnknownOption(name.to_string(), known)
    }
}

/// What a game started for people keeps of its way: nothing (simulations,
/// validation), the reveals (the run to a kept start state), or the rolls
/// and the reveals (`play`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    Nothing,
    Reveals,
    RollsAndReveals,
}

/// A model laid out for a player count: immutable while games run, and
/// shared by reference between threads.
#[derive(Clone)]
pub struct Game {
    /// The rulebook.
    pub model: Arc<Model>,
    /// Number of players.
    pub players: u8,
    /// Options switched on, by `OptionId`.
    pub options: Vec<bool>,
    /// Kind of each instance.
    pub inst_kind: Vec<KindId>,
    /// Variant of each instance.
    pub inst_variant: Vec<Option<VariantId>>,
    /// Owner of each instance (per-player kinds).
    pub inst_owner: Vec<Option<u8>>,
    /// Per instance: the first instance and the number of instances of its
    /// kind, variant and owner (laid out next to each other), the pieces
    /// that may look alike to it.
    pub(crate) alike_run: Vec<(u16, u16)>,
    /// First instance of each kind and how many.
    pub kind_range: Vec<(u16, u16)>,
    /// Runtime zones.
    pub zones: Vec<ZoneInfo>,
    /// First runtime zone of each zone declaration.
    pub zone_base: Vec<u16>,
    /// First runtime zone (space 1) of each track.
    pub track_base: Vec<u16>,
    /// The box: where every component starts, out of the game.
    pub box_zone: u16,
    /// First slot of each counter.
    pub counter_base: Vec<u32>,
    /// First slot of each var.
    pub var_base: Vec<u32>,
    /// Counter slots in all.
    pub counter_slots: u32,
    /// Var slots in all.
    pub var_slots: u32,
    /// Triggers listening to arrivals of each kind.
    pub triggers_by_kind: Vec<Vec<ProcId>>,
    /// Board lookup tables.
    pub(crate) geometry: Geometry,
    /// The space types of each zone (bit i: tag i; 0 off the boards).
    pub(crate) zone_tags: Vec<u64>,
    /// The compiled rules.
    pub(crate) program: Arc<Program>,
    /// Every game's state before setup, or the error its initial values gave.
    template: Arc<Result<State, ExecError>>,
    /// When setup draws no random number, every game reaches its first
    /// decision in the same state (but for the seed): that state, kept.
    first_decision: Arc<Option<State>>,
    /// Otherwise, the state every game goes through before its first draw
    /// from the RNG (in the middle of setup, say before its first shuffle),
    /// and the fuel left there: a new game starts from it.
    before_chance: Arc<Option<(State, u64)>>,
    /// When setup fails before it draws a random number, it fails the same
    /// way for every seed: the state it stopped in and the error, kept, so
    /// that a setup that loops runs out of fuel once, not once per game
    /// (validate plays a thousand).
    setup_failure: Arc<Option<(State, ExecError)>>,
    /// The reveals the run kept in one of the three states above made on
    /// its way there, each with the zone the piece was in when shown: a
    /// recorded game (`play`) starts with them.
    start_reveals: Arc<Vec<Revealed>>,
    /// The start of an explored game (chance a decision: it draws nothing,
    /// so it is the same every time), worked out the first time it is
    /// asked for. Validate's search, its guided games, the walks that look
    /// for loops and every counterexample's replay start there; each had
    /// run the setup again, and a setup that loops burnt its whole fuel
    /// each time.
    exploring_start: Arc<std::sync::OnceLock<Result<State, ExecError>>>,
    /// What a state's canonical form keeps (exploration).
    pub(crate) canon: Arc<super::canonical::Canon>,
    /// Which changes the end conditions can see.
    pub(crate) end_watch: Arc<super::end_watch::EndWatch>,
    /// The rulebook's limits, or the engine's defaults.
    pub(crate) step_fuel: u64,
    pub(crate) trigger_depth: u8,
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game").field("rulebook", &self.model.name).field("players", &self.players).field("options", &self.options).finish_non_exhaustive()
    }
}

impl Game {
    /// Lay the model out for `players` players with the named options on.
    pub fn new(model: Arc<Model>, players: u8, options: &[String]) -> Result<Game, SetupError> {
        if players < model.min_players || players > model.max_players {
            return Err(SetupError::Players { min: model.min_players, max: model.max_players, asked: players });
        }
        let mut on = vec![false; model.options.len()];
        for o in options {
            match model.options.iter().position(|x| x == o) {
                Some(i) => on[i] = true,
                None => return Err(SetupError::unknown_option(&model, o)),
            }
        }
        let n = players as usize;
        // Checked before anything is built: ids below are 16-bit.
        if let Some(what) = model.layout_size(players).too_large() {
            return Err(SetupError::TooLarge(what));
        }
        let (mut inst_kind, mut inst_variant, mut inst_owner, mut kind_range) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut alike_run: Vec<(u16, u16)> = Vec::new();
        for (k, kind) in model.kinds.iter().enumerate() {
            let first = inst_kind.len() as u16;
            let owners: Vec<Option<u8>> = if kind.per_player { (0..players).map(Some).collect() } else { vec![None] };
            for owner in owners {
                if kind.variants.is_empty() {
                    let run = (inst_kind.len() as u16, kind.count);
                    for _ in 0..kind.count {
                        inst_kind.push(KindId(k as u16));
                        inst_variant.push(None);
                        inst_owner.push(owner);
                        alike_run.push(run);
                    }
                } else {
                    for v in &kind.variants {
                        let count = model.variants[v.idx()].count;
                        let run = (inst_kind.len() as u16, count);
                        for _ in 0..count {
                            inst_kind.push(KindId(k as u16));
                            inst_variant.push(Some(*v));
                            inst_owner.push(owner);
                            alike_run.push(run);
                        }
                    }
                }
            }
            kind_range.push((first, inst_kind.len() as u16 - first));
        }
        let mut zones = Vec::new();
        let mut track_base = Vec::new();
        for t in &model.tracks {
            track_base.push(zones.len() as u16);
            for i in 0..t.spaces.len() {
                zones.push(ZoneInfo {
                    name: match t.shape {
                        Shape::Grid { cols, .. } => format!("{} {},{}", t.name, i / cols as usize + 1, i % cols as usize + 1),
                        Shape::Graph => t.node_names.get(i).cloned().unwrap_or_default(),
                        _ => format!("{} {}", t.name, i + 1),
                    },
                    def: None,
                    owner: None,
                    space: Some((TrackId(track_base.len() as u16 - 1), i as u16)),
                    ordered: true,
                    capacity: None,
                    kinds: Vec::new(),
                    visibility: Visibility::Public,
                });
            }
        }
        let mut zone_base = Vec::new();
        for (d, def) in model.zones.iter().enumerate() {
            zone_base.push(zones.len() as u16);
            let make = |name: String, owner: Option<u8>| ZoneInfo {
                name,
                def: Some(ZoneDefId(d as u16)),
                owner,
                space: None,
                ordered: def.ordered,
                capacity: def.capacity,
                kinds: def.kinds.clone(),
                visibility: def.visibility,
            };
            match def.mult {
                ZoneMult::Single => zones.push(make(def.name.clone(), None)),
                ZoneMult::PerPlayer => {
                    for p in 0..players {
                        zones.push(make(format!("{}[{}]", def.name, p + 1), Some(p)));
                    }
                }
                ZoneMult::PerSpace(t) => {
                    let len = model.tracks[t.idx()].spaces.len();
                    for i in 0..len {
                        // Named after its space as the space is (`board 2,1`, `path 3`, a node's name).
                        let space = track_base.get(t.idx()).and_then(|b| zones.get(usize::from(*b) + i)).map(|z| z.name.clone()).unwrap_or_default();
                        zones.push(make(format!("{}[{space}]", def.name), None));
                    }
                }
            }
        }
        let box_zone = zones.len() as u16;
        zones.push(ZoneInfo {
            name: "box".into(),
            def: None,
            owner: None,
            space: None,
            ordered: false,
            capacity: None,
            kinds: Vec::new(),
            visibility: Visibility::Hidden,
        });
        // A var or counter has one slot, one per player, or one per piece of a kind.
        let width = |per_player: bool, per_piece: Option<KindId>| -> u32 {
            match per_piece {
                Some(k) => u32::from(kind_range[k.idx()].1),
                None if per_player => n as u32,
                None => 1,
            }
        };
        let mut counter_base = Vec::new();
        let mut slots = 0u32;
        for c in &model.counters {
            counter_base.push(slots);
            slots += width(c.per_player, c.per_piece);
        }
        let mut var_base = Vec::new();
        let mut vslots = 0u32;
        for v in &model.vars {
            var_base.push(vslots);
            vslots += width(v.per_player, v.per_piece);
        }
        let mut triggers_by_kind = vec![Vec::new(); model.kinds.len()];
        for t in &model.triggers {
            if let Some(k) = model.procs[t.idx()].on_arrive {
                triggers_by_kind[k.idx()].push(*t);
            }
        }
        let geometry = Geometry::new(&model, &track_base, zones.len());
        let (model_fuel, model_depth) = (model.step_fuel, model.trigger_depth);
        let zone_tags = zones
            .iter()
            .map(|z| match z.space {
                Some((t, i)) => model.tracks[t.idx()].spaces.get(i as usize).copied().unwrap_or(0),
                None => 0,
            })
            .collect();
        let end_watch = Arc::new(super::end_watch::EndWatch::new(&model, &zones, box_zone, &counter_base, slots, &var_base, vslots));
        let mut game = Game {
            model,
            players,
            options: on,
            inst_kind,
            inst_variant,
            inst_owner,
            alike_run,
            kind_range,
            zones,
            zone_base,
            track_base,
            box_zone,
            counter_base,
            var_base,
            counter_slots: slots,
            var_slots: vslots,
            triggers_by_kind,
            geometry,
            zone_tags,
            program: Arc::new(Program::default()),
            template: Arc::new(Err(ExecError::new(super::ExecErrorKind::NoOutcome, "the game is not laid out yet", None))),
            first_decision: Arc::new(None),
            before_chance: Arc::new(None),
            setup_failure: Arc::new(None),
            start_reveals: Arc::new(Vec::new()),
            exploring_start: Arc::default(),
            canon: Arc::default(),
            end_watch,
            step_fuel: if model_fuel == 0 { super::STEP_FUEL } else { model_fuel },
            trigger_depth: if model_depth == 0 { super::TRIGGER_DEPTH } else { model_depth },
        };
        game.program = Arc::new(compile_program(&game));
        game.canon = Arc::new(super::canonical::Canon::new(&game, false));
        game.template = Arc::new(game.initial_state());
        // The reveals made on the way to a kept state are kept apart, with
        // where each piece was then; the kept state itself records none,
        // as a game that is not recorded records none.
        let (mut st, result) = game.begin_keeping(0, Keep::Reveals);
        let reveals = st.revealed.take().unwrap_or_default();
        if !st.drew_randomness() {
            game.start_reveals = Arc::new(reveals);
            // Set up without a draw, a decision or a forced choice: an
            // explored game starts past the setup too.
            if result.is_ok() && st.stage == Stage::Rounds && st.plies == 0 {
                game.canon = Arc::new(super::canonical::Canon::new(&game, true));
            }
            match result {
                Ok(()) => game.first_decision = Arc::new(Some(st)),
                Err(e) => game.setup_failure = Arc::new(Some((st, e))),
            }
        } else if let Ok(template) = &*game.template {
            let mut st = template.clone();
            st.revealed = Some(Vec::new());
            if let Some(fuel) = game.run_to_chance(&mut st) {
                if !st.drew_randomness() {
                    game.start_reveals = Arc::new(st.revealed.take().unwrap_or_default());
                    game.before_chance = Arc::new(Some((st, fuel)));
                }
            }
        }
        Ok(game)
    }

    /// Everything in the box, counters and vars at their initial values.
    fn initial_state(&self) -> Result<State, ExecError> {
        let m = &*self.model;
        let mut st = State::empty(self);
        let mut r = Run::new(self, &mut st, self.step_fuel);
        let locals = self.program.init_locals;
        for (c, def) in m.counters.iter().enumerate() {
            let v = match &self.program.counter_init[c] {
                Some(f) => self.in_window(&mut r, locals, NO_ACTOR, |r| f.get(r)),
                None => def.lo.max(0).min(def.hi),
            };
            if let Some(e) = r.err.take() {
                return Err(*e);
            }
            if v < def.lo || v > def.hi {
                return Err(ExecError::new(super::ExecErrorKind::CounterBounds, format!("the counter `{}` would start at {v}, outside {}..{}", def.name, def.lo, def.hi), Some(def.at)));
            }
            let base = self.counter_base[c] as usize;
            let end = self.counter_base.get(c + 1).copied().unwrap_or(self.counter_slots) as usize;
            for s in r.st.counters.iter_mut().take(end).skip(base) {
                *s = v;
            }
        }
        for (i, _) in m.vars.iter().enumerate() {
            let v = match &self.program.var_init[i] {
                Some(f) => self.in_window(&mut r, locals, NO_ACTOR, |r| f(r)),
                None => Value::None,
            };
            if let Some(e) = r.err.take() {
                return Err(*e);
            }
            let base = self.var_base[i] as usize;
            let end = self.var_base.get(i + 1).copied().unwrap_or(self.var_slots) as usize;
            for s in r.st.vars.iter_mut().take(end).skip(base) {
                *s = v;
            }
        }
        Ok(st)
    }

    /// The branch sites of the rules, numbered as `State::branches` counts
    /// their runs.
    pub fn sites(&self) -> &[super::Site] {
        &self.program.sites
    }

    /// Equality as the language sees it: a piece equals its variant.
    pub(crate) fn same(&self, a: Value, b: Value) -> bool {
        match (a, b) {
            (Value::Piece(p), Value::Variant(v)) | (Value::Variant(v), Value::Piece(p)) => self.inst_variant.get(p as usize).copied().flatten() == Some(VariantId(v as u16)),
            _ => a == b,
        }
    }

    /// The first instance of variant `v` (its only one where the resolver
    /// lets a variant name a piece: `Expr::PieceOfVariant`); `NIL` if none.
    pub(crate) fn piece_of_variant(&self, v: VariantId) -> u16 {
        self.inst_variant.iter().position(|x| *x == Some(v)).and_then(|i| u16::try_from(i).ok()).unwrap_or(super::state::NIL)
    }

    /// Number of component instances.
    pub fn instance_count(&self) -> usize {
        self.inst_kind.len()
    }

    /// A fresh game from a seed, run up to its first decision.
    pub fn start(&self, seed: u64) -> Result<State, ExecError> {
        let (st, result) = self.begin(seed);
        result.map(|()| st)
    }

    /// Like [`Game::start`], but keeps the state when the rules fail before
    /// the first decision (for coverage and reports).
    pub fn begin(&self, seed: u64) -> (State, Result<(), ExecError>) {
        self.begin_keeping(seed, Keep::Nothing)
    }

    /// Like [`Game::begin`], in a state that keeps the dice it rolls, from
    /// the setup on, for [`State::take_rolls`]: a game played for people
    /// (`play`), who must see the dice.
    pub fn begin_recording(&self, seed: u64) -> (State, Result<(), ExecError>) {
        self.begin_keeping(seed, Keep::RollsAndReveals)
    }

    fn begin_keeping(&self, seed: u64, keep: Keep) -> (State, Result<(), ExecError>) {
        let prepare = |st: &mut State, kept: bool| {
            st.reseed(seed);
            if keep == Keep::RollsAndReveals {
                st.rolled = Some(Vec::new());
                st.forced = Some(Vec::new());
            }
            if keep != Keep::Nothing {
                // A kept state was reached once for every seed: the
                // reveals on the way there were kept with it.
                st.revealed = Some(if kept { self.start_reveals.to_vec() } else { Vec::new() });
            }
        };
        if let Some(first) = &*self.first_decision {
            // The setup rolled nothing: it would not have stopped here.
            let mut st = first.clone();
            prepare(&mut st, true);
            return (st, Ok(()));
        }
        if let Some((failed, e)) = &*self.setup_failure {
            let mut st = failed.clone();
            prepare(&mut st, true);
            return (st, Err(e.clone()));
        }
        if let Some((before, fuel)) = &*self.before_chance {
            let mut st = before.clone();
            prepare(&mut st, true);
            let result = self.run_with_fuel(&mut st, *fuel);
            return (st, result);
        }
        match &*self.template {
            Ok(template) => {
                let mut st = template.clone();
                prepare(&mut st, false);
                let result = self.run(&mut st);
                (st, result)
            }
            Err(e) => {
                let st = State::empty(self);
                (st, Err(e.clone()))
            }
        }
    }

    /// Start a new game from `seed` in a state that already exists, reusing
    /// its memory: random playouts allocate nothing per game.
    pub fn restart(&self, st: &mut State, seed: u64) -> Result<(), ExecError> {
        if let Some(first) = &*self.first_decision {
            st.clone_from(first);
            st.reseed(seed);
            return Ok(());
        }
        if let Some((failed, e)) = &*self.setup_failure {
            st.clone_from(failed);
            st.reseed(seed);
            return Err(e.clone());
        }
        if let Some((before, fuel)) = &*self.before_chance {
            st.clone_from(before);
            st.reseed(seed);
            return self.run_with_fuel(st, *fuel);
        }
        match &*self.template {
            Ok(template) => {
                st.clone_from(template);
                st.reseed(seed);
                self.run(st)
            }
            Err(e) => {
                // As `begin`: the rules did not start, nothing ran.
                *st = State::empty(self);
                Err(e.clone())
            }
        }
    }

    /// A fresh game whose dice and shuffles are chance nodes (decided by
    /// `CHANCE`) and where every ply is a decision, even a forced one, for
    /// exhaustive exploration and move counting.
    pub fn start_exploring(&self) -> Result<State, ExecError> {
        self.exploring_start
            .get_or_init(|| {
                // A setup that failed drawing nothing and taking no forced
                // choice (which an explored game stops at) fails the same
                // way here: it is not run a second time.
                if let Some((failed, e)) = &*self.setup_failure {
                    if failed.plies == 0 {
                        return Err(e.clone());
                    }
                }
                let mut st = match &*self.template {
                    Ok(template) => template.clone(),
                    Err(e) => return Err(e.clone()),
                };
                st.exploring = true;
                st.forced_decisions = true;
                self.run(&mut st)?;
                self.keep_zone_hashes(&mut st);
                Ok(st)
            })
            .clone()
    }
}
