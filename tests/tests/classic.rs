//! The classic games of `rulebooks/classic/` checked against public reference
//! values: move-path counts ("perft", as chess programmers check their move
//! generators) and the statistics of random play.
//!
//! - Perft counts the sequences of exactly `depth` plies from the start; a ply
//!   is a decision of a player, forced or not; a game that ends on its
//!   `depth`-th ply is one path of that length, a game that ends earlier is
//!   none. The numbers are the published ones (tic-tac-toe, connect four,
//!   Othello) or, for Breakthrough below depth 4, computed by the independent
//!   move generator at the end of this file, which also reproduces the
//!   published perft(4).
//! - `grimoire_interpreter::validate::perft::perft` leaves out the paths whose
//!   last ply ends the game (tic-tac-toe's perft(9) comes out as 0, connect
//!   four's perft(7) as 810,504): where a game can end on the last ply counted,
//!   the tests count with `perft_by_depth` below, which follows the
//!   definition above; elsewhere they call the library's `perft`. The ignored
//!   test `library_perft_counts_games_ending_on_the_last_ply` is the bug
//!   report, to run once `perft.rs` is fixed.
//! - Random play uses the library's `RandomAgent`, seeds 0..N, as
//!   `log::random_playout` does. Each tolerance is 4 standard errors of the
//!   estimate (a false alarm about once in 16,000 runs; the seeds are fixed,
//!   so a run that passes always passes).

use grimoire_interpreter::engine::{Game, Outcome, State, CHANCE};
use grimoire_interpreter::log::RandomAgent;
use grimoire_interpreter::validate::perft::perft;
use grimoire_interpreter::{compile, Source};
use std::path::Path;
use std::sync::Arc;

const TIC_TAC_TOE: &str = "tic-tac-toe.rules";
const CONNECT_FOUR: &str = "connect-four.rules";
const BREAKTHROUGH: &str = "breakthrough.rules";
const REVERSI: &str = "reversi.rules";

/// perft(1..=9) of tic-tac-toe: 9·8·7·6·5 = 15,120 at depth 5, and 255,168
/// games in all, of which 127,872 last nine plies.
const TIC_TAC_TOE_PERFT: [u64; 9] = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];
/// perft(1..=7) of connect four: 7^d until a column can be full (six discs
/// in one column after six plies leave 6 moves instead of 7 in 7 of the
/// 7^6 paths: 7^7 − 7 = 823,536).
const CONNECT_FOUR_PERFT: [u64; 7] = [7, 49, 343, 2401, 16807, 117649, 823536];
/// perft(1..=4) of Breakthrough: 22 (8 front pawns, 3 moves each but 2 for
/// the 2 on the edges), 22² = 484 (the first moves of both sides cannot meet),
/// 11,132 (from the independent generator below) and the published 256,036.
const BREAKTHROUGH_PERFT: [u64; 4] = [22, 484, 11132, 256036];
/// perft(1..=7) of Othello from the standard start. Depth 7 (55,092, which
/// the rulebook gives) took 18 s with this interpreter (every empty square is
/// tried in 8 directions for every move), so the tests stop at depth 6.
const REVERSI_PERFT: [u64; 7] = [4, 12, 56, 244, 1396, 8200, 55092];
const REVERSI_DEPTH: usize = 6;

fn game(file: &str) -> Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulebooks/classic").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let model = compile(&[Source { name: format!("rulebooks/classic/{file}"), text }]).unwrap_or_else(|d| panic!("{file} must compile: {d:?}"));
    Game::new(Arc::new(model), 2, &[]).unwrap_or_else(|e| panic!("{file} at 2 players: {e}"))
}

/// perft(1..=max) in one walk, by the definition at the top of this file:
/// `counts[d - 1]` is the number of sequences of exactly `d` plies.
fn perft_by_depth(game: &Game, max: usize) -> Vec<u64> {
    fn walk(game: &Game, st: &State, plies: usize, counts: &mut [u64]) {
        if plies == counts.len() {
            return;
        }
        let Some((player, options)) = game.choices(st) else { return };
        let n = options.len();
        let next_plies = if player == CHANCE { plies } else { plies + 1 };
        for i in 0..n {
            let mut next = st.clone();
            game.apply(&mut next, i).unwrap_or_else(|e| panic!("option {i} after {plies} plies: {e:?}"));
            if player != CHANCE {
                counts[plies] += 1;
            }
            walk(game, &next, next_plies, counts);
        }
    }
    let mut counts = vec![0; max];
    let root = game.start_exploring().expect("the game starts");
    walk(game, &root, 0, &mut counts);
    counts
}

fn library_perft(game: &Game, depth: usize) -> u64 {
    perft(game, depth as u32).unwrap_or_else(|e| panic!("perft({depth}): {e:?}"))
}

// ---------------------------------------------------------------------------
// Move-path counts.

#[test]
fn tic_tac_toe_perft() {
    let g = game(TIC_TAC_TOE);
    assert_eq!(perft_by_depth(&g, 9), TIC_TAC_TOE_PERFT);
    // No game ends before the fifth ply: the library agrees up to depth 4.
    for d in 1..=4 {
        assert_eq!(library_perft(&g, d), TIC_TAC_TOE_PERFT[d - 1], "library perft({d})");
    }
}

#[test]
fn connect_four_perft() {
    let g = game(CONNECT_FOUR);
    assert_eq!(perft_by_depth(&g, 7), CONNECT_FOUR_PERFT);
    // Four in a row needs seven plies: the library agrees up to depth 6.
    for d in 1..=6 {
        assert_eq!(library_perft(&g, d), CONNECT_FOUR_PERFT[d - 1], "library perft({d})");
    }
}

#[test]
fn breakthrough_perft() {
    // No pawn can reach the far row nor can a side lose all its pawns in four
    // plies, so the library's count is the standard one.
    let g = game(BREAKTHROUGH);
    for d in 1..=BREAKTHROUGH_PERFT.len() {
        assert_eq!(library_perft(&g, d), BREAKTHROUGH_PERFT[d - 1], "perft({d})");
    }
}

#[test]
fn reversi_perft() {
    // The shortest Othello game lasts nine plies and nobody passes before:
    // the library's count is the standard one.
    let g = game(REVERSI);
    for d in 1..=REVERSI_DEPTH {
        assert_eq!(library_perft(&g, d), REVERSI_PERFT[d - 1], "perft({d})");
    }
}

#[test]
#[ignore = "validate/perft.rs counts 0 for a game over at depth 0; run with --ignored once it is fixed"]
fn library_perft_counts_games_ending_on_the_last_ply() {
    let g = game(TIC_TAC_TOE);
    for d in [5, 9] {
        assert_eq!(library_perft(&g, d), TIC_TAC_TOE_PERFT[d - 1], "tic-tac-toe perft({d})");
    }
    assert_eq!(library_perft(&game(CONNECT_FOUR), 7), CONNECT_FOUR_PERFT[6], "connect four perft(7)");
}

// ---------------------------------------------------------------------------
// Random play.

/// What random games gave: plies per game and outcomes.
struct Sample {
    plies: Vec<f64>,
    wins: [u32; 2],
    draws: u32,
}

impl Sample {
    fn games(&self) -> f64 {
        self.plies.len() as f64
    }
    fn mean(&self) -> f64 {
        self.plies.iter().sum::<f64>() / self.games()
    }
    /// The standard error of the mean length, from the sample's variance.
    fn standard_error(&self) -> f64 {
        let m = self.mean();
        let var = self.plies.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (self.games() - 1.0);
        (var / self.games()).sqrt()
    }
}

/// Games from seeds 0..n, each player the library's random agent, as
/// `log::random_playout` plays them.
fn random_games(game: &Game, n: u64, max_plies: u32) -> Sample {
    let mut s = Sample { plies: Vec::new(), wins: [0; 2], draws: 0 };
    for seed in 0..n {
        let mut st = game.start(seed).expect("the game starts");
        let mut agent = RandomAgent::new(seed);
        while let Some((_, options)) = game.choices(&st) {
            assert!(st.plies < max_plies, "seed {seed}: still running after {} plies", st.plies);
            let i = agent.pick(options.len());
            game.apply(&mut st, i).unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
        }
        match st.outcome {
            Some(Outcome::Winner(p)) => s.wins[p as usize] += 1,
            Some(Outcome::Draw) => s.draws += 1,
            other => panic!("seed {seed}: a winner or a draw expected, got {other:?}"),
        }
        s.plies.push(f64::from(st.plies));
    }
    s
}

/// `observed` is within 4 standard errors `se` of `expected`.
fn close(what: &str, observed: f64, expected: f64, se: f64) {
    assert!((observed - expected).abs() <= 4.0 * se, "{what}: {observed:.4}, expected {expected} ± {:.4} (4 standard errors)", 4.0 * se);
}

/// A proportion against its reference `p`: the standard error of a
/// frequency over `n` games is sqrt(p(1 − p)/n).
fn close_rate(what: &str, count: u32, n: f64, p: f64) {
    close(what, f64::from(count) / n, p, (p * (1.0 - p) / n).sqrt());
}

#[test]
fn tic_tac_toe_random_play() {
    // Uniformly random play: X wins 58.49 %, O 28.81 %, draws 12.70 %, 7.6262
    // plies on average (exact: 737/1260, 121/420, 8/63 and 7.62619; the
    // standard deviation of the length is 1.299). 50,000 games: the standard
    // error is 0.0058 plies on the mean and at most 0.22 points on a rate.
    const GAMES: u64 = 50_000;
    let s = random_games(&game(TIC_TAC_TOE), GAMES, 9);
    let n = s.games();
    close("mean plies", s.mean(), 7.6262, s.standard_error());
    close_rate("first player wins", s.wins[0], n, 0.5849);
    close_rate("second player wins", s.wins[1], n, 0.2881);
    close_rate("draws", s.draws, n, 0.1270);
    assert!(s.plies.iter().all(|&p| (5.0..=9.0).contains(&p)), "a game lasts 5 to 9 plies");
}

#[test]
fn breakthrough_random_play() {
    // Uniformly random play lasts 64.1 plies on average with a standard
    // deviation of about 16 (20,000 games of the independent generator below
    // gave 64.04 and 16.0): 1,500 games give a standard error of about 0.41
    // plies, a tolerance of about ±1.65.
    const GAMES: u64 = 1_500;
    let s = random_games(&game(BREAKTHROUGH), GAMES, 400);
    close("mean plies", s.mean(), 64.1, s.standard_error());
    assert_eq!(s.draws, 0, "Breakthrough has no draw");
    // The shortest game: a pawn walks six rows while the other side moves.
    assert!(s.plies.iter().all(|&p| p >= 11.0), "a pawn needs six moves to cross");
}

#[test]
fn connect_four_and_reversi_random_games_end_within_their_bounds() {
    let s = random_games(&game(CONNECT_FOUR), 500, 42);
    // Four in a row needs four discs of one player; a draw needs a full frame.
    assert!(s.plies.iter().all(|&p| (7.0..=42.0).contains(&p)));
    assert!(s.wins[0] > 0 && s.wins[1] > 0);
    let s = random_games(&game(REVERSI), 100, 60);
    // One ply per disc placed, 60 squares free at the start; the shortest
    // game (both colours but one wiped out) lasts nine plies.
    assert!(s.plies.iter().all(|&p| (9.0..=60.0).contains(&p)));
    assert!(s.wins[0] > 0 && s.wins[1] > 0);
}

// ---------------------------------------------------------------------------
// An independent Breakthrough move generator, written from the rules in
// `rulebooks/classic/sources/breakthrough.txt` without the engine: it gives
// the lower perft depths, and reproduces the published perft(4).

/// A board: `cells[r][c]` is 0 (empty), 1 or 2; player 1 starts on rows 0
/// and 1 and moves towards row 7.
type Board = [[u8; 8]; 8];

fn reference_perft(b: &mut Board, p: u8, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let forward: i32 = if p == 1 { 1 } else { -1 };
    let far: i32 = if p == 1 { 7 } else { 0 };
    let mut total = 0;
    for r in 0..8i32 {
        for c in 0..8i32 {
            if b[r as usize][c as usize] != p {
                continue;
            }
            for dc in [-1i32, 0, 1] {
                let (nr, nc) = (r + forward, c + dc);
                if !(0..8).contains(&nr) || !(0..8).contains(&nc) {
                    continue;
                }
                let target = b[nr as usize][nc as usize];
                if !(target == 0 || (dc != 0 && target != p)) {
                    continue;
                }
                b[r as usize][c as usize] = 0;
                b[nr as usize][nc as usize] = p;
                let opponent_left = b.iter().flatten().any(|&x| x == 3 - p);
                total += if nr == far || !opponent_left { u64::from(depth == 1) } else { reference_perft(b, 3 - p, depth - 1) };
                b[nr as usize][nc as usize] = target;
                b[r as usize][c as usize] = p;
            }
        }
    }
    total
}

#[test]
fn breakthrough_reference_generator() {
    let mut b: Board = [[0; 8]; 8];
    for (r, row) in b.iter_mut().enumerate() {
        row.fill(match r {
            0 | 1 => 1,
            6 | 7 => 2,
            _ => 0,
        });
    }
    let counts: Vec<u64> = (1..=4).map(|d| reference_perft(&mut b, 1, d)).collect();
    assert_eq!(counts, BREAKTHROUGH_PERFT);
}
