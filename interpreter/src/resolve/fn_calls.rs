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
        let calls: Vec<Vec<usize>> = (0..n)
            .map(|i| {
                let mut out = Vec::new();
                self.model.walk_expr(self.model.fns[i].body, &mut |e| {
                    if let Expr::CallFn(f, _) = self.model.expr(e) {
                        out.push(f.idx());
                    }
                });
                out
            })
            .collect();
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
                        self.error(Diagnostic::new(codes::ARITY, format!("the function `{name}` calls itself"), at, "recursive").help("functions cannot recurse; use a rule with a loop instead"));
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

    /// Every call is inlined, so a chain of calls deeper than
    /// `MAX_CALL_DEPTH` is refused here rather than failing in each game.
    /// Depths are computed callee first, without recursion: the input that
    /// this rejects is the input that would overflow a recursive walk.
    #[allow(clippy::indexing_slicing, reason = "indexes run over 0..calls.len(), an acyclic call graph")]
    pub(super) fn check_call_depth(&mut self, calls: &[Vec<usize>]) {
        let mut depth: Vec<usize> = vec![0; calls.len()];
        for root in 0..calls.len() {
            let mut todo = vec![(root, false)];
            while let Some((f, callees_done)) = todo.pop() {
                if depth[f] > 0 {
                    continue;
                }
                if callees_done {
                    depth[f] = 1 + calls[f].iter().map(|&g| depth[g]).max().unwrap_or(0);
                } else {
                    todo.push((f, true));
                    todo.extend(calls[f].iter().filter(|&&g| depth[g] == 0).map(|&g| (g, false)));
                }
            }
        }
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
}
