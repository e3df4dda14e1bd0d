//! What the user functions' calls must respect, checked once every body is
//! resolved: no function calls itself (directly or through others), and
//! calls nest no deeper than the engine allows.

use super::Resolver;
use crate::diagnostic::{codes, Diagnostic};
use crate::model::*;

impl Resolver {
    /// A function may not call itself, directly or not: evaluation recurses
    /// on the Rust stack, and the language has no loops inside expressions.
    #[allow(clippy::indexing_slicing, reason = "indexes run over 0..fns.len() and the calls found in those bodies")]
    pub(super) fn check_fn_cycles(&mut self) {
        let n = self.model.fns.len();
        let calls = self.fn_calls();
        // Depth-first search without recursion, marking the functions on
        // the current path: a call to one of them closes a cycle.
        #[derive(Clone, Copy, PartialEq)]
        enum Mark {
            New,
            OnPath,
            Done,
        }
        let mut mark = vec![Mark::New; n];
        let mut recursive = false;
        for root in 0..n {
            if mark[root] != Mark::New {
                continue;
            }
            let mut path: Vec<(usize, usize)> = vec![(root, 0)];
            mark[root] = Mark::OnPath;
            while let Some(&mut (f, ref mut next)) = path.last_mut() {
                let Some(&g) = calls[f].get(*next) else {
                    mark[f] = Mark::Done;
                    path.pop();
                    continue;
                };
                *next += 1;
                match mark[g] {
                    Mark::New => {
                        mark[g] = Mark::OnPath;
                        path.push((g, 0));
                    }
                    Mark::OnPath => {
                        let at = self.model.fns[g].at;
                        let name = self.model.fns[g].name.clone();
                        // The loop is the path from `g` on: name the
                        // functions it goes through, which are the ones
                        // to change as much as `g`.
                        let from = path.iter().position(|&(h, _)| h == g).unwrap_or(0);
                        let through: Vec<String> = path[from + 1..].iter().map(|&(h, _)| format!("`{}`", self.model.fns[h].name)).collect();
                        let message = match through.as_slice() {
                            [] => format!("the function `{name}` calls itself"),
                            _ => format!("the function `{name}` calls itself through {}", through.join(", then ")),
                        };
                        self.error(Diagnostic::new(codes::ARITY, message, at, "recursive").help("functions cannot recurse; use a rule with a loop instead"));
                        recursive = true;
                    }
                    Mark::Done => {}
                }
            }
        }
        if !recursive {
            self.check_call_depth(&calls);
        }
    }

    /// Every call is inlined, so a function that calls another twice, which
    /// calls another twice, and so on, doubles its code at each level: 30
    /// levels are a billion expressions, which no memory holds. The size of
    /// each function with its calls inlined, and of the whole rulebook so
    /// compiled, is bounded here (callee first, without recursion, as the
    /// depth is), once the whole rulebook is resolved without error (so
    /// the calls are acyclic and every body is there).
    #[allow(clippy::indexing_slicing, reason = "indexes run over 0..calls.len(), an acyclic call graph")]
    pub(super) fn check_inlined_size(&mut self) {
        let calls = self.fn_calls();
        let n = calls.len();
        let own: Vec<u64> = (0..n)
            .map(|f| {
                let mut count = 0u64;
                self.model.walk_expr(self.model.fns[f].body, &mut |_| count += 1);
                count
            })
            .collect();
        let size = callee_first(&calls, |f, callees: &[u64]| callees.iter().fold(own[f], |s, c| s.saturating_add(*c)));
        // Report the smallest function over the limit: the one to change.
        if let Some(f) = (0..n).filter(|&f| size[f] > MAX_INLINED_EXPRS).min_by_key(|&f| size[f]) {
            let def = &self.model.fns[f];
            let (name, at) = (def.name.clone(), def.at);
            self.error(
                Diagnostic::new(codes::ARITY, format!("the function `{name}` is {} expressions long once the functions it calls are inlined, more than the {MAX_INLINED_EXPRS} allowed", size[f]), at, "too large")
                    .help("each call is replaced by the body of the function it calls, so a function that calls another twice doubles; keep a value computed once in a `let` of the rule, or call the function once"),
            );
            return;
        }
        // The rules, conditions and invariants, with every call inlined.
        let mut in_fn = vec![false; self.model.exprs.len()];
        for def in &self.model.fns {
            self.model.walk_expr(def.body, &mut |e| {
                if let Some(x) = in_fn.get_mut(e.0 as usize) {
                    *x = true;
                }
            });
        }
        let mut total = 0u64;
        let mut biggest: Option<(u64, Loc)> = None;
        for (i, e) in self.model.exprs.iter().enumerate() {
            if in_fn[i] {
                continue;
            }
            total = total.saturating_add(1);
            if let Expr::CallFn(f, _) = e {
                let s = size[f.idx()];
                total = total.saturating_add(s);
                if biggest.is_none_or(|(b, _)| s > b) {
                    biggest = self.model.expr_at.get(i).map(|at| (s, *at));
                }
            }
        }
        if total <= MAX_INLINED_TOTAL {
            return;
        }
        match biggest {
            Some((_, at)) => self.error(
                Diagnostic::new(codes::ARITY, format!("the rulebook is {total} expressions long once every function call is inlined, more than the {MAX_INLINED_TOTAL} allowed"), at, "the largest call")
                    .help("each call is replaced by the body of the function it calls: call the largest functions in fewer places (keep a value computed once in a `let`)"),
            ),
            // No call at all: the rules themselves are too long. The first
            // expression past the limit is shown.
            None => {
                let past = self.model.exprs.iter().enumerate().filter(|(i, _)| !in_fn[*i]).nth(MAX_INLINED_TOTAL as usize).and_then(|(i, _)| self.model.expr_at.get(i).copied());
                if let Some(at) = past {
                    self.error(
                        Diagnostic::new(codes::ARITY, format!("the rulebook is {total} expressions long, more than the {MAX_INLINED_TOTAL} allowed"), at, "past the limit")
                            .help("a rulebook this long is too large to compile: repeat work with `for`, `repeat` or `while` instead of writing it out"),
                    );
                }
            }
        }
    }

    /// Every call is inlined, so a chain of calls deeper than
    /// `MAX_CALL_DEPTH` is refused here rather than failing in each game.
    /// Depths are computed callee first, without recursion: the input that
    /// this rejects is the input that would overflow a recursive walk.
    #[allow(clippy::indexing_slicing, reason = "indexes run over 0..calls.len(), an acyclic call graph")]
    pub(super) fn check_call_depth(&mut self, calls: &[Vec<usize>]) {
        let depth = callee_first(calls, |_, callees: &[usize]| 1 + callees.iter().max().copied().unwrap_or(0));
        // Report the shallowest function over the limit: the one to split.
        let over = (0..calls.len()).filter(|&f| depth[f] > MAX_CALL_DEPTH).min_by_key(|&f| depth[f]);
        if let Some(f) = over {
            let def = &self.model.fns[f];
            let (name, at) = (def.name.clone(), def.at);
            self.error(
                Diagnostic::new(codes::ARITY, format!("the function `{name}` calls functions {} deep, more than the {MAX_CALL_DEPTH} allowed", depth[f]), at, "too deep")
                    .help("functions are inlined where they are used: merge some of the chain into one function"),
            );
        }
    }

    /// The functions each function's body calls (by index).
    #[allow(clippy::indexing_slicing, reason = "indexes run over 0..fns.len()")]
    fn fn_calls(&self) -> Vec<Vec<usize>> {
        (0..self.model.fns.len())
            .map(|i| {
                let mut out = Vec::new();
                self.model.walk_expr(self.model.fns[i].body, &mut |e| {
                    if let Expr::CallFn(f, _) = self.model.expr(e) {
                        out.push(f.idx());
                    }
                });
                out
            })
            .collect()
    }
}

/// A value for every function worked out from the values of the functions
/// it calls (`of(f, values of its callees)`), callee first and without
/// recursion: the call graph is acyclic, but may be deeper than the stack.
#[allow(clippy::indexing_slicing, reason = "indexes run over 0..calls.len(), an acyclic call graph")]
fn callee_first<T: Copy + Default>(calls: &[Vec<usize>], mut of: impl FnMut(usize, &[T]) -> T) -> Vec<T> {
    let mut value: Vec<Option<T>> = vec![None; calls.len()];
    let mut callees = Vec::new();
    for root in 0..calls.len() {
        let mut todo = vec![(root, false)];
        while let Some((f, callees_done)) = todo.pop() {
            if value[f].is_some() {
                continue;
            }
            if callees_done {
                callees.clear();
                callees.extend(calls[f].iter().map(|&g| value[g].unwrap_or_default()));
                value[f] = Some(of(f, &callees));
            } else {
                todo.push((f, true));
                todo.extend(calls[f].iter().filter(|&&g| value[g].is_none()).map(|&g| (g, false)));
            }
        }
    }
    value.into_iter().map(Option::unwrap_or_default).collect()
}
