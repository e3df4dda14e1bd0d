//! Pass 2 of resolution: every declaration filled in (data first, then the
//! signatures of procedures and functions, then their bodies), with the
//! totals that must match their parts checked. Pass 1 (declare.rs) gave
//! every name its id.

use super::declare::MAX_PARAMS;
use super::expr::Scope;
use super::{item_name, Placed, Resolver, Sym};
use crate::diagnostic::{codes, Diagnostic};
use crate::model::*;
use grimoire_grammar::ast::{self, ItemKind, ProcKind};

impl Resolver {
    /// What this declaration's name stands for, if the name is its own:
    /// `None` for a second declaration of a name (or one of the
    /// language's), refused by pass 1, which must not fill in the first
    /// one's (a second `rule r(p: player)` gave the first `r` its
    /// parameters).
    fn own(&self, name: &ast::Ident) -> Option<Sym> {
        match self.globals.get(&name.name) {
            Some(&(sym, at)) if at == self.loc(name.span) => Some(sym),
            _ => None,
        }
    }

    /// The function this declaration made, if the name is its own.
    fn own_fn(&self, name: &ast::Ident) -> Option<FnId> {
        match self.own(name) {
            Some(Sym::Fn(id)) => Some(id),
            _ => None,
        }
    }

    /// Pass 2: fill every declaration in.
    pub(crate) fn define_all(&mut self, items: &[Placed]) {
        // Data first, so that procedures see complete types and tables.
        for p in items {
            self.file = p.file;
            self.define_data(p.item);
        }
        // Signatures before bodies, so that calls can be checked in any order.
        for p in items {
            self.file = p.file;
            if let ItemKind::Procedure(pr) = &p.item.kind {
                if let Some(Sym::Proc(id)) = self.own(&pr.name) {
                    let event_names = pr.event.iter().flat_map(|ev| [&ev.piece, &ev.zone]);
                    self.distinct_names(pr.params.iter().map(|(n, _)| n).chain(event_names), &format!("parameters of `{}`", pr.name.name));
                    let tys: Vec<Ty> = pr.params.iter().map(|(_, t)| self.type_named(t)).collect();
                    if tys.len() > MAX_PARAMS {
                        let at = self.loc(pr.name.span);
                        self.error(Diagnostic::new(codes::ARITY, format!("`{}` has {} parameters; at most {MAX_PARAMS} are allowed", pr.name.name, tys.len()), at, "too many parameters").help("group what belongs together in vars, or split the rule"));
                    }
                    self.param_names_of.insert(id, pr.params.iter().map(|(n, _)| n.name.clone()).collect());
                    if let Some(proc_) = self.model.procs.get_mut(id.idx()) {
                        proc_.params = tys.len() as u16;
                        proc_.param_tys = tys;
                    }
                }
            }
        }
        for p in items {
            self.file = p.file;
            if let ItemKind::Function { name, params, .. } = &p.item.kind {
                if let Some(id) = self.own_fn(name) {
                    self.distinct_names(params.iter().map(|(n, _)| n), &format!("parameters of `{}`", name.name));
                    let tys: Vec<Ty> = params.iter().map(|(_, t)| self.type_named(t)).collect();
                    if let Some(f) = self.model.fns.get_mut(id.idx()) {
                        f.param_tys = tys;
                    }
                }
            }
        }
        // Function bodies before procedures, so that calls know their types.
        for p in items {
            self.file = p.file;
            if let ItemKind::Function { name, params, body } = &p.item.kind {
                let Some(id) = self.own_fn(name) else { continue };
                let tys = self.model.fns.get(id.idx()).map(|f| f.param_tys.clone()).unwrap_or_default();
                let mut sc = Scope::default();
                for ((n, _), t) in params.iter().zip(tys) {
                    sc.bind(&n.name, t);
                }
                let t = self.expr(&mut sc, body);
                if t.coll.is_some() {
                    let at = self.loc(body.span);
                    self.error(Diagnostic::new(codes::COLLECTION, format!("the function `{}` gives a collection; a function gives one value", name.name), at, "a collection"));
                }
                if let Some(f) = self.model.fns.get_mut(id.idx()) {
                    f.body = t.id;
                    f.ty = t.ty;
                    f.locals = sc.next;
                }
                let at = self.loc(p.item.span);
                self.record_part(format!("fn {}", name.name), None, &p.item.provenance, at);
            }
        }
        self.check_fn_cycles();
        let mut exception_idx = 0usize;
        let mut end_idx = 0usize;
        for p in items {
            self.file = p.file;
            let item = p.item;
            match &item.kind {
                ItemKind::Procedure(pr) => {
                    let Some(Sym::Proc(id)) = self.own(&pr.name) else { continue };
                    self.procedure(id, pr, item);
                }
                ItemKind::Setup(body) => {
                    if let Some(id) = self.model.setup {
                        self.simple_body(id, "setup", body, item);
                    }
                }
                ItemKind::Round { name, times, body } => {
                    if let Some((id, _)) = self.model.round {
                        let times = times.as_ref().map(|t| {
                            let mut sc = Scope::default();
                            self.expect(&mut sc, t, Ty::Int, "the number of rounds")
                        });
                        self.model.round = Some((id, times));
                        self.simple_body(id, &name.name, body, item);
                    }
                }
                ItemKind::End { name, when, body } => {
                    let Some(end) = self.model.ends.get(end_idx).map(|e| e.body) else { continue };
                    let mut sc = Scope::default();
                    let w = self.expect(&mut sc, when, Ty::Bool, "an end condition");
                    if let Some(e) = self.model.ends.get_mut(end_idx) {
                        e.when = w;
                    }
                    end_idx += 1;
                    self.current_proc = format!("end {}", name.name);
                    let b = self.block(&mut sc, body);
                    self.finish_proc(end, b, sc.next);
                    let at = self.loc(item.span);
                    self.record(RecordKind::Encoded, format!("end {}", name.name), None, &item.provenance, at);
                }
                ItemKind::Exception(e) => {
                    self.exception(exception_idx, e, item);
                    exception_idx += 1;
                }
                ItemKind::Invariant { name, player, when, expr } => {
                    let mut sc = Scope::default();
                    if let Some(p) = player {
                        sc.bind(&p.name, Ty::Player);
                    }
                    let when = when.as_ref().map(|w| self.expect(&mut sc, w, Ty::Bool, "the `when` of an invariant"));
                    let holds = self.expect(&mut sc, expr, Ty::Bool, "an invariant");
                    let at = self.loc(name.span);
                    self.model.invariants.push(InvariantDef { name: name.name.clone(), per_player: player.is_some(), when, holds, locals: sc.next, at });
                    let at = self.loc(item.span);
                    self.record(RecordKind::Encoded, format!("invariant {}", name.name), None, &item.provenance, at);
                }
                _ => {}
            }
        }
        // `over` lists refer to exceptions by name: resolve them once all exist.
        for p in items {
            self.file = p.file;
            if let ItemKind::Exception(e) = &p.item.kind {
                let Some(Sym::Exception(id)) = self.own(&e.name) else { continue };
                let mut over = Vec::new();
                // The rule an exception changes, once resolved (the rule
                // lists it then; one whose target was refused has none).
                let target_of = |r: &Self, x: ExceptionId| {
                    let t = r.model.exceptions.get(x.idx())?.target;
                    r.model.procs.get(t.idx())?.exceptions.contains(&x).then_some(t)
                };
                for o in &e.over {
                    match self.lookup(o, &[]) {
                        Some(Sym::Exception(x)) if matches!((target_of(self, x), target_of(self, id)), (Some(a), Some(b)) if a != b) => {
                            // `over` only settles exceptions to one rule: across rules it would never apply.
                            let name_of = |t: Option<ProcId>| t.and_then(|t| self.model.procs.get(t.idx())).map_or(String::new(), |p| p.name.clone());
                            let (theirs, mine) = (name_of(target_of(self, x)), name_of(target_of(self, id)));
                            let at = self.loc(o.span);
                            let message = format!("`{}` is an exception to `{theirs}`, and `{}` is an exception to `{mine}`: `over` could never apply", o.name, e.name.name);
                            self.error(Diagnostic::new(codes::WRONG_SORT, message, at, "an exception to another rule").help("`over` says which of two exceptions to the same rule wins when both hold: name an exception to the same rule, or drop it"));
                        }
                        Some(Sym::Exception(x)) => over.push(x),
                        Some(other) => self.wrong_sort(o, other, "an exception"),
                        None => {}
                    }
                }
                if let Some(x) = self.model.exceptions.get_mut(id.idx()) {
                    x.over = over;
                }
            }
        }
        self.over_cycles(items);
        self.too_many_exceptions();
        for t in 0..self.model.procs.len() {
            if self.model.procs.get(t).is_some_and(|p| p.kind == ProcKind::Trigger) {
                self.model.triggers.push(ProcId(t as u16));
            }
        }
    }

    /// Exceptions `over` one another in a cycle (`a over b`, `b over a`):
    /// when all of them hold, each drops another and none applies, which
    /// is never what rules mean. Reported once per cycle, at the exception
    /// declared first.
    fn over_cycles(&mut self, items: &[Placed]) {
        let over: Vec<Vec<ExceptionId>> = self.model.exceptions.iter().map(|x| x.over.clone()).collect();
        let mut reported: std::collections::HashSet<usize> = std::collections::HashSet::new();
        for p in items {
            let ItemKind::Exception(e) = &p.item.kind else { continue };
            let Some(Sym::Exception(start)) = self.own(&e.name) else { continue };
            if reported.contains(&start.idx()) {
                continue;
            }
            // Depth first along `over`, keeping the path, back to `start`.
            let mut path = vec![start];
            let mut next = vec![0usize];
            let mut seen = std::collections::HashSet::new();
            let cycle = loop {
                let (Some(&at), Some(i)) = (path.last(), next.last_mut()) else { break None };
                let Some(&o) = over.get(at.idx()).and_then(|list| list.get(*i)) else {
                    path.pop();
                    next.pop();
                    continue;
                };
                *i += 1;
                if o == start {
                    break Some(path.clone());
                }
                if seen.insert(o.idx()) {
                    path.push(o);
                    next.push(0);
                }
            };
            let Some(cycle) = cycle else { continue };
            reported.extend(cycle.iter().map(|x| x.idx()));
            let names: Vec<String> = cycle.iter().chain([&start]).map(|x| format!("`{}`", self.model.exceptions.get(x.idx()).map_or("?", |d| d.name.as_str()))).collect();
            self.file = p.file;
            let at = self.loc(e.name.span);
            let message = if cycle.len() == 1 {
                format!("the exception `{}` is `over` itself", e.name.name)
            } else {
                format!("exceptions `over` one another in a cycle: {}; when they all hold, each drops another and none applies", names.join(" over "))
            };
            self.error(Diagnostic::new(codes::OVER_CYCLE, message, at, "in the cycle").help("`over` says which exception wins when both hold: keep it on the one that wins, drop it from the other"));
        }
    }

    /// A rule with more exceptions than the engine tracks: refused here, at
    /// the first exception past the limit, rather than in every game that
    /// calls the rule.
    fn too_many_exceptions(&mut self) {
        let most = crate::engine::MAX_EXCEPTIONS_PER_RULE;
        for target in 0..self.model.procs.len() {
            let Some(&past) = self.model.procs.get(target).and_then(|p| p.exceptions.get(most)) else { continue };
            let (rule, count) = self.model.procs.get(target).map(|p| (p.name.clone(), p.exceptions.len())).unwrap_or_default();
            // Where that exception's name is written.
            let Some(at) = self.model.exceptions.get(past.idx()).map(|x| x.at) else { continue };
            self.error(
                Diagnostic::new(codes::OVER_CYCLE, format!("`{rule}` has {count} exceptions; a rule may have at most {most}"), at, format!("exception {} of `{rule}`", most + 1))
                    .help("merge exceptions that share a condition, or split the rule into rules with fewer exceptions each"),
            );
        }
    }

    /// The component kind a name stands for, reporting anything else.
    pub(crate) fn kind_named(&mut self, n: &ast::Ident) -> Option<KindId> {
        match self.lookup(n, &[]) {
            Some(Sym::Kind(k)) => Some(k),
            Some(other) => {
                self.wrong_sort(n, other, "a component kind");
                None
            }
            None => None,
        }
    }

    /// The bit set of space types named in a list.
    fn tag_mask(&mut self, tags: &[ast::Ident]) -> u64 {
        let mut mask = 0u64;
        for tag in tags {
            match self.lookup(tag, &[]) {
                Some(Sym::Tag(tg)) => mask |= 1u64 << (tg.0 % 64),
                Some(other) => self.wrong_sort(tag, other, "a space type"),
                None => {}
            }
        }
        mask
    }

    fn finish_proc(&mut self, id: ProcId, body: BlockId, locals: u16) {
        if let Some(p) = self.model.procs.get_mut(id.idx()) {
            p.body = body;
            p.locals = locals;
        }
    }

    fn simple_body(&mut self, id: ProcId, name: &str, body: &ast::Block, item: &ast::Item) {
        self.current_proc = name.to_string();
        let mut sc = Scope::default();
        let b = self.block(&mut sc, body);
        self.finish_proc(id, b, sc.next);
        let at = self.loc(item.span);
        self.record(RecordKind::Encoded, name.to_string(), None, &item.provenance, at);
    }

    fn procedure(&mut self, id: ProcId, pr: &ast::Procedure, item: &ast::Item) {
        let kind_word = match pr.kind {
            ProcKind::Phase => "phase",
            ProcKind::Rule => "rule",
            ProcKind::Trigger => "trigger",
        };
        self.current_proc = format!("{kind_word} {}", pr.name.name);
        let mut sc = Scope::default();
        let tys = self.model.procs.get(id.idx()).map(|p| p.param_tys.clone()).unwrap_or_default();
        for ((n, _), t) in pr.params.iter().zip(tys) {
            sc.bind(&n.name, t);
        }
        if pr.kind == ProcKind::Trigger {
            match &pr.event {
                Some(ev) => {
                    if ev.name.name != "arrive" {
                        let at = self.loc(ev.name.span);
                        self.error(Diagnostic::new(codes::UNKNOWN_NAME, format!("unknown event `{}`", ev.name.name), at, "unknown event").help("the events are: `arrive(piece: kind, zone)`"));
                    }
                    let k = self.kind_named(&ev.kind);
                    sc.bind(&ev.piece.name, Ty::Piece(k));
                    sc.bind(&ev.zone.name, Ty::Zone);
                    if let Some(p) = self.model.procs.get_mut(id.idx()) {
                        p.on_arrive = k;
                        p.params = 2;
                        p.param_tys = vec![Ty::Piece(k), Ty::Zone];
                    }
                }
                None => {
                    let at = self.loc(pr.name.span);
                    self.error(Diagnostic::new(codes::WRONG_SORT, format!("the trigger `{}` listens to no event", pr.name.name), at, "no event").help("write `trigger NAME on arrive(piece: kind, zone) when CONDITION { ... }`"));
                }
            }
        } else if pr.event.is_some() || pr.when.is_some() {
            let at = self.loc(pr.name.span);
            self.error(Diagnostic::new(codes::WRONG_SORT, format!("only a trigger has `on` and `when`; `{}` is a {kind_word}", pr.name.name), at, "not a trigger"));
        }
        let when = pr.when.as_ref().map(|w| self.expect(&mut sc, w, Ty::Bool, "the condition of a trigger"));
        let b = self.block(&mut sc, &pr.body);
        if let Some(p) = self.model.procs.get_mut(id.idx()) {
            p.when = when;
        }
        self.finish_proc(id, b, sc.next);
        let at = self.loc(item.span);
        self.record(RecordKind::Encoded, format!("{kind_word} {}", pr.name.name), None, &item.provenance, at);
    }

    fn exception(&mut self, idx: usize, e: &ast::Exception, item: &ast::Item) {
        // `setup` is not a declared name, but modules add to it like to any rule.
        let setup = if e.rule.name == "setup" { self.model.setup.map(Sym::Proc) } else { None };
        let target = match setup.or_else(|| self.lookup(&e.rule, &[])) {
            Some(Sym::Proc(p)) => p,
            Some(other) => {
                self.wrong_sort(&e.rule, other, "a rule or phase");
                return;
            }
            None => return,
        };
        if self.model.procs.get(target.idx()).is_some_and(|p| p.kind == ProcKind::Trigger) {
            // A trigger is not called: nothing would ever apply the exception.
            let at = self.loc(e.rule.span);
            self.error(
                Diagnostic::new(codes::WRONG_SORT, format!("`{}` is a trigger, but an exception changes a rule, a phase, the round or `setup`", e.rule.name), at, "a trigger")
                    .help(format!("a module changes a trigger with `replace trigger {} ...` or `remove trigger {}`; or make the trigger call a rule (`do`), and add the exception to that rule", e.rule.name, e.rule.name)),
            );
            return;
        }
        let Some(body) = self.model.exceptions.get(idx).map(|x| x.body) else { return };
        self.current_proc = format!("exception {}", e.name.name);
        let (params, tys) = self.model.procs.get(target.idx()).map(|p| (p.params, p.param_tys.clone())).unwrap_or_default();
        // The exception sees the target's parameters under the target's names.
        let names = self.param_names(target);
        let mut sc = Scope::default();
        for (n, t) in names.iter().zip(tys.iter()) {
            sc.bind(n, *t);
        }
        let before = self.diags.len();
        let when = self.expect(&mut sc, &e.when, Ty::Bool, "the condition of an exception");
        self.exception_target = Some(target);
        let b = self.block(&mut sc, &e.body);
        self.exception_target = None;
        self.show_target_parameters(before, target, &e.rule.name, &names);
        self.finish_proc(body, b, sc.next);
        if let Some(p) = self.model.procs.get_mut(body.idx()) {
            p.params = params;
            p.param_tys = tys;
        }
        if let Some(x) = self.model.exceptions.get_mut(idx) {
            x.target = target;
            x.when = when;
        }
        if let Some(p) = self.model.procs.get_mut(target.idx()) {
            p.exceptions.push(ExceptionId(idx as u16));
        }
        let at = self.loc(item.span);
        self.record(RecordKind::Encoded, format!("exception {}", e.name.name), None, &item.provenance, at);
    }

    /// An unknown name in an exception, found since diagnostic `before`, is
    /// shown beside the rule it changes and that rule's parameters, which
    /// the exception reads by their names: a module that replaced the rule
    /// with other names (`pl` for `p`) broke the exceptions to it, in
    /// another file, with no word of the rule (an outside author's finding).
    fn show_target_parameters(&mut self, before: usize, target: ProcId, rule: &str, names: &[String]) {
        let Some(declared) = self.model.procs.get(target.idx()).map(|p| p.at) else { return };
        let params = if names.is_empty() { "no parameters".to_string() } else { format!("the parameters {}", names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")) };
        for d in self.diags.iter_mut().skip(before) {
            if d.code == codes::UNKNOWN_NAME {
                // Its locals (`let`s) are not among them: a tester's
                // `when steps > 2` on a local got only "did you mean `step`?".
                d.relate_once(declared, format!("the exception is to `{rule}`, declared here with {params}; an exception sees those, not the rule's locals"));
            }
        }
    }

    fn param_names(&self, p: ProcId) -> Vec<String> {
        self.param_names_of.get(&p).cloned().unwrap_or_default()
    }

    fn define_data(&mut self, item: &ast::Item) {
        let name = item_name(&item.kind).map(|n| n.name.clone()).unwrap_or_else(|| "setup".into());
        let at = self.loc(item.span);
        match &item.kind {
            ItemKind::Component(c) => {
                if !c.variants.is_empty() {
                    let sum: i64 = c.variants.iter().map(|v| v.count).sum();
                    if sum != c.count {
                        let loc = self.loc(c.count_span);
                        self.error(
                            Diagnostic::new(codes::TOTAL, format!("`{}` declares {} pieces but its variants add up to {sum}", c.name.name, c.count), loc, format!("declared {}", c.count))
                                .help("fix the total or a variant's `xN`; if the source itself disagrees, record a `discrepancy` and keep the sum of the parts"),
                        );
                    }
                    for v in &c.variants {
                        let vat = self.loc(v.span);
                        self.record_part(format!("{} {}", c.name.name, v.name.name), v.label.as_ref().map(|l| l.value.clone()), &v.provenance, vat);
                    }
                }
                self.record(RecordKind::Encoded, name, None, &item.provenance, at);
            }
            ItemKind::Die(d) => {
                if !d.faces.is_empty() {
                    let sum: i64 = d.faces.iter().map(|f| f.count).sum();
                    if sum != d.sides {
                        let loc = self.loc(d.sides_span);
                        self.error(Diagnostic::new(codes::TOTAL, format!("the die `{}` has {} sides but its faces add up to {sum}", d.name.name, d.sides), loc, format!("declared {}", d.sides)).help("fix the side count or a face's `xN`"));
                    }
                    let die = self.own(&d.name);
                    if let Some(Sym::Die(id)) = die {
                        let mut sides = Vec::new();
                        for f in &d.faces {
                            if let Some(Sym::Face(fid)) = self.own(&f.name) {
                                for _ in 0..f.count.clamp(0, 1000) {
                                    sides.push(fid);
                                }
                            }
                            let fat = self.loc(f.span);
                            self.record_part(format!("{} {}", d.name.name, f.name.name), f.label.as_ref().map(|l| l.value.clone()), &f.provenance, fat);
                        }
                        if let Some(die) = self.model.dice.get_mut(id.idx()) {
                            die.size = sides.len().max(1) as u16;
                            die.sides = sides;
                        }
                    }
                }
                self.record(RecordKind::Encoded, name, None, &item.provenance, at);
            }
            ItemKind::Zone(z) => {
                let Some(Sym::Zone(id)) = self.own(&z.name) else { return };
                let mult = match &z.multiplicity {
                    ast::Multiplicity::Single => ZoneMult::Single,
                    ast::Multiplicity::PerPlayer => ZoneMult::PerPlayer,
                    ast::Multiplicity::PerSpace(t) => match self.lookup(t, &[]) {
                        Some(Sym::Track(t)) => ZoneMult::PerSpace(t),
                        Some(other) => {
                            self.wrong_sort(t, other, "a track");
                            ZoneMult::Single
                        }
                        None => ZoneMult::Single,
                    },
                };
                let kinds = z.kinds.iter().filter_map(|k| self.kind_named(k)).collect();
                if let Some(def) = self.model.zones.get_mut(id.idx()) {
                    def.mult = mult;
                    def.kinds = kinds;
                }
                self.record(RecordKind::Encoded, name, None, &item.provenance, at);
            }
            ItemKind::Track(t) => {
                let Some(Sym::Track(id)) = self.own(&t.name) else { return };
                let last = t.rows.iter().map(|(r, _)| r.hi).max().unwrap_or(0);
                if last > 4096 {
                    if let Some((r, _)) = t.rows.iter().find(|(r, _)| r.hi == last) {
                        let loc = self.loc(r.span);
                        self.error(Diagnostic::new(codes::TRACK, format!("the track `{}` reaches space {last}; a track has at most 4096 spaces", t.name.name), loc, "too long").help("split the track, or check the number"));
                    }
                    return;
                }
                if last < 1 {
                    // No space: every `space(track, i)` would be off it, at run time.
                    let loc = self.loc(t.name.span);
                    self.error(Diagnostic::new(codes::TRACK, format!("the track `{}` has no space", t.name.name), loc, "empty track").help("give its spaces, from 1 to the last, each with its space types: `1..10: plain`"));
                    return;
                }
                let len = last.max(0) as usize;
                let mut spaces: Vec<Option<u64>> = vec![None; len];
                for (r, tags) in &t.rows {
                    let mask = self.tag_mask(tags);
                    for i in r.lo..=r.hi {
                        let slot = usize::try_from(i - 1).ok().and_then(|i| spaces.get_mut(i));
                        match slot {
                            Some(s) if s.is_none() => *s = Some(mask),
                            _ => {
                                let loc = self.loc(r.span);
                                self.error(Diagnostic::new(codes::TRACK, format!("space {i} of the track `{}` is given twice or is not a positive number", t.name.name), loc, "repeated space").help("give each space from 1 to the last exactly once"));
                                break;
                            }
                        }
                    }
                }
                if let Some(missing) = spaces.iter().position(Option::is_none) {
                    let loc = self.loc(t.name.span);
                    self.error(Diagnostic::new(codes::TRACK, format!("the track `{}` skips space {}", t.name.name, missing + 1), loc, "incomplete track").help("give each space from 1 to the last exactly once"));
                }
                if let Some(track) = self.model.tracks.get_mut(id.idx()) {
                    track.spaces = spaces.into_iter().map(|s| s.unwrap_or(0)).collect();
                }
                self.record(RecordKind::Encoded, name, None, &item.provenance, at);
            }
            ItemKind::Counter(c) => {
                let Some(Sym::Counter(id)) = self.own(&c.name) else { return };
                let init = c.init.as_ref().map(|e| {
                    let mut sc = Scope::default();
                    self.expect(&mut sc, e, Ty::Int, "the initial value of a counter")
                });
                if c.bounds.lo > c.bounds.hi {
                    let loc = self.loc(c.bounds.span);
                    self.error(Diagnostic::new(codes::TOTAL, format!("the counter `{}` has an empty range", c.name.name), loc, "low end above high end").help("write the range low end first: `counter NAME LOW..HIGH`"));
                } else if let Some((v, e)) = c.init.as_ref().and_then(|e| literal_int(e).map(|v| (v, e))) {
                    // A number written there outside the range fails every
                    // game at its start: said here, before any game.
                    if !(c.bounds.lo..=c.bounds.hi).contains(&v) {
                        let loc = self.loc(e.span);
                        self.error(
                            Diagnostic::new(codes::TOTAL, format!("the counter `{}` would start at {v}, outside {}..{}", c.name.name, c.bounds.lo, c.bounds.hi), loc, "outside the range")
                                .help("start it within its range, or widen the range"),
                        );
                    }
                }
                let per_piece = c.per_piece.as_ref().and_then(|k| self.kind_named(k));
                if let Some(def) = self.model.counters.get_mut(id.idx()) {
                    def.init = init;
                    def.per_piece = per_piece;
                }
                self.record(RecordKind::Encoded, name, None, &item.provenance, at);
            }
            ItemKind::Var(v) => {
                let Some(Sym::Var(id)) = self.own(&v.name) else { return };
                let ty = self.type_named(&v.ty);
                let init = v.init.as_ref().map(|e| {
                    let mut sc = Scope::default();
                    self.expect(&mut sc, e, ty, "the initial value of a var")
                });
                let per_piece = v.per_piece.as_ref().and_then(|k| self.kind_named(k));
                if let Some(def) = self.model.vars.get_mut(id.idx()) {
                    def.ty = ty;
                    def.init = init;
                    def.per_piece = per_piece;
                }
                self.record(RecordKind::Encoded, name, None, &item.provenance, at);
            }
            ItemKind::Table(t) => {
                let Some(Sym::Table(id)) = self.own(&t.name) else { return };
                let mut rows = Vec::new();
                // The key ranges kept so far, by first key: they do not
                // overlap, so a new range overlaps one of them exactly when
                // it overlaps the last that starts at or before its end
                // (one lookup a row: a table of 200,000 rows took 19 s to
                // check when each row was compared with every earlier one).
                let mut ranges: std::collections::BTreeMap<i64, i64> = std::collections::BTreeMap::new();
                for (n, (r, vals)) in t.rows.iter().enumerate() {
                    if n == MAX_TABLE_ROWS {
                        // A row is numbered in 16 bits where the engine holds it.
                        let loc = self.loc(r.span);
                        self.error(Diagnostic::new(codes::TABLE, format!("`{}` has more than {MAX_TABLE_ROWS} rows", t.name.name), loc, "one row too many").help("a table holds at most 65,535 rows; a row may cover a range of keys (`1..10 => ...`)"));
                        break;
                    }
                    if vals.len() != t.columns.len() {
                        let loc = self.loc(r.span);
                        self.error(Diagnostic::new(codes::TABLE, format!("this row of `{}` has {} value{} for {} column{}", t.name.name, vals.len(), if vals.len() == 1 { "" } else { "s" }, t.columns.len(), if t.columns.len() == 1 { "" } else { "s" }), loc, "wrong width"));
                    }
                    if r.lo > r.hi {
                        // `5..1` holds no key: no lookup could ever find the row.
                        let loc = self.loc(r.span);
                        self.error(Diagnostic::new(codes::TABLE, format!("this row of `{}` has the keys {}..{}, which hold none", t.name.name, r.lo, r.hi), loc, "empty key range").help(format!("a range of keys goes from the smaller to the larger: `{}..{}`", r.hi, r.lo)));
                    } else if ranges.range(..=r.hi).next_back().is_some_and(|(_, hi)| *hi >= r.lo) {
                        let loc = self.loc(r.span);
                        self.error(Diagnostic::new(codes::TABLE, format!("this row of `{}` overlaps an earlier row", t.name.name), loc, "overlapping key"));
                    } else {
                        ranges.insert(r.lo, r.hi);
                    }
                    let mut sc = Scope::default();
                    let ids = vals.iter().map(|v| self.expect(&mut sc, v, Ty::Int, "a table value")).collect();
                    rows.push((r.lo, r.hi, ids));
                }
                if let Some(def) = self.model.tables.get_mut(id.idx()) {
                    def.rows = rows;
                }
                self.record(RecordKind::Encoded, name, None, &item.provenance, at);
            }
            ItemKind::SpaceType { label, .. } => {
                self.record(RecordKind::Encoded, name, label.as_ref().map(|l| l.value.clone()), &item.provenance, at);
            }
            ItemKind::Option { label, .. } => {
                self.record(RecordKind::Encoded, format!("option {name}"), label.as_ref().map(|l| l.value.clone()), &item.provenance, at);
            }
            ItemKind::Graph { name: gname, nodes, edges } => {
                let Some(Sym::Track(id)) = self.own(gname) else { return };
                let mut masks = Vec::new();
                for (_, _, tags) in nodes {
                    masks.push(self.tag_mask(tags));
                }
                let mut links = Vec::new();
                for (a, b, tags) in edges {
                    let ends = [a, b].map(|n| match self.lookup(n, &[]) {
                        Some(Sym::Node(t, i)) if t == id => Some(i),
                        Some(other) => {
                            self.wrong_sort(n, other, &format!("a node of `{}`", gname.name));
                            None
                        }
                        None => None,
                    });
                    // Its tags are resolved whatever its ends: an unknown
                    // tag is reported with an unknown node, not after it.
                    let mask = self.tag_mask(tags);
                    if let [Some(x), Some(y)] = ends {
                        links.push((x, y, mask));
                    }
                }
                if let Some(t) = self.model.tracks.get_mut(id.idx()) {
                    t.spaces = masks;
                    t.edges = links;
                }
                self.record(RecordKind::Encoded, name, None, &item.provenance, at);
            }
            ItemKind::Grid { .. } => self.record(RecordKind::Encoded, name, None, &item.provenance, at),
            ItemKind::Assumption { text, .. } => self.record(RecordKind::Assumption, name, Some(text.value.clone()), &item.provenance, at),
            ItemKind::Discrepancy { chosen, because, .. } => {
                let text = match (chosen, because) {
                    (Some(c), Some(b)) => Some(format!("chosen: {}; because: {}", c.value, b.value)),
                    (Some(c), None) => Some(format!("chosen: {}", c.value)),
                    (None, Some(b)) => Some(format!("because: {}", b.value)),
                    (None, None) => None,
                };
                // Both are required: the reading followed, and why.
                let missing = match (chosen, because) {
                    (None, None) => Some((format!("the discrepancy `{name}` does not say which reading is chosen, nor why"), "no `chosen` and no `because`", "add `chosen \"...\"` and `because \"...\"`: the reading the rulebook follows, and why")),
                    (None, Some(_)) => Some((format!("the discrepancy `{name}` does not say which reading is chosen"), "no `chosen`", "add `chosen \"...\"`: the reading the rulebook follows (its `because` says why)")),
                    (Some(_), None) => Some((format!("the discrepancy `{name}` does not say why its reading is chosen"), "no `because`", "add `because \"...\"`: why the reading of `chosen` is the one the rulebook follows")),
                    (Some(_), Some(_)) => None,
                };
                if let Some((message, label, help)) = missing {
                    self.error(Diagnostic::new(codes::HEADER, message, at, label).help(help));
                }
                self.record(RecordKind::Discrepancy, name, text, &item.provenance, at);
            }
            ItemKind::Narrative { text, .. } => self.record(RecordKind::Narrative, name, Some(text.value.clone()), &item.provenance, at),
            _ => {}
        }
    }
}

/// The number an expression writes out (`7`, `-3`), if it is one.
fn literal_int(e: &ast::Expr) -> Option<i64> {
    match &e.kind {
        ast::ExprKind::Int(n) => Some(*n),
        ast::ExprKind::Neg(x) => literal_int(x).map(|n| -n),
        _ => None,
    }
}
