//! Statements and blocks.

use super::*;
use super::expressions::{expr, postfix};

pub(super) fn block(p: P) -> Result<Block, ParseError> {
    let sp = span(&p);
    let mut k = Kids::of(p);
    let provenance = provenances(&mut k)?;
    let stmts = k.rest().map(stmt).collect::<Result<Vec<_>, _>>()?;
    Ok(Block { provenance, stmts, span: sp })
}

/// What a `move` (or a scenario's `place`) moves.
pub(super) fn move_what(p: P) -> Result<MoveWhat, ParseError> {
    let what = Kids::of(p).next()?;
    Ok(match what.as_rule() {
        Rule::move_top => MoveWhat::Top(expr(Kids::of(what).next()?)?),
        Rule::move_all => MoveWhat::All(expr(Kids::of(what).next()?)?),
        Rule::move_count => {
            let mut mk = Kids::of(what);
            let n = expr(mk.next()?)?;
            let kind = ident(mk.next()?);
            let from = expr(mk.next()?)?;
            MoveWhat::Count { n, kind, from }
        }
        _ => MoveWhat::Piece(expr(what)?),
    })
}

fn stmt(p: P) -> Result<Stmt, ParseError> {
    let sp = span(&p);
    let mut outer = Kids::of(p);
    let inner = outer.next()?;
    let provenance = provenances(&mut outer)?;
    let rule = inner.as_rule();
    let mut k = Kids::of(inner);
    let kind = match rule {
        Rule::let_stmt => StmtKind::Let(ident(k.next()?), expr(k.next()?)?),
        Rule::assign_stmt => {
            let lhs = postfix(k.next()?)?;
            let op = match k.next()?.as_str() {
                "+=" => AssignOp::Add,
                "-=" => AssignOp::Sub,
                _ => AssignOp::Set,
            };
            StmtKind::Assign(lhs, op, expr(k.next()?)?)
        }
        Rule::move_stmt => {
            let what = move_what(k.next()?)?;
            let to = expr(k.next()?)?;
            let bottom = k.next_if(Rule::bottom).is_some();
            StmtKind::Move { what, to, bottom }
        }
        Rule::shuffle_stmt => StmtKind::Shuffle(expr(k.next()?)?),
        Rule::reveal_stmt => {
            let what = move_what(k.next()?)?;
            StmtKind::Reveal { what, to: expr(k.next()?)? }
        }
        Rule::roll_stmt => {
            let (var, die) = (ident(k.next()?), ident(k.next()?));
            let seen_by = match k.peek_rule() {
                Some(_) => Some(expr(k.next()?)?),
                None => None,
            };
            StmtKind::Roll(var, die, seen_by)
        }
        Rule::choose_stmt => {
            let mut binds = Vec::new();
            while let Some(b) = k.next_if(Rule::choose_bind) {
                let mut bk = Kids::of(b);
                let var = ident(bk.next()?);
                binds.push((var, expr(bk.next()?)?));
            }
            let cond = match k.next_if(Rule::choose_where) {
                Some(w) => Some(expr(Kids::of(w).next()?)?),
                None => None,
            };
            if k.next_if(Rule::at_random).is_some() {
                let otherwise = match k.next_if(Rule::choose_else) {
                    Some(e) => Some(block(Kids::of(e).next()?)?),
                    None => None,
                };
                StmtKind::ChooseRandom { binds, cond, otherwise }
            } else {
                let by = expr(k.next()?)?;
                let prompt = k.next_if(Rule::string).map(string);
                let otherwise = match k.next_if(Rule::choose_else) {
                    Some(e) => Some(block(Kids::of(e).next()?)?),
                    None => None,
                };
                StmtKind::Choose { binds, cond, by, prompt, otherwise }
            }
        }
        Rule::if_stmt => {
            let mut arms = Vec::new();
            let mut otherwise = None;
            let parts: Vec<P> = k.rest().collect();
            let mut i = 0;
            while i < parts.len() {
                match (parts.get(i), parts.get(i + 1)) {
                    (Some(c), Some(b)) if c.as_rule() == Rule::expr => {
                        arms.push((expr(c.clone())?, block(b.clone())?));
                        i += 2;
                    }
                    (Some(b), _) => {
                        otherwise = Some(block(b.clone())?);
                        i += 1;
                    }
                    (None, _) => break,
                }
            }
            StmtKind::If(arms, otherwise)
        }
        Rule::while_stmt => StmtKind::While(expr(k.next()?)?, block(k.next()?)?),
        Rule::repeat_stmt => StmtKind::Repeat(expr(k.next()?)?, block(k.next()?)?),
        Rule::for_stmt => {
            let var = ident(k.next()?);
            let mut coll = expr(k.next()?)?;
            let mut next = k.next()?;
            // `for x in C where P` walks `[x in C where P]`, worked out when
            // the loop begins.
            if next.as_rule() == Rule::for_where {
                let cond = expr(Kids::of(next).next()?)?;
                let span = Span::new(coll.span.start, cond.span.end);
                coll = Expr { kind: ExprKind::Comprehension { q: Quantifier::Filter, var: var.clone(), coll: Box::new(coll), body: Some(Box::new(cond)) }, span };
                next = k.next()?;
            }
            StmtKind::For(var, coll, block(next)?)
        }
        Rule::simultaneous_stmt => StmtKind::Simultaneous(ident(k.next()?), expr(k.next()?)?, block(k.next()?)?),
        Rule::match_stmt => {
            let scrutinee = expr(k.next()?)?;
            let mut arms = Vec::new();
            for arm in k.rest() {
                let mut ak = Kids::of(arm);
                let pat = ak.next()?;
                let pat_span = span(&pat);
                let names: Vec<P> = pat.into_inner().collect();
                let pattern = if names.first().map(|n| n.as_rule()) == Some(Rule::wildcard) {
                    Pattern::Wildcard(pat_span)
                } else {
                    Pattern::Names(names.into_iter().map(ident).collect())
                };
                let body = ak.next()?;
                let body = if body.as_rule() == Rule::block {
                    // Provenance after the braces (`x => { ... } cite
                    // "..."`), as a `for` or `if` may have it after its
                    // block: the arm's, with any written before them.
                    let mut b = block(body)?;
                    b.provenance.extend(provenances(&mut ak)?);
                    b
                } else {
                    let bs = span(&body);
                    Block { provenance: Vec::new(), stmts: vec![stmt(body)?], span: bs }
                };
                arms.push((pattern, body));
            }
            StmtKind::Match(scrutinee, arms)
        }
        Rule::do_stmt => {
            let name = ident(k.next()?);
            let args = match k.next_if(Rule::args) {
                Some(a) => a.into_inner().map(expr).collect::<Result<Vec<_>, _>>()?,
                None => Vec::new(),
            };
            StmtKind::Do(name, args)
        }
        Rule::phase_stmt => StmtKind::Phase(ident(k.next()?)),
        Rule::as_stmt => StmtKind::As(expr(k.next()?)?, block(k.next()?)?),
        Rule::win_stmt => StmtKind::Win(expr(k.next()?)?),
        Rule::draw_stmt => StmtKind::Draw,
        Rule::end_stmt => StmtKind::End,
        Rule::proceed_stmt => StmtKind::Proceed,
        _ => StmtKind::Pass,
    };
    Ok(Stmt { kind, provenance, span: sp })
}
