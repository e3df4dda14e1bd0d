//! Source traceability on small, hand-made sources: quotes are compared after
//! Unicode composition, a citation covers a paragraph only with enough of its
//! words, and a line range counts for the file it names only.

use grimoire_interpreter::validate::trace::{self, SourceCoverage, TraceReport, MIN_WORDS};
use grimoire_interpreter::validate::{Finding, SourceText};
use grimoire_interpreter::{compile, Source};

/// The rulebook header and a narrative for each citation list given, so
/// that each `cites` is one record.
fn rulebook(cites: &[&str]) -> String {
    let mut text = String::from("rulebook t { source \"source.txt\" players 2..2 assume \"a test\" }\n");
    for (i, c) in cites.iter().enumerate() {
        text.push_str(&format!("narrative n{i} \"a test\" {c}\n"));
    }
    text
}

fn check(rules: &str, sources: &[(&str, &str)]) -> (TraceReport, Vec<Finding>) {
    let model = compile(&[Source { name: "t.rules".into(), text: rules.to_string() }]).unwrap_or_else(|d| panic!("{rules}\ndoes not compile: {d:?}"));
    let sources: Vec<SourceText> = sources.iter().map(|(name, text)| SourceText { name: name.to_string(), text: Some(text.to_string()) }).collect();
    trace::check(&model, &sources)
}

fn source<'a>(report: &'a TraceReport, name: &str) -> &'a SourceCoverage {
    report.sources.iter().find(|s| s.source == name).unwrap_or_else(|| panic!("no coverage of {name}: {report:#?}"))
}

fn codes(findings: &[Finding]) -> Vec<&str> {
    findings.iter().map(|f| f.code.as_str()).collect()
}

const TEXT: &str = "Petit jeu de test\n\nChaque joueur prend deux jetons.\n\nLe premier joueur lance le dé et avance son pion.\n\nLe premier arrivé au bout de la piste gagne.\n\nOn pioche une carte du paquet.\n";

#[test]
fn a_quote_with_composed_accents_is_found_in_a_source_that_decomposes_them() {
    // « é » stored as « e » + combining acute accent (U+0301), as PDF
    // extractors often write it; the rulebook writes it composed (U+00E9).
    let nfd = "Le premier joueur lance le de\u{301} et avance son pion.\n\nLe premier arrive\u{301} au bout de la piste gagne.\n";
    let quote = "Le premier joueur lance le d\u{e9} et avance son pion.";
    assert!(!nfd.contains('\u{e9}') && quote.contains('\u{e9}'), "the test needs a decomposed source and a composed quote");
    let (report, findings) = check(&rulebook(&[&format!("cite \"{quote}\""), "cite \"arriv\u{e9} au bout de la piste\""]), &[("source.txt", nfd)]);
    assert_eq!(report.not_found, 0, "{findings:#?}");
    assert!(codes(&findings).is_empty(), "{findings:#?}");
    assert_eq!(source(&report, "source.txt").covered, 2);

    // And the other way round: a composed source, a decomposed quote.
    let (report, findings) = check(&rulebook(&["cite \"lance le de\u{301} et avance\""]), &[("source.txt", TEXT)]);
    assert_eq!(report.not_found, 0, "{findings:#?}");
    // Accents still matter: « de » is not « dé ».
    let (report, findings) = check(&rulebook(&["cite \"lance le de et avance\""]), &[("source.txt", TEXT)]);
    assert_eq!(report.not_found, 1);
    assert_eq!(codes(&findings).first(), Some(&"T001"));
}

#[test]
fn one_letter_quotes_are_found_but_cover_nothing() {
    assert_eq!(MIN_WORDS, 4, "docs/validate.md states the threshold: change both");
    // `e` is in every paragraph of the text.
    let (report, findings) = check(&rulebook(&["cite \"e\"", "cite \"e\" cite \"le\"", "cite \"e\""]), &[("source.txt", TEXT)]);
    assert_eq!(report.not_found, 0);
    let s = source(&report, "source.txt");
    assert_eq!((s.paragraphs, s.covered, s.percent), (5, 0, 0.0));
    assert_eq!(s.short_only.iter().map(|p| p.line).collect::<Vec<_>>(), vec![1, 3, 5, 7, 9]);
    assert!(s.uncited.is_empty(), "reached by a short quote is not uncited: {:?}", s.uncited);
    let t011 = findings.iter().find(|f| f.code == "T011").unwrap_or_else(|| panic!("{findings:#?}"));
    assert!(t011.message.contains("5 of the 5 paragraphs of `source.txt` are covered only by short quotes"), "{}", t011.message);
    // The message itself says where they are: the short format shows no help.
    assert!(t011.message.ends_with("(lines 1, 3, 5 and 2 more)"), "{}", t011.message);
    assert!(t011.at.is_some(), "T011 points at a short quote");
    assert!(!codes(&findings).contains(&"T010"));

    // A short quote is still looked up.
    let (report, findings) = check(&rulebook(&["cite \"z\""]), &[("source.txt", TEXT)]);
    assert_eq!(report.not_found, 1);
    assert!(codes(&findings).contains(&"T001"));
}

#[test]
fn a_citation_covers_with_four_whole_words_or_the_whole_paragraph() {
    let cases: &[(&str, u32, bool)] = &[
        // (citation, paragraph's first line, covers it)
        ("cite \"lance le dé et\"", 5, true),
        ("cite \"lance le dé\"", 5, false),
        // Fragments of words are not words: only « prend » and « deux » are whole.
        ("cite \"oueur prend deux jet\"", 3, false),
        ("cite \"remier joueur lance le d\"", 5, false),
        ("cite \"joueur prend deux jetons\"", 3, true),
        // A paragraph of fewer than 4 words must be quoted whole.
        ("cite \"Petit jeu de test\"", 1, true),
        ("cite \"jeu de test\"", 1, false),
        // A quote across two paragraphs counts in each for its words there.
        ("cite \"Petit jeu de test Chaque joueur prend\"", 1, true),
        ("cite \"Petit jeu de test Chaque joueur prend\"", 3, false),
        ("cite \"Petit jeu de test Chaque joueur prend deux jetons.\"", 3, true),
        // A line range holds every word of its lines.
        ("cite line 9", 9, true),
        ("cite lines 2..3", 3, true),
    ];
    for (cite, line, covers) in cases {
        let (report, findings) = check(&rulebook(&[cite]), &[("source.txt", TEXT)]);
        assert_eq!(report.not_found, 0, "{cite}: {findings:#?}");
        let s = source(&report, "source.txt");
        let short = s.short_only.iter().any(|p| p.line == *line);
        let uncited = s.uncited.iter().any(|p| p.line == *line);
        assert!(!uncited, "{cite} reaches line {line}");
        assert_eq!(!short, *covers, "{cite}, paragraph at line {line}: short_only {:?}", s.short_only);
        assert_eq!(codes(&findings).contains(&"T011"), !s.short_only.is_empty(), "{cite}");
    }
}

/// Quotation marks in a paragraph (« », “ ”, ") part words as spaces do:
/// four words quoted after them, or the whole paragraph with them, cover
/// it. They ran the words on each side together, and such a quote was
/// counted as short.
#[test]
fn words_next_to_quotation_marks_count_for_coverage() {
    for marks in [("«", "»"), ("« ", " »"), ("“", "”"), ("\"", "\"")] {
        let text = format!("Un deux trois quatre {}cinq{} six sept huit neuf\n\nUn {}deux{}\n", marks.0, marks.1, marks.0, marks.1);
        // The marks as a rulebook's string writes them.
        let quoted = |m: &str| m.replace('"', "\\\"");
        let around = format!("cite \"trois quatre {}cinq{} six\"", quoted(marks.0), quoted(marks.1));
        let whole = format!("cite \"Un {}deux{}\"", quoted(marks.0), quoted(marks.1));
        for (cite, line) in [("cite \"six sept huit neuf\"", 1), (around.as_str(), 1), (whole.as_str(), 3)] {
            let (report, findings) = check(&rulebook(&[cite]), &[("source.txt", &text)]);
            assert_eq!(report.not_found, 0, "{cite} in {text:?}: {findings:#?}");
            let s = source(&report, "source.txt");
            assert!(!s.short_only.iter().any(|p| p.line == line) && !s.uncited.iter().any(|p| p.line == line), "{cite} covers line {line} of {text:?}: {s:#?}");
        }
    }
}

#[test]
fn a_line_range_counts_for_the_file_it_names_only() {
    let other = "Une autre règle\n\nqui ne dit rien du jeu.\n";
    // Lines of `other.txt` cover `other.txt`, never the paragraphs with the
    // same line numbers in `source.txt`.
    let (report, findings) = check(&rulebook(&["cite lines 1..3 in \"other.txt\""]), &[("source.txt", TEXT), ("other.txt", other)]);
    assert!(!codes(&findings).contains(&"T003"), "{findings:#?}");
    assert_eq!(source(&report, "other.txt").covered, 2);
    assert_eq!(source(&report, "source.txt").covered, 0);
    assert_eq!(source(&report, "source.txt").uncited.len(), 5);

    // A range that fits `source.txt` (9 lines) but not the file it names
    // (3 lines) is an error and covers nothing anywhere.
    let (report, findings) = check(&rulebook(&["cite lines 1..9 in \"other.txt\""]), &[("source.txt", TEXT), ("other.txt", other)]);
    let t003 = findings.iter().find(|f| f.code == "T003").unwrap_or_else(|| panic!("{findings:#?}"));
    assert!(t003.message.contains("lines 1..9 are not within `other.txt`, which has 3 lines"), "{}", t003.message);
    assert_eq!(source(&report, "other.txt").covered, 0);
    assert_eq!(source(&report, "source.txt").covered, 0);

    // Running past the end of its own file covers none of the lines that do exist.
    let (report, findings) = check(&rulebook(&["cite lines 5..12"]), &[("source.txt", TEXT)]);
    assert!(codes(&findings).contains(&"T003"));
    assert_eq!(source(&report, "source.txt").covered, 0);
    // A range written backwards is empty, whatever the file's length.
    let (report, findings) = check(&rulebook(&["cite lines 3..1"]), &[("source.txt", TEXT)]);
    let t003 = findings.iter().find(|f| f.code == "T003").unwrap_or_else(|| panic!("{findings:#?}"));
    assert!(t003.message.contains("the line range 3..1 is empty"), "{}", t003.message);
    assert!(t003.help.as_deref().is_some_and(|h| h.contains("cite lines 1..3")), "{:?}", t003.help);
    assert_eq!(source(&report, "source.txt").covered, 0);
    // A line number past 2^32 is past the end, not line 1 again.
    let (report, findings) = check(&rulebook(&["cite line 4294967297", "cite lines 4294967298..4294967299"]), &[("source.txt", TEXT)]);
    assert_eq!(findings.iter().filter(|f| f.code == "T003").count(), 2, "{findings:#?}");
    assert!(findings.iter().any(|f| f.message.contains("lines 4294967298..4294967299 are not within")), "{findings:#?}");
    assert_eq!(source(&report, "source.txt").covered, 0);
}

/// `citations` counts every quote and line range, those of a source that
/// cannot be found too (T002 says it cannot be found).
#[test]
fn citations_of_a_missing_source_are_counted() {
    let rules = rulebook(&["cite \"Chaque joueur prend deux jetons.\"", "cite \"On pioche\" in \"gone.txt\"", "cite line 3 in \"gone.txt\""]);
    let (report, findings) = check(&rules, &[("source.txt", TEXT)]);
    assert_eq!((report.citations, report.not_found), (3, 0), "{report:#?}");
    assert!(codes(&findings).contains(&"T002"), "{findings:#?}");
}

/// A quote with a slip (a word changed) is not found, and its help shows
/// the nearest sentence of the source with its line; a quote of nothing
/// like any sentence shows none.
#[test]
fn a_quote_not_found_shows_the_nearest_sentence() {
    let rules = rulebook(&["cite \"Chaque joueur prend trois jetons.\"", "cite \"Les dragons volent la nuit.\""]);
    let (_, findings) = check(&rules, &[("source.txt", TEXT)]);
    let helps: Vec<&str> = findings.iter().filter(|f| f.code == "T001").map(|f| f.help.as_deref().unwrap_or("")).collect();
    assert_eq!(helps.len(), 2, "{findings:#?}");
    assert!(helps[0].ends_with("; the nearest sentence, line 3: « Chaque joueur prend deux jetons. »"), "{}", helps[0]);
    assert!(!helps[1].contains("nearest"), "{}", helps[1]);
}

/// A header's source that cannot be found is reported at that `source`
/// clause, where the name to fix is written; a source named only by
/// `cite ... in` at its first citation.
#[test]
fn a_missing_source_is_reported_where_it_is_named() {
    let rules = rulebook(&["cite \"Chaque joueur prend deux jetons.\"", "cite \"On pioche\" in \"gone.txt\""]);
    let (_, findings) = check(&rules, &[]);
    let at = |name: &str| {
        let f = findings.iter().find(|f| f.code == "T002" && f.message.contains(name)).unwrap_or_else(|| panic!("{findings:#?}"));
        let span = f.at.expect("a place").span;
        rules[span.start..span.end].to_string()
    };
    assert_eq!(at("source.txt"), "\"source.txt\"");
    assert_eq!(at("gone.txt"), "\"On pioche\"", "at the quote of its first citation");
}

/// T010 says in its message which paragraphs are uncited, by their first
/// line, so that `--error-format short` (which shows no help) says it too.
#[test]
fn uncited_paragraphs_are_named_by_their_lines_in_the_message() {
    let (_, findings) = check(&rulebook(&["cite \"Chaque joueur prend deux jetons.\" cite \"Le premier arrivé au bout de la piste gagne.\""]), &[("source.txt", TEXT)]);
    let t010 = findings.iter().find(|f| f.code == "T010").unwrap_or_else(|| panic!("{findings:#?}"));
    assert!(t010.message.ends_with("(lines 1, 5 and 9)"), "{}", t010.message);
    let (_, findings) = check(&rulebook(&["cite \"Chaque joueur prend deux jetons.\" cite \"Le premier arrivé au bout de la piste gagne.\" cite \"Petit jeu de test\" cite \"On pioche une carte du paquet.\""]), &[("source.txt", TEXT)]);
    let t010 = findings.iter().find(|f| f.code == "T010").unwrap_or_else(|| panic!("{findings:#?}"));
    assert!(t010.message.ends_with("(line 5)"), "{}", t010.message);
}

#[test]
fn the_title_and_the_engine_limits_cite_the_text_like_any_declaration() {
    // Only `players` took provenance in the header: a title's cite was a
    // syntax error, and a limit's was read and then dropped.
    let rules = "rulebook t { title \"Petit jeu\" cite \"Petit jeu de test\" source \"source.txt\" players 2..2 cite \"Chaque joueur prend deux jetons.\" step_fuel 5000 cite \"On pioche une carte du paquet.\" }\n";
    let (report, findings) = check(rules, &[("source.txt", TEXT)]);
    assert_eq!(report.not_found, 0, "{findings:#?}");
    let s = source(&report, "source.txt");
    assert_eq!(s.covered, 3, "the title's, the players' and the limit's quotes each cover their paragraph: {s:#?}");
    // And a quote that is not in the text is found wrong there too.
    let (report, findings) = check(&rules.replace("cite \"Petit jeu de test\"", "cite \"Grand jeu\""), &[("source.txt", TEXT)]);
    assert_eq!(report.not_found, 1);
    assert_eq!(codes(&findings).first(), Some(&"T001"));
}

#[test]
fn a_quote_of_punctuation_only_is_empty_and_the_help_says_to_cite_its_line() {
    let text = "Petit jeu de test\n\n***\n\nChaque joueur prend deux jetons.\n";
    let (_, findings) = check(&rulebook(&["cite \"***\""]), &[("source.txt", text)]);
    assert_eq!(codes(&findings).first(), Some(&"T001"), "{findings:#?}");
    assert!(findings[0].message.contains("punctuation") && findings[0].help.as_deref().is_some_and(|h| h.contains("cite line N")), "{findings:#?}");
    // Cited by its line, the paragraph is found.
    let (report, findings) = check(&rulebook(&["cite line 3"]), &[("source.txt", text)]);
    assert_eq!(report.not_found, 0, "{findings:#?}");
}

/// A word joined by an apostrophe or a slash is one word (« n'entre »,
/// « l'épée », « 1/2 »): a quote that starts after the apostrophe drops the
/// elided negation or article, and is T013 with the whole word shown (an
/// outside tester's « entre dans la zone rouge » from « n'entre » passed
/// unremarked, saying the opposite of the source). Other punctuation parts
/// words, even glued by the extraction (« normalement.Le »), and a quote
/// that takes the whole word is no finding.
#[test]
fn a_quote_that_drops_an_elided_word_is_t013() {
    let text = "Le pion n'entre dans la zone rouge.\n\nIl se défend normalement.Le joueur paie la solde.\n\nPrenez 1/2 des pièces d'or.\n";
    for (quote, cut) in [("entre dans la zone rouge", Some("« n'entre dans la zone rouge »")), ("2 des pièces d", Some("« 1/2 des pièces d'or »")), ("Le joueur paie la solde", None), ("n'entre dans la zone rouge", None), ("Prenez 1/2 des pièces d'or", None)] {
        let (report, findings) = check(&rulebook(&[&format!("cite \"{quote}\"")]), &[("source.txt", text)]);
        assert_eq!(report.not_found, 0, "{quote}: {findings:#?}");
        let t013 = findings.iter().find(|f| f.code == "T013");
        match cut {
            Some(words) => assert!(t013.is_some_and(|f| f.message.contains(words)), "{quote}: {findings:#?}"),
            None => assert!(t013.is_none(), "{quote}: {findings:#?}"),
        }
    }
}

/// A quote found in the source only inside longer words is found (T001
/// does not fire) but warned about (T013), with the words it cuts; where a
/// quote is found as whole words, the places where it cuts a word reach
/// nothing: « joueur » reaches the paragraphs of « joueur », not one that
/// only says « joueurs ».
#[test]
fn a_quote_found_only_inside_words_is_t013_and_cut_places_reach_nothing() {
    let text = "Les joueurs jouent.\n\nUn joueur gagne.\n\nIl est déplacé.\n";
    let (report, findings) = check(&rulebook(&["cite \"placé\""]), &[("source.txt", text)]);
    assert_eq!(report.not_found, 0, "{findings:#?}");
    let t013 = findings.iter().find(|f| f.code == "T013").unwrap_or_else(|| panic!("{findings:#?}"));
    assert!(t013.message.contains("only as part of longer words (line 5: « déplacé »)"), "{}", t013.message);
    assert!(t013.at.is_some());
    // Whole words somewhere: no warning, and the cut place reaches nothing.
    let (report, findings) = check(&rulebook(&["cite \"joueur\""]), &[("source.txt", text)]);
    assert!(!codes(&findings).contains(&"T013"), "{findings:#?}");
    let s = source(&report, "source.txt");
    let reached: Vec<u32> = s.short_only.iter().map(|p| p.line).collect();
    assert_eq!(reached, vec![3], "only the paragraph with the whole word: {s:?}");
    assert!(s.uncited.iter().any(|p| p.line == 1), "« joueurs » is not « joueur »: {s:?}");
}

/// A quote that begins just after a negation it leaves out is found, but
/// may say the opposite of the source: T014 (a translator cut « ne peut
/// jamais » off a sentence and the check passed). Not when the quote holds
/// the negation, begins a new clause or sentence, or starts a line (a list
/// item after a line that ends on « sans bonus »).
#[test]
fn a_quote_cut_just_after_a_negation_is_t014() {
    let text = "Un chevalier ne peut jamais être placé sur la case finale.\n\n1. attaquer de loin, sans bonus\n2. attaquer de près, avec un bonus\n\nIl ne joue pas. Il avance d'une case.\n";
    let t014 = |cite: &str| {
        let (report, findings) = check(&rulebook(&[cite]), &[("source.txt", text)]);
        assert_eq!(report.not_found, 0, "{cite}: {findings:#?}");
        findings.into_iter().find(|f| f.code == "T014").map(|f| f.message)
    };
    let message = t014("cite \"être placé sur la case finale\"").expect("T014");
    assert!(message.contains("just after « peut jamais »") && message.contains("line 1"), "{message}");
    for quiet in ["cite \"ne peut jamais être placé\"", "cite \"2. attaquer de près, avec un bonus\"", "cite \"Il avance d'une case.\"", "cite \"attaquer de près\""] {
        assert_eq!(t014(quiet), None, "{quiet}");
    }
}

#[test]
fn a_match_arm_cites_after_its_braces_as_a_for_does() {
    // `x => { ... } cite "..."` was a syntax error ("expected a pattern"
    // at the `cite`), where `for ... { ... } cite "..."` is accepted: the
    // provenance is the arm's, with any written before its braces.
    let rules = "rulebook t { source \"source.txt\" players 2..2 cite \"Chaque joueur prend deux jetons.\" }
die coin 2 { heads x1 tails x1 }
counter n 0..9 = 0
round turn {
  roll x = coin
  match x {
    heads => cite \"Le premier joueur lance le dé et avance son pion.\" { n += 1 } cite \"Le premier arrivé au bout de la piste gagne.\"
    _ => { draw } cite \"On pioche une carte du paquet.\"
  }
}
";
    let (report, findings) = check(rules, &[("source.txt", TEXT)]);
    assert_eq!(report.not_found, 0, "{findings:#?}");
    let s = source(&report, "source.txt");
    assert_eq!(s.covered, 4, "each quote covers its paragraph: {s:#?}");
}
