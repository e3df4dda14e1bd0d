//! Which files make one game: a base rulebook first, then modules of it.
//! Files that do not compose get the one error that says so, not every
//! name that the second rulebook declares again.

use grimoire_interpreter::{compile, Source};

fn source(name: &str, text: &str) -> Source {
    Source { name: name.into(), text: text.into() }
}

const GAME_A: &str = "rulebook a { players 2..2 }\ncounter score 0..9 = 0\nround turn assume \"x\" { end }\n";
const GAME_B: &str = "rulebook b { players 2..4 }\ncounter score 0..9 = 0\nzone deck assume \"x\"\nround turn assume \"x\" { end }\n";

#[test]
fn two_rulebooks_give_one_error_naming_the_second() {
    let errs = compile(&[source("a.rules", GAME_A), source("b.rules", GAME_B)]).expect_err("two games");
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert_eq!(errs[0].code, "E0402");
    assert!(errs[0].message.contains("`b` is a rulebook, not a module"), "{}", errs[0].message);
    assert!(errs[0].help.as_deref().is_some_and(|h| h.contains("two different games")), "{:?}", errs[0].help);
}

#[test]
fn a_module_of_the_base_still_composes() {
    let module = "module house extends \"a.rules\" { }\ncounter bonus 0..9 = 0\n";
    let model = compile(&[source("a.rules", GAME_A), source("house.rules", module)]).expect("a base and its module");
    assert!(model.counters.iter().any(|c| c.name == "bonus"));
}
