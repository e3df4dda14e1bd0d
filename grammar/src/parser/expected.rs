//! What the parser expected, in words: a pest error becomes a
//! [`ParseError`] naming the expected constructs, with a hint.

use super::*;

pub(super) fn to_parse_error(e: pest::error::Error<Rule>, text: &str) -> ParseError {
    use pest::error::{ErrorVariant, InputLocation};
    let (start, end) = match e.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((a, b)) => (a, b),
    };
    let (mut start, mut end) = (start, end);
    let (expected, help) = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut words: Vec<&str> = positives.iter().map(|r| phrase(*r)).collect();
            words.sort_unstable();
            words.dedup();
            // `chose n from ...`: a statement's keyword misspelt reads as a
            // name being set, and the parse fails at the next word. Point
            // at the misspelt word and name the keyword.
            let misspelt = if words.iter().any(|w| w.starts_with("`=`")) { misspelt_statement_keyword(text, start) } else { None };
            let help = match keyword_at(text, start) {
                _ if misspelt.is_some() => misspelt.map(|(at, typed, keyword)| {
                    (start, end) = (at, at + typed.len());
                    format!("`{typed}` is not a keyword: did you mean `{keyword}`?")
                }),
                // A space that is not one, or a character that shows as
                // nothing (pasted from a word processor): the line looks
                // right, so say what is there.
                _ if invisible_at(text, start).is_some() => invisible_at(text, start).map(|(c, what, shows)| {
                    format!("the text holds {what} (U+{:04X}) here, which {shows}: retype it as a plain space, or remove it", u32::from(c))
                }),
                // `win q in players where ...`: a shared victory is a list
                // (`q in players` reads as a test, `where` cannot follow).
                Some("where") if statement_with_name_before(text, start).is_some() => statement_with_name_before(text, start).map(|(word, walk)| {
                    format!("`{word}` takes one value; for a list of players, write the comprehension in brackets: `{word} [{walk} where ...]`")
                }),
                // `choose a from A where ..., b from B`: one `where`,
                // after the last collection.
                _ if where_before_another_binding(text, start) => Some(
                    "a `choose` has one `where`, after its last collection: `choose a from A, b from B where COND`; the parts of COND about `a` alone are tested once for each `a`, not once for each pair".to_string(),
                ),
                // `module NAME extends "base.rules"` without its braces.
                _ if words == ["`rulebook`"] && module_header_without_braces(text, start) => Some(
                    "a module's header is `module NAME extends \"base.rules\" { ... }`, with braces after the base (they hold its `title` or `source`, and may be empty); the declarations follow them".to_string(),
                ),
                // A declaration where the header's fields were wanted: the
                // header's `{` was never closed.
                _ if words.contains(&"`title`, `source`, `players`, `trigger_depth` or `step_fuel`") && declaration_at(text, start) => Some(
                    "the header's `{` is not closed: end the header with `}` before the first declaration".to_string(),
                ),
                // `choose k from C by p where COND`: the condition is part
                // of what is chosen, before who chooses.
                Some("where") if by_before_in_choose(text, start) => Some(
                    "a `choose` gives its condition before who chooses: `choose k from C where COND by p`".to_string(),
                ),
                // `let q: int = 1`: a local is typed by its value.
                _ if typed_let_at(text, start).is_some() => typed_let_at(text, start).map(|(name, colon)| {
                    (start, end) = (colon, colon + 1);
                    format!("a local takes the type of its value and is written without one: `let {name} = ...`")
                }),
                // `move stone from box to a`: pieces of a kind are moved
                // by number, one given piece without `from`.
                Some("from") if words.contains(&"`to`") && move_of_one_name_before(text, start) => {
                    Some("`move` takes a piece (`move p to ZONE`), `top of ZONE`, `all of ZONE`, or a number of a kind from a zone: `move 1 of KIND from ZONE to ZONE`".to_string())
                }
                Some("of") if filtered_aggregate_before(text, start) => {
                    Some("`sum`, `max` and `min` take no `where`: filter the collection first, `sum x in [x in C where COND] of EXPR`".to_string())
                }
                Some(word) if words.contains(&"a name") => Some(if RulesParser::parse(Rule::soft_name, word).is_ok() {
                    format!("`{word}` is a keyword here, and a name only where no keyword can stand: choose another name (docs/language.md lists the keywords)")
                } else {
                    format!("`{word}` is a keyword of the language and cannot be a name: choose another (docs/language.md lists the keywords)")
                }),
                // `if` where a value was wanted, that does not parse as a
                // conditional value (no `else`, a statement in a branch).
                Some("if") if words.contains(&"an expression") => Some(
                    "a value chosen by a condition is written `if C { A } else { B }`, with its `else` and one value in each branch; statements go in an `if` statement".to_string(),
                ),
                // An exception with no condition (`exception e to r after
                // { ... }`): the condition comes first, always.
                _ if words == ["`when`"] => Some(
                    "an exception says when it applies before how: `exception NAME to RULE when COND before|after|instead { ... }`; one that always applies says `when true`".to_string(),
                ),
                // `narrative NAME cite ...`: the text that says why is
                // required, before the citations.
                _ if words == ["a string in double quotes"] && text_declared_before(text, start).is_some() => text_declared_before(text, start).map(|word| {
                    let what = if word == "narrative" { "why the sentence it cites has no effect of its own" } else { "what the rulebook assumes" };
                    format!("a `{word}` says in words {what}, right after its name: `{word} NAME \"...\" cite \"...\"`")
                }),
                // `if C then A else B`, as other languages write it.
                _ if text.get(start..).is_some_and(|t| t.starts_with("then") && !t[4..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')) => {
                    Some("a value chosen by a condition is written `if C { A } else { B }`: no `then`, and each value in braces".to_string())
                }
                // `per_player per_space`: a zone family is indexed one way.
                _ if second_multiplicity(text, start) => {
                    Some("a declaration is one per player, one per space or one per piece, not two of them: to index by player and by something else, use a grid (a row per seat) or a per-space zone on a board of your own".to_string())
                }
                // A conditional value without its `else`: it must give a
                // value whatever the condition.
                _ if words == ["`else`"] => Some("a value chosen by a condition needs its `else`, for when the condition does not hold: `if C { A } else { B }`".to_string()),
                // `prompt` is asked of the player named by `by`.
                Some("prompt") if words.contains(&"`by`") => Some("a `prompt` follows `by PLAYER`, the player asked: `... by p prompt \"...\"` (without `by`, chance picks and asks no one)".to_string()),
                // `... or over` in a scenario's `play until`: the end of
                // the game is a step of its own, not a value.
                Some("over") if words.contains(&"an expression") => Some(
                    "`over` is a keyword, not a value: `play until over` plays to the end of the game, and `play until COND` stops at a decision where COND holds (a condition cannot test whether the game is over)".to_string(),
                ),
                // A keyword where an expression was wanted: a function,
                // local or var named with it, called or read.
                Some(word) if words.contains(&"an expression") => {
                    let called = text.get(start + word.len()..).is_some_and(|rest| rest.trim_start().starts_with('('));
                    let what = if called { "a function" } else { "a value" };
                    Some(format!("`{word}` is a keyword of the language and cannot name {what}: rename it where it is declared and here (docs/language.md lists the keywords)"))
                }
                // A declaration where a statement was wanted: the block
                // before it was never closed.
                _ if words.contains(&"a statement") && declaration_at(text, start) => open_brace_before(text, start).map(|at| {
                    let (line, col) = crate::line_col(text, at);
                    format!("a declaration cannot stand inside a block: the `{{` at line {line}, column {col} is not closed before it")
                }),
                // `=` where a comparison could stand: `==` meant.
                _ if words.contains(&"a comparison") && text.get(start..).is_some_and(|t| t.starts_with('=') && !t.starts_with("==")) => {
                    Some("`=` sets a value; to compare, write `==`".to_string())
                }
                // A minus sign where only a count can stand (a header
                // limit, a capacity, a player count, a piece count).
                _ if words.iter().any(|w| w.starts_with("a number")) && text.get(start..).and_then(|t| t.strip_prefix('-')).is_some_and(|t| t.starts_with(|c: char| c.is_ascii_digit())) => {
                    Some("a negative number cannot stand here: this is a count or a limit, 0 or more (docs/language.md gives each one's range)".to_string())
                }
                // A name written with a capital (`Vp`, `Score`), where a
                // name could stand: the rule names follow, and the name in
                // lowercase when that is one.
                _ if ["a name", "a statement", "an expression", "a type"].iter().any(|w| words.contains(w)) && capitalised_at(text, start).is_some() => {
                    capitalised_at(text, start).map(capital_help)
                }
                // A letter a name may not hold, right after the part that
                // could be a name (`café`, `scoreA`): the name stopped there.
                _ => letter_in_name(text, start)
                    .map(|c| format!("`{c}` cannot be part of a name: names are lowercase ASCII letters, digits and `_`"))
                    // At the end of the file with a block still open: say
                    // which `{` lacks its `}`, not only what could follow.
                    .or_else(|| {
                        let at_end = text.get(start..).is_some_and(|rest| rest.trim().is_empty());
                        at_end.then(|| unclosed_brace(text)).flatten().map(|at| {
                            let (line, col) = crate::line_col(text, at);
                            format!("the `{{` at line {line}, column {col} is never closed: add its `}}`")
                        })
                    })
                    .or_else(|| hint(&words)),
            };
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

/// The keywords that start a statement.
const STATEMENT_KEYWORDS: [&str; 20] =
    ["let", "move", "shuffle", "roll", "choose", "if", "while", "repeat", "simultaneous", "for", "match", "do", "phase", "as", "win", "draw", "end", "pass", "proceed", "reveal"];

/// A statement's first word, alone before `at` on its line (or after a
/// `{` or `}`), when it is not a keyword but a near miss of a statement's
/// keyword: where it starts, the word, and the keyword.
fn misspelt_statement_keyword(text: &str, at: usize) -> Option<(usize, &str, &'static str)> {
    let before = text.get(..at)?.trim_end();
    let word_start = before.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
    let word = before.get(word_start..)?;
    let ahead = before.get(..word_start)?.trim_end_matches([' ', '\t']);
    let starts_statement = ahead.is_empty() || ahead.ends_with(['\n', '{', '}']);
    if word.is_empty() || !starts_statement || STATEMENT_KEYWORDS.contains(&word) {
        return None;
    }
    let keyword = crate::did_you_mean(word, STATEMENT_KEYWORDS.iter().copied())?;
    STATEMENT_KEYWORDS.iter().find(|k| **k == keyword).map(|k| (word_start, word, *k))
}

/// The keyword written at `at`, if a keyword starts there (the grammar's
/// own `keyword` rule decides).
fn keyword_at(text: &str, at: usize) -> Option<&str> {
    let rest = text.get(at..)?;
    let len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
    let word = rest.get(..len)?;
    let whole = RulesParser::parse(Rule::keyword, word).ok()?.next()?;
    (whole.as_str().len() == word.len() && !word.is_empty()).then_some(word)
}

/// The letter at `at`, when it is not one a name may hold and the text just
/// before it is a name's letters.
/// A character that shows as a space, or as nothing, at `at` or just
/// before it (where a name stopped), with what it is called and how it
/// shows.
fn invisible_at(text: &str, at: usize) -> Option<(char, &'static str, &'static str)> {
    const SPACE: &str = "looks like a space but is not one";
    const NOTHING: &str = "shows as nothing";
    let what = |c: char| match c {
        '\u{a0}' => Some(("a no-break space", SPACE)),
        '\u{202f}' => Some(("a narrow no-break space", SPACE)),
        '\u{2000}'..='\u{200a}' | '\u{3000}' | '\u{205f}' => Some(("a typographic space", SPACE)),
        '\u{200b}' => Some(("a zero-width space", NOTHING)),
        '\u{200c}' | '\u{200d}' => Some(("a zero-width joiner", NOTHING)),
        '\u{2060}' => Some(("a word joiner", NOTHING)),
        '\u{feff}' => Some(("a zero-width no-break space", NOTHING)),
        '\u{ad}' => Some(("a soft hyphen", NOTHING)),
        _ => None,
    };
    let here = text.get(at..)?.chars().next();
    let before = text.get(..at)?.chars().next_back();
    [here, before].into_iter().flatten().find_map(|c| what(c).map(|(name, shows)| (c, name, shows)))
}

fn letter_in_name(text: &str, at: usize) -> Option<char> {
    let c = text.get(at..)?.chars().next()?;
    let before = text.get(..at)?.chars().next_back()?;
    let name_char = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_';
    (c.is_alphabetic() && !name_char(c) && name_char(before)).then_some(c)
}

/// The word at `at` (letters, digits and `_`, any script) when it starts
/// with a capital letter and does not continue a name written before it
/// (`vP` is [`letter_in_name`]'s).
fn capitalised_at(text: &str, at: usize) -> Option<&str> {
    let rest = text.get(at..)?;
    let first = rest.chars().next()?;
    let continues = text.get(..at)?.chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_');
    if !first.is_uppercase() || continues {
        return None;
    }
    let len = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
    rest.get(..len)
}

/// What a name is (docs/language.md, at its top), said of a word written
/// with a capital; with the word in lowercase when that is a name.
fn capital_help(word: &str) -> String {
    let lower = word.to_lowercase();
    let is_name = RulesParser::parse(Rule::name, &lower).ok().and_then(|mut p| p.next()).is_some_and(|p| p.as_str().len() == lower.len());
    let rule = "names are lowercase: a lowercase ASCII letter or `_`, then lowercase ASCII letters, digits and `_` (`[a-z_][a-z0-9_]*`), and not a keyword";
    if is_name {
        format!("`{word}` starts with a capital, but {rule}: write `{lower}`")
    } else {
        format!("`{word}` starts with a capital, but {rule}")
    }
}

/// Whether a declaration (`trigger`, `rule`, `zone`, ...) starts at `at`.
fn declaration_at(text: &str, at: usize) -> bool {
    text.get(at..).is_some_and(|rest| RulesParser::parse(Rule::item, rest).is_ok())
}

/// The offset of the innermost `{` still open at `at`.
fn open_brace_before(text: &str, at: usize) -> Option<usize> {
    open_braces(text.get(..at)?).last().copied()
}

/// The offset of the outermost `{` left open at the end of the text
/// (strings and comments skipped): braces are matched as written, so a
/// `}` missing inside a block leaves the block around it open.
fn unclosed_brace(text: &str) -> Option<usize> {
    open_braces(text).first().copied()
}

/// The offsets of the `{` left open at the end of the text, outermost
/// first (strings and comments skipped).
fn open_braces(text: &str) -> Vec<usize> {
    let mut open: Vec<usize> = Vec::new();
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '#' => {
                chars.by_ref().find(|(_, c)| *c == '\n');
            }
            '"' => {
                while let Some((_, c)) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '{' => open.push(i),
            '}' => {
                open.pop();
            }
            _ => {}
        }
    }
    open
}

/// `narrative` or `assumption` when the text before `at` ends with that
/// word and a name: the declaration's text is missing there.
fn text_declared_before(text: &str, at: usize) -> Option<&'static str> {
    let mut words = text.get(..at)?.split_whitespace().rev();
    let (_name, word) = (words.next()?, words.next()?);
    ["narrative", "assumption"].into_iter().find(|w| *w == word)
}

/// Whether a `per_player`, `per_space` or `per_piece` starts at `at` right
/// after another one (its own argument, a board or a kind, between them).
fn second_multiplicity(text: &str, at: usize) -> bool {
    const WORDS: [&str; 3] = ["per_player", "per_space", "per_piece"];
    let here = text.get(at..).is_some_and(|t| WORDS.iter().any(|w| t.starts_with(w)));
    let before = text.get(..at).is_some_and(|t| t.split_whitespace().rev().take(2).any(|x| WORDS.contains(&x)));
    here && before
}

/// Whether the text before `at` (an `of` the parser did not expect) ends
/// in `sum x in C where ...`, `max ...` or `min ...`: an aggregate given
/// the `where` of `count` and `any`.
fn filtered_aggregate_before(text: &str, at: usize) -> bool {
    let Some(before) = text.get(..at) else { return false };
    let aggregate = ["sum ", "max ", "min "].iter().filter_map(|w| before.rfind(w)).max();
    aggregate.and_then(|i| before.get(i..)).is_some_and(|tail| tail.contains(" where "))
}

/// `win NAME in ...` just before `at`, alone on its line so far (a
/// comprehension written without its brackets): the statement word and
/// the walk (`q in players`).
fn statement_with_name_before(text: &str, at: usize) -> Option<(&'static str, &str)> {
    let line = text.get(..at)?.rsplit('\n').next()?.trim();
    let (word, walk) = line.split_once(char::is_whitespace)?;
    let walk = walk.trim();
    let (name, _) = walk.split_once(" in ")?;
    let word = ["win"].into_iter().find(|w| *w == word)?;
    (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')).then_some((word, walk))
}

/// Whether the statement before `at`, on its line, is `move` and one
/// name (`move stone` before `from`).
fn move_of_one_name_before(text: &str, at: usize) -> bool {
    let Some(line) = text.get(..at).and_then(|t| t.rsplit(['\n', '{', '}']).next()) else { return false };
    let Some(("move", what)) = line.trim().split_once(char::is_whitespace) else { return false };
    let what = what.trim();
    !what.is_empty() && what.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `at` is a `,` that starts another binding (`, NAME from`) of a
/// `choose` whose `where` was written before it, in the same statement.
fn where_before_another_binding(text: &str, at: usize) -> bool {
    let Some(after) = text.get(at..).and_then(|t| t.strip_prefix(',')) else { return false };
    let mut words = after.split_whitespace();
    let binds = words.next().is_some_and(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')) && words.next() == Some("from");
    binds && choose_before(text, at).is_some_and(|statement| statement.split_whitespace().any(|w| w == "where"))
}

/// The `choose` statement that `at` ends, so far: back to the `choose`
/// that starts it, when that is within the block (no brace between).
fn choose_before(text: &str, at: usize) -> Option<&str> {
    let before = text.get(..at)?;
    let statement = before.get(before.rfind("choose")?..)?;
    (!statement.contains(['{', '}'])).then_some(statement)
}

/// Whether the file starts, at `at`, with a module's header that has no
/// `{` before the next line.
fn module_header_without_braces(text: &str, at: usize) -> bool {
    let line = text.get(at..).and_then(|rest| rest.lines().next()).unwrap_or_default();
    line.starts_with("module ") && line.contains(" extends ") && !line.contains('{')
}

/// Whether `at` follows `by ...` in the `choose` statement it ends, within
/// its block (no brace between).
fn by_before_in_choose(text: &str, at: usize) -> bool {
    choose_before(text, at).is_some_and(|statement| statement.split_whitespace().any(|w| w == "by"))
}

/// The name of `let NAME :` at `at` (a local given a type) and where its
/// `:` is, if that is what stands there.
fn typed_let_at(text: &str, at: usize) -> Option<(&str, usize)> {
    let rest = text.get(at..)?.strip_prefix("let")?;
    let rest = rest.strip_prefix(|c: char| c.is_whitespace())?.trim_start();
    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let (name, after) = rest.split_at(end);
    let colon = text.len() - after.trim_start().len();
    (!name.is_empty() && after.trim_start().starts_with(':')).then_some((name, colon))
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
    } else if words.contains(&"parameters `(name: type)`") {
        Some("a function's parameters are in brackets after its name, `fn worth(c: card) = ...`, and a function with none has empty brackets: `fn hand_size() = 5`".into())
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
        Rule::header_field => "`title`, `source`, `players`, `trigger_depth` or `step_fuel`",
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
        Rule::grid_hex => "`hex`",
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
        Rule::for_where => "`where COND`",
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
        Rule::expr | Rule::postfix | Rule::primary | Rule::paren | Rule::call | Rule::list | Rule::conditional => "an expression",
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
        Rule::step_play | Rule::play_until => "`play N`, `play until CONDITION` or `play until over`",
        Rule::play_over => "`over`",
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
