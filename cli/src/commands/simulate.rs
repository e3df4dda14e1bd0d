//! `grimoire simulate`: random playouts and what they tell about a rulebook.

use super::{compile_files, names, reject, style, Ui, INVALID};
use grimoire_cli::interrupt::INTERRUPTED;
use grimoire_cli::render::exec_error;
use grimoire_cli::ui::{count, plural};
use grimoire_interpreter::engine::{ExecError, Game, Outcome, State};
use grimoire_interpreter::histogram::Histogram;
use grimoire_interpreter::log::quick_playout_in;
use grimoire_interpreter::parallel::in_chunks_until;
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Serialize)]
struct Report {
    rulebook: Vec<String>,
    players: u8,
    /// Games played: fewer than asked when interrupted.
    games: u32,
    first_seed: u64,
    seconds: f64,
    games_per_second: f64,
    decisions_min: u32,
    decisions_median: u32,
    decisions_max: u32,
    decisions_mean: f64,
    /// Moves of players per game, forced ones included.
    plies_min: u32,
    plies_median: u32,
    plies_max: u32,
    plies_mean: f64,
    rounds_median: u32,
    rounds_mean: f64,
    wins_by_seat: Vec<u32>,
    /// Games won by several players together (each winner's seat counts
    /// the game in `wins_by_seat`).
    shared_wins: u32,
    draws: u32,
    unfinished: u32,
    /// Each failed game: its seed, and what stopped it as `stop_json`
    /// writes it (code, message, rule, place).
    failures: Vec<serde_json::Value>,
    rules: Vec<RuleCount>,
    never_fired: Vec<String>,
    /// With `--score`, else null.
    score: Option<ScoreSummary>,
    /// Ctrl-C stopped the run before every game was played.
    interrupted: bool,
}

#[derive(Serialize)]
struct RuleCount {
    rule: String,
    fired: u64,
    games: u32,
}

/// The flags of `grimoire simulate`.
pub struct SimArgs<'a> {
    /// Rulebook and modules.
    pub files: &'a [PathBuf],
    /// Player count.
    pub players: u8,
    /// Games.
    pub games: u32,
    /// First seed.
    pub seed: u64,
    /// Options on.
    pub options: &'a [String],
    /// Decision bound.
    pub max_decisions: u32,
    /// Per-player counter to report.
    pub score: Option<&'a str>,
    /// Threads to play on.
    pub jobs: usize,
    /// Skip the rulebook's declared invariants (faster).
    pub unchecked: bool,
}

/// Final values of a per-player counter, by seat.
#[derive(Serialize)]
struct ScoreSummary {
    counter: String,
    by_seat: Vec<Spread>,
    winners: Spread,
}

#[derive(Serialize)]
struct Spread {
    min: i64,
    p10: i64,
    median: i64,
    p90: i64,
    max: i64,
    mean: f64,
    sd: f64,
}

fn spread(v: Histogram) -> Spread {
    Spread { min: v.quantile(0.0), p10: v.quantile(0.1), median: v.quantile(0.5), p90: v.quantile(0.9), max: v.quantile(1.0), mean: v.mean(), sd: v.sd() }
}

/// What the games of a chunk of consecutive seeds gave, in seed order.
struct Tally {
    /// Games played.
    played: u32,
    /// Runs of each procedure, and in how many games.
    fired: Vec<(u64, u32)>,
    /// Decisions, plies and rounds of the games that started.
    decisions: Histogram,
    plies: Histogram,
    rounds: Histogram,
    /// Final scores of each seat, and of the winners.
    scores: Vec<Histogram>,
    winner_scores: Histogram,
    wins: Vec<u32>,
    shared: u32,
    draws: u32,
    unfinished: u32,
    failures: Vec<(u64, ExecError)>,
    first_error: Option<ExecError>,
    /// The state each game of the chunk is played in, reused.
    state: Option<State>,
}

impl Tally {
    fn new(procs: usize, players: u8) -> Tally {
        Tally {
            played: 0,
            fired: vec![(0, 0); procs],
            decisions: Histogram::default(),
            plies: Histogram::default(),
            rounds: Histogram::default(),
            scores: vec![Histogram::default(); players as usize],
            winner_scores: Histogram::default(),
            wins: vec![0; players as usize],
            shared: 0,
            draws: 0,
            unfinished: 0,
            failures: Vec::new(),
            first_error: None,
            state: None,
        }
    }

    /// Play the game of seed `s` and count it.
    fn play(&mut self, game: &Game, s: u64, max_decisions: u32, checked: bool, score_slot: Option<usize>) {
        self.played += 1;
        // The chunk's first game makes the state the others are played in.
        let mut state = self.state.take().unwrap_or_else(|| game.begin(s).0);
        match quick_playout_in(game, &mut state, s, max_decisions, checked) {
            Ok(error) => self.count_game(&state, s, error, score_slot),
            Err(e) => {
                // No game: only the rules its setup ran count.
                self.count_fired(&state);
                self.failures.push((s, e.clone()));
                self.first_error.get_or_insert(e);
            }
        }
        self.state = Some(state);
    }

    /// Count a game that started, and the problem that stopped it.
    #[allow(clippy::indexing_slicing, reason = "the counters are sized from the model and the player count they are indexed by")]
    fn count_game(&mut self, state: &State, s: u64, error: Option<ExecError>, score_slot: Option<usize>) {
        self.count_fired(state);
        self.decisions.add(i64::from(state.decisions));
        self.plies.add(i64::from(state.plies));
        if let Some(base) = score_slot {
            for (seat, v) in self.scores.iter_mut().enumerate() {
                v.add(state.counters[base + seat]);
            }
            if let Some(o) = state.outcome {
                o.winners().for_each(|w| self.winner_scores.add(state.counters[base + w as usize]));
            }
        }
        self.rounds.add(i64::from(state.round));
        match (state.outcome, error) {
            (_, Some(e)) => {
                self.failures.push((s, e.clone()));
                self.first_error.get_or_insert(e);
            }
            (Some(o @ (Outcome::Winner(_) | Outcome::Shared(_))), None) => {
                self.shared += u32::from(matches!(o, Outcome::Shared(_)));
                o.winners().for_each(|w| self.wins[w as usize] += 1);
            }
            (Some(_), None) => self.draws += 1,
            (None, None) => self.unfinished += 1,
        }
    }

    /// Count the rules a game ran, up to where it stopped. An end
    /// condition's body is among them: the engine counts it as the
    /// procedure it is (`ends_fired` says which end it was, apart).
    fn count_fired(&mut self, state: &State) {
        for (f, n) in self.fired.iter_mut().zip(&state.fired) {
            f.0 += u64::from(*n);
            f.1 += u32::from(*n > 0);
        }
    }

    /// Add the games of the chunk that follows this one.
    fn then(mut self, next: Tally) -> Tally {
        self.played += next.played;
        for (f, n) in self.fired.iter_mut().zip(next.fired) {
            f.0 += n.0;
            f.1 += n.1;
        }
        self.decisions.merge(next.decisions);
        self.plies.merge(next.plies);
        self.rounds.merge(next.rounds);
        for (v, more) in self.scores.iter_mut().zip(next.scores) {
            v.merge(more);
        }
        self.winner_scores.merge(next.winner_scores);
        for (w, more) in self.wins.iter_mut().zip(next.wins) {
            *w += more;
        }
        self.shared += next.shared;
        self.draws += next.draws;
        self.unfinished += next.unfinished;
        self.failures.extend(next.failures);
        self.first_error = self.first_error.or(next.first_error);
        self
    }
}

/// Run `games` random playouts on `jobs` threads; the report (but for its
/// timings) does not depend on `jobs`.
pub fn simulate(a: SimArgs, ui: &Ui) -> Result<ExitCode, String> {
    let SimArgs { files, players, games, seed, options, max_decisions, score, jobs, unchecked } = a;
    let (model, sources) = match compile_files(files)? {
        Ok(c) => c,
        Err(invalid) => return Ok(reject(ui, &invalid)),
    };
    // The clock starts before the game is laid out: that runs the start
    // once for every game when it draws no randomness, and a setup that
    // loops there (an outside tester's, 10 s) had read "0.00 s" and
    // thousands of games a second.
    let start = Instant::now();
    let game = Game::new(model, players, options).map_err(|e| e.to_string())?;
    let score_slot = match score {
        Some(name) => match game.model.counters.iter().position(|c| c.name == name && c.per_player) {
            Some(c) => Some((name.to_string(), game.counter_base.get(c).copied().unwrap_or(0) as usize)),
            None => {
                // Say what there is: the counter may exist but be one for the
                // whole game, and the per-player ones are what `--score` takes.
                let counters = &game.model.counters;
                let per_player: Vec<&str> = counters.iter().filter(|c| c.per_player).map(|c| c.name.as_str()).collect();
                let offer = if per_player.is_empty() { "it has none".to_string() } else { format!("its per-player counters are: {}", per_player.join(", ")) };
                let what = match (counters.iter().find(|c| c.name == name), game.model.vars.iter().find(|v| v.name == name)) {
                    (Some(c), _) if c.per_piece.is_some() => Some("a counter of each piece"),
                    (Some(_), _) => Some("a counter of the whole game"),
                    (None, Some(_)) => Some("a var"),
                    (None, None) => None,
                };
                return Err(match what {
                    Some(what) => format!("`{name}` is {what}, not a per-player counter: --score takes a per-player counter ({offer})"),
                    None => format!("the rulebook has no per-player counter `{name}` ({offer})"),
                });
            }
        },
        None => None,
    };
    let base = score_slot.as_ref().map(|(_, base)| *base);
    let rulebook = names(&sources);
    let meter = ui.meter(Some(u64::from(games)), "games");
    meter.bar().set_message("simulating");
    let bar = meter.bar();
    let procs = game.model.procs.len();
    let stop = grimoire_cli::interrupt::catch("finishing the games under way, then showing what was done");
    // After Ctrl-C, each thread stops at its next game.
    let chunks = in_chunks_until(
        games,
        jobs,
        || Tally::new(procs, players),
        |t, i| {
            t.play(&game, seed.wrapping_add(u64::from(i)), max_decisions, !unchecked, base);
            bar.inc(1);
        },
        &|| stop.requested(),
    );
    let t = chunks.into_iter().reduce(Tally::then).unwrap_or_else(|| Tally::new(procs, players));
    let seconds = start.elapsed().as_secs_f64();
    let interrupted = stop.requested();
    let played = t.played;
    meter.finish(|s| match interrupted {
        false => format!("simulated {} in {s:.2} s", plural(u64::from(played), "game")),
        true => format!("interrupted: simulated {} of {} in {s:.2} s", count(u64::from(played)), plural(u64::from(games), "game")),
    });
    let Tally { played: _, fired, decisions, plies, rounds, scores, winner_scores, wins, shared, draws, unfinished, failures, first_error, state: _ } = t;
    // Counts of decisions, plies and rounds are u32 in the engine.
    let as_u32 = |v: i64| u32::try_from(v).unwrap_or(0);
    let rules: Vec<RuleCount> = game.model.procs.iter().zip(&fired).map(|(p, &(fired, games))| RuleCount { rule: p.name.clone(), fired, games }).collect();
    let never_fired = rules.iter().filter(|r| r.fired == 0).map(|r| r.rule.clone()).collect();
    let report = Report {
        rulebook,
        players,
        games: played,
        first_seed: seed,
        seconds,
        games_per_second: f64::from(played) / seconds.max(1e-9),
        decisions_min: as_u32(decisions.min()),
        decisions_median: as_u32(decisions.median()),
        decisions_max: as_u32(decisions.max()),
        decisions_mean: decisions.mean(),
        plies_min: as_u32(plies.min()),
        plies_median: as_u32(plies.median()),
        plies_max: as_u32(plies.max()),
        plies_mean: plies.mean(),
        rounds_median: as_u32(rounds.median()),
        rounds_mean: rounds.mean(),
        wins_by_seat: wins,
        shared_wins: shared,
        draws,
        unfinished,
        failures: failures
            .iter()
            .map(|(seed, e)| {
                let mut v = grimoire_cli::render::exec_error_json(e, &sources);
                if let Some(o) = v.as_object_mut() {
                    o.insert("seed".into(), serde_json::json!(seed));
                }
                v
            })
            .collect(),
        rules,
        never_fired,
        score: score_slot.map(|(counter, _)| ScoreSummary { counter, by_seat: scores.into_iter().map(spread).collect(), winners: spread(winner_scores) }),
        interrupted,
    };
    let clean = report.failures.is_empty() && report.unfinished == 0;
    let code = match (interrupted, clean) {
        (true, _) => INTERRUPTED,
        (false, true) => 0,
        (false, false) => INVALID,
    };
    if ui.json {
        return Ok(ui.emit_report(code, serde_json::to_value(&report).map_err(|e| e.to_string())?));
    }
    if interrupted {
        grimoire_cli::say!("interrupted (Ctrl-C): {} of the {} asked were played; the figures below are theirs", plural(u64::from(report.games), "game"), count(u64::from(games)));
    }
    let played = what_was_played(&report.rulebook, options);
    if ui.quiet {
        grimoire_cli::say!(
            "{} of {played} at {}: {} failed, {} unfinished",
            plural(u64::from(report.games), "game"),
            plural(u64::from(report.players), "player"),
            count(report.failures.len() as u64),
            count(u64::from(report.unfinished))
        );
    } else {
        let replaced = replaced_every_time(&game.model, &report);
        print_human(&report, &replaced, &played, jobs);
    }
    if let Some(e) = &first_error {
        grimoire_cli::eput!("{}", exec_error(e, &sources, style(ui)));
    }
    Ok(ExitCode::from(code))
}

/// The rulebook and its modules, and the options switched on: "`base.rules`
/// + `house.rules` with option `misere`".
fn what_was_played(files: &[String], options: &[String]) -> String {
    let files: Vec<String> = files.iter().map(|f| format!("`{f}`")).collect();
    let mut out = files.join(" + ");
    if !options.is_empty() {
        let named: Vec<String> = options.iter().map(|o| format!("`{o}`")).collect();
        out.push_str(&format!(" with option{} {}", if options.len() == 1 { "" } else { "s" }, named.join(", ")));
    }
    out
}

/// For each rule that never fired, the `instead` exceptions that ran in its
/// place (a rule reached, whose own body an exception replaced every time),
/// as V203 says it; empty for a rule no game reached.
fn replaced_every_time(model: &grimoire_interpreter::model::Model, r: &Report) -> Vec<Vec<String>> {
    // `rules` lists every procedure, in the model's order.
    let fired = |p: grimoire_interpreter::model::ProcId| r.rules.get(p.idx()).map_or(0, |c| c.fired);
    r.never_fired.iter().map(|rule| model.ran_instead_of(rule, fired).map(|(x, _)| format!("`{}`", x.name)).collect()).collect()
}

fn print_human(r: &Report, replaced: &[Vec<String>], played: &str, jobs: usize) {
    let threads = if jobs == 1 { "1 thread".to_string() } else { format!("{jobs} threads") };
    grimoire_cli::say!("{} of {played} at {} in {:.2} s on {threads}: {:.0} games/s", plural(u64::from(r.games), "game"), plural(u64::from(r.players), "player"), r.seconds, r.games_per_second);
    grimoire_cli::say!("decisions per game: min {}, median {}, max {}, mean {:.4}; rounds: median {}, mean {:.4}", r.decisions_min, r.decisions_median, r.decisions_max, r.decisions_mean, r.rounds_median, r.rounds_mean);
    grimoire_cli::say!("plies per game: min {}, median {}, max {}, mean {:.4}", r.plies_min, r.plies_median, r.plies_max, r.plies_mean);
    let seats: Vec<String> = r.wins_by_seat.iter().enumerate().map(|(i, w)| format!("{}: {w}", i + 1)).collect();
    grimoire_cli::say!("wins by seat: {}", seats.join(", "));
    if r.shared_wins > 0 {
        grimoire_cli::say!("games won by several players together: {} (each winner's seat counts them above)", r.shared_wins);
    }
    if r.draws > 0 {
        grimoire_cli::say!("draws: {}", r.draws);
    }
    grimoire_cli::say!("unfinished within the bound: {}; failures: {}", r.unfinished, r.failures.len());
    if let Some(s) = &r.score {
        grimoire_cli::say!("final `{}` (min / p10 / median / p90 / max, mean, standard deviation):", s.counter);
        let line = |x: &Spread| format!("{} / {} / {} / {} / {}, {:.4}, {:.4}", x.min, x.p10, x.median, x.p90, x.max, x.mean, x.sd);
        for (i, x) in s.by_seat.iter().enumerate() {
            grimoire_cli::say!("  seat {}: {}", i + 1, line(x));
        }
        grimoire_cli::say!("  winners: {}", line(&s.winners));
    }
    say_failures(&r.failures);
    grimoire_cli::say!("rules fired (total, in how many games):");
    for rule in &r.rules {
        grimoire_cli::say!("  {:<28} {:>9} {:>7}", rule.rule, rule.fired, rule.games);
    }
    if !r.never_fired.is_empty() {
        let words: Vec<String> = r
            .never_fired
            .iter()
            .zip(replaced)
            .map(|(rule, by)| match by.as_slice() {
                [] => rule.clone(),
                by => format!("{rule} (its `instead` exception {} ran in its place every time)", by.join(", ")),
            })
            .collect();
        grimoire_cli::say!("never fired: {}", words.join(", "));
    }
}

/// The failures, one line per cause (code and place in the rulebook), at
/// its first seed, with how many other games failed so: the first five seeds alone hid
/// every cause but the commonest (an outside tester's division by zero
/// never showed among thirty counter overflows).
fn say_failures(failures: &[serde_json::Value]) {
    const CAUSES_SHOWN: usize = 10;
    let mut causes: Vec<(&serde_json::Value, usize)> = Vec::new();
    // One cause: the same code at the same place (compared in place, not
    // copied: thousands of failures may be compared with each cause).
    let same_cause = |a: &serde_json::Value, b: &serde_json::Value| ["code", "file", "start", "end"].iter().all(|k| a[k] == b[k]);
    for f in failures {
        match causes.iter_mut().find(|(first, _)| same_cause(first, f)) {
            Some((_, n)) => *n += 1,
            None => causes.push((f, 1)),
        }
    }
    for (f, n) in causes.iter().take(CAUSES_SHOWN) {
        let place = match (f["file"].as_str(), f["line"].as_u64()) {
            (Some(file), Some(line)) => format!(" ({file}:{line}:{})", f["column"]),
            _ => String::new(),
        };
        let more = match n - 1 {
            0 => String::new(),
            k => format!("; and {k} more game(s) that failed so"),
        };
        grimoire_cli::say!("  seed {}: {} {}{place}{more}", f["seed"], f["code"].as_str().unwrap_or("?"), f["message"].as_str().unwrap_or(""));
    }
    if causes.len() > CAUSES_SHOWN {
        grimoire_cli::say!("  ... and {} more cause(s) of failure (`--json` lists every failure)", causes.len() - CAUSES_SHOWN);
    }
}
