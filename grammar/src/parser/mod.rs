//! The only module that knows pest: turns pest pairs into AST nodes.
//!
//! `parse` checks the input's nesting, runs the pest grammar
//! (`rules.pest`), then builds the tree: the file and its items
//! (`items.rs`, with the steps of scenarios), statements (`statements.rs`)
//! and expressions (`expressions.rs`). A pest error becomes a
//! [`ParseError`] that says what was expected in words (`expected.rs`).
//! The helpers below are shared by all of them.

mod expected;
mod expressions;
mod items;
mod statements;

use crate::ast::*;
use crate::error::ParseError;
use expected::to_parse_error;
use items::build_file;
use pest::iterators::{Pair, Pairs};
use pest::Parser as _;

#[derive(pest_derive::Parser)]
#[grammar = "rules.pest"]
struct RulesParser;

type P<'a> = Pair<'a, Rule>;

/// Parse a whole rulebook or module.
pub fn parse(text: &str) -> Result<File, ParseError> {
    check_characters(text)?;
    check_nesting(text)?;
    let mut pairs = RulesParser::parse(Rule::file, text).map_err(|e| to_parse_error(e, text))?;
    let file = pairs.next().ok_or_else(|| internal("empty parse", 0))?;
    check_expression_depth(&file)?;
    build_file(file)
}

/// Characters a rulebook may not hold anywhere, comments included:
/// control characters other than tab and line ends, which a terminal obeys
/// when a diagnostic, a label or a prompt is printed (retitling or clearing
/// it), the bidirectional overrides, which make a line read otherwise
/// than it parses (as rustc refuses them), and the line and paragraph
/// separators, which editors show as line ends where the parser reads one
/// line (a comment could show live code after one).
fn forbidden(c: char) -> Option<&'static str> {
    match c {
        '\t' | '\n' | '\r' => None,
        '\u{feff}' => None,
        c if c.is_control() => Some("a control character"),
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => Some("a bidirectional override"),
        '\u{2028}' | '\u{2029}' => Some("a line or paragraph separator"),
        _ => None,
    }
}

/// Whether a rulebook may not hold `c` (see [`parse`]'s refusal): what a
/// tool printing a rulebook's text must not send to a terminal as it is.
pub fn is_forbidden_char(c: char) -> bool {
    forbidden(c).is_some()
}

fn check_characters(text: &str) -> Result<(), ParseError> {
    // A byte order mark is allowed at the start only, where editors write it.
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let skipped = text.len() - body.len();
    for (i, c) in body.char_indices() {
        let what = match forbidden(c) {
            Some(what) => what,
            None if c == '\u{feff}' => "a byte order mark after the start",
            // A carriage return that ends no line sends a terminal back to
            // the start of the line: what follows it overwrites what came
            // before, so a comment could hide live code behind it.
            None if c == '\r' && body.as_bytes().get(i + 1) != Some(&b'\n') => "a carriage return that is not followed by a line feed",
            None => continue,
        };
        let at = skipped + i;
        return Err(ParseError {
            expected: format!("text, not {what} (U+{:04X})", u32::from(c)),
            span: Span { start: at, end: at + c.len_utf8() },
            help: Some(if c == '\r' {
                "end lines with a line feed (LF) or CR LF; save the file with one of these line ends, or remove the carriage return".into()
            } else {
                "a rulebook is plain text: remove the character (a terminal would obey it when the line is printed); to show it in a label, describe it in words".into()
            }),
        });
    }
    Ok(())
}

/// Deepest bracket nesting accepted. The parser and the evaluator recurse
/// once per level, so a bound here keeps hostile input from overflowing the
/// stack; real rulebooks nest a dozen levels at most.
const MAX_NESTING: usize = 48;
/// Most operators in one expression between brackets, for the same reason.
const MAX_OPERATORS: usize = 64;

fn check_nesting(text: &str) -> Result<(), ParseError> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut in_comment = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if in_comment {
            in_comment = c != '\n';
            continue;
        }
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '#' => in_comment = true,
            '"' => in_string = true,
            '(' | '[' | '{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(ParseError {
                        expected: format!("at most {MAX_NESTING} nested brackets"),
                        span: Span::new(i, i + 1),
                        help: Some("split the expression with `let`, or the block into rules".into()),
                    });
                }
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// Deepest expression accepted, counting each expression inside another
/// (`sum a in X of sum b in Y of …`, arguments, indices) and each `.field`
/// or `[index]` after a value. Keywords nest without brackets, so the bracket
/// bound above does not catch them, and every later pass recurses once per
/// level; the rulebooks of the five games nest a dozen levels at most.
pub const MAX_EXPRESSION_DEPTH: usize = 64;

/// Walks the parse tree without recursion (the point is not to overflow the
/// stack on the input it rejects).
fn check_expression_depth(file: &P) -> Result<(), ParseError> {
    let mut stack = vec![(file.clone(), 0usize)];
    while let Some((pair, depth)) = stack.pop() {
        let depth = match pair.as_rule() {
            Rule::expr => depth + 1,
            Rule::postfix => depth + pair.clone().into_inner().count().saturating_sub(1),
            _ => depth,
        };
        if depth > MAX_EXPRESSION_DEPTH {
            return Err(ParseError {
                expected: format!("an expression nested at most {MAX_EXPRESSION_DEPTH} levels deep"),
                span: Span::new(pair.as_span().start(), pair.as_span().start()),
                help: Some("name the inner part with `let` or a `fn`".into()),
            });
        }
        // An `else if` of a value is a conditional inside the one before
        // it, not wrapped in an `expr` (a chain of statements is flat).
        let parent = pair.as_rule();
        let level = |kid: &P| if parent == Rule::conditional && kid.as_rule() == Rule::conditional { depth + 1 } else { depth };
        // Children in the order written, so that the first level too deep
        // in the text is the one reported.
        let kids: Vec<(P, usize)> = pair.into_inner().map(|kid| (kid.clone(), level(&kid))).collect();
        stack.extend(kids.into_iter().rev());
    }
    Ok(())
}

fn internal(what: &str, at: usize) -> ParseError {
    ParseError {
        expected: format!("a well-formed rulebook (internal: {what})"),
        span: Span::new(at, at),
        help: None,
    }
}

/// The span of a pair, without what pest lets a rule swallow after its
/// last element when an optional clause did not match: whitespace, `;` and
/// whole comment lines. A diagnostic must not underline the next line's
/// indentation, nor a block's record take in the comment after it.
fn span(p: &P) -> Span {
    let s = p.as_span();
    // A string or a token ends where it ends (a string's last line may
    // start with `#`).
    if p.as_rule() == Rule::string || p.clone().into_inner().peek().is_none() {
        return Span::new(s.start(), s.end());
    }
    let mut text = s.as_str();
    loop {
        let trimmed = text.trim_end_matches(|c: char| c.is_whitespace() || c == ';');
        let last_line_start = trimmed.rfind('\n').map(|i| i + 1).unwrap_or(0);
        let last_line = trimmed.get(last_line_start..).unwrap_or("");
        text = if last_line.trim_start().starts_with('#') && last_line_start > 0 { trimmed.get(..last_line_start).unwrap_or("") } else { trimmed };
        if text.len() == trimmed.len() {
            break;
        }
    }
    Span::new(s.start(), s.start() + text.len())
}

// ---------------------------------------------------------------- helpers

/// Children of a pair, with a clear error if one is missing.
struct Kids<'a> {
    inner: Pairs<'a, Rule>,
    at: usize,
}

impl<'a> Kids<'a> {
    fn of(p: P<'a>) -> Self {
        let at = p.as_span().end();
        Kids { inner: p.into_inner(), at }
    }
    fn next(&mut self) -> Result<P<'a>, ParseError> {
        self.inner.next().ok_or_else(|| internal("missing child", self.at))
    }
    fn peek_rule(&self) -> Option<Rule> {
        self.inner.peek().map(|p| p.as_rule())
    }
    fn next_if(&mut self, rule: Rule) -> Option<P<'a>> {
        if self.peek_rule() == Some(rule) {
            self.inner.next()
        } else {
            None
        }
    }
    fn rest(self) -> Pairs<'a, Rule> {
        self.inner
    }
}

fn ident(p: P) -> Ident {
    Ident { name: p.as_str().to_string(), span: span(&p) }
}

fn string(p: P) -> Str {
    let sp = span(&p);
    let raw = p.into_inner().next().map(|i| i.as_str()).unwrap_or("");
    let mut value = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => value.push('\n'),
                Some(other) => value.push(other),
                None => {}
            }
        } else {
            value.push(c);
        }
    }
    Str { value, span: sp }
}

/// A number written in the text (`-` included where the grammar allows
/// one): at most 2^63 - 1 either way, the numbers the engine computes with.
fn int(p: &P) -> Result<i64, ParseError> {
    p.as_str().parse().ok().filter(|n| *n != i64::MIN).ok_or_else(|| ParseError {
        expected: "a number that fits in 64 bits".into(),
        span: span(p),
        help: Some("numbers lie within -9223372036854775807..9223372036854775807 (2^63 - 1 either way)".into()),
    })
}

fn range(p: P) -> Result<Range, ParseError> {
    let sp = span(&p);
    let mut k = Kids::of(p);
    let lo = int(&k.next()?)?;
    let hi = match k.inner.next() {
        Some(h) => int(&h)?,
        None => lo,
    };
    Ok(Range { lo, hi, span: sp })
}

fn provenances(pairs: &mut Kids) -> Result<Vec<Provenance>, ParseError> {
    let mut out = Vec::new();
    while let Some(p) = pairs.next_if(Rule::provenance) {
        out.push(provenance(p)?);
    }
    Ok(out)
}

fn provenance(p: P) -> Result<Provenance, ParseError> {
    let mut k = Kids::of(p);
    let inner = k.next()?;
    Ok(match inner.as_rule() {
        Rule::cite_quote => {
            let mut k = Kids::of(inner);
            let quote = string(k.next()?);
            let source = k.inner.next().map(string);
            Provenance::Quote { quote, source }
        }
        Rule::cite_lines => {
            let mut k = Kids::of(inner);
            let lines = range(k.next()?)?;
            let source = k.inner.next().map(string);
            Provenance::Lines { lines, source }
        }
        _ => Provenance::Assume(string(Kids::of(inner).next()?)),
    })
}

