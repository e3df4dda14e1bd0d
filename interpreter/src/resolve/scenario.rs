//! Scenarios: their names, types and steps are checked like the rest of the
//! rulebook, but their expressions are kept out of the game's arena (see
//! [`Model::with_scenario_exprs`]), so that a scenario never changes how a
//! game is compiled, played or explored.

use super::expr::Scope;
use super::{Placed, Resolver, Sym};
use crate::diagnostic::{codes, Diagnostic};
use crate::model::*;
use grimoire_grammar::ast::{self, AssignOp, ExprKind, ItemKind, MoveWhat, Provenance, StepKind};

impl Resolver {
    /// Resolve every scenario of the merged declarations, then move their
    /// expressions out of the game's arena. `modules` holds the header name
    /// of each loaded file, base first; `bases` the modules each file
    /// extends, directly or through others (the base rulebook left out).
    pub(crate) fn scenarios(&mut self, items: &[Placed], modules: &[String], bases: &[Vec<FileId>]) {
        let split = self.model.exprs.len();
        for p in items {
            if let ItemKind::Scenario(s) = &p.item.kind {
                self.file = p.file;
                self.scenario(s, p.item, modules, bases);
            }
        }
        self.model.scenario_exprs = self.model.exprs.split_off(split);
        self.model.scenario_expr_at = self.model.expr_at.split_off(split);
    }

    fn scenario(&mut self, s: &ast::Scenario, item: &ast::Item, modules: &[String], bases: &[Vec<FileId>]) {
        let at = self.loc(s.name.span);
        let (cites, assumes) = self.provenance_of(&item.provenance);
        // Its file's own bases (a module that extends a module runs on
        // both), then the modules its `with` names, each with its bases.
        let bases_of = |f: FileId| bases.get(f.idx()).cloned().unwrap_or_default();
        let mut needs = bases_of(self.file);
        let mut missing = Vec::new();
        for w in &s.with {
            match modules.iter().position(|m| *m == w.name) {
                Some(0) => {
                    // The base rulebook is not a module: every scenario
                    // runs on it already.
                    let loc = self.loc(w.span);
                    self.error(
                        Diagnostic::new(codes::MODULE, format!("`with {}` names the base rulebook, not a module", w.name), loc, "the rulebook")
                            .help(format!("every scenario runs on the base rulebook `{}`: leave it out of `with`, which names the modules to add", w.name)),
                    );
                }
                Some(i) => {
                    needs.push(FileId(i as u16));
                    needs.extend(bases_of(FileId(i as u16)));
                }
                None => {
                    // A name close to a module given that the scenario does
                    // not run on already (its own file, what that extends
                    // and the base are not what a `with` means).
                    let own = bases_of(self.file);
                    let others = modules.iter().enumerate().filter(|(i, _)| *i != 0 && *i != self.file.idx() && !own.contains(&FileId(*i as u16))).map(|(_, m)| m.as_str());
                    missing.push((w.name.clone(), crate::diagnostic::did_you_mean(&w.name, others).map(str::to_string)));
                }
            }
        }
        let seed = match s.seed {
            Some((n, _)) => n as u64,
            None => 0,
        };
        let (lo, hi) = (self.model.min_players, self.model.max_players);
        let mut def = ScenarioDef { name: s.name.name.clone(), file: self.file, needs, missing, players: lo, seed, options: Vec::new(), steps: Vec::new(), locals: SCENARIO_LOCALS, cites, assumes, at };
        // It is checked on the files it runs on (as `grimoire test` runs it).
        let runs_here = def.runs_on().len() == modules.len();
        if !def.missing.is_empty() || !runs_here {
            // The names it uses may come from a module that is not loaded,
            // or be ones a module loaded here removes or changes (a
            // scenario of the base runs on the base alone), and so may its
            // player count (a module may seat more players than its
            // base): it is listed, and checked where it runs, not here.
            // One that will not run is listed as written.
            if !def.missing.is_empty() {
                def.options = s.options.iter().map(|o| o.name.clone()).collect();
                if let Some(n) = s.players.and_then(|(n, _)| u8::try_from(n).ok()) {
                    def.players = n;
                }
            }
            self.model.scenarios.push(def);
            return;
        }
        def.players = match s.players {
            Some((n, span)) if n < i64::from(lo) || n > i64::from(hi) => {
                let loc = self.loc(span);
                self.error(Diagnostic::new(codes::HEADER, format!("the scenario `{}` is for {n} players; the rulebook is for {lo} to {hi}", s.name.name), loc, "player count").help(format!("write `players N` with N from {lo} to {hi}")));
                lo
            }
            Some((n, _)) => n as u8,
            None => lo,
        };
        for o in &s.options {
            match self.lookup(o, &[]) {
                Some(Sym::Option(_)) => def.options.push(o.name.clone()),
                Some(other) => self.wrong_sort(o, other, "an option"),
                None => {}
            }
        }
        let mut sc = Scope::default();
        sc.bind("decider", Ty::Player);
        sc.bind("winner", Ty::Player);
        self.in_scenario = true;
        for step in &s.steps {
            let kind = self.step(&mut sc, step);
            let (cites, _) = self.provenance_of(&step.provenance);
            let at = self.loc(step.span);
            def.steps.push(ScenarioStep { step: kind, cites, at });
        }
        self.in_scenario = false;
        def.locals = sc.next.max(SCENARIO_LOCALS);
        self.model.scenarios.push(def);
    }

    /// `choose N` with a number that can be no option's.
    fn bad_option_number(&mut self, n: &str, why: &str, span: grimoire_grammar::ast::Span) {
        let at = self.loc(span);
        self.error(Diagnostic::new(codes::TYPE, format!("`choose {n}` names no option: {why}"), at, "not an option number").help("write `choose 1` for the first option, `choose \"label\"` for an option by its label"));
    }

    fn step(&mut self, sc: &mut Scope, step: &ast::Step) -> StepDef {
        match &step.kind {
            StepKind::Choose(e) => match &e.kind {
                ExprKind::Str(label) => StepDef::ChooseLabel(label.clone()),
                ExprKind::Int(n) => {
                    if *n < 1 || *n > i64::from(u32::MAX) {
                        let why = if *n < 1 { "options are numbered from 1" } else { "no decision has that many options" };
                        self.bad_option_number(&n.to_string(), why, e.span);
                    }
                    StepDef::ChooseIndex((*n).clamp(1, i64::from(u32::MAX)) as u32)
                }
                ExprKind::List(parts) => StepDef::ChooseValue(parts.iter().map(|x| self.expect(sc, x, Ty::Any, "a part of the option chosen")).collect()),
                _ => StepDef::ChooseValue(vec![self.expect(sc, e, Ty::Any, "the option chosen")]),
            },
            StepKind::Play(n) => {
                let most = i64::from(crate::scenario::PLAY_UNTIL_LIMIT);
                if !(0..=most).contains(n) {
                    let at = self.loc(step.span);
                    self.error(
                        Diagnostic::new(codes::TYPE, format!("`play {n}`: a scenario plays 0 to {most} decisions in one step"), at, "not a number of decisions")
                            .help(format!("a game still running after {most} decisions is not a scenario's to wait for (`play until` stops there too)")),
                    );
                }
                StepDef::Play((*n).clamp(0, most) as u32)
            }
            StepKind::PlayUntil(c) => StepDef::PlayUntil(self.expect(sc, c, Ty::Bool, "the condition of `play until`")),
            StepKind::PlayToEnd => StepDef::PlayToEnd,
            StepKind::Place { what, to, bottom } => {
                let what = match what {
                    MoveWhat::Piece(p) => PlaceWhat::Piece(self.expect(sc, p, Ty::Piece(None), "what `place` moves")),
                    MoveWhat::Top(z) => PlaceWhat::Top(self.expect(sc, z, Ty::Zone, "the zone of `place top of`")),
                    MoveWhat::All(z) => PlaceWhat::All(self.expect(sc, z, Ty::Zone, "the zone of `place all of`")),
                    MoveWhat::Count { n, kind, from } => {
                        let n = self.expect(sc, n, Ty::Int, "how many pieces `place` moves");
                        let kind = self.kind_named(kind).unwrap_or(KindId(0));
                        let from = self.expect(sc, from, Ty::Zone, "the zone `place` takes from");
                        PlaceWhat::Count { n, kind, from }
                    }
                };
                let to = self.expect(sc, to, Ty::Zone, "where `place` puts the pieces");
                StepDef::Place { what, to, bottom: *bottom }
            }
            StepKind::Set(lhs, op, rhs) => {
                let before = self.diags.len();
                let target = self.expr(sc, lhs);
                let lv = match self.model.exprs.get(target.id.0 as usize) {
                    Some(Expr::Var(v, i)) => Some(LValue::Var(*v, *i)),
                    Some(Expr::Counter(c, i)) => Some(LValue::Counter(*c, *i)),
                    Some(Expr::None) if self.diags.len() > before => None, // already reported
                    _ => {
                        let at = self.loc(lhs.span);
                        self.error(Diagnostic::new(codes::WRONG_SORT, "`set` changes a var or a counter", at, "not a var or counter").help("to change where a piece is, use `place`"));
                        None
                    }
                };
                let want = if *op == AssignOp::Set { target.ty } else { Ty::Int };
                if *op != AssignOp::Set && !super::expr::fits(target.ty, Ty::Int) {
                    self.type_error(lhs.span, target.ty, Ty::Int, "the target of `+=` / `-=`");
                }
                let value = self.expect(sc, rhs, want, "the value `set` gives");
                match lv {
                    Some(lv) => StepDef::Set(lv, *op, value),
                    None => StepDef::Expect(value),
                }
            }
            StepKind::Expect(c) => StepDef::Expect(self.expect(sc, c, Ty::Bool, "what `expect` checks")),
            StepKind::ExpectOptions(test, labels) => StepDef::ExpectOptions(*test, labels.iter().map(|l| l.value.clone()).collect()),
            StepKind::ExpectPrompt(p) => StepDef::ExpectPrompt(p.value.clone()),
            StepKind::ExpectOver(over) => StepDef::ExpectOver(*over),
        }
    }

    /// Citations and assumptions of provenance clauses, without a record: a
    /// scenario checks the text, it does not encode it, so it does not count
    /// for source coverage.
    fn provenance_of(&self, prov: &[Provenance]) -> (Vec<Citation>, Vec<String>) {
        let source = self.default_source.get(self.file.idx()).cloned().flatten().unwrap_or_default();
        let mut cites = Vec::new();
        let mut assumes = Vec::new();
        for p in prov {
            match p {
                Provenance::Quote { quote, source: s } => cites.push(Citation::Quote {
                    source: s.as_ref().map(|s| s.value.clone()).unwrap_or_else(|| source.clone()),
                    quote: quote.value.clone(),
                    at: self.loc(quote.span),
                }),
                Provenance::Lines { lines, source: s } => cites.push(Citation::Lines {
                    source: s.as_ref().map(|s| s.value.clone()).unwrap_or_else(|| source.clone()),
                    from: lines.lo.max(0) as u64,
                    to: lines.hi.max(0) as u64,
                    at: self.loc(lines.span),
                }),
                Provenance::Assume(reason) => assumes.push(reason.value.clone()),
            }
        }
        (cites, assumes)
    }
}
