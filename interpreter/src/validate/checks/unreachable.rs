//! V201 — phases and rules that nothing can reach.
//!
//! What: walks the calls from `setup`, the `round`, every trigger, every end
//! condition and every exception whose rule is reachable; a phase or rule not
//! met on the way can never run.
//! Why: a rule nothing calls is a rule of the source that the game never
//! applies — usually a forgotten `phase x` or `do x(...)`.
//! Example: `rule bonus(p: player) { ... }` declared but never called.
//! Fix: call it where the source says it happens, or remove it and record the
//! sentence as a `narrative` if it is not a rule.

use crate::model::{Model, ProcId, ProcKind, Stmt};
use crate::validate::{Finding, Severity};

/// Code of this check.
pub const CODE: &str = "V201";

/// Run the check.
pub fn check(model: &Model) -> Vec<Finding> {
    let n = model.procs.len();
    let mut reached = vec![false; n];
    let mut todo: Vec<ProcId> = Vec::new();
    todo.extend(model.setup);
    todo.extend(model.round.map(|(r, _)| r));
    todo.extend(model.triggers.iter().copied());
    todo.extend(model.ends.iter().map(|e| e.body));
    while let Some(p) = todo.pop() {
        if std::mem::replace(&mut reached[p.idx()], true) {
            continue;
        }
        let proc_ = model.proc(p);
        for x in &proc_.exceptions {
            todo.push(model.exceptions[x.idx()].body);
        }
        model.walk_block(
            proc_.body,
            &mut |s| {
                if let Stmt::Call(q, _) | Stmt::Proceed(q) = s {
                    todo.push(*q);
                }
            },
            &mut |_| {},
        );
    }
    let exception_bodies: Vec<ProcId> = model.exceptions.iter().map(|x| x.body).collect();
    let callers = callers(model);
    model
        .procs
        .iter()
        .enumerate()
        .filter(|(i, p)| !reached[*i] && p.kind != ProcKind::Trigger && !exception_bodies.contains(&ProcId(*i as u16)))
        .map(|(i, p)| {
            let what = if p.kind == ProcKind::Phase { "phase" } else { "rule" };
            // Called only by code that can never run itself: say which, so
            // that the fix is looked for there.
            let why = match callers.get(i).map(Vec::as_slice).unwrap_or_default() {
                [] => "nothing calls it".to_string(),
                by => format!("only {} call{} it, and {} can never run either", names(model, by), if by.len() == 1 { "s" } else { "" }, if by.len() == 1 { "that" } else { "those" }),
            };
            Finding::new(CODE, Severity::Error, format!("the {what} `{}` can never run: {why}", p.name), Some(p.at))
                .help(format!("call it with `{} {}` where the source says it happens, or make it a `narrative`", if what == "phase" { "phase" } else { "do" }, p.name))
        })
        .chain(model.exceptions.iter().filter(|x| !reached[x.target.idx()]).map(|x| {
            Finding::new(CODE, Severity::Error, format!("the exception `{}` changes `{}`, which can never run", x.name, model.proc(x.target).name), Some(x.at))
        }))
        .collect()
}

/// For each procedure, the procedures whose bodies call it (an exception's
/// body by the exception's name), each once.
fn callers(model: &Model) -> Vec<Vec<ProcId>> {
    let mut by: Vec<Vec<ProcId>> = vec![Vec::new(); model.procs.len()];
    for (i, p) in model.procs.iter().enumerate() {
        model.walk_block(
            p.body,
            &mut |s| {
                if let Stmt::Call(q, _) | Stmt::Proceed(q) = s {
                    if let Some(list) = by.get_mut(q.idx()) {
                        if !list.contains(&ProcId(i as u16)) {
                            list.push(ProcId(i as u16));
                        }
                    }
                }
            },
            &mut |_| {},
        );
    }
    by
}

/// "`a`", "`a` and `b`", "`a`, `b` and `c`".
fn names(model: &Model, procs: &[ProcId]) -> String {
    let quoted: Vec<String> = procs.iter().map(|p| format!("`{}`", model.proc(*p).name)).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}
