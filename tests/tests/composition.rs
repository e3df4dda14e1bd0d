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
fn two_rulebooks_give_one_error_naming_both() {
    let errs = compile(&[source("a.rules", GAME_A), source("b.rules", GAME_B)]).expect_err("two games");
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert_eq!(errs[0].code, "E0402");
    assert!(errs[0].message.contains("`b` is a rulebook, not a module"), "{}", errs[0].message);
    assert!(errs[0].help.as_deref().is_some_and(|h| h.contains("two different games")), "{:?}", errs[0].help);
    // The files are taken in path order, not as given: the other rulebook
    // is shown too, so that neither is blamed for being the second.
    assert!(errs[0].message.contains("two rulebooks were given"), "{}", errs[0].message);
    let related: Vec<_> = errs[0].related.iter().map(|(at, label)| (at.file.idx(), label.as_str())).collect();
    assert_eq!(related, [(0, "a rulebook")]);
    // With a module of B that seats 3..5, B's own 2..4 is no module's:
    // no follow-on E0303 says that two modules disagree.
    let of_b = "module more extends \"b.rules\" { players 3..5 }\n";
    let errs = compile(&[source("a.rules", GAME_A), source("b.rules", GAME_B), source("more.rules", of_b)]).expect_err("two games");
    assert!(errs.iter().any(|e| e.code == "E0402") && !errs.iter().any(|e| e.code == "E0303"), "{errs:#?}");
}

#[test]
fn a_module_of_the_base_still_composes() {
    let module = "module house extends \"a.rules\" { }\ncounter bonus 0..9 = 0\n";
    let model = compile(&[source("a.rules", GAME_A), source("house.rules", module)]).expect("a base and its module");
    assert!(model.counters.iter().any(|c| c.name == "bonus"));
}

// An expansion that seats more players than its base: the module's
// `players` replaces the base's, and two modules that disagree are refused.
const GAME_C: &str = "rulebook c { players 3..7 }\ncounter score 0..9 = 0\nround turn assume \"x\" { end }\n";

#[test]
fn a_module_sets_the_player_counts() {
    let module = "module more extends \"c.rules\" { players 3..8 cite \"jusqu'à 8 joueurs\" }\n";
    let model = compile(&[source("c.rules", GAME_C), source("more.rules", module)]).expect("a module with its own player counts");
    assert_eq!((model.min_players, model.max_players), (3, 8));
    let base = compile(&[source("c.rules", GAME_C)]).expect("the base alone");
    assert_eq!((base.min_players, base.max_players), (3, 7), "the base alone keeps its own counts");
    let quiet = "module quiet extends \"c.rules\" { }\n";
    let model = compile(&[source("c.rules", GAME_C), source("quiet.rules", quiet)]).expect("a module without players");
    assert_eq!((model.min_players, model.max_players), (3, 7), "a module without `players` keeps the base's");
}

#[test]
fn two_modules_with_different_player_counts_are_refused_at_the_second() {
    let eight = "module eight extends \"c.rules\" { players 3..8 }\n";
    let four = "module four extends \"c.rules\" { players 2..4 }\n";
    let errs = compile(&[source("c.rules", GAME_C), source("eight.rules", eight), source("four.rules", four)]).expect_err("3..8 against 2..4");
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert_eq!(errs[0].code, "E0303");
    assert!(errs[0].message.contains("3..8 and 2..4"), "{}", errs[0].message);
    assert_eq!(errs[0].at.file.idx(), 2, "reported at the second module");
    let same = "module same extends \"c.rules\" { players 3..8 }\n";
    let model = compile(&[source("c.rules", GAME_C), source("eight.rules", eight), source("same.rules", same)]).expect("two modules that agree");
    assert_eq!(model.max_players, 8);
}

#[test]
fn a_module_with_an_impossible_player_count_is_refused() {
    let wrong = "module wrong extends \"c.rules\" { players 8..3 }\n";
    let errs = compile(&[source("c.rules", GAME_C), source("wrong.rules", wrong)]).expect_err("8..3 is empty");
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert_eq!(errs[0].code, "E0303");
    assert!(errs[0].message.contains("8..3 is empty"), "{}", errs[0].message);
}

// Two modules that change the same declaration of the base.
const GAME_D: &str = "rulebook d { players 2..2 }\ncounter score 0..9 = 0\nrule gain assume \"x\" { score += 1 }\nround turn assume \"x\" { do gain end }\n";

#[test]
fn two_modules_that_replace_the_same_rule_are_refused_unless_one_extends_the_other() {
    let one = "module one extends \"d.rules\" { }\nreplace rule gain assume \"x\" { score += 2 }\n";
    let two = "module two extends \"d.rules\" { }\nreplace rule gain assume \"x\" { score += 3 }\n";
    let errs = compile(&[source("d.rules", GAME_D), source("one.rules", one), source("two.rules", two)]).expect_err("both replace `gain`");
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert_eq!(errs[0].code, "E0401");
    assert!(errs[0].message.contains("`gain` is replaced by two modules, `one.rules`"), "{}", errs[0].message);
    assert_eq!((errs[0].at.file.idx(), errs[0].related[0].0.file.idx()), (2, 1), "at the second module, the first one related");
    // The text shows the second module; the first is named with its place.
    let sources = [source("d.rules", GAME_D), source("one.rules", one), source("two.rules", two)];
    let shown = grimoire_cli::render::human(&errs, &sources, grimoire_cli::render::ErrorFormat::Plain);
    assert!(shown.contains("first replaced here: one.rules:2:9"), "{shown}");
    // A module built on the other changes what that one made: no conflict.
    let on_top = "module on_top extends \"one.rules\" { }\nreplace rule gain assume \"x\" { score += 3 }\n";
    compile(&[source("d.rules", GAME_D), source("one.rules", one), source("on_top.rules", on_top)]).expect("a module may replace what its own base replaced");
}

/// One module removes what another replaces: refused whatever their file
/// names (read in path order, the removal after the replacement silently
/// dropped the replacement, while the other order was refused).
#[test]
fn a_module_that_removes_what_another_replaces_is_refused_in_either_order() {
    let replacer = |name: &str| format!("module {name} extends \"d.rules\" {{ }}\nreplace rule gain assume \"x\" {{ score += 2 }}\n");
    let remover = "module safe extends \"d.rules\" { }\nremove rule gain\nreplace round turn assume \"x\" { end }\n";
    for name in ["aaa", "zzz"] {
        // The base first, then the modules in the order of their paths.
        let mut modules = vec![source(&format!("{name}.rules"), &replacer(name)), source("safe.rules", remover)];
        modules.sort_by(|a, b| a.name.cmp(&b.name));
        let files: Vec<_> = std::iter::once(source("d.rules", GAME_D)).chain(modules).collect();
        let errs = compile(&files).expect_err("one removes what the other replaces");
        assert!(errs.iter().any(|e| e.code == "E0401"), "{name}: {errs:#?}");
        // Both places are shown: the replacement and the removal.
        let both = errs.iter().any(|e| e.code == "E0401" && e.related.iter().any(|(at, label)| at.file != e.at.file && (label.contains("removed here") || label.contains("replaced here"))));
        assert!(both, "{name}: {errs:#?}");
    }
    // A module built on the remover cannot replace what is gone, and is
    // told to declare it anew, which it may.
    let on_top = "module again extends \"safe.rules\" { }\nreplace rule gain assume \"x\" { score += 3 }\n";
    let errs = compile(&[source("d.rules", GAME_D), source("safe.rules", remover), source("again.rules", on_top)]).expect_err("nothing left to replace");
    assert_eq!(errs[0].code, "E0401");
    assert!(errs[0].help.as_deref().is_some_and(|h| h.contains("declare it anew")), "{:?}", errs[0].help);
    let anew = "module again extends \"safe.rules\" { }\nrule gain assume \"x\" { score += 3 }\n";
    compile(&[source("d.rules", GAME_D), source("safe.rules", remover), source("again.rules", anew)]).expect("declared anew");
}

/// A module built on one that removed a rule declares it anew, and another
/// module, unrelated to it, removes the rule from the base: refused in
/// either order of the files, and the message says what the first module
/// did (it declares the rule, it replaces nothing), with nothing besides
/// (the base's use of the rule is not an unknown name).
#[test]
fn removing_what_an_unrelated_module_declares_anew_is_one_problem_named_as_it_is() {
    let remover = "module safe extends \"d.rules\" { }\nremove rule gain\n";
    let anew = "module again extends \"safe.rules\" { }\nrule gain assume \"x\" { score += 3 }\n";
    let other = "module other extends \"d.rules\" { }\nremove rule gain\n";
    let base = [source("d.rules", GAME_D), source("safe.rules", remover)];
    // The other remover after the module that declares anew...
    let files: Vec<_> = base.iter().cloned().chain([source("again.rules", anew), source("other.rules", other)]).collect();
    let errs = compile(&files).expect_err("one removes what the other declares");
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert_eq!(errs[0].code, "E0401");
    assert!(errs[0].message.contains("`gain` is declared anew by the module `again.rules` and removed by this one"), "{}", errs[0].message);
    assert!(errs[0].related.iter().any(|(at, label)| at.file.idx() == 2 && label == "declared here"), "{:#?}", errs[0].related);
    // ... and before it.
    let files: Vec<_> = base.iter().cloned().chain([source("other.rules", other), source("again.rules", anew)]).collect();
    let errs = compile(&files).expect_err("one removes what the other declares");
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert_eq!(errs[0].code, "E0401");
    assert!(errs[0].message.contains("`gain` is removed by the module `other.rules` and declared anew by this one"), "{}", errs[0].message);
    // Built only on the module that removed it, declaring it anew is allowed.
    let files: Vec<_> = base.iter().cloned().chain([source("again.rules", anew)]).collect();
    compile(&files).expect("declared anew on top of its removal");
}

/// Two modules that remove one declaration mean the same: it is removed
/// once, whether neither extends the other or one is built on the other
/// (E0401 said the second `remove` named nothing, naming no module; an
/// outside rule author's two house rules both dropped one trigger).
#[test]
fn two_modules_may_remove_the_same_declaration() {
    let remover = |name: &str, on: &str| format!("module {name} extends \"{on}\" {{ }}\nremove rule gain\nreplace round turn assume \"x\" {{ end }}\n");
    // (`calm` relies on `safe`'s round, which no longer calls `gain`.)
    let (a, b) = (remover("safe", "d.rules"), "module calm extends \"d.rules\" { }\nremove rule gain\n".to_string());
    let model = compile(&[source("d.rules", GAME_D), source("calm.rules", &b), source("safe.rules", &a)]).expect("both remove `gain`");
    assert!(!model.procs.iter().any(|p| p.name == "gain"));
    let again = "module again extends \"safe.rules\" { }\nremove rule gain\n";
    compile(&[source("d.rules", GAME_D), source("safe.rules", &a), source("again.rules", again)]).expect("removed again on top of the remover");
}

/// A module's replacement that takes an argument of another type: the
/// base's call that passes the old type shows the replacement too, as a
/// wrong number of arguments does (it named no module: an outside rule
/// author's finding).
#[test]
fn an_argument_of_the_wrong_type_shows_the_module_declaration() {
    let base = "rulebook e { players 2..2 }\ncounter score per_player 0..9 = 0\nrule gain(p: player) assume \"x\" { score[p] += 1 }\nfn best(p: player) = score[p] > 5\nround turn assume \"x\" { do gain(player(1)) if best(player(1)) { win player(1) } end }\n";
    for module in ["module r extends \"e.rules\" { }\nreplace rule gain(p: int) assume \"x\" { pass }\n", "module r extends \"e.rules\" { }\nreplace fn best(p: int) = p > 5\n"] {
        let errs = compile(&[source("e.rules", base), source("r.rules", module)]).expect_err("the base passes a player");
        let e = &errs[0];
        assert_eq!((e.code, e.at.file.idx()), ("E0201", 0), "{errs:#?}");
        assert!(e.related.iter().any(|(at, label)| at.file.idx() == 1 && label.ends_with("declared here")), "{e:#?}");
    }
}

/// A `remove` that names nothing is offered a name of its own sort, else
/// one of another sort with the word that removes it: never a name that
/// the `remove` as written would still not find.
#[test]
fn a_remove_that_names_nothing_is_offered_a_name_of_its_sort() {
    let typo = "module typo extends \"d.rules\" { }\nremove counter gian\n";
    let errs = compile(&[source("d.rules", GAME_D), source("typo.rules", typo)]).expect_err("no counter `gian`");
    assert_eq!(errs[0].code, "E0401");
    assert_eq!(errs[0].help.as_deref(), Some("did you mean the rule `gain`? write `remove rule gain`"), "`gain` is a rule, not a counter");
    let typo = "module typo extends \"d.rules\" { }\nremove counter scor\n";
    let errs = compile(&[source("d.rules", GAME_D), source("typo.rules", typo)]).expect_err("no counter `scor`");
    assert_eq!(errs[0].help.as_deref(), Some("did you mean `score`?"), "a counter first");
}

#[test]
fn a_use_of_what_a_module_removed_names_the_module() {
    let gone = "module gone extends \"d.rules\" { }\nremove rule gain\n";
    let errs = compile(&[source("d.rules", GAME_D), source("gone.rules", gone)]).expect_err("the round still calls `gain`");
    assert_eq!(errs[0].code, "E0101");
    assert!(errs[0].help.as_deref().is_some_and(|h| h.contains("removed by the module `gone.rules`")), "{:?}", errs[0].help);
}

/// A scenario of the base runs on the base alone: a module that removes
/// what it reads still composes with the base, and the scenario is checked
/// (and run) on the base. One of the module itself is checked with it.
#[test]
fn a_module_may_remove_what_a_scenario_of_the_base_reads() {
    let base = "rulebook e { players 1..1 }\ncounter bonus 0..5 = 0\nround turn assume \"x\" { choose x from [1, 2] by player(1)\n win player(1) }\nscenario reads_bonus { expect bonus == 0 }\n";
    let gone = "module nobonus extends \"e.rules\" { }\nremove counter bonus\nscenario mine { expect bonus == 0 }\n";
    let errs = compile(&[source("e.rules", base), source("nobonus.rules", gone)]).expect_err("the module's own scenario reads what it removed");
    assert_eq!(errs.iter().map(|e| (e.code, e.at.file.idx())).collect::<Vec<_>>(), vec![("E0101", 1)], "{errs:#?}");
    let kept = "module nobonus extends \"e.rules\" { }\nremove counter bonus\nscenario mine { expect true }\n";
    let model = compile(&[source("e.rules", base), source("nobonus.rules", kept)]).expect("the base's scenario runs on the base");
    assert!(model.scenarios.iter().any(|s| s.name == "reads_bonus" && s.steps.is_empty()), "listed, checked where it runs");
    let alone = compile(&[source("e.rules", base)]).expect("the base alone");
    assert!(alone.scenarios.iter().any(|s| s.name == "reads_bonus" && s.steps.len() == 1));
    let typo = base.replace("bonus == 0 }\n", "bonu == 0 }\n");
    assert!(compile(&[source("e.rules", &typo)]).is_err(), "a base scenario is checked with the base");
}

/// A scenario of the base with its own player count runs on the base: a
/// module that seats other counts does not make it wrong (it blocked every
/// command on the combination).
#[test]
fn a_base_scenario_for_a_player_count_the_module_drops_still_composes() {
    let base = "rulebook c { players 3..7 }\ncounter score 0..9 = 0\nround turn assume \"x\" { end }\nscenario three players 3 { expect player_count == 3 }\n";
    let more = "module more extends \"c.rules\" { players 4..8 }\n";
    let model = compile(&[source("c.rules", base), source("more.rules", more)]).expect("the scenario runs on the base, at 3 players");
    assert_eq!((model.min_players, model.max_players), (4, 8));
    // Where it runs, its count is still checked.
    let wrong = base.replace("players 3 {", "players 9 {");
    let errs = compile(&[source("c.rules", &wrong)]).expect_err("9 players on a 3..7 game");
    assert_eq!(errs[0].code, "E0303", "{errs:#?}");
}

/// A module that changes the parameters of a rule its base calls: the
/// error is at the base's call, and it shows the module's declaration too,
/// the change that made the call wrong.
#[test]
fn a_call_broken_by_a_module_shows_the_module_declaration() {
    let base = "rulebook a { players 2..2 }\ncounter score 0..9 = 0\nrule gain(n: int) assume \"x\" { score += n }\nsetup assume \"x\" { do gain(1) }\nround turn assume \"x\" { end }\n";
    let module = "module house extends \"a.rules\" { }\nreplace rule gain(n: int, m: int) assume \"x\" { score += n + m }\n";
    let errs = compile(&[source("a.rules", base), source("house.rules", module)]).expect_err("the base's call has one argument");
    assert_eq!(errs.len(), 1, "{errs:#?}");
    let e = &errs[0];
    assert_eq!((e.code, e.at.file.idx()), ("E0104", 0), "{e:#?}");
    assert!(e.related.iter().any(|(at, label)| at.file.idx() == 1 && label.contains("`gain` declared here")), "{e:#?}");
}

// A var or counter of one value for the whole game takes no index: `x[p]`
// once compiled, and read and wrote the declaration after it. A module
// that makes a per-player counter single leaves the base's `x[p]` behind.
#[test]
fn a_single_var_or_counter_indexed_by_a_player_is_refused_at_each_use() {
    let game = "rulebook e { players 2..2 }\nvar x : int = 0\nvar y : int = 0\ncounter c 0..9 = 0\nround turn assume \"x\" {\n  x[player(2)] = 5\n  c[player(1)] += 1\n  if y == 5 { win player(1) }\n  end\n}\n";
    let errs = compile(&[source("e.rules", game)]).expect_err("x and c are single");
    let found: Vec<(&str, &str)> = errs.iter().map(|e| (e.code, e.message.as_str())).collect();
    assert_eq!(
        found,
        [("E0103", "the var `x` holds one value for the whole game and takes no index"), ("E0103", "the counter `c` holds one value for the whole game and takes no index")]
    );
    let per_player = "rulebook f { players 2..2 }\ncounter bravery per_player 0..6 = 4\nround turn assume \"x\" {\n  bravery[player(2)] -= 1\n  end\n}\n";
    compile(&[source("f.rules", per_player)]).expect("a per-player counter takes its index");
    let shared = "module shared extends \"f.rules\" { }\nreplace counter bravery 0..6 = 4 assume \"one bravery for the table\"\n";
    let errs = compile(&[source("f.rules", per_player), source("shared.rules", shared)]).expect_err("the base indexes it");
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert_eq!((errs[0].code, errs[0].at.file.idx()), ("E0103", 0), "reported at the base's use");
    let related: Vec<_> = errs[0].related.iter().map(|(at, label)| (at.file.idx(), label.as_str())).collect();
    assert_eq!(related, [(1, "`bravery` declared here")], "beside the module's declaration");
}

// A module changes what its base declares, once: replacing or removing
// what it declares or replaces itself made the last change count and the
// first silently not.
#[test]
fn a_module_does_not_replace_or_remove_its_own_declarations() {
    let base = "rulebook g { players 2..2 }\nrule r assume \"x\" { pass }\nround turn assume \"x\" { do r end }\n";
    let own = "module own extends \"g.rules\" { }\nrule s assume \"first\" { pass }\nreplace rule s assume \"second\" { pass }\nreplace rule r assume \"r1\" { pass }\nreplace rule r assume \"r2\" { pass }\nremove rule s\n";
    let errs = compile(&[source("g.rules", base), source("own.rules", own)]).expect_err("changed in its own file");
    let found: Vec<(&str, &str, Vec<u32>)> = errs.iter().map(|e| (e.code, e.message.as_str(), e.related.iter().map(|(at, _)| at.span.start as u32).collect())).collect();
    let line = |n: usize| own.lines().take(n - 1).map(|l| l.len() as u32 + 1).sum::<u32>();
    assert_eq!(
        found,
        [
            ("E0401", "`replace` of `s`, which this module already declares or replaces", vec![line(2)]),
            ("E0401", "`replace` of `r`, which this module already declares or replaces", vec![line(4) + 8]),
            ("E0401", "`remove` of `s`, which this module already declares or replaces", vec![line(2)]),
        ]
    );
    // Removed, then removed again or replaced, in the same module (an
    // outside tester was told of "another module", or nothing).
    for second in ["remove rule r", "replace rule r assume \"r2\" { pass }"] {
        let gone = format!("module gone extends \"g.rules\" {{ }}\nremove rule r\n{second}\n");
        let errs = compile(&[source("g.rules", base), source("gone.rules", &gone)]).expect_err("changed twice");
        let e = errs.iter().find(|e| e.code == "E0401").unwrap_or_else(|| panic!("{second}: {errs:#?}"));
        assert!(e.message.ends_with("`r`, which this module already removes"), "{second}: {}", e.message);
        assert_eq!(e.related.iter().map(|(at, _)| at.span.start).collect::<Vec<_>>(), [gone.find("r\n").unwrap_or(0)], "{second}: beside the first remove");
    }
    // Once each, it is what a module is for.
    let once = "module once extends \"g.rules\" { }\nreplace rule r assume \"r1\" { pass }\n";
    compile(&[source("g.rules", base), source("once.rules", once)]).expect("one replacement");
}

// A removal says why, as a declaration does (an outside author's house
// rule could not: `assume` after `remove` was a syntax error), and `remove
// setup`, which has no name, says what to write instead.
#[test]
fn a_removal_carries_its_reason_and_remove_setup_says_what_to_write() {
    let base = "rulebook h { players 2..2 }\npiece pawn 1\ntrigger t on arrive(x: pawn, z) assume \"x\" { pass }\nround turn assume \"x\" { end }\n";
    let why = "module why extends \"h.rules\" { }\nremove trigger t assume \"house rule: nothing happens on arrival\"\n";
    let model = compile(&[source("h.rules", base), source("why.rules", why)]).expect("a removal with its reason");
    let removal = model.records.iter().find(|r| r.name == "remove trigger t").expect("the removal is recorded");
    assert_eq!((removal.assumes.as_slice(), removal.at.file.idx()), (["house rule: nothing happens on arrival".to_string()].as_slice(), 1));
    let silent = "module silent extends \"h.rules\" { }\nremove trigger t\n";
    let model = compile(&[source("h.rules", base), source("silent.rules", silent)]).expect("a removal without a reason");
    assert!(!model.records.iter().any(|r| r.name.starts_with("remove")), "nothing recorded without a reason");
    let setup = "module s extends \"h.rules\" { }\nremove setup\n";
    let errs = compile(&[source("h.rules", base), source("s.rules", setup)]).expect_err("the setup has no name");
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert_eq!((errs[0].code, errs[0].message.as_str()), ("E0401", "`remove setup` names nothing to remove"));
    assert!(errs[0].help.as_deref().is_some_and(|h| h.contains("exception NAME to setup")), "{:?}", errs[0].help);
}

// A module replacing what a sibling module declares (not what either's
// base declares) is told to extend that module: it was told that two
// modules replace it, and E0102's help for declaring it again pointed back
// to `replace`.
#[test]
fn replacing_what_a_sibling_module_declares_says_to_extend_it() {
    let base = "rulebook k { players 2..2 }\nround turn assume \"x\" { end }\n";
    let decl = "module decl extends \"k.rules\" { }\nrule s assume \"decl\" { pass }\n";
    let sib = "module sib extends \"k.rules\" { }\nreplace rule s assume \"sib\" { pass }\n";
    let errs = compile(&[source("k.rules", base), source("decl.rules", decl), source("sib.rules", sib)]).expect_err("sib does not extend decl");
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(errs[0].message.starts_with("`s` is declared by the module `decl.rules`, which this one does not extend"), "{}", errs[0].message);
    assert!(errs[0].help.as_deref().is_some_and(|h| h.contains("make this module extend `decl.rules`")), "{:?}", errs[0].help);
    let again = "module sib extends \"k.rules\" { }\nrule s assume \"sib\" { pass }\n";
    let errs = compile(&[source("k.rules", base), source("decl.rules", decl), source("sib.rules", again)]).expect_err("declared twice");
    assert!(errs[0].code == "E0102" && errs[0].help.as_deref().is_some_and(|h| h.contains("in a module that extends that file")), "{errs:#?}");
    // Built on it, the replacement is what a module is for.
    let on = "module built extends \"decl.rules\" { }\nreplace rule s assume \"built\" { pass }\n";
    compile(&[source("k.rules", base), source("decl.rules", decl), source("built.rules", on)]).expect("a module replacing what its base module declares");
}

// An exception reads its rule's parameters by their names: a module that
// renames them breaks the exceptions to the rule, in another file. The
// unknown name is shown beside the rule and its parameters now.
#[test]
fn an_unknown_name_in_an_exception_shows_the_parameters_of_its_rule() {
    let base = "rulebook m { players 2..2 }\ncounter score per_player 0..9 = 0\nrule gain(p: player) assume \"x\" { score[p] += 1 }\nexception double to gain when score[p] > 3 after assume \"x\" { score[p] += 1 }\nround turn assume \"x\" { do gain(player(1)) end }\n";
    compile(&[source("m.rules", base)]).expect("the exception reads `p`");
    let renamed = "module renamed extends \"m.rules\" { }\nreplace rule gain(who: player) assume \"y\" { score[who] += 2 }\n";
    let errs = compile(&[source("m.rules", base), source("renamed.rules", renamed)]).expect_err("`p` is gone");
    assert!(!errs.is_empty() && errs.iter().all(|e| e.code == "E0101" && e.at.file.idx() == 0), "{errs:#?}");
    for e in &errs {
        let related: Vec<_> = e.related.iter().map(|(at, label)| (at.file.idx(), label.as_str())).collect();
        assert_eq!(related, [(1, "the exception is to `gain`, declared here with the parameters `who`; an exception sees those, not the rule's locals")], "{e:#?}");
    }
}

// A module that replaces a table with other columns leaves the base's
// reads of the old ones behind: each is shown beside the table, with its
// columns (an outside module author got "the table has no column" alone).
#[test]
fn a_read_of_a_column_a_replacement_dropped_shows_the_table() {
    let base = "rulebook n { players 2..2 }\ntable split(players) -> (up, down) assume \"x\" {\n  2 => (1, 2)\n}\ncounter c 0..9 = 0\nround turn assume \"x\" { c = split(player_count).up\n end }\n";
    compile(&[source("n.rules", base)]).expect("the base reads `up`");
    let renamed = "module renamed extends \"n.rules\" { }\nreplace table split(players) -> (face_up, face_down) assume \"y\" {\n  2 => (1, 2)\n}\n";
    let errs = compile(&[source("n.rules", base), source("renamed.rules", renamed)]).expect_err("`up` is gone");
    assert_eq!(errs.len(), 1, "{errs:#?}");
    let e = &errs[0];
    assert_eq!((e.code, e.message.as_str(), e.at.file.idx()), ("E0101", "the table `split` has no column `up`", 0));
    assert_eq!(e.help.as_deref(), Some("its columns are `face_up`, `face_down`"));
    let related: Vec<_> = e.related.iter().map(|(at, label)| (at.file.idx(), label.as_str())).collect();
    assert_eq!(related, [(1, "`split` declared here")]);
}

// A module that replaces a function with one of another type leaves the
// base's uses of the old type behind: each type error is shown beside the
// replacement (an outside module author's E0201 had no word of it).
#[test]
fn a_use_of_a_function_a_replacement_retyped_shows_the_function() {
    let base = "rulebook q { players 2..2 }\ncounter c 0..9 = 0\nfn open() = c > 3\nround turn assume \"x\" { if open() and c < 9 { c += 1 }\n end }\n";
    compile(&[source("q.rules", base)]).expect("`open` is a truth value");
    let retyped = "module retyped extends \"q.rules\" { }\nreplace fn open() = c + 1\n";
    let errs = compile(&[source("q.rules", base), source("retyped.rules", retyped)]).expect_err("`open` is a number now");
    let e = errs.iter().find(|e| e.code == "E0201").unwrap_or_else(|| panic!("{errs:#?}"));
    assert_eq!(e.at.file.idx(), 0, "at the base's use");
    let related: Vec<_> = e.related.iter().map(|(at, label)| (at.file.idx(), label.as_str())).collect();
    assert_eq!(related, [(1, "`open` declared here")]);
}

/// An exception of one module to a rule that another module, which it does
/// not extend, replaces: V302 at the exception, naming both files, and
/// nothing when the exception's module builds on the replacing one, or
/// when the rule is the base's (the outside tester's house rule written
/// for seven columns changed a round that played on nine, silently).
#[test]
fn an_exception_to_a_rule_an_unrelated_module_replaces_is_v302() {
    use grimoire_interpreter::validate::checks::run_all;
    let base = "rulebook a { players 2..2 }\ncounter score 0..9 = 0\nround turn assume \"x\" { end }\n";
    let wider = "module wider extends \"a.rules\" { }\nreplace round turn assume \"x\" { score += 1\n end }\n";
    let house = "module house extends \"a.rules\" { }\nexception cheer to turn when true before assume \"x\" { score += 2 }\n";
    let v302 = |files: &[(&str, &str)]| {
        let model = compile(&files.iter().map(|(n, t)| source(n, t)).collect::<Vec<_>>()).unwrap_or_else(|d| panic!("{d:#?}"));
        run_all(&model).into_iter().filter(|f| f.code == "V302").map(|f| (f.message, f.at.map(|at| at.file.idx()))).collect::<Vec<_>>()
    };
    let found = v302(&[("a.rules", base), ("house.rules", house), ("wider.rules", wider)]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].0.contains("the exception `cheer` changes `turn` as `wider.rules` declares it, a module that `house.rules` does not extend"), "{found:?}");
    assert_eq!(found[0].1, Some(1), "at the exception, in house.rules");
    assert!(v302(&[("a.rules", base), ("house.rules", house)]).is_empty(), "the base's own rule");
    let house_on_wider = house.replace("extends \"a.rules\"", "extends \"wider.rules\"");
    assert!(v302(&[("a.rules", base), ("house.rules", &house_on_wider), ("wider.rules", wider)]).is_empty(), "written for wider's rule");
}
