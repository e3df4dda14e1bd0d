//! The only module that knows pest: turns pest pairs into AST nodes.

use crate::ast::*;
use crate::error::ParseError;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser as _;
use std::sync::OnceLock;

#[derive(pest_derive::Parser)]
#[grammar = "rules.pest"]
struct RulesParser;

type P<'a> = Pair<'a, Rule>;

/// Parse a whole rulebook or module.
pub fn parse(text: &str) -> Result<File, ParseError> {
    check_nesting(text)?;
    let mut pairs = RulesParser::parse(Rule::file, text).map_err(to_parse_error)?;
    let file = pairs.next().ok_or_else(|| internal("empty parse", 0))?;
    check_expression_depth(&file)?;
    build_file(file)
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
        stack.extend(pair.into_inner().map(|kid| (kid, depth)));
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

fn span(p: &P) -> Span {
    let s = p.as_span();
    Span::new(s.start(), s.end())
}

/// The span of a pair without the whitespace and comments pest lets a rule
/// swallow after its last element (an optional clause that did not match).
fn tight_span(p: &P) -> Span {
    let s = p.as_span();
    let mut text = s.as_str();
    loop {
        let trimmed = text.trim_end();
        let last_line_start = trimmed.rfind('\n').map(|i| i + 1).unwrap_or(0);
        let last_line = trimmed.get(last_line_start..).unwrap_or("");
        text = if last_line.trim_start().starts_with('#') && last_line_start > 0 { trimmed.get(..last_line_start).unwrap_or("") } else { trimmed };
        if text.len() == trimmed.len() {
            break;
        }
    }
    Span::new(s.start(), s.start() + text.len())
}

fn to_parse_error(e: pest::error::Error<Rule>) -> ParseError {
    use pest::error::{ErrorVariant, InputLocation};
    let (start, end) = match e.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((a, b)) => (a, b),
    };
    let (expected, help) = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut words: Vec<&str> = positives.iter().map(|r| phrase(*r)).collect();
            words.sort_unstable();
            words.dedup();
            let help = hint(&words);
            (join_or(&words), help)
        }
        // pest gives up before its own stack runs out on input nested
        // thousands of levels deep; say so in the rulebook's terms.
        ErrorVariant::CustomError { message } if message.contains("limit reached") => (
            format!("an expression nested at most {MAX_EXPRESSION_DEPTH} levels deep (the parser ran out of room here)"),
            Some("name the inner part with `let` or a `fn`".to_string()),
        ),
        ErrorVariant::CustomError { message } => (message.clone(), None),
    };
    ParseError {
        expected,
        span: Span::new(start, end.max(start)),
        help,
    }
}

fn join_or(words: &[&str]) -> String {
    match words {
        [] => "something else".into(),
        [one] => (*one).into(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

fn hint(words: &[&str]) -> Option<String> {
    if words.contains(&"a declaration") {
        Some("a rulebook is a list of declarations such as `zone`, `rule`, `phase`, `setup`; see docs/language.md".into())
    } else if words.contains(&"a name") {
        Some("names are lowercase ASCII letters, digits and `_`, and must not be a keyword".into())
    } else if words.contains(&"a statement") || words.contains(&"`}`") {
        Some("check that every `{` has its `}` and that each statement starts with a keyword or a name".into())
    } else {
        None
    }
}

/// A phrase for every grammar rule, so that errors speak the user's language.
/// No wildcard arm: a new grammar rule without a phrase does not compile.
fn phrase(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "end of file",
        Rule::WHITESPACE | Rule::COMMENT => "whitespace",
        Rule::ident_char => "a letter or digit",
        Rule::keyword => "a keyword",
        Rule::soft_name | Rule::ident | Rule::name => "a name",
        Rule::type_name => "a type",
        Rule::int | Rule::signed => "a number",
        Rule::string | Rule::str_inner => "a string in double quotes",
        Rule::range | Rule::range_signed | Rule::key_range => "a number or range `a..b`",
        Rule::file => "a rulebook",
        Rule::header | Rule::rulebook_head | Rule::module_head => "`rulebook NAME { ... }` or `module NAME extends \"file\" { ... }`",
        Rule::header_field => "`title`, `source` or `players`",
        Rule::title_field => "`title \"...\"`",
        Rule::source_field => "`source \"file\"`",
        Rule::players_field => "`players a..b`",
        Rule::limit_field | Rule::limit_name => "`trigger_depth N` or `step_fuel N`",
        Rule::provenance | Rule::cite_quote | Rule::cite_lines | Rule::assume => "`cite` or `assume`",
        Rule::item => "a declaration",
        Rule::category => "`piece`, `token` or `card`",
        Rule::per_player => "`per_player`",
        Rule::per_piece | Rule::kw_per_piece => "`per_piece KIND`",
        Rule::component => "a component declaration",
        Rule::variants => "`{` and variants",
        Rule::variant => "a variant",
        Rule::multiplier => "a count such as `x3`",
        Rule::attr => "an attribute `name=number`",
        Rule::die => "a die declaration",
        Rule::zone => "a zone declaration",
        Rule::multiplicity => "`per_player` or `per_space TRACK`",
        Rule::per_space => "`per_space TRACK`",
        Rule::zone_kinds => "`of KIND`",
        Rule::zone_flag => "a zone property",
        Rule::visibility => "`public`, `owner` or `hidden`",
        Rule::ordered => "`ordered`",
        Rule::capacity => "`capacity N`",
        Rule::spacetype => "a space type",
        Rule::track => "a track",
        Rule::track_shape => "`linear` or `circular`",
        Rule::track_row => "a track row `a..b: tag`",
        Rule::grid => "a grid",
        Rule::graph => "a graph",
        Rule::graph_node => "`node NAME`",
        Rule::graph_edge => "`edge A - B`",
        Rule::counter => "a counter",
        Rule::var => "a var",
        Rule::table => "a table",
        Rule::table_row => "a table row `key => (values)`",
        Rule::option => "an option",
        Rule::setup => "`setup { ... }`",
        Rule::round => "`round NAME { ... }`",
        Rule::proc_kind => "`phase`, `rule` or `trigger`",
        Rule::procedure => "a phase, rule or trigger",
        Rule::params => "parameters `(name: type)`",
        Rule::param => "a parameter `name: type`",
        Rule::event => "an event `on arrive(piece: kind, zone)`",
        Rule::end_cond => "an end condition",
        Rule::exception => "an exception",
        Rule::exc_mode => "`instead`, `before` or `after`",
        Rule::over => "`over NAME`",
        Rule::assumption => "an assumption",
        Rule::discrepancy => "a discrepancy",
        Rule::chosen => "`chosen \"...\"`",
        Rule::because => "`because \"...\"`",
        Rule::narrative => "a narrative rule",
        Rule::replace => "`replace` and a declaration",
        Rule::remove | Rule::remove_kind => "`remove KIND NAME`",
        Rule::block => "a block `{ ... }`",
        Rule::stmt => "a statement",
        Rule::let_stmt => "`let`",
        Rule::assign_stmt => "an assignment",
        Rule::assign_op => "`=`, `+=` or `-=`",
        Rule::move_stmt => "`move`",
        Rule::move_what | Rule::move_top | Rule::move_all | Rule::move_count => "what to move",
        Rule::bottom => "`bottom`",
        Rule::shuffle_stmt => "`shuffle`",
        Rule::reveal_stmt => "`reveal`",
        Rule::roll_stmt => "`roll`",
        Rule::choose_stmt => "`choose`",
        Rule::if_stmt => "`if`",
        Rule::while_stmt => "`while`",
        Rule::repeat_stmt => "`repeat`",
        Rule::for_stmt => "`for`",
        Rule::simultaneous_stmt => "`simultaneous`",
        Rule::match_stmt => "`match`",
        Rule::match_arm => "a match arm `NAME => { ... }`",
        Rule::pattern | Rule::wildcard => "a pattern",
        Rule::do_stmt => "`do`",
        Rule::phase_stmt => "`phase`",
        Rule::as_stmt => "`as`",
        Rule::win_stmt => "`win`",
        Rule::draw_stmt => "`draw`",
        Rule::end_stmt => "`end`",
        Rule::pass_stmt => "`pass`",
        Rule::function => "a function `fn name(params) = expression`",
        Rule::kw_fn => "`fn`",
        Rule::at_random => "`at random`",
        Rule::kw_at => "`at`",
        Rule::kw_random => "`random`",
        Rule::proceed_stmt => "`proceed`",
        Rule::kw_proceed => "`proceed`",
        Rule::expr | Rule::postfix | Rule::primary | Rule::paren | Rule::call | Rule::list => "an expression",
        Rule::infix => "an operator",
        Rule::prefix => "`-` or `not`",
        Rule::add | Rule::sub | Rule::mul | Rule::div | Rule::rem => "an arithmetic operator",
        Rule::eq | Rule::ne | Rule::le | Rule::lt | Rule::ge | Rule::gt => "a comparison",
        Rule::and | Rule::or | Rule::in_op | Rule::range_op => "an operator",
        Rule::neg | Rule::not => "`-` or `not`",
        Rule::index => "`[`",
        Rule::field => "`.field`",
        Rule::true_lit | Rule::false_lit | Rule::none_lit => "a literal",
        Rule::args => "arguments `( ... )`",
        Rule::quantifier | Rule::comprehension => "a comprehension",
        Rule::filter => "a filter `[x in C where P]`",
        Rule::kw_after => "`after`",
        Rule::kw_all => "`all`",
        Rule::kw_as => "`as`",
        Rule::kw_assume => "`assume`",
        Rule::kw_assumption => "`assumption`",
        Rule::kw_because => "`because`",
        Rule::kw_before => "`before`",
        Rule::kw_bottom => "`bottom`",
        Rule::kw_by => "`by`",
        Rule::kw_capacity => "`capacity`",
        Rule::kw_card => "`card`",
        Rule::kw_choose => "`choose`",
        Rule::kw_chosen => "`chosen`",
        Rule::kw_circular => "`circular`",
        Rule::kw_cite => "`cite`",
        Rule::kw_counter => "`counter`",
        Rule::kw_die => "`die`",
        Rule::kw_discrepancy => "`discrepancy`",
        Rule::kw_do => "`do`",
        Rule::kw_draw => "`draw`",
        Rule::kw_edge => "`edge`",
        Rule::kw_else => "`else`",
        Rule::kw_end => "`end`",
        Rule::kw_exception => "`exception`",
        Rule::kw_extends => "`extends`",
        Rule::kw_for => "`for`",
        Rule::kw_from => "`from`",
        Rule::kw_graph => "`graph`",
        Rule::kw_grid => "`grid`",
        Rule::kw_hidden => "`hidden`",
        Rule::kw_if => "`if`",
        Rule::kw_in => "`in`",
        Rule::kw_instead => "`instead`",
        Rule::kw_let => "`let`",
        Rule::kw_line => "`line`",
        Rule::kw_linear => "`linear`",
        Rule::kw_lines => "`lines`",
        Rule::kw_match => "`match`",
        Rule::kw_module => "`module`",
        Rule::kw_move => "`move`",
        Rule::kw_narrative => "`narrative`",
        Rule::kw_node => "`node`",
        Rule::kw_of => "`of`",
        Rule::kw_on => "`on`",
        Rule::kw_option => "`option`",
        Rule::kw_ordered => "`ordered`",
        Rule::kw_over => "`over`",
        Rule::kw_owner => "`owner`",
        Rule::kw_pass => "`pass`",
        Rule::kw_per_player => "`per_player`",
        Rule::kw_per_space => "`per_space`",
        Rule::kw_phase => "`phase`",
        Rule::kw_piece => "`piece`",
        Rule::kw_players => "`players`",
        Rule::kw_prompt => "`prompt`",
        Rule::kw_public => "`public`",
        Rule::kw_region => "`region`",
        Rule::kw_remove => "`remove`",
        Rule::kw_repeat => "`repeat`",
        Rule::kw_replace => "`replace`",
        Rule::kw_roll => "`roll`",
        Rule::kw_round => "`round`",
        Rule::kw_rule => "`rule`",
        Rule::kw_rulebook => "`rulebook`",
        Rule::kw_setup => "`setup`",
        Rule::kw_shuffle => "`shuffle`",
        Rule::kw_reveal => "`reveal`",
        Rule::kw_source => "`source`",
        Rule::kw_spacetype => "`spacetype`",
        Rule::kw_table => "`table`",
        Rule::kw_times => "`times`",
        Rule::kw_title => "`title`",
        Rule::kw_to => "`to`",
        Rule::kw_token => "`token`",
        Rule::kw_top => "`top`",
        Rule::kw_track => "`track`",
        Rule::kw_trigger => "`trigger`",
        Rule::kw_var => "`var`",
        Rule::kw_when => "`when`",
        Rule::kw_where => "`where`",
        Rule::kw_while => "`while`",
        Rule::kw_win => "`win`",
        Rule::kw_zone => "`zone`",
        Rule::region => "a region `region x from START where P`",
        Rule::choose_bind => "a binding `x from COLLECTION`",
        Rule::choose_where => "`where CONDITION`",
        Rule::choose_else => "`else { ... }`",
        Rule::comp_while => "`while`",
        Rule::in_a_row => "`in_a_row x through CELL where P`",
        Rule::kw_in_a_row => "`in_a_row`",
        Rule::invariant => "an invariant `invariant NAME: CONDITION`",
        Rule::inv_player => "`per_player NAME`",
        Rule::kw_invariant => "`invariant`",
        Rule::kw_through => "`through`",
        Rule::scenario => "a scenario `scenario NAME { ... }`",
        Rule::scen_clause => "`players`, `seed`, `option`, `with` or `{`",
        Rule::scen_players => "`players N`",
        Rule::scen_seed => "`seed N`",
        Rule::scen_option => "`option NAME`",
        Rule::scen_with => "`with MODULE`",
        Rule::scen_step => "a scenario step (`choose`, `play`, `place`, `set` or `expect`)",
        Rule::step_choose => "`choose`",
        Rule::step_play | Rule::play_until => "`play N` or `play until CONDITION`",
        Rule::step_place => "`place`",
        Rule::step_set => "`set`",
        Rule::step_expect => "`expect`",
        Rule::expect_options => "`expect options`",
        Rule::options_test => "`contain`, `exclude` or `==`",
        Rule::labels => "a label \"...\" or a list of labels [\"...\", ...]",
        Rule::expect_prompt => "`expect prompt \"...\"`",
        Rule::expect_over => "`expect over` or `expect not over`",
        Rule::kw_scenario => "`scenario`",
        Rule::kw_simultaneous => "`simultaneous`",
        Rule::kw_seed => "`seed`",
        Rule::kw_with => "`with`",
        Rule::kw_play => "`play`",
        Rule::kw_until => "`until`",
        Rule::kw_place => "`place`",
        Rule::kw_set => "`set`",
        Rule::kw_expect => "`expect`",
        Rule::kw_options => "`options`",
    }
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

fn int(p: &P) -> Result<i64, ParseError> {
    p.as_str().parse().map_err(|_| ParseError {
        expected: "a number that fits in 64 bits".into(),
        span: span(p),
        help: None,
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

// ---------------------------------------------------------------- file

fn build_file(p: P) -> Result<File, ParseError> {
    let mut k = Kids::of(p);
    let header = header(k.next()?)?;
    let mut items = Vec::new();
    for p in k.rest() {
        if p.as_rule() == Rule::item {
            items.push(item(p)?);
        }
    }
    Ok(File { header, items })
}

fn header(p: P) -> Result<Header, ParseError> {
    let sp = span(&p);
    let mut k = Kids::of(p);
    let head = k.next()?;
    let (kind, name) = match head.as_rule() {
        Rule::module_head => {
            let mut h = Kids::of(head);
            let name = ident(h.next()?);
            let extends = string(h.next()?);
            (HeaderKind::Module { extends }, name)
        }
        _ => (HeaderKind::Rulebook, ident(Kids::of(head).next()?)),
    };
    let mut h = Header { kind, name, title: None, source: None, players: None, limits: Vec::new(), span: sp };
    for field in k.rest() {
        let f = Kids::of(field).next()?;
        match f.as_rule() {
            Rule::title_field => h.title = Some(string(Kids::of(f).next()?)),
            Rule::source_field => h.source = Some(string(Kids::of(f).next()?)),
            Rule::limit_field => {
                let mut fk = Kids::of(f);
                let name = ident(fk.next()?);
                let n = fk.next()?;
                let value = n.as_str().parse::<i64>().unwrap_or(i64::MAX);
                h.limits.push((name, value, span(&n)));
            }
            _ => {
                let mut fk = Kids::of(f);
                let r = range(fk.next()?)?;
                let prov = provenances(&mut fk)?;
                h.players = Some((r, prov));
            }
        }
    }
    Ok(h)
}

fn item(p: P) -> Result<Item, ParseError> {
    let sp = tight_span(&p);
    let inner = Kids::of(p).next()?;
    let rule = inner.as_rule();
    let mut k = Kids::of(inner);
    let mut provenance = Vec::new();
    let kind = match rule {
        Rule::component => {
            let category = ident(k.next()?);
            let name = ident(k.next()?);
            let label = k.next_if(Rule::string).map(string);
            let per_player = k.next_if(Rule::per_player).is_some();
            let c = k.next()?;
            let count = int(&c)?;
            provenance = provenances(&mut k)?;
            let variants = match k.next_if(Rule::variants) {
                Some(v) => variants(v)?,
                None => Vec::new(),
            };
            ItemKind::Component(Component { category, name, label, per_player, count, count_span: span(&c), variants })
        }
        Rule::die => {
            let name = ident(k.next()?);
            let c = k.next()?;
            let sides = int(&c)?;
            provenance = provenances(&mut k)?;
            let faces = match k.next_if(Rule::variants) {
                Some(v) => variants(v)?,
                None => Vec::new(),
            };
            ItemKind::Die(Die { name, sides, sides_span: span(&c), faces })
        }
        Rule::zone => {
            let name = ident(k.next()?);
            let label = k.next_if(Rule::string).map(string);
            let mut z = Zone {
                name,
                label,
                multiplicity: Multiplicity::Single,
                kinds: Vec::new(),
                visibility: Visibility::Public,
                ordered: false,
                capacity: None,
            };
            if let Some(m) = k.next_if(Rule::multiplicity) {
                let m = Kids::of(m).next()?;
                z.multiplicity = match m.as_rule() {
                    Rule::per_space => Multiplicity::PerSpace(ident(Kids::of(m).next()?)),
                    _ => Multiplicity::PerPlayer,
                };
            }
            if let Some(kinds) = k.next_if(Rule::zone_kinds) {
                z.kinds = kinds.into_inner().map(ident).collect();
            }
            while let Some(flag) = k.next_if(Rule::zone_flag) {
                let f = Kids::of(flag).next()?;
                match f.as_rule() {
                    Rule::visibility => z.visibility = visibility(&f),
                    Rule::ordered => z.ordered = true,
                    _ => z.capacity = Some(int(&Kids::of(f).next()?)?),
                }
            }
            provenance = provenances(&mut k)?;
            ItemKind::Zone(z)
        }
        Rule::spacetype => {
            let name = ident(k.next()?);
            let label = k.next_if(Rule::string).map(string);
            provenance = provenances(&mut k)?;
            ItemKind::SpaceType { name, label }
        }
        Rule::track => {
            let name = ident(k.next()?);
            let shape = match k.next_if(Rule::track_shape) {
                Some(s) if s.as_str() == "circular" => TrackShape::Circular,
                _ => TrackShape::Linear,
            };
            provenance = provenances(&mut k)?;
            let mut rows = Vec::new();
            for row in k.rest() {
                let mut r = Kids::of(row);
                let rg = range(r.next()?)?;
                rows.push((rg, r.rest().map(ident).collect()));
            }
            ItemKind::Track(Track { name, shape, rows })
        }
        Rule::grid => {
            let name = ident(k.next()?);
            let rows = int(&k.next()?)?;
            let cols = int(&k.next()?)?;
            provenance = provenances(&mut k)?;
            ItemKind::Grid { name, rows, cols }
        }
        Rule::graph => {
            let name = ident(k.next()?);
            provenance = provenances(&mut k)?;
            let mut nodes = Vec::new();
            let mut edges = Vec::new();
            for g in k.rest() {
                let rule = g.as_rule();
                let mut gk = Kids::of(g);
                if rule == Rule::graph_node {
                    let n = ident(gk.next()?);
                    let label = gk.next_if(Rule::string).map(string);
                    nodes.push((n, label, gk.rest().map(ident).collect()));
                } else {
                    let a = ident(gk.next()?);
                    let b = ident(gk.next()?);
                    edges.push((a, b, gk.rest().map(ident).collect()));
                }
            }
            ItemKind::Graph { name, nodes, edges }
        }
        Rule::counter => {
            let name = ident(k.next()?);
            let label = k.next_if(Rule::string).map(string);
            let per_player = k.next_if(Rule::per_player).is_some();
            let per_piece = match k.next_if(Rule::per_piece) {
                Some(pp) => Some(ident(Kids::of(pp).next()?)),
                None => None,
            };
            let r = k.next()?;
            let rsp = span(&r);
            let mut rk = Kids::of(r);
            let lo = int(&rk.next()?)?;
            let hi = int(&rk.next()?)?;
            let init = match k.next_if(Rule::expr) {
                Some(e) => Some(expr(e)?),
                None => None,
            };
            provenance = provenances(&mut k)?;
            ItemKind::Counter(Counter { name, label, per_player, per_piece, bounds: Range { lo, hi, span: rsp }, init })
        }
        Rule::var => {
            let name = ident(k.next()?);
            let label = k.next_if(Rule::string).map(string);
            let per_player = k.next_if(Rule::per_player).is_some();
            let per_piece = match k.next_if(Rule::per_piece) {
                Some(pp) => Some(ident(Kids::of(pp).next()?)),
                None => None,
            };
            let ty = ident(k.next()?);
            let init = match k.next_if(Rule::expr) {
                Some(e) => Some(expr(e)?),
                None => None,
            };
            let vis = k.next_if(Rule::visibility).map(|v| visibility(&v)).unwrap_or(Visibility::Public);
            provenance = provenances(&mut k)?;
            ItemKind::Var(Var { name, label, per_player, per_piece, ty, init, visibility: vis })
        }
        Rule::table => {
            let name = ident(k.next()?);
            let key = ident(k.next()?); // the key column may be a keyword such as `players`
            let mut columns = Vec::new();
            while let Some(c) = k.next_if(Rule::name) {
                columns.push(ident(c));
            }
            provenance = provenances(&mut k)?;
            let mut rows = Vec::new();
            for row in k.rest() {
                let mut r = Kids::of(row);
                let rg = range(r.next()?)?;
                let vals = r.rest().map(expr).collect::<Result<Vec<_>, _>>()?;
                rows.push((rg, vals));
            }
            ItemKind::Table(Table { name, key, columns, rows })
        }
        Rule::option => {
            let name = ident(k.next()?);
            let label = k.next_if(Rule::string).map(string);
            provenance = provenances(&mut k)?;
            ItemKind::Option { name, label }
        }
        Rule::function => {
            let name = ident(k.next()?);
            let mut params = Vec::new();
            for param in k.next()?.into_inner() {
                let mut pk = Kids::of(param);
                params.push((ident(pk.next()?), ident(pk.next()?)));
            }
            let body = expr(k.next()?)?;
            provenance = provenances(&mut k)?;
            ItemKind::Function { name, params, body }
        }
        Rule::invariant => {
            let name = ident(k.next()?);
            let player = match k.next_if(Rule::inv_player) {
                Some(pl) => Some(ident(Kids::of(pl).next()?)),
                None => None,
            };
            let first = expr(k.next()?)?;
            let (when, body) = match k.next_if(Rule::expr) {
                Some(b) => (Some(first), expr(b)?),
                None => (None, first),
            };
            provenance = provenances(&mut k)?;
            ItemKind::Invariant { name, player, when, expr: body }
        }
        Rule::scenario => {
            let name = ident(k.next()?);
            let mut sc = Scenario { name, players: None, seed: None, options: Vec::new(), with: Vec::new(), steps: Vec::new() };
            while let Some(clause) = k.next_if(Rule::scen_clause) {
                let c = Kids::of(clause).next()?;
                let rule = c.as_rule();
                let mut ck = Kids::of(c);
                match rule {
                    Rule::scen_players => {
                        let n = ck.next()?;
                        sc.players = Some((int(&n)?, span(&n)));
                    }
                    Rule::scen_seed => {
                        let n = ck.next()?;
                        sc.seed = Some((int(&n)?, span(&n)));
                    }
                    Rule::scen_option => sc.options.push(ident(ck.next()?)),
                    _ => sc.with.extend(ck.rest().map(ident)),
                }
            }
            provenance = provenances(&mut k)?;
            sc.steps = k.rest().map(step).collect::<Result<Vec<_>, _>>()?;
            ItemKind::Scenario(sc)
        }
        Rule::setup => {
            provenance = provenances(&mut k)?;
            ItemKind::Setup(block(k.next()?)?)
        }
        Rule::round => {
            let name = ident(k.next()?);
            let times = match k.next_if(Rule::expr) {
                Some(e) => Some(expr(e)?),
                None => None,
            };
            provenance = provenances(&mut k)?;
            ItemKind::Round { name, times, body: block(k.next()?)? }
        }
        Rule::procedure => {
            let kind = match k.next()?.as_str() {
                "phase" => ProcKind::Phase,
                "trigger" => ProcKind::Trigger,
                _ => ProcKind::Rule,
            };
            let name = ident(k.next()?);
            let mut params = Vec::new();
            if let Some(ps) = k.next_if(Rule::params) {
                for param in ps.into_inner() {
                    let mut pk = Kids::of(param);
                    params.push((ident(pk.next()?), ident(pk.next()?)));
                }
            }
            let event = match k.next_if(Rule::event) {
                Some(e) => {
                    let mut ek = Kids::of(e);
                    Some(Event {
                        name: ident(ek.next()?),
                        piece: ident(ek.next()?),
                        kind: ident(ek.next()?),
                        zone: ident(ek.next()?),
                    })
                }
                None => None,
            };
            let when = match k.next_if(Rule::expr) {
                Some(e) => Some(expr(e)?),
                None => None,
            };
            provenance = provenances(&mut k)?;
            let body = block(k.next()?)?;
            ItemKind::Procedure(Procedure { kind, name, params, event, when, body })
        }
        Rule::end_cond => {
            let name = ident(k.next()?);
            let when = expr(k.next()?)?;
            provenance = provenances(&mut k)?;
            ItemKind::End { name, when, body: block(k.next()?)? }
        }
        Rule::exception => {
            let name = ident(k.next()?);
            let rule = ident(k.next()?);
            let when = expr(k.next()?)?;
            let mode = match k.next_if(Rule::exc_mode).map(|m| m.as_str().to_string()).as_deref() {
                Some("before") => ExceptionMode::Before,
                Some("after") => ExceptionMode::After,
                _ => ExceptionMode::Instead,
            };
            let over = match k.next_if(Rule::over) {
                Some(o) => o.into_inner().map(ident).collect(),
                None => Vec::new(),
            };
            provenance = provenances(&mut k)?;
            ItemKind::Exception(Exception { name, rule, when, mode, over, body: block(k.next()?)? })
        }
        Rule::assumption => {
            let name = ident(k.next()?);
            let text = string(k.next()?);
            provenance = provenances(&mut k)?;
            ItemKind::Assumption { name, text }
        }
        Rule::discrepancy => {
            let name = ident(k.next()?);
            let (mut chosen, mut because) = (None, None);
            for part in k.rest() {
                match part.as_rule() {
                    Rule::provenance => provenance.push(self::provenance(part)?),
                    Rule::chosen => chosen = Some(string(Kids::of(part).next()?)),
                    _ => because = Some(string(Kids::of(part).next()?)),
                }
            }
            return Ok(Item { kind: ItemKind::Discrepancy { name, chosen, because }, provenance, span: sp });
        }
        Rule::narrative => {
            let name = ident(k.next()?);
            let text = string(k.next()?);
            provenance = provenances(&mut k)?;
            ItemKind::Narrative { name, text }
        }
        Rule::replace => ItemKind::Replace(Box::new(item(k.next()?)?)),
        _ => {
            let what = ident(k.next()?);
            let name = ident(k.next()?);
            ItemKind::Remove { what, name }
        }
    };
    Ok(Item { kind, provenance, span: sp })
}

fn visibility(p: &P) -> Visibility {
    match p.as_str() {
        "owner" => Visibility::Owner,
        "hidden" => Visibility::Hidden,
        _ => Visibility::Public,
    }
}

fn variants(p: P) -> Result<Vec<Variant>, ParseError> {
    let mut out = Vec::new();
    for v in p.into_inner() {
        let sp = tight_span(&v);
        let mut k = Kids::of(v);
        let name = ident(k.next()?);
        let label = k.next_if(Rule::string).map(string);
        let count = match k.next_if(Rule::multiplier) {
            Some(m) => int(&Kids::of(m).next()?)?,
            None => 1,
        };
        let mut attrs = Vec::new();
        while let Some(a) = k.next_if(Rule::attr) {
            let mut ak = Kids::of(a);
            let n = ident(ak.next()?);
            attrs.push((n, int(&ak.next()?)?));
        }
        let provenance = provenances(&mut k)?;
        out.push(Variant { name, label, count, attrs, provenance, span: sp });
    }
    Ok(out)
}

// ---------------------------------------------------------------- scenario steps

fn step(p: P) -> Result<Step, ParseError> {
    let sp = tight_span(&p);
    let mut outer = Kids::of(p);
    let inner = outer.next()?;
    let provenance = provenances(&mut outer)?;
    let rule = inner.as_rule();
    let mut k = Kids::of(inner);
    let kind = match rule {
        Rule::step_choose => StepKind::Choose(expr(k.next()?)?),
        Rule::step_play => {
            let what = k.next()?;
            if what.as_rule() == Rule::play_until {
                StepKind::PlayUntil(expr(Kids::of(what).next()?)?)
            } else {
                StepKind::Play(int(&what)?)
            }
        }
        Rule::step_place => {
            let what = move_what(k.next()?)?;
            let to = expr(k.next()?)?;
            let bottom = k.next_if(Rule::bottom).is_some();
            StepKind::Place { what, to, bottom }
        }
        Rule::step_set => {
            let lhs = postfix(k.next()?)?;
            let op = match k.next()?.as_str() {
                "+=" => AssignOp::Add,
                "-=" => AssignOp::Sub,
                _ => AssignOp::Set,
            };
            StepKind::Set(lhs, op, expr(k.next()?)?)
        }
        _ => {
            let what = k.next()?;
            match what.as_rule() {
                Rule::expect_options => {
                    let mut ek = Kids::of(what);
                    let test = match ek.next()?.as_str() {
                        "contain" => OptionsTest::Contain,
                        "exclude" => OptionsTest::Exclude,
                        _ => OptionsTest::Equal,
                    };
                    let labels = ek.next()?;
                    let labels = labels.into_inner().map(string).collect();
                    StepKind::ExpectOptions(test, labels)
                }
                Rule::expect_prompt => StepKind::ExpectPrompt(string(Kids::of(what).next()?)),
                Rule::expect_over => StepKind::ExpectOver(what.into_inner().next().is_none()),
                _ => StepKind::Expect(expr(what)?),
            }
        }
    };
    Ok(Step { kind, provenance, span: sp })
}

// ---------------------------------------------------------------- statements

fn block(p: P) -> Result<Block, ParseError> {
    let sp = span(&p);
    let mut k = Kids::of(p);
    let provenance = provenances(&mut k)?;
    let stmts = k.rest().map(stmt).collect::<Result<Vec<_>, _>>()?;
    Ok(Block { provenance, stmts, span: sp })
}

/// What a `move` (or a scenario's `place`) moves.
fn move_what(p: P) -> Result<MoveWhat, ParseError> {
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
    let sp = tight_span(&p);
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
        Rule::roll_stmt => StmtKind::Roll(ident(k.next()?), ident(k.next()?)),
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
        Rule::for_stmt => StmtKind::For(ident(k.next()?), expr(k.next()?)?, block(k.next()?)?),
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
                    block(body)?
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

// ---------------------------------------------------------------- expressions

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

fn expr(p: P) -> Result<Expr, ParseError> {
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

fn postfix(p: P) -> Result<Expr, ParseError> {
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
