//! V202 — component kinds, zones, counters, vars, dice, options and
//! functions that no rule uses.
//!
//! What: looks for kinds, zones, counters and vars no expression or
//! statement names (of a rule, a function, an invariant, a condition, an
//! initial value, a table), dice no rule rolls, options no rule reads
//! with `enabled` (switched on, such an option changes nothing), and
//! functions nothing calls (a rule, a condition, an invariant, an initial
//! value, a table, a scenario, or a function that is itself called).
//! Why: a component of the box list that no rule touches stays in the box for
//! the whole game; often a rule about it is missing.
//! Example: `token coin 10` with no `move ... of coin` anywhere.
//! Fix: encode the rules that use it, or make the component a `narrative`
//! (a player aid, a box insert) if it has no rule.

use crate::model::{Expr, LValue, Model, Stmt};
use std::cell::Cell;
use crate::validate::{Finding, Severity};

/// Code of this check.
pub const CODE: &str = "V202";

/// Run the check.
pub fn check(model: &Model) -> Vec<Finding> {
    let mut kind_used = vec![false; model.kinds.len()];
    let mut zone_used = vec![false; model.zones.len()];
    let mut option_read = vec![false; model.options.len()];
    let mut die_rolled = vec![false; model.dice.len()];
    let mut counter_used = vec![false; model.counters.len()];
    let mut var_used = vec![false; model.vars.len()];
    // Cells: the walk that marks components marks calls too, and what the
    // rules call is read (below) before every function body is walked.
    let fn_called: Vec<Cell<bool>> = vec![Cell::new(false); model.fns.len()];
    for z in &model.zones {
        for k in &z.kinds {
            kind_used[k.idx()] = true;
        }
    }
    for p in &model.procs {
        if let Some(k) = p.on_arrive {
            kind_used[k.idx()] = true;
        }
    }
    let mut mark_expr = |model: &Model, id| {
        model.walk_expr(id, &mut |e| match model.expr(e) {
            Expr::Zone(z, _) => zone_used[z.idx()] = true,
            Expr::Counter(c, _) => counter_used[c.idx()] = true,
            Expr::Var(v, _) => var_used[v.idx()] = true,
            Expr::PieceOf(k, _) | Expr::Pieces(k) | Expr::PiecesOf(k, _) | Expr::Leader(_, k) | Expr::Rearmost(_, k) | Expr::IsKind(_, k) => kind_used[k.idx()] = true,
            Expr::Variant(v) | Expr::Is(_, v) | Expr::PieceOfVariant(v) => kind_used[model.variants[v.idx()].kind.idx()] = true,
            Expr::Enabled(o) => {
                if let Some(x) = option_read.get_mut(o.idx()) {
                    *x = true;
                }
            }
            Expr::CallFn(f, _) => {
                if let Some(x) = fn_called.get(f.idx()) {
                    x.set(true);
                }
            }
            _ => {}
        })
    };
    let mut counted: Vec<crate::model::KindId> = Vec::new();
    let (mut written_counters, mut written_vars) = (Vec::new(), Vec::new());
    for p in &model.procs {
        let mut exprs = Vec::new();
        model.walk_block(
            p.body,
            &mut |s| {
                match s {
                    Stmt::MoveCount { kind, .. } => counted.push(*kind),
                    Stmt::Assign(LValue::Counter(c, _), ..) => written_counters.push(*c),
                    Stmt::Assign(LValue::Var(v, _), ..) => written_vars.push(*v),
                    Stmt::Roll { die, .. } => {
                        if let Some(x) = die_rolled.get_mut(die.idx()) {
                            *x = true;
                        }
                    }
                    _ => {}
                }
            },
            &mut |e| exprs.push(e),
        );
        exprs.extend(p.when);
        for e in exprs {
            mark_expr(model, e);
        }
    }
    for e in model.exceptions.iter().map(|x| x.when).chain(model.ends.iter().map(|e| e.when)) {
        mark_expr(model, e);
    }
    let tables = model.tables.iter().flat_map(|t| t.rows.iter().flat_map(|(_, _, row)| row.iter().copied()));
    for e in model.vars.iter().filter_map(|v| v.init).chain(model.counters.iter().filter_map(|c| c.init)).chain(tables) {
        mark_expr(model, e);
    }
    // A function's body is used where the function is called (a rule's
    // expressions name the function, not what its body names); an
    // invariant reads the components it checks.
    for e in model.invariants.iter().flat_map(|i| i.when.into_iter().chain([i.holds])) {
        mark_expr(model, e);
    }
    // Functions: called from what was walked so far, from a scenario, or
    // from a function called (a function only an unused one calls is
    // unused too).
    let called_by = |e: &Expr| if let Expr::CallFn(f, _) = e { Some(f.idx()) } else { None };
    let mut called: Vec<bool> = fn_called.iter().map(Cell::get).collect();
    for f in model.scenario_exprs.iter().filter_map(called_by) {
        if let Some(x) = called.get_mut(f) {
            *x = true;
        }
    }
    let mut to_walk: Vec<usize> = (0..called.len()).filter(|f| called[*f]).collect();
    while let Some(f) = to_walk.pop() {
        model.walk_expr(model.fns[f].body, &mut |e| {
            if let Some(g) = called_by(model.expr(e)).filter(|g| called.get(*g) == Some(&false)) {
                called[g] = true;
                to_walk.push(g);
            }
        });
    }
    // Every body marks what it names, so that an unused function is one
    // finding, not one more per component only it reads.
    for f in &model.fns {
        mark_expr(model, f.body);
    }
    for k in counted {
        kind_used[k.idx()] = true;
    }
    for c in written_counters {
        counter_used[c.idx()] = true;
    }
    for v in written_vars {
        var_used[v.idx()] = true;
    }
    let kinds = model.kinds.iter().zip(&kind_used).filter(|(_, u)| !**u).map(|(k, _)| {
        Finding::new(CODE, Severity::Warning, format!("no rule uses the component `{}`", k.name), Some(k.at)).help("encode the rules that use it, or record it as a `narrative` if it has none")
    });
    let zones = model.zones.iter().zip(&zone_used).filter(|(_, u)| !**u).map(|(z, _)| {
        Finding::new(CODE, Severity::Warning, format!("no rule uses the zone `{}`", z.name), Some(z.at)).help("remove it, or encode the rules that put pieces there")
    });
    let options = model.options.iter().zip(&option_read).filter(|(_, r)| !**r).map(|(name, _)| {
        let at = model.records.iter().find(|r| r.name == format!("option {name}")).map(|r| r.at);
        Finding::new(CODE, Severity::Warning, format!("no rule reads the option `{name}`: switched on, it changes nothing"), at).help(format!("encode what it changes with `if enabled({name}) {{ ... }}` (or a `when enabled({name})`), or remove it"))
    });
    // A die is a declaration of its own, found by its name among the
    // records for its place (a module's `remove` of the rule that rolled
    // it leaves it behind).
    let dice = model.dice.iter().zip(&die_rolled).filter(|(_, r)| !**r).map(|(d, _)| {
        let at = model.records.iter().find(|r| r.declaration && r.name == d.name).map(|r| r.at);
        Finding::new(CODE, Severity::Warning, format!("no rule rolls the die `{}`", d.name), at).help("encode the rule that rolls it (`roll NAME = DIE`), or remove it")
    });
    let counters = model.counters.iter().zip(&counter_used).filter(|(_, u)| !**u).map(|(c, _)| {
        Finding::new(CODE, Severity::Warning, format!("no rule uses the counter `{}`: nothing sets it or reads it", c.name), Some(c.at)).help("remove it, or encode the rules that keep it")
    });
    let vars = model.vars.iter().zip(&var_used).filter(|(_, u)| !**u).map(|(v, _)| {
        let at = model.records.iter().find(|r| r.declaration && r.name == v.name).map(|r| r.at);
        Finding::new(CODE, Severity::Warning, format!("no rule uses the var `{}`: nothing sets it or reads it", v.name), at).help("remove it, or encode the rules that keep it")
    });
    let fns = model.fns.iter().zip(&called).filter(|(_, c)| !**c).map(|(f, _)| {
        Finding::new(CODE, Severity::Warning, format!("nothing calls the function `{}`", f.name), Some(f.at)).help("call it in the rule it was written for, or remove it")
    });
    kinds.chain(zones).chain(counters).chain(vars).chain(dice).chain(options).chain(fns).collect()
}
