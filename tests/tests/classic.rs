//! The classic games of `rulebooks/classic/` checked against public reference
//! values: move-path counts ("perft", as chess programmers check their move
//! generators) and the statistics of random play.
//!
//! - Perft counts the sequences of exactly `depth` plies from the start; a ply
//!   is a decision of a player, forced or not; a game that ends on its
//!   `depth`-th ply is one path of that length, a game that ends earlier is
//!   none. The numbers are the published ones (tic-tac-toe, connect four,
//!   Othello) or, for Breakthrough below depth 4, computed by the independent
//!   implementation at the end of this file, which also reproduces the
//!   published perft(4).
//! - Random play uses the library's `RandomAgent`, seeds 0..N, as
//!   `log::random_playout` does. Each tolerance is 4 standard errors of the
//!   estimate (a false alarm about once in 16,000 runs; the seeds are fixed,
//!   so a run that passes always passes).
//! - Perft says little about how a game ends (connect four's perft(7) is the
//!   same whether four in a row wins or not), so connect four, Breakthrough,
//!   Reversi and Hex are also played against independent implementations in
//!   plain Rust (end of this file): the same random agent must meet the same
//!   options and reach the same outcome, game after game.

use grimoire_interpreter::engine::{Game, Outcome};
use grimoire_interpreter::log::RandomAgent;
use grimoire_interpreter::validate::perft::perft;
use grimoire_interpreter::{compile, Source};
use std::path::Path;
use std::sync::Arc;

const TIC_TAC_TOE: &str = "tic-tac-toe.rules";
const CONNECT_FOUR: &str = "connect-four.rules";
const BREAKTHROUGH: &str = "breakthrough.rules";
const REVERSI: &str = "reversi.rules";
const HEX: &str = "hex.rules";

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
/// perft(1..=7) of Othello from the standard start (depth 7 takes about 5 s
/// in a test build: every empty square is tried in 8 directions).
const REVERSI_PERFT: [u64; 7] = [4, 12, 56, 244, 1396, 8200, 55092];

fn game(file: &str) -> Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulebooks/classic").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let model = compile(&[Source { name: format!("rulebooks/classic/{file}"), text }]).unwrap_or_else(|d| panic!("{file} must compile: {d:?}"));
    Game::new(Arc::new(model), 2, &[]).unwrap_or_else(|e| panic!("{file} at 2 players: {e}"))
}


fn library_perft(game: &Game, depth: usize) -> u64 {
    perft(game, depth as u32).unwrap_or_else(|e| panic!("perft({depth}): {e:?}")).paths
}

// ---------------------------------------------------------------------------
// Move-path counts.

#[test]
fn tic_tac_toe_perft() {
    // Games end from the fifth ply on: perft(5..9) count those that end on
    // their last ply, and perft(9) only games that fill the board.
    let g = game(TIC_TAC_TOE);
    for d in 1..=9 {
        assert_eq!(library_perft(&g, d), TIC_TAC_TOE_PERFT[d - 1], "perft({d})");
    }
}

#[test]
fn connect_four_perft() {
    // perft(7) counts the games the first player wins on the seventh ply.
    let g = game(CONNECT_FOUR);
    for d in 1..=7 {
        assert_eq!(library_perft(&g, d), CONNECT_FOUR_PERFT[d - 1], "perft({d})");
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
    for d in 1..=REVERSI_PERFT.len() {
        assert_eq!(library_perft(&g, d), REVERSI_PERFT[d - 1], "perft({d})");
    }
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
    // standard deviation of the length is 1.299). 100,000 games: the standard
    // error is 0.0041 plies on the mean and at most 0.16 points on a rate.
    const GAMES: u64 = 100_000;
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
    // gave 64.04 and 16.0): 3,000 games give a standard error of about 0.29
    // plies, a tolerance of about ±1.2.
    const GAMES: u64 = 3_000;
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
// Independent implementations of connect four, Breakthrough, Reversi and Hex in
// plain Rust, written from the texts in `rulebooks/classic/sources/` without
// the engine. They list their moves in the order the rulebooks offer them, so
// that the same random agent makes the same moves in both: every game must
// offer the same number of options at every decision, last as many plies and
// end the same way. A rule that differs anywhere (a missed diagonal, a
// straight capture, a wrong flip, a pass that ends the game) changes the
// option counts of most games.

/// A game of an independent implementation.
trait Reference: Clone {
    /// The number of moves of the player to move, after any passes; the
    /// outcome if the game ends without a move.
    fn options(&mut self) -> Result<usize, Outcome>;
    /// Play move `i` of those; the outcome if it ends the game.
    fn play(&mut self, i: usize) -> Option<Outcome>;
}

/// The rulebook and the reference play the same random games from seeds 0..n.
fn same_random_games<R: Reference>(file: &str, n: u64, new: impl Fn() -> R) {
    let g = game(file);
    for seed in 0..n {
        let mut st = g.start(seed).expect("the game starts");
        let mut agent = RandomAgent::new(seed);
        let mut engine_options = Vec::new();
        while let Some((_, options)) = g.choices(&st) {
            engine_options.push(options.len());
            let i = agent.pick(options.len());
            g.apply(&mut st, i).unwrap_or_else(|e| panic!("{file}, seed {seed}: {e:?}"));
        }
        let mut r = new();
        let mut agent = RandomAgent::new(seed);
        let (mut reference_options, mut plies) = (Vec::new(), 0);
        let outcome = loop {
            match r.options() {
                Err(o) => break o,
                Ok(n) => {
                    // A forced move is a ply, not a decision.
                    if n > 1 {
                        reference_options.push(n);
                    }
                    plies += 1;
                    if let Some(o) = r.play(agent.pick(n)) {
                        break o;
                    }
                }
            }
        };
        assert_eq!(engine_options, reference_options, "{file}, seed {seed}: the options offered at each decision");
        assert_eq!(st.plies, plies, "{file}, seed {seed}: plies");
        assert_eq!(st.outcome, Some(outcome), "{file}, seed {seed}: outcome");
    }
}

/// perft by the definition at the top of this file.
fn reference_perft<R: Reference>(r: &R, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut r = r.clone();
    let Ok(n) = r.options() else { return 0 };
    (0..n)
        .map(|i| {
            let mut child = r.clone();
            match child.play(i) {
                Some(_) => u64::from(depth == 1),
                None => reference_perft(&child, depth - 1),
            }
        })
        .sum()
}

/// Connect four: `frame[r][c]` is 0 (empty) or the player (1, 2) whose disc
/// is there, row 0 at the bottom; the rulebook offers the columns from left to
/// right.
#[derive(Clone)]
struct ConnectFour {
    frame: [[u8; 7]; 6],
    to_move: u8,
    discs: u32,
}

impl ConnectFour {
    fn new() -> Self {
        ConnectFour { frame: [[0; 7]; 6], to_move: 1, discs: 0 }
    }
    fn open_columns(&self) -> impl Iterator<Item = usize> + '_ {
        (0..7).filter(|&c| self.frame[5][c] == 0)
    }
    fn holds(&self, r: i32, c: i32, p: u8) -> bool {
        (0..6).contains(&r) && (0..7).contains(&c) && self.frame[r as usize][c as usize] == p
    }
}

impl Reference for ConnectFour {
    fn options(&mut self) -> Result<usize, Outcome> {
        Ok(self.open_columns().count())
    }
    fn play(&mut self, i: usize) -> Option<Outcome> {
        let p = self.to_move;
        let c = self.open_columns().nth(i).expect("a legal column");
        let r = (0..6).find(|&r| self.frame[r][c] == 0).expect("an open column");
        self.frame[r][c] = p;
        self.discs += 1;
        self.to_move = 3 - p;
        let (r, c) = (r as i32, c as i32);
        for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
            let run = |sign: i32| (1..4).take_while(|k| self.holds(r + sign * k * dr, c + sign * k * dc, p)).count();
            if 1 + run(1) + run(-1) >= 4 {
                return Some(Outcome::Winner(p - 1));
            }
        }
        (self.discs == 42).then_some(Outcome::Draw)
    }
}

/// Breakthrough with the rulebook's numbering: `pawns[p][k]` is where pawn
/// `k` of player `p` (0 or 1) stands, row and column from 0, `None` once
/// captured. The setup fills the home rows square by square, row by row, with
/// the lowest-numbered pawn first, as the rulebook's does; the moves come
/// pawn by pawn, then forward-left, straight, forward-right.
#[derive(Clone)]
struct Breakthrough {
    pawns: [[Option<(i32, i32)>; 16]; 2],
    board: [[Option<u8>; 8]; 8],
    to_move: usize,
    moves: Vec<(usize, (i32, i32))>,
}

impl Breakthrough {
    fn new() -> Self {
        let mut b = Breakthrough { pawns: [[None; 16]; 2], board: [[None; 8]; 8], to_move: 0, moves: Vec::new() };
        for k in 0..16 {
            let (r, c) = ((k / 8) as i32, (k % 8) as i32);
            b.pawns[0][k] = Some((r, c));
            b.pawns[1][k] = Some((6 + r, c));
            b.board[r as usize][c as usize] = Some(0);
            b.board[6 + r as usize][c as usize] = Some(1);
        }
        b
    }
}

impl Reference for Breakthrough {
    fn options(&mut self) -> Result<usize, Outcome> {
        let p = self.to_move;
        let forward = if p == 0 { 1 } else { -1 };
        self.moves.clear();
        for (k, pawn) in self.pawns[p].iter().enumerate() {
            let Some((r, c)) = *pawn else { continue };
            for dc in [-1, 0, 1] {
                let (nr, nc) = (r + forward, c + dc);
                if !(0..8).contains(&nr) || !(0..8).contains(&nc) {
                    continue;
                }
                match self.board[nr as usize][nc as usize] {
                    None => self.moves.push((k, (nr, nc))),
                    Some(q) if usize::from(q) != p && dc != 0 => self.moves.push((k, (nr, nc))),
                    _ => {}
                }
            }
        }
        match self.moves.len() {
            0 => Err(Outcome::Winner(1 - p as u8)),
            n => Ok(n),
        }
    }
    fn play(&mut self, i: usize) -> Option<Outcome> {
        let p = self.to_move;
        let (k, (r, c)) = self.moves[i];
        if let Some(q) = self.board[r as usize][c as usize] {
            let q = usize::from(q);
            for pawn in self.pawns[q].iter_mut().filter(|x| **x == Some((r, c))) {
                *pawn = None;
            }
        }
        let (fr, fc) = self.pawns[p][k].expect("a pawn on the board");
        self.board[fr as usize][fc as usize] = None;
        self.board[r as usize][c as usize] = Some(p as u8);
        self.pawns[p][k] = Some((r, c));
        self.to_move = 1 - p;
        let far = if p == 0 { 7 } else { 0 };
        (r == far || self.pawns[1 - p].iter().all(Option::is_none)).then_some(Outcome::Winner(p as u8))
    }
}

/// Reversi: `board[r][c]` is 0 (empty) or the player (1 Black, 2 White)
/// whose colour is up, rows and columns from 0 (d4 is (3, 3)); the rulebook
/// offers the squares row by row. A player who cannot move passes; two passes
/// in a row end the game.
#[derive(Clone)]
struct Reversi {
    board: [[u8; 8]; 8],
    to_move: u8,
}

const DIRECTIONS: [(i32, i32); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

impl Reversi {
    fn new() -> Self {
        let mut board = [[0; 8]; 8];
        (board[3][3], board[4][4], board[4][3], board[3][4]) = (2, 2, 1, 1);
        Reversi { board, to_move: 1 }
    }
    fn get(&self, r: i32, c: i32) -> Option<u8> {
        ((0..8).contains(&r) && (0..8).contains(&c)).then(|| self.board[r as usize][c as usize])
    }
    /// How many of the opponent's discs a disc of `p` on (r, c) encloses in
    /// direction (dr, dc).
    fn enclosed(&self, p: u8, r: i32, c: i32, (dr, dc): (i32, i32)) -> i32 {
        let mut k = 1;
        while self.get(r + k * dr, c + k * dc) == Some(3 - p) {
            k += 1;
        }
        if k > 1 && self.get(r + k * dr, c + k * dc) == Some(p) {
            k - 1
        } else {
            0
        }
    }
    fn legal(&self, p: u8) -> impl Iterator<Item = (i32, i32)> + '_ {
        (0..64).map(|i| (i / 8, i % 8)).filter(move |&(r, c)| self.board[r as usize][c as usize] == 0 && DIRECTIONS.iter().any(|&d| self.enclosed(p, r, c, d) > 0))
    }
}

impl Reference for Reversi {
    fn options(&mut self) -> Result<usize, Outcome> {
        for _ in 0..2 {
            let n = self.legal(self.to_move).count();
            if n > 0 {
                return Ok(n);
            }
            self.to_move = 3 - self.to_move;
        }
        let discs = |p: u8| self.board.iter().flatten().filter(|&&x| x == p).count();
        Err(match discs(1).cmp(&discs(2)) {
            std::cmp::Ordering::Greater => Outcome::Winner(0),
            std::cmp::Ordering::Less => Outcome::Winner(1),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }
    fn play(&mut self, i: usize) -> Option<Outcome> {
        let p = self.to_move;
        let (r, c) = self.legal(p).nth(i).expect("a legal square");
        for d in DIRECTIONS {
            for k in 1..=self.enclosed(p, r, c, d) {
                self.board[(r + k * d.0) as usize][(c + k * d.1) as usize] = p;
            }
        }
        self.board[r as usize][c as usize] = p;
        self.to_move = 3 - p;
        None
    }
}

#[test]
fn the_references_give_the_published_perft() {
    // The references are checked before they check the rulebooks.
    let counts = |r: &dyn Fn(u32) -> u64, n: u32| (1..=n).map(r).collect::<Vec<u64>>();
    assert_eq!(counts(&|d| reference_perft(&ConnectFour::new(), d), 6), CONNECT_FOUR_PERFT[..6]);
    assert_eq!(counts(&|d| reference_perft(&Breakthrough::new(), d), 4), BREAKTHROUGH_PERFT);
    assert_eq!(counts(&|d| reference_perft(&Reversi::new(), d), 6), REVERSI_PERFT[..6]);
}

#[test]
fn connect_four_plays_the_same_random_games_as_the_reference() {
    same_random_games(CONNECT_FOUR, 500, ConnectFour::new);
}

#[test]
fn breakthrough_plays_the_same_random_games_as_the_reference() {
    same_random_games(BREAKTHROUGH, 300, Breakthrough::new);
}

#[test]
fn reversi_plays_the_same_random_games_as_the_reference() {
    same_random_games(REVERSI, 200, Reversi::new);
}

/// Hex on 11x11 cells: `board[r][c]` is 0 (empty) or the player (1, 2)
/// whose stone is there, row 0 at the top, each row half a cell to the right
/// of the one above; the rulebook offers the empty cells row by row. Player 1
/// joins the top and bottom rows, player 2 the left and right columns.
#[derive(Clone)]
struct Hex {
    board: [[u8; 11]; 11],
    to_move: u8,
}

impl Hex {
    fn new() -> Self {
        Hex { board: [[0; 11]; 11], to_move: 1 }
    }
    fn empty_cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..11).flat_map(move |r| (0..11).map(move |c| (r, c))).filter(|&(r, c)| self.board[r][c] == 0)
    }
    /// Whether the chain of `p`'s stones through (r, c) joins p's edges.
    fn joins(&self, p: u8, r: usize, c: usize) -> bool {
        let (mut seen, mut todo) = ([[false; 11]; 11], vec![(r as i32, c as i32)]);
        seen[r][c] = true;
        let (mut first, mut last) = (false, false);
        while let Some((r, c)) = todo.pop() {
            let edge = if p == 1 { r } else { c };
            first |= edge == 0;
            last |= edge == 10;
            for (dr, dc) in [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)] {
                let (nr, nc) = (r + dr, c + dc);
                if (0..11).contains(&nr) && (0..11).contains(&nc) && !seen[nr as usize][nc as usize] && self.board[nr as usize][nc as usize] == p {
                    seen[nr as usize][nc as usize] = true;
                    todo.push((nr, nc));
                }
            }
        }
        first && last
    }
}

impl Reference for Hex {
    fn options(&mut self) -> Result<usize, Outcome> {
        Ok(self.empty_cells().count())
    }
    fn play(&mut self, i: usize) -> Option<Outcome> {
        let p = self.to_move;
        let (r, c) = self.empty_cells().nth(i).expect("an empty cell");
        self.board[r][c] = p;
        self.to_move = 3 - p;
        // A full board always holds a winning chain: no draw to look for.
        self.joins(p, r, c).then_some(Outcome::Winner(p - 1))
    }
}

#[test]
fn hex_plays_the_same_random_games_as_the_reference() {
    same_random_games(HEX, 200, Hex::new);
}

#[test]
fn hex_perft_is_every_empty_cell_until_a_chain_can_be_made() {
    // No chain joins two edges before 21 plies: 121, 121·120, 121·120·119.
    let g = game(HEX);
    assert_eq!((1..=3).map(|d| library_perft(&g, d)).collect::<Vec<_>>(), [121, 14_520, 1_727_880]);
}
