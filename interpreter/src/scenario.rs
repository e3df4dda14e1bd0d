//! Scenarios (`scenario NAME { ... }`): a position reached by steps, and what
//! must hold there. The runner plays a scenario's steps on a [`Game`] and
//! says whether it passed, or which step failed, what it expected, what it
//! found, and where the game stood. It reads no file and prints nothing:
//! `grimoire test` does both.
//!
//! Step by step: `choose` applies an option of the pending decision (by
//! label, position or value), `play` lets the random agent decide (seeded by
//! the scenario's seed, as `simulate` and `play --auto` seed theirs),
//! `place` and `set` change the position by hand (no trigger fires, no end
//! condition is checked, and the pending decision is asked again), and
//! `expect` checks a condition, the options, the prompt or the end. The
//! rulebook's declared invariants are checked after every step.

use crate::engine::{ExecError, Game, Observation, Outcome, State, Value, CHANCE};
use crate::log::{outcome_text, RandomAgent};
use crate::model::*;
use crate::validate::simulate::citation_around;
use crate::Source;
use grimoire_grammar::ast::{AssignOp, BinOp, OptionsTest};
use serde::Serialize;
use unicode_normalization::UnicodeNormalization;
use std::sync::Arc;

/// Most decisions `play until` takes before it gives up.
pub const PLAY_UNTIL_LIMIT: u32 = 100_000;

/// What came of one scenario.
#[derive(Debug, Clone, Serialize)]
pub struct ScenarioResult {
    /// The scenario's name.
    pub name: String,
    /// Where it is declared.
    pub at: Loc,
    /// Number of players.
    pub players: u8,
    /// Its seed.
    pub seed: u64,
    /// Options switched on.
    pub options: Vec<String>,
    /// The quotes it cites.
    pub cites: Vec<String>,
    /// Passed, failed or skipped.
    pub verdict: Verdict,
}

/// Passed, failed, or not run.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Verdict {
    /// Every step ran and every expectation held.
    Passed {
        /// Steps run.
        steps: usize,
    },
    /// A step failed.
    Failed(Box<Failure>),
    /// Not run: the modules it needs (`with`) are not loaded.
    Skipped {
        /// Why.
        reason: String,
    },
}

impl Verdict {
    /// The scenario passed.
    pub fn passed(&self) -> bool {
        matches!(self, Verdict::Passed { .. })
    }
    /// The scenario failed.
    pub fn failed(&self) -> bool {
        matches!(self, Verdict::Failed(_))
    }
}

/// The step that failed, and the game at that point.
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    /// Which step, from 1 (0: the game could not start).
    pub step: usize,
    /// The step as written.
    pub text: String,
    /// Where it is written (the scenario itself for step 0).
    pub at: Loc,
    /// What the step expected.
    pub expected: String,
    /// What was found.
    pub found: String,
    /// What the step cites, if anything.
    pub cites: Vec<String>,
    /// The player who must decide (from 1), if any.
    pub decider: Option<u16>,
    /// The question being asked, if the rulebook gives one.
    pub prompt: Option<String>,
    /// The options offered, as labels.
    pub options: Vec<String>,
    /// Where the pending decision is asked in the rulebook.
    pub pending_at: Option<Loc>,
    /// The sentence of the source the pending decision's rule encodes.
    pub pending_cites: Option<String>,
    /// How the game ended, if it did.
    pub outcome: Option<String>,
    /// Decisions taken since the start of the game.
    pub decisions: u32,
    /// The position, as the player who must decide (or player 1) sees it.
    pub position: Option<Observation>,
}

/// Run every scenario of `model` for which `wanted` holds, in declaration
/// order. `sources` are the rulebook files the model was compiled from
/// (base first), to quote the steps in the results.
pub fn run_all(model: &Model, sources: &[Source], wanted: impl Fn(&ScenarioDef) -> bool) -> Vec<ScenarioResult> {
    let full = Arc::new(model.with_scenario_exprs());
    full.scenarios.iter().filter(|d| wanted(d)).map(|d| run_one(&full, sources, d)).collect()
}

/// Run one scenario of a model that holds the scenarios' expressions
/// ([`Model::with_scenario_exprs`]).
pub fn run_one(full: &Arc<Model>, sources: &[Source], def: &ScenarioDef) -> ScenarioResult {
    let verdict = if def.missing.is_empty() {
        Runner::start(full, sources, def).map_or_else(Verdict::Failed, |mut r| r.steps())
    } else {
        let needs: Vec<String> = def
            .missing
            .iter()
            .map(|(m, close)| match close {
                Some(c) => format!("`{m}`, not given: did you mean `{c}`, which is given?"),
                None => format!("`{m}`"),
            })
            .collect();
        Verdict::Skipped { reason: format!("needs {}", needs.join(", ")) }
    };
    ScenarioResult {
        name: def.name.clone(),
        at: def.at,
        players: def.players,
        seed: def.seed,
        options: def.options.clone(),
        cites: quotes(&def.cites),
        verdict,
    }
}

fn quotes(cites: &[Citation]) -> Vec<String> {
    cites
        .iter()
        .map(|c| match c {
            Citation::Quote { quote, .. } => quote.clone(),
            Citation::Lines { from, to, source, .. } if from == to => format!("{source}, line {from}"),
            Citation::Lines { from, to, source, .. } => format!("{source}, lines {from}..{to}"),
        })
        .collect()
}

/// A scenario being run.
struct Runner<'a> {
    model: &'a Model,
    sources: &'a [Source],
    def: &'a ScenarioDef,
    game: Game,
    st: State,
    agent: RandomAgent,
    /// The step being run (from 1).
    step: usize,
}

/// What the step expected and what was found.
type Miss = (String, String);

/// The option label a `choose "..."` that matches none most likely meant:
/// one a typo away, else the one label that holds what was written, in
/// any case and with or without accents (`"fée"` for `"fee (La Fée)"`).
fn closest_label<'l>(written: &str, labels: &'l [String]) -> Option<&'l str> {
    // A number one digit away is another option, not a typo.
    let typo_possible = written.chars().count() >= 3 && written.parse::<i64>().is_err();
    if let Some(near) = crate::diagnostic::did_you_mean(written, labels.iter().map(String::as_str)).filter(|_| typo_possible) {
        return Some(near);
    }
    // Lowercase, decomposed, without the combining accents.
    let fold = |t: &str| -> String { t.to_lowercase().nfd().filter(|c| !unicode_normalization::char::is_combining_mark(*c)).collect() };
    let wanted = fold(written);
    let mut holding = labels.iter().filter(|l| !wanted.is_empty() && fold(l).contains(&wanted));
    match (holding.next(), holding.next()) {
        (Some(one), None) => Some(one.as_str()),
        _ => None,
    }
}

fn miss(expected: impl Into<String>, found: impl Into<String>) -> Miss {
    (expected.into(), found.into())
}

impl<'a> Runner<'a> {
    fn start(model: &'a Arc<Model>, sources: &'a [Source], def: &'a ScenarioDef) -> Result<Self, Box<Failure>> {
        let fail = |found: String, game: Option<(&Game, &State)>| {
            let mut f = Failure {
                step: 0,
                text: format!("scenario {}", def.name),
                at: def.at,
                expected: "the game to start".into(),
                found,
                cites: Vec::new(),
                decider: None,
                prompt: None,
                options: Vec::new(),
                pending_at: None,
                pending_cites: None,
                outcome: None,
                decisions: 0,
                position: None,
            };
            if let Some((g, st)) = game {
                f.position = Some(g.observe(st, 0));
            }
            Box::new(f)
        };
        let game = Game::new(model.clone(), def.players, &def.options).map_err(|e| fail(e.to_string(), None))?;
        let (st, started) = game.begin(def.seed);
        if let Err(e) = started {
            return Err(fail(error_text(&e), Some((&game, &st))));
        }
        Ok(Runner { model, sources, def, game, st, agent: RandomAgent::new(def.seed), step: 0 })
    }

    fn steps(&mut self) -> Verdict {
        let def = self.def;
        if let Some(m) = self.invariants() {
            return Verdict::Failed(Box::new(self.failure(None, m)));
        }
        for (i, step) in def.steps.iter().enumerate() {
            self.step = i + 1;
            let done = self.run_step(&step.step).and_then(|()| match self.invariants() {
                Some(m) => Err(m),
                None => Ok(()),
            });
            if let Err(m) = done {
                return Verdict::Failed(Box::new(self.failure(Some(step), m)));
            }
        }
        Verdict::Passed { steps: def.steps.len() }
    }

    /// A declared invariant that does not hold now.
    fn invariants(&mut self) -> Option<Miss> {
        let broken = self.game.broken_invariant(&mut self.st)?;
        Some(miss("the rulebook's invariants to hold", format!("{}: {}", broken.error().kind.code(), broken.message())))
    }

    fn failure(&self, step: Option<&ScenarioStep>, (expected, found): Miss) -> Failure {
        let choices = self.game.choices(&self.st);
        let decider = choices.as_ref().map(|(p, _)| *p).filter(|p| *p != CHANCE);
        let options = if choices.is_some() { self.game.option_labels(&self.st) } else { Vec::new() };
        let pending_at = self.game.pending_at(&self.st);
        Failure {
            step: self.step,
            text: step.map(|s| self.text(s.at).to_string()).unwrap_or_else(|| format!("scenario {}", self.def.name)),
            at: step.map(|s| s.at).unwrap_or(self.def.at),
            expected,
            found,
            cites: step.map(|s| quotes(&s.cites)).unwrap_or_default(),
            decider: decider.map(|p| u16::from(p) + 1),
            prompt: self.game.prompt(&self.st).map(str::to_string),
            options,
            pending_at,
            pending_cites: pending_at.and_then(|at| citation_around(self.model, at)),
            outcome: outcome_text(self.st.outcome),
            decisions: self.st.decisions,
            position: Some(self.game.observe(&self.st, decider.unwrap_or(0))),
        }
    }

    /// The rulebook text at `at`.
    fn text(&self, at: Loc) -> &str {
        self.sources.get(at.file.idx()).and_then(|s| s.text.get(at.span.start..at.span.end)).unwrap_or("?")
    }

    /// The text of an expression. The span of a parenthesised operand
    /// leaves its parentheses out (`(a + b) * c` starts at `a`): they are
    /// taken back in until the brackets balance.
    fn expr_text(&self, e: ExprId) -> &str {
        let Some(at) = self.model.expr_at.get(e.0 as usize) else { return "?" };
        let Some(text) = self.sources.get(at.file.idx()).map(|s| s.text.as_str()) else { return "?" };
        let (mut start, mut end) = (at.span.start.min(text.len()), at.span.end.min(text.len()));
        loop {
            let inner = text.get(start..end).unwrap_or("");
            let (open, close) = (inner.matches(['(', '[']).count(), inner.matches([')', ']']).count());
            let before = text.get(..start).unwrap_or("").trim_end();
            let after = text.get(end..).unwrap_or("");
            if close > open && (before.ends_with('(') || before.ends_with('[')) {
                start = before.len() - 1;
            } else if open > close && (after.trim_start().starts_with(')') || after.trim_start().starts_with(']')) {
                end += after.len() - after.trim_start().len() + 1;
            } else {
                return text.get(start..end).unwrap_or("?").trim_end();
            }
        }
    }

    /// The scenario's own locals: `decider`, `winner`, then its bindings.
    fn locals(&self) -> Vec<Value> {
        let mut v = vec![Value::None; self.def.locals.max(SCENARIO_LOCALS) as usize];
        if let (Some((p, _)), Some(x)) = (self.game.choices(&self.st), v.get_mut(SCENARIO_DECIDER as usize)) {
            if p != CHANCE {
                *x = Value::player(p);
            }
        }
        if let (Some(Outcome::Winner(p)), Some(x)) = (self.st.outcome, v.get_mut(SCENARIO_WINNER as usize)) {
            *x = Value::player(p);
        }
        v
    }

    fn eval(&mut self, e: ExprId) -> Result<Value, Miss> {
        let locals = self.locals();
        self.game.eval(&mut self.st, e, &locals).map_err(|err| miss(format!("`{}` to have a value", self.expr_text(e)), error_text(&err)))
    }

    fn label(&self, v: Value) -> String {
        self.game.label(v)
    }

    /// The state of the game in a few words, for what was found.
    fn situation(&self) -> String {
        match (self.st.outcome, self.game.choices(&self.st)) {
            (Some(_), _) => format!("the game is over: {}", outcome_text(self.st.outcome).unwrap_or_default()),
            (None, Some((p, _))) if p == CHANCE => "chance must decide".into(),
            (None, Some((p, _))) => format!("player {} must decide", u16::from(p) + 1),
            (None, None) => "no decision is pending".into(),
        }
    }

    fn labels(&self) -> Vec<String> {
        self.game.option_labels(&self.st)
    }

    /// The random agent decides until `cond` holds (checked before each
    /// decision; the game may not end first), or with no condition until
    /// the game ends; at most [`PLAY_UNTIL_LIMIT`] decisions.
    fn play_until(&mut self, cond: Option<ExprId>) -> Result<(), Miss> {
        let mut taken = 0u32;
        loop {
            if let Some(cond) = cond {
                match self.eval(cond)? {
                    Value::True => return Ok(()),
                    Value::False => {}
                    other => return Err(miss(format!("`{}` to be true or false", self.expr_text(cond)), self.label(other))),
                }
            }
            let Some((_, options)) = self.game.choices(&self.st) else {
                return match cond {
                    Some(cond) => Err(miss(format!("`{}` to hold before the end", self.expr_text(cond)), format!("{} after {taken} decision(s)", self.situation()))),
                    None => Ok(()),
                };
            };
            if taken >= PLAY_UNTIL_LIMIT {
                return Err(match cond {
                    Some(cond) => miss(format!("`{}` to hold within {PLAY_UNTIL_LIMIT} decisions", self.expr_text(cond)), "it never held"),
                    None => miss(format!("the game to end within {PLAY_UNTIL_LIMIT} decisions"), self.situation()),
                });
            }
            let i = self.agent.pick(options.len());
            self.apply(i)?;
            taken += 1;
            if let Some(m) = self.invariants() {
                return Err(m);
            }
        }
    }

    fn run_step(&mut self, step: &StepDef) -> Result<(), Miss> {
        match step {
            StepDef::ChooseLabel(label) => {
                let labels = self.pending(&format!("an option labelled {label:?}"))?;
                let matching: Vec<usize> = labels.iter().enumerate().filter(|(_, l)| *l == label).map(|(i, _)| i).collect();
                match matching.first() {
                    Some(&i) if matching.len() > 1 && !self.all_interchangeable(&matching) => Err(miss(
                        format!("one option labelled {label:?}"),
                        format!("{} options read {label:?} and are not the same move (their pieces differ in their per-piece values): choose one by its number (`choose {}`) or by its value", matching.len(), i + 1),
                    )),
                    Some(&i) => self.apply(i),
                    None => {
                        // The plain label of options that read alike: which one is meant?
                        let alike = self.game.choices(&self.st).map_or(0, |(_, o)| o.iter().filter(|x| self.game.option_label(x) == *label).count());
                        let found = if alike > 1 {
                            format!("{alike} options read {label:?}, told apart by where their pieces are: the options are {}", list(&labels))
                        } else {
                            match closest_label(label, &labels) {
                                Some(near) => format!("the options are {}; did you mean `choose {near:?}`?", list(&labels)),
                                None => format!("the options are {}", list(&labels)),
                            }
                        };
                        Err(miss(format!("an option labelled {label:?}"), found))
                    }
                }
            }
            StepDef::ChooseIndex(n) => {
                let labels = self.pending(&format!("an option number {n}"))?;
                match labels.len() {
                    len if (*n as usize) <= len => self.apply(*n as usize - 1),
                    len => Err(miss(format!("an option number {n}"), format!("{len} option(s): {}", list(&labels)))),
                }
            }
            StepDef::ChooseValue(parts) => {
                let labels = self.pending("an option")?;
                let mut want = Vec::new();
                for e in parts {
                    want.push(self.eval(*e)?);
                }
                let shown: Vec<String> = want.iter().map(|v| self.label(*v)).collect();
                let matching: Vec<usize> = self
                    .game
                    .choices(&self.st)
                    .map(|(_, opts)| opts.iter().enumerate().filter(|(_, o)| o.len() == want.len() && o.iter().zip(&want).all(|(a, b)| self.game.same(*a, *b))).map(|(i, _)| i).collect())
                    .unwrap_or_default();
                match matching.first() {
                    // A variant matches every piece of it: several options
                    // that are different moves (a two in the deck, a two in
                    // a hand) cannot be told apart by it. An outside
                    // tester's `choose two` took the first in silence.
                    Some(_) if matching.len() > 1 && !self.all_interchangeable(&matching) => Err(miss(
                        format!("one option {}", shown.join(", ")),
                        format!("{} options match it and are not the same move: the options are {}; choose one by its label or its number", matching.len(), list(&labels)),
                    )),
                    Some(&i) => self.apply(i),
                    None => Err(miss(format!("an option {}", shown.join(", ")), format!("the options are {}", list(&labels)))),
                }
            }
            StepDef::Play(n) => {
                for _ in 0..*n {
                    let Some((_, options)) = self.game.choices(&self.st) else { break };
                    let i = self.agent.pick(options.len());
                    self.apply(i)?;
                    if let Some(m) = self.invariants() {
                        return Err(m);
                    }
                }
                Ok(())
            }
            StepDef::PlayUntil(cond) => self.play_until(Some(*cond)),
            StepDef::PlayToEnd => self.play_until(None),
            StepDef::Place { what, to, bottom } => self.place(what, *to, *bottom),
            StepDef::Set(lv, op, value) => self.set(lv, *op, *value),
            StepDef::Expect(cond) => match self.eval(*cond)? {
                Value::True => Ok(()),
                Value::False => Err(miss(format!("`{}`", self.expr_text(*cond)), self.why_false(*cond))),
                other => Err(miss(format!("`{}` to be true or false", self.expr_text(*cond)), self.label(other))),
            },
            StepDef::ExpectOptions(test, want) => {
                let labels = self.pending("options")?;
                let ok = match test {
                    OptionsTest::Contain => want.iter().all(|w| labels.contains(w)),
                    OptionsTest::Exclude => !want.iter().any(|w| labels.contains(w)),
                    OptionsTest::Equal => labels == *want,
                };
                if ok {
                    return Ok(());
                }
                let expected = match test {
                    OptionsTest::Contain => format!("the options to contain {}", list(want)),
                    OptionsTest::Exclude => format!("the options to exclude {}", list(want)),
                    OptionsTest::Equal => format!("the options to be {}", list(want)),
                };
                Err(miss(expected, format!("the options are {}", list(&labels))))
            }
            StepDef::ExpectPrompt(want) => match self.game.prompt(&self.st) {
                Some(p) if p == want => Ok(()),
                Some(p) => Err(miss(format!("the question {want:?}"), format!("the question is {p:?} ({})", self.situation()))),
                None => Err(miss(format!("the question {want:?}"), format!("no question is asked ({})", self.situation()))),
            },
            StepDef::ExpectOver(true) if self.st.is_over() => Ok(()),
            StepDef::ExpectOver(false) if !self.st.is_over() => Ok(()),
            StepDef::ExpectOver(over) => Err(miss(if *over { "the game to be over" } else { "the game not to be over" }, self.situation())),
        }
    }

    /// Whether the options at these places of the pending decision are one
    /// move but for which interchangeable pieces they take.
    fn all_interchangeable(&self, places: &[usize]) -> bool {
        let Some((_, options)) = self.game.choices(&self.st) else { return true };
        let Some(first) = places.first().and_then(|i| options.get(*i)) else { return true };
        places.iter().filter_map(|i| options.get(*i)).all(|o| self.game.interchangeable(&self.st, first, o))
    }

    /// The labels of the pending decision; a miss when the game is over.
    fn pending(&self, what: &str) -> Result<Vec<String>, Miss> {
        match self.game.choices(&self.st) {
            Some(_) => Ok(self.labels()),
            None => Err(miss(format!("a decision offering {what}"), self.situation())),
        }
    }

    fn apply(&mut self, i: usize) -> Result<(), Miss> {
        let label = self.labels().get(i).cloned().unwrap_or_default();
        self.game.apply(&mut self.st, i).map_err(|e| miss(format!("option {label:?} to run"), error_text(&e)))
    }

    /// Why a condition is false: the values of both sides of a comparison;
    /// for `and`, the first part that is false.
    fn why_false(&mut self, cond: ExprId) -> String {
        let Expr::Bin(op, a, b) = self.model.expr(cond).clone() else { return "it is false".into() };
        if op == BinOp::And {
            let part = if self.eval(a) == Ok(Value::False) { a } else { b };
            let text = self.expr_text(part).to_string();
            return format!("`{text}` is false: {}", self.why_false(part));
        }
        if !matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge) {
            return "it is false".into();
        }
        let mut parts = Vec::new();
        for side in [a, b] {
            let literal = match self.model.expr(side) {
                Expr::Int(_) | Expr::Bool(_) | Expr::None => true,
                Expr::Call(Builtin::PlayerNo, args) => matches!(args.as_slice(), [x] if matches!(self.model.expr(*x), Expr::Int(_))),
                _ => false,
            };
            if literal {
                continue;
            }
            let text = self.expr_text(side).to_string();
            match self.eval(side) {
                Ok(v) => parts.push(format!("`{text}` is {}", self.label(v))),
                Err((_, e)) => parts.push(format!("`{text}` fails: {e}")),
            }
        }
        if parts.is_empty() {
            "it is false".into()
        } else {
            parts.join(", ")
        }
    }

    fn piece(&mut self, e: ExprId) -> Result<u16, Miss> {
        match self.eval(e)? {
            Value::Piece(p) => Ok(p as u16),
            other => Err(miss(format!("`{}` to be a piece", self.expr_text(e)), self.label(other))),
        }
    }

    fn zone(&mut self, e: ExprId) -> Result<u16, Miss> {
        match self.eval(e)? {
            Value::Zone(z) => Ok(z as u16),
            other => Err(miss(format!("`{}` to be a zone", self.expr_text(e)), self.label(other))),
        }
    }

    fn place(&mut self, what: &PlaceWhat, to: ExprId, bottom: bool) -> Result<(), Miss> {
        let pieces: Vec<u16> = match what {
            PlaceWhat::Piece(e) => vec![self.piece(*e)?],
            PlaceWhat::Top(z) => {
                let z = self.zone(*z)?;
                match self.st.zone_top(z) {
                    Some(p) => vec![p],
                    None => return Err(miss("a piece to place", format!("`{}` is empty", self.label(Value::zone(z))))),
                }
            }
            PlaceWhat::All(z) => {
                let z = self.zone(*z)?;
                self.st.zone_pieces(z).collect()
            }
            PlaceWhat::Count { n, kind, from } => {
                let n = match self.eval(*n)? {
                    Value::Int(n) if n >= 0 => n as usize,
                    other => return Err(miss("a number of pieces", self.label(other))),
                };
                let z = self.zone(*from)?;
                let mut of_kind: Vec<u16> = self.st.zone_pieces(z).filter(|p| self.game.inst_kind.get(*p as usize) == Some(kind)).collect();
                if of_kind.len() < n {
                    let name = self.model.kinds.get(kind.idx()).map(|k| k.name.as_str()).unwrap_or("?");
                    return Err(miss(format!("{n} `{name}` in `{}`", self.label(Value::zone(z))), format!("{} there", of_kind.len())));
                }
                // The top-most first, as `move N of KIND from` takes them.
                of_kind.reverse();
                of_kind.truncate(n);
                of_kind
            }
        };
        let z = self.zone(to)?;
        let Some(info) = self.game.zones.get(z as usize) else { return Err(miss("a zone", "none")) };
        // Every piece is checked before any moves: a step that fails
        // leaves the position as it was (a hostile tester's `place 2 ... at`
        // a zone with room for one left one of them there).
        for p in &pieces {
            let kind = self.game.inst_kind.get(*p as usize).copied();
            if let Some(k) = kind.filter(|k| !info.kinds.is_empty() && !info.kinds.contains(k)) {
                let name = self.model.kinds.get(k.idx()).map(|k| k.name.as_str()).unwrap_or("?");
                return Err(miss(format!("`{}` to hold `{name}`", info.name), "it does not: the zone is declared for other kinds"));
            }
        }
        let arriving = pieces.iter().filter(|p| self.st.loc.get(**p as usize) != Some(&z)).count();
        if let Some(cap) = info.capacity.filter(|c| arriving > 0 && self.st.zone_len(z) + arriving > *c as usize) {
            return Err(miss(format!("room in `{}` for {arriving} more", info.name), format!("it holds {} of {cap}", self.st.zone_len(z))));
        }
        for p in pieces {
            self.st.put(p, z, bottom);
        }
        self.reask()
    }

    fn set(&mut self, lv: &LValue, op: AssignOp, value: ExprId) -> Result<(), Miss> {
        let v = self.eval(value)?;
        match lv {
            LValue::Var(var, idx) => {
                let def = self.model.vars.get(var.idx()).cloned();
                let Some(def) = def else { return Err(miss("a var", "none")) };
                let base = self.game.var_base.get(var.idx()).copied().unwrap_or(0);
                let slot = self.slot(base, def.per_player, def.per_piece, *idx, &def.name)?;
                let new = match op {
                    AssignOp::Set => v,
                    _ => {
                        let Some(Value::Int(old)) = self.st.vars.get(slot).copied() else { return Err(miss(format!("`{}` to be a number", def.name), "it is not")) };
                        Value::Int(combine(op, old, self.int(v, value)?, &def.name)?)
                    }
                };
                self.st.set_var(slot, new);
            }
            LValue::Counter(c, idx) => {
                let def = self.model.counters.get(c.idx()).cloned();
                let Some(def) = def else { return Err(miss("a counter", "none")) };
                let base = self.game.counter_base.get(c.idx()).copied().unwrap_or(0);
                let slot = self.slot(base, def.per_player, def.per_piece, *idx, &def.name)?;
                let n = self.int(v, value)?;
                let old = self.st.counters.get(slot).copied().unwrap_or(0);
                let new = combine(op, old, n, &def.name)?;
                if new < def.lo || new > def.hi {
                    return Err(miss(format!("a value of `{}` within {}..{}", def.name, def.lo, def.hi), new.to_string()));
                }
                self.st.set_counter(slot, new);
            }
            LValue::Local(_) => return Err(miss("a var or a counter", "a local")),
        }
        self.reask()
    }

    fn int(&self, v: Value, e: ExprId) -> Result<i64, Miss> {
        match v {
            Value::Int(n) => Ok(n),
            other => Err(miss(format!("`{}` to be a number", self.expr_text(e)), self.label(other))),
        }
    }

    /// The slot of a var or counter: one, per player, or per piece.
    fn slot(&mut self, base: u32, per_player: bool, per_piece: Option<KindId>, idx: Option<ExprId>, name: &str) -> Result<usize, Miss> {
        let base = base as usize;
        let Some(idx) = idx else { return Ok(base) };
        let at = self.eval(idx)?;
        match (at, per_piece) {
            (Value::Piece(p), Some(k)) => {
                let (first, n) = self.game.kind_range.get(k.idx()).copied().unwrap_or((0, 0));
                if p >= u64::from(first) && p < u64::from(first + n) {
                    Ok(base + (p - u64::from(first)) as usize)
                } else {
                    Err(miss(format!("a piece of the kind `{name}` is kept for"), self.label(at)))
                }
            }
            (Value::Player(p), None) if per_player && p < u64::from(self.game.players) => Ok(base + p as usize),
            (other, _) => Err(miss(format!("an index of `{name}`"), self.label(other))),
        }
    }

    fn reask(&mut self) -> Result<(), Miss> {
        self.game.reask(&mut self.st).map_err(|e| miss("the pending decision to be asked again", error_text(&e)))
    }
}

/// `set NAME op b` on the value `a`: the arithmetic of the rules, whose
/// numbers lie in −2^63+1..2^63−1 (R0012 past them), not a sum that
/// stops silently at the edge (`i64::MIN` is the engine's `none`).
fn combine(op: AssignOp, a: i64, b: i64, name: &str) -> Result<i64, Miss> {
    let (sum, sign) = match op {
        AssignOp::Add => (a.checked_add(b), '+'),
        AssignOp::Sub => (a.checked_sub(b), '-'),
        AssignOp::Set => return Ok(b),
    };
    sum.filter(|n| *n != i64::MIN).ok_or_else(|| miss(format!("`{name}` {sign}= {b} to stay within -9223372036854775807..9223372036854775807 (R0012 in the rules)"), format!("{a} {sign} {b} is past it")))
}

fn list(labels: &[String]) -> String {
    if labels.is_empty() {
        return "none".into();
    }
    labels.iter().map(|l| format!("{l:?}")).collect::<Vec<_>>().join(", ")
}

fn error_text(e: &ExecError) -> String {
    match &e.rule {
        Some(r) => format!("{}: {} (in `{r}`)", e.kind.code(), e.message),
        None => format!("{}: {}", e.kind.code(), e.message),
    }
}
