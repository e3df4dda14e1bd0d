//! Expressions: operators by precedence (a Pratt parser), postfix `.field`
//! and `[index]`, and the primary forms.

use super::*;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::sync::OnceLock;

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::or, Assoc::Left))
            .op(Op::infix(Rule::and, Assoc::Left))
            .op(Op::prefix(Rule::not))
            .op(Op::infix(Rule::eq, Assoc::Left)
                | Op::infix(Rule::ne, Assoc::Left)
                | Op::infix(Rule::lt, Assoc::Left)
                | Op::infix(Rule::le, Assoc::Left)
                | Op::infix(Rule::gt, Assoc::Left)
                | Op::infix(Rule::ge, Assoc::Left)
                | Op::infix(Rule::in_op, Assoc::Left))
            .op(Op::infix(Rule::range_op, Assoc::Left))
            .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
            .op(Op::infix(Rule::mul, Assoc::Left) | Op::infix(Rule::div, Assoc::Left) | Op::infix(Rule::rem, Assoc::Left))
            .op(Op::prefix(Rule::neg))
    })
}

pub(super) fn expr(p: P) -> Result<Expr, ParseError> {
    let operators = p.clone().into_inner().filter(|x| x.as_rule() != Rule::postfix).count();
    if operators > MAX_OPERATORS {
        return Err(ParseError {
            expected: format!("at most {MAX_OPERATORS} operators in one expression"),
            span: span(&p),
            help: Some("split the expression with `let`".into()),
        });
    }
    pratt()
        .map_primary(postfix)
        .map_prefix(|op, rhs| {
            let rhs = rhs?;
            let sp = Span::new(op.as_span().start(), rhs.span.end);
            let kind = if op.as_rule() == Rule::not {
                ExprKind::Not(Box::new(rhs))
            } else {
                ExprKind::Neg(Box::new(rhs))
            };
            Ok(Expr { kind, span: sp })
        })
        .map_infix(|lhs, op, rhs| {
            let (lhs, rhs) = (lhs?, rhs?);
            let sp = Span::new(lhs.span.start, rhs.span.end);
            let bin = match op.as_rule() {
                Rule::add => BinOp::Add,
                Rule::sub => BinOp::Sub,
                Rule::mul => BinOp::Mul,
                Rule::div => BinOp::Div,
                Rule::rem => BinOp::Rem,
                Rule::eq => BinOp::Eq,
                Rule::ne => BinOp::Ne,
                Rule::lt => BinOp::Lt,
                Rule::le => BinOp::Le,
                Rule::gt => BinOp::Gt,
                Rule::ge => BinOp::Ge,
                Rule::and => BinOp::And,
                Rule::or => BinOp::Or,
                Rule::in_op => BinOp::In,
                _ => {
                    return Ok(Expr { kind: ExprKind::Range(Box::new(lhs), Box::new(rhs)), span: sp });
                }
            };
            Ok(Expr { kind: ExprKind::Binary(bin, Box::new(lhs), Box::new(rhs)), span: sp })
        })
        .parse(p.into_inner())
}

pub(super) fn postfix(p: P) -> Result<Expr, ParseError> {
    let mut k = Kids::of(p);
    let mut e = primary(k.next()?)?;
    for suffix in k.rest() {
        let sp = Span::new(e.span.start, suffix.as_span().end());
        let rule = suffix.as_rule();
        let inner = Kids::of(suffix).next()?;
        e = if rule == Rule::index {
            Expr { kind: ExprKind::Index(Box::new(e), Box::new(expr(inner)?)), span: sp }
        } else {
            Expr { kind: ExprKind::Field(Box::new(e), ident(inner)), span: sp }
        };
    }
    Ok(e)
}

fn primary(p: P) -> Result<Expr, ParseError> {
    let sp = span(&p);
    let rule = p.as_rule();
    let kind = match rule {
        Rule::int => ExprKind::Int(int(&p)?),
        Rule::string => ExprKind::Str(string(p).value),
        Rule::true_lit => ExprKind::Bool(true),
        Rule::false_lit => ExprKind::Bool(false),
        Rule::none_lit => ExprKind::None,
        Rule::paren => return expr(Kids::of(p).next()?),
        Rule::conditional => {
            let mut k = Kids::of(p);
            let cond = Box::new(expr(k.next()?)?);
            let then = Box::new(expr(k.next()?)?);
            let rest = k.next()?;
            let otherwise = Box::new(if rest.as_rule() == Rule::conditional { primary(rest)? } else { expr(rest)? });
            ExprKind::If(cond, then, otherwise)
        }
        Rule::list => ExprKind::List(p.into_inner().map(expr).collect::<Result<_, _>>()?),
        Rule::call => {
            let mut k = Kids::of(p);
            let name = ident(k.next()?);
            let args = k.next()?.into_inner().map(expr).collect::<Result<_, _>>()?;
            ExprKind::Call(name, args)
        }
        Rule::region => {
            let mut k = Kids::of(p);
            let var = ident(k.next()?);
            let start = Box::new(expr(k.next()?)?);
            let cond = Box::new(expr(k.next()?)?);
            ExprKind::Region { var, start, cond }
        }
        Rule::in_a_row => {
            let mut k = Kids::of(p);
            let var = ident(k.next()?);
            let through = Box::new(expr(k.next()?)?);
            let cond = Box::new(expr(k.next()?)?);
            ExprKind::InARow { var, through, cond }
        }
        Rule::comprehension | Rule::filter => {
            let mut k = Kids::of(p);
            let word = if rule == Rule::filter { "[" } else { k.next()?.as_str() };
            let var = ident(k.next()?);
            let coll = Box::new(expr(k.next()?)?);
            let prefix = k.next_if(Rule::comp_while).is_some();
            let q = match (word, prefix) {
                ("[", false) => Quantifier::Filter,
                ("[", true) => Quantifier::FilterWhile,
                ("count", false) => Quantifier::Count,
                ("count", true) => Quantifier::CountWhile,
                ("any", _) => Quantifier::Any,
                ("all", _) => Quantifier::All,
                ("first", _) => Quantifier::First,
                ("sum", _) => Quantifier::Sum,
                ("max", _) => Quantifier::Max,
                _ => Quantifier::Min,
            };
            if prefix && !matches!(q, Quantifier::CountWhile | Quantifier::FilterWhile) {
                return Err(ParseError {
                    expected: "`where` or `of`".into(),
                    span: sp,
                    help: Some(format!("`while` only goes with `count x in C while P` and `[x in C while P]`; `{word}` takes `where` or `of`")),
                });
            }
            let body = match k.inner.next() {
                Some(b) => Some(Box::new(expr(b)?)),
                None => None,
            };
            ExprKind::Comprehension { q, var, coll, body }
        }
        _ => ExprKind::Name(ident(p)),
    };
    Ok(Expr { kind, span: sp })
}
