//! Limits on a rulebook's shape (the *Limits* table of docs/language.md):
//! passing one gives a diagnostic that names it, at the offending text,
//! never a stack overflow, and the largest accepted shape runs.

use grimoire_interpreter::engine::Game;
use grimoire_interpreter::{compile, Diagnostic, Source};
use std::sync::Arc;

fn compiled(text: &str) -> Result<grimoire_interpreter::model::Model, Vec<Diagnostic>> {
    compile(&[Source { name: "t.rules".into(), text: text.into() }])
}

/// The one error of a rulebook that must not compile.
fn only_error(text: &str) -> Diagnostic {
    let mut errs = compiled(text).expect_err("the rulebook passes a limit");
    assert_eq!(errs.len(), 1, "{errs:#?}");
    errs.remove(0)
}

/// A rulebook whose setup stores `value` in a counter and whose only round
/// ends the game; `decls` go before the setup.
fn with_value(decls: &str, value: &str) -> String {
    format!(
        "rulebook t {{ players 2..2 }}\ncounter n -1000000..1000000 = 0\n{decls}\nsetup assume \"x\" {{ n = {value} }}\nround turn assume \"x\" {{ end }}\n"
    )
}

/// `sum a1 in players of sum a2 in players of … 1`, `levels` deep.
fn nested_sums(levels: usize) -> String {
    (0..levels).fold("1".to_string(), |inner, i| format!("sum a{i} in players of {inner}"))
}

#[test]
fn expressions_nest_64_deep_and_no_deeper() {
    // The sums' own 64 levels include the value itself.
    let model = compiled(&with_value("", &nested_sums(10))).expect("ten levels");
    let st = Game::new(Arc::new(model), 2, &[]).expect("two players").start(0).expect("setup runs");
    assert!(st.is_over());
    assert!(compiled(&with_value("", &nested_sums(63))).is_ok());
    let e = only_error(&with_value("", &nested_sums(64)));
    assert_eq!(e.code, "E0001");
    assert!(e.message.contains("nested at most 64 levels"), "{}", e.message);
}

#[test]
fn thousands_of_levels_are_a_diagnostic_not_an_overflow() {
    for levels in [1_000, 5_000] {
        let e = only_error(&with_value("", &nested_sums(levels)));
        assert_eq!(e.code, "E0001", "{levels}: {}", e.message);
        assert!(e.message.contains("nested at most 64 levels"), "{levels}: {}", e.message);
    }
    let fields = format!("count x in players where x{} == none", ".owner".repeat(2_000));
    assert_eq!(only_error(&with_value("", &fields)).code, "E0001");
}

/// `if n == 0 { 0 } else if n == 1 { 1 } else … { 9 }`, `arms` arms: each
/// `else if` is a conditional inside the one before.
fn else_if_chain(arms: usize) -> String {
    (0..arms).map(|i| format!("if n == {i} {{ {i} }} else ")).collect::<String>() + "{ 9 }"
}

/// The conditional values of an `else if` chain nest like any expression:
/// 4,000 arms crashed the checker with a stack overflow (an outside
/// tester's finding), the limit not counting them. And the level reported
/// is the first one too deep in the text, not one near its end.
#[test]
fn else_if_chains_of_values_nest_within_the_expression_limit() {
    // An `if` and 62 `else if`, the longest (docs/language.md, Limits).
    assert!(compiled(&with_value("", &else_if_chain(63))).is_ok());
    assert!(compiled(&with_value("", &else_if_chain(64))).is_err());
    for arms in [70, 4_000] {
        let e = only_error(&with_value("", &else_if_chain(arms)));
        assert_eq!(e.code, "E0001", "{arms}: {}", e.message);
        assert!(e.message.contains("nested at most 64 levels"), "{arms}: {}", e.message);
    }
    // `if if if … flag { 1 } else { 2 } …`: the 65th `if` is reported.
    let value = format!("{}true{}", "if ".repeat(66), " { 1 } else { 2 }".repeat(66));
    let text = with_value("", &value);
    let e = only_error(&text);
    let ifs_before = text.get(..e.at.span.start).map_or(0, |t| t.matches("if ").count());
    assert_eq!(ifs_before, 64, "reported at the 65th `if`: {}", e.message);
}

/// `fn f0(x: int) = x`, `fn f1(x: int) = f0(x)`, … up to `f{len-1}`.
fn call_chain(len: usize) -> String {
    let mut out = "fn f0(x: int) = x\n".to_string();
    for i in 1..len {
        out += &format!("fn f{i}(x: int) = f{}(x)\n", i - 1);
    }
    out
}

#[test]
fn functions_call_functions_64_deep_and_no_deeper() {
    let model = compiled(&with_value(&call_chain(64), "f63(5)")).expect("64 deep");
    let st = Game::new(Arc::new(model), 2, &[]).expect("two players").start(0).expect("setup runs");
    assert!(st.is_over());
    let e = only_error(&with_value(&call_chain(65), "f64(5)"));
    assert_eq!(e.code, "E0104");
    assert!(e.message.contains("`f64` calls functions 65 deep"), "{}", e.message);
    // Ten thousand functions are checked without recursion.
    let e = only_error(&with_value(&call_chain(10_000), "f9999(5)"));
    assert!(e.message.contains("`f64`"), "the shallowest function over the limit is named: {}", e.message);
}

#[test]
fn each_function_on_a_cycle_of_calls_is_reported_once() {
    let fns = "fn a(x: int) = b(x)\nfn b(x: int) = c(x) + a(x)\nfn c(x: int) = x\nfn d(x: int) = d(x)\n";
    let errs = compiled(&with_value(fns, "a(1)")).expect_err("recursion");
    let messages: Vec<&str> = errs.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages, ["the function `a` calls itself through `b`", "the function `d` calls itself"]);
}

#[test]
fn a_reversed_player_range_says_so() {
    let e = only_error("rulebook p { players 9..2 }\nround turn assume \"x\" { end }\n");
    assert_eq!(e.code, "E0303");
    assert!(e.message.contains("9..2 is empty"), "{}", e.message);
    assert!(e.help.as_deref().is_some_and(|h| h.contains("`players 2..9`")), "{:?}", e.help);
    let e = only_error("rulebook p { players 0..20 }\nround turn assume \"x\" { end }\n");
    assert!(e.message.contains("within 1..16"), "{}", e.message);
}

#[test]
fn a_track_past_4096_spaces_names_the_limit() {
    let text = "rulebook t { players 2..2 }\nspacetype s assume \"x\"\ntrack big linear assume \"x\" { 1..5000: s }\nround turn assume \"x\" { end }\n";
    let e = only_error(text);
    assert_eq!(e.code, "E0302");
    assert!(e.message.contains("reaches space 5000; a track has at most 4096"), "{}", e.message);
    let text = text.replace("5000", "4096");
    assert!(compiled(&text).is_ok());
}

#[test]
fn a_variant_past_4096_pieces_names_the_limit() {
    let text = "rulebook t { players 2..2 }\ncard c 5000 assume \"x\" { big x5000 }\nround turn assume \"x\" { end }\n";
    let errs = compiled(text).expect_err("5000 copies");
    assert!(errs.iter().any(|d| d.code == "E0301" && d.message.contains("variant `big` declares 5000")), "{errs:#?}");
}

#[test]
fn a_rulebook_too_large_at_its_own_player_counts_is_refused_by_check() {
    let text = |players: &str| format!("rulebook t {{ players {players} }}\ntoken chip per_player 4096 assume \"x\"\nzone bag per_player of chip assume \"x\"\nround turn assume \"x\" {{ end }}\n");
    let e = only_error(&text("1..16"));
    assert_eq!(e.code, "E0303");
    assert!(e.message.contains("at 16 players the game has 65536 component instances"), "{}", e.message);
    assert!(e.help.as_deref().is_some_and(|h| h.contains("at most 15 players fit")), "{:?}", e.help);
    // One player is one player, not "1 players" (an outside tester's finding).
    let kinds: String = (0..9).map(|i| format!("token chip{i} per_player 4096 assume \"x\"\n")).collect();
    let one = only_error(&format!("rulebook t {{ players 1..2 }}\n{kinds}round turn assume \"x\" {{ end }}\n"));
    assert!(one.message.contains("at 2 players the game has") && one.help.as_deref().is_some_and(|h| h.contains("at most 1 player fit:")), "{one:?}");
    let model = compiled(&text("1..15")).expect("15 sets of 4096 fit");
    assert!(Game::new(Arc::new(model), 15, &[]).is_ok());
    // Zones count too: 17 tracks of 4096 spaces.
    let tracks: String = (0..17).map(|i| format!("track t{i} linear assume \"x\" {{ 1..4096: s }}\n")).collect();
    let e = only_error(&format!("rulebook t {{ players 2..2 }}\nspacetype s assume \"x\"\n{tracks}round turn assume \"x\" {{ end }}\n"));
    assert!(e.message.contains("zones"), "{}", e.message);
}

#[test]
fn a_grid_names_its_limit() {
    for dims in ["0 x 5", "65 x 2", "4294967296 x 2"] {
        let text = format!("rulebook g {{ players 2..2 }}\ngrid frame {dims} assume \"x\"\nround turn assume \"x\" {{ end }}\n");
        let errs = grimoire_interpreter::compile(&[grimoire_interpreter::Source { name: "g.rules".into(), text }]).expect_err(dims);
        assert_eq!(errs.len(), 1, "{dims}: {errs:?}");
        assert_eq!(errs[0].code, "E0302", "{dims}");
        assert!(errs[0].message.contains("1 to 64 rows and columns"), "{dims}: {}", errs[0].message);
    }
}

/// A number written in the text is at most 2^63 - 1 either way: a bound
/// of a counter too (-2^63 was accepted there, refused in an expression).
#[test]
fn a_written_number_is_at_most_2_pow_63_minus_1_either_way() {
    let counter = |lo: &str| format!("rulebook t {{ players 2..2 }}\ncounter c {lo}..9223372036854775807 = 0\n");
    assert!(compiled(&counter("-9223372036854775807")).is_ok());
    let e = only_error(&counter("-9223372036854775808"));
    assert_eq!(e.code, "E0001");
    assert!(e.message.contains("fits in 64 bits"), "{}", e.message);
    assert_eq!(only_error(&with_value("", "9223372036854775808")).code, "E0001");
}

/// docs/language.md lists the keywords the grammar has (its `keyword`
/// rule, less the soft ones it lists apart), and each one used as a name
/// gets a help that names it.
#[test]
fn the_keywords_are_listed_and_a_keyword_used_as_a_name_is_named() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let grammar = std::fs::read_to_string(root.join("grammar/src/rules.pest")).expect("the grammar");
    let words = |rule: &str| -> Vec<String> {
        let start = grammar.find(&format!("{rule} = @{{")).expect("the rule");
        let body = &grammar[start..start + grammar[start..].find("!ident_char").expect("its end")];
        body.split('"').skip(1).step_by(2).map(str::to_string).collect()
    };
    let soft = words("soft_name");
    // A word the rule lists after one of its prefixes (`linear` after
    // `line`) never matches it: it is a name.
    let as_name = |word: &str| compiled(&format!("rulebook t {{ players 2..2 }}\ncounter {word} 0..1 = 0\n"));
    let hard: Vec<String> = words("keyword").into_iter().filter(|w| !soft.contains(w) && as_name(w).is_err()).collect();
    assert!(hard.len() > 50 && hard.iter().any(|w| w == "from"), "{hard:?}");
    let doc = std::fs::read_to_string(root.join("docs/language.md")).expect("the docs");
    let line = doc.lines().find(|l| l.starts_with("Keywords cannot be names:")).expect("the list of keywords");
    let listed: Vec<&str> = line.split('`').skip(1).step_by(2).collect();
    let mut sorted = hard.clone();
    sorted.sort();
    assert_eq!(listed, sorted, "docs/language.md lists the grammar's keywords");
    for word in &hard {
        let e = only_error(&format!("rulebook t {{ players 2..2 }}\ncounter {word} 0..1 = 0\n"));
        assert_eq!(e.code, "E0001", "{word}");
        assert!(e.help.as_deref().is_some_and(|h| h.contains(&format!("`{word}` is a keyword"))), "{word}: {:?}", e.help);
    }
}

/// The limit of the whole rulebook holds without any function call too:
/// the rules themselves are too long, said at the first expression past it
/// (a rulebook without functions made `check` panic).
#[test]
fn a_rulebook_past_the_expression_limit_without_calls_is_refused_where_it_passes() {
    // 2,100,000 expressions: each statement `a = 1+...+1` holds 60 ones
    // and 59 additions (an expression holds at most 64 operators).
    let line = format!("a = {}\n", ["1"; 60].join("+"));
    let body: String = std::iter::repeat_n(line.as_str(), 17_700).collect();
    let e = only_error(&format!("rulebook t {{ players 2..2 }}\nvar a : int = 0 assume \"x\"\nsetup assume \"x\" {{\n{body}}}\nround turn assume \"x\" {{ end }}\n"));
    assert_eq!(e.code, "E0104");
    assert!(e.message.contains("expressions long, more than the 2000000 allowed"), "{}", e.message);
}
