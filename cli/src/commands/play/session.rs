//! An interactive game: the screen of the player to decide, his choice
//! typed as a number, and the commands `help`, `undo` and `quit`. On a
//! terminal it is a hot seat: before each player's turn the screen is
//! cleared and the next player is asked to take the keyboard and press
//! Enter, so that nobody sees another's hidden information. Elsewhere
//! (input from a pipe or a file) the same screens follow each other, without
//! the pause and without clearing.

use super::screen::screen;
use grimoire_interpreter::engine::{ExecError, Game, Revealed, Rolled, State};
use grimoire_interpreter::log::{outcome_text, GameLog};
use grimoire_interpreter::validate::Stop;
use std::io::{BufRead as _, Write};

/// How an interactive game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// The game is over, or a rule failed.
    Over,
    /// The input closed before the game was over.
    InputClosed,
    /// A player typed `quit`.
    Quit,
    /// Ctrl-C.
    Interrupted,
}

/// What the player typed, a line at a time.
enum Typed {
    Line(String),
    /// Input is closed (end of file, or not readable).
    Closed,
    /// Ctrl-C.
    Interrupted,
}

/// The player's lines, read on a thread of their own so that Ctrl-C is
/// noticed while a prompt waits (the read itself is not interrupted).
pub struct Input {
    lines: std::sync::mpsc::Receiver<String>,
    stop: Stop,
}

impl Input {
    /// Read stdin from now on; `stop` is Ctrl-C.
    pub fn new(stop: Stop) -> Input {
        let (send, lines) = std::sync::mpsc::channel();
        // The thread ends with stdin, or with the process (it may be blocked in a read then).
        std::thread::spawn(move || {
            // Bytes, not `lines()`: a line that is not UTF-8 is a line the
            // player typed (read with `?` for what is not text, and then
            // refused as a number), not the end of the input.
            let mut stdin = std::io::stdin().lock();
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match stdin.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let line = String::from_utf8_lossy(&bytes);
                let line = line.strip_suffix('\n').unwrap_or(&line);
                let line = line.strip_suffix('\r').unwrap_or(line);
                if send.send(line.to_string()).is_err() {
                    break;
                }
            }
        });
        Input { lines, stop }
    }

    fn next(&self) -> Typed {
        use std::sync::mpsc::RecvTimeoutError;
        loop {
            if self.stop.requested() {
                return Typed::Interrupted;
            }
            match self.lines.recv_timeout(std::time::Duration::from_millis(50)) {
                Ok(line) => return Typed::Line(line),
                Err(RecvTimeoutError::Timeout) => {}
                // Ctrl-C may close the input too (a terminal's does not).
                Err(RecvTimeoutError::Disconnected) if self.stop.requested() => return Typed::Interrupted,
                Err(RecvTimeoutError::Disconnected) => return Typed::Closed,
            }
        }
    }
}

/// How the game is shown.
pub struct Display {
    /// `--error-format plain`: no box-drawing characters.
    pub ascii: bool,
    /// A hot seat: ask each player to take the keyboard before his turn.
    pub hot_seat: bool,
    /// Clear the screen between two players (stdout is a terminal).
    pub clear: bool,
}

/// What `help` prints.
const HELP: &str = "Type the number of an option to take it, or:
  undo   go back to your previous decision (the decisions taken since are undone too)
  quit   stop the game here (with --log, its log is saved for `grimoire replay`)
  help   this list";

/// Erase the screen and what scrolled off it, cursor home.
const CLEAR: &str = "\x1b[H\x1b[2J\x1b[3J";

/// No player's seat: the screen of the end shows what everybody sees
/// (public zones and vars, and the pieces revealed to every player).
const NOBODY: u8 = grimoire_interpreter::engine::EVERYBODY;

/// At most this many rolls are listed on a screen (the latest ones).
const ROLLS_SHOWN: usize = 12;

/// The game so far: the state, its log, the options taken and the dice
/// rolled.
struct Game_<'a> {
    game: &'a Game,
    rulebook: &'a [String],
    seed: u64,
    st: State,
    log: GameLog,
    choices: Vec<usize>,
    /// Each option taken as its chooser read it on his screen ("a hidden
    /// piece of hand[2] (1st from the front)"): the log's label names the
    /// piece, which an undo note must not tell him.
    seen: Vec<String>,
    /// Every roll of the game, in words, oldest first, with how many
    /// decisions came before it.
    rolls: Vec<(Rolled, String)>,
    /// Every piece a `reveal` showed, in words, oldest first.
    reveals: Vec<(Revealed, String)>,
}

impl Game_<'_> {
    /// The game from its seed: the setup has run (with its rolls kept).
    fn start(game: &Game, seed: u64) -> Result<State, ExecError> {
        let (st, started) = game.begin_recording(seed);
        started.map(|()| st)
    }

    /// Take option `i`: recorded, then applied; a rule that fails or an
    /// invariant that breaks is the rulebook's fault and stops the game.
    fn take(&mut self, i: usize, seen: String) -> Result<(), ExecError> {
        self.log.record(self.game, &self.st, i);
        self.choices.push(i);
        self.seen.push(seen);
        let applied = self.game.apply(&mut self.st, i);
        self.note_rolls();
        applied?;
        match self.game.broken_invariant(&mut self.st) {
            Some(b) => Err(b.error()),
            None => Ok(()),
        }
    }

    fn note_rolls(&mut self) {
        let game = self.game;
        self.rolls.extend(self.st.take_rolls().into_iter().map(|r| (r, game.roll_text(&r))));
        self.reveals.extend(self.st.take_reveals().into_iter().map(|r| (r, game.reveal_text(&r))));
        // The screens do not list forced moves (`--auto` does): dropped,
        // so that the states kept for `undo` do not carry them all.
        drop(self.st.take_forced());
    }

    /// How many decisions came before this player's last one (0 before
    /// his first): what was rolled or shown from then on is new to him.
    fn since_last_decision(&self, player: u8) -> u32 {
        let number = grimoire_interpreter::log::player_number(player);
        self.log.steps.iter().rposition(|s| s.player == number).map_or(0, |i| i as u32 + 1)
    }

    /// The pieces shown to this player since his last decision: he may no
    /// longer see them where they are now (a hand looked at, then shuffled
    /// into the deck), so the screen lists them, the latest `ROLLS_SHOWN`.
    fn reveals_since_decision(&self, player: u8) -> Vec<String> {
        let after = self.since_last_decision(player);
        let new: Vec<&String> = self.reveals.iter().filter(|(r, _)| r.after_decisions >= after && r.shown_to(player)).map(|(_, text)| text).collect();
        latest(&new, "piece")
    }

    /// The rolls since this player's last decision (all of them before his
    /// first): the latest `ROLLS_SHOWN`, after how many earlier ones there
    /// were. Worked out from the log, so that an undo shows them again.
    fn rolls_since_decision(&self, player: u8) -> Vec<String> {
        // Rolled after his last decision: after more decisions than came before it.
        let after = self.since_last_decision(player);
        let new: Vec<&String> = self.rolled_after(after).into_iter().filter(|(r, _)| r.shown_to(player)).map(|(_, text)| text).collect();
        latest(&new, "roll")
    }

    /// The rolls made once `decisions` decisions had been taken, or later.
    fn rolled_after(&self, decisions: u32) -> Vec<&(Rolled, String)> {
        self.rolls.iter().filter(|(r, _)| r.after_decisions >= decisions).collect()
    }

    /// Back to before decision `n`: the game is played again from its
    /// seed with the first `n` options (the engine is deterministic).
    fn back_to(&mut self, n: usize) -> Result<(), ExecError> {
        let kept: Vec<(usize, String)> = self.choices.iter().copied().zip(self.seen.iter().cloned()).take(n).collect();
        self.st = Self::start(self.game, self.seed)?;
        self.log = GameLog::begin(self.game, self.rulebook, self.seed);
        self.choices.clear();
        self.seen.clear();
        self.rolls.clear();
        self.reveals.clear();
        self.note_rolls();
        kept.into_iter().try_for_each(|(i, seen)| self.take(i, seen))
    }
}

/// Play a game with people at the keyboard.
pub fn interactive(game: &Game, rulebook: &[String], seed: u64, display: &Display, input: &Input) -> (GameLog, Option<ExecError>, End) {
    let st = match Game_::start(game, seed) {
        Ok(st) => st,
        Err(e) => return (super::setup_failed(game, rulebook, seed, &e), Some(e), End::Over),
    };
    let mut g = Game_ { game, rulebook, seed, st, log: GameLog::begin(game, rulebook, seed), choices: Vec::new(), seen: Vec::new(), rolls: Vec::new(), reveals: Vec::new() };
    g.note_rolls();
    let mut error = None;
    let mut end = End::Over;
    // Whose screen is up (a hot seat asks before showing another's).
    let mut shown: Option<u8> = None;
    let mut note: Option<String> = None;
    let out = std::io::stdout();
    'game: while let Some((player, _)) = game.choices(&g.st) {
        if display.hot_seat && shown != Some(player) {
            let mut o = out.lock();
            if display.clear {
                let _ = write!(o, "{CLEAR}");
            }
            let _ = write!(o, "\nPlayer {}'s turn: pass the keyboard to player {}, then press Enter (or type quit). ", u16::from(player) + 1, u16::from(player) + 1);
            let _ = o.flush();
            drop(o);
            match input.next() {
                Typed::Line(l) if is(&l, &["quit", "q"]) => {
                    end = End::Quit;
                    break;
                }
                Typed::Line(_) => {}
                Typed::Closed => {
                    end = End::InputClosed;
                    break;
                }
                Typed::Interrupted => {
                    end = End::Interrupted;
                    break;
                }
            }
        }
        shown = Some(player);
        // Shown in the order he sees them: (the engine's index, the label).
        let shown_options = game.options_seen_by(&g.st, player);
        {
            let mut o = out.lock();
            if display.clear {
                let _ = write!(o, "{CLEAR}");
            }
            let rule = if display.ascii { "--" } else { "──" };
            let _ = writeln!(o, "\n{rule} round {} {rule} player {} to decide {rule}", g.st.round, u16::from(player) + 1);
            for line in screen(game, &g.st, player) {
                let _ = writeln!(o, "{}", grimoire_cli::ascii::plain(line));
            }
            let rolls = g.rolls_since_decision(player);
            if !rolls.is_empty() {
                let _ = writeln!(o, "Dice rolled since your last decision:");
                for r in rolls {
                    let _ = writeln!(o, "  {}", grimoire_cli::ascii::plain(r));
                }
            }
            let reveals = g.reveals_since_decision(player);
            if !reveals.is_empty() {
                let _ = writeln!(o, "Shown to you since your last decision:");
                for r in reveals {
                    let _ = writeln!(o, "  {}", grimoire_cli::ascii::plain(r));
                }
            }
            if let Some(n) = note.take() {
                let _ = writeln!(o, "({})", grimoire_cli::ascii::plain(n));
            }
            let _ = writeln!(o, "{}", game.prompt(&g.st).unwrap_or("Choose:"));
            for (i, (_, l)) in shown_options.iter().enumerate() {
                let _ = writeln!(o, "  {}) {}", i + 1, grimoire_cli::ascii::plain(l.clone()));
            }
        }
        loop {
            grimoire_cli::put!("> ");
            let _ = std::io::stdout().flush();
            let line = match input.next() {
                Typed::Line(line) => line,
                Typed::Closed => {
                    grimoire_cli::say!("\ninput closed: the game stops here");
                    end = End::InputClosed;
                    break 'game;
                }
                Typed::Interrupted => {
                    end = End::Interrupted;
                    break 'game;
                }
            };
            let word = line.trim();
            if is(word, &["help", "h", "?"]) {
                grimoire_cli::say!("{HELP}");
            } else if is(word, &["quit", "q"]) {
                end = End::Quit;
                break 'game;
            } else if is(word, &["undo", "u"]) {
                let number = grimoire_interpreter::log::player_number(player);
                let Some(last) = g.log.steps.iter().rposition(|s| s.player == number) else {
                    grimoire_cli::say!("nothing to undo: you have not decided yet in this game (undo goes back to your own previous decision)");
                    continue;
                };
                let label = g.seen.get(last).cloned().unwrap_or_default();
                let after = g.log.steps.len() - last - 1;
                if let Err(e) = g.back_to(last) {
                    // The same options gave no error the first time: the engine would not be deterministic.
                    error = Some(e);
                    break 'game;
                }
                note = Some(match after {
                    0 => format!("undone: your decision « {label} »"),
                    n => format!("undone: your decision « {label} » and the {} taken since", grimoire_cli::ui::plural(n as u64, "decision")),
                });
                continue 'game;
            } else {
                match word.parse::<usize>() {
                    Ok(n) if (1..=shown_options.len()).contains(&n) => {
                        let (index, seen) = shown_options.get(n - 1).cloned().unwrap_or((n - 1, String::new()));
                        if let Err(e) = g.take(index, seen) {
                            error = Some(e);
                            break 'game;
                        }
                        continue 'game;
                    }
                    _ => grimoire_cli::say!("type a number from 1 to {}, or help, undo, quit", shown_options.len()),
                }
            }
        }
    }
    if end == End::Over {
        if display.clear && display.hot_seat {
            // The last screen was one player's: the end is for everybody.
            grimoire_cli::put!("{CLEAR}");
        }
        // The dice rolled after the last decision decided the end: for
        // everybody, but for those rolled for some players only.
        let last: Vec<&String> = g.rolled_after(g.log.steps.len() as u32).into_iter().filter(|(r, _)| r.seen_by.is_none()).map(|(_, text)| text).collect();
        if !last.is_empty() {
            grimoire_cli::say!("\nDice rolled since the last decision:");
            for r in last {
                grimoire_cli::say!("  {r}");
            }
        }
        // The final table, as everybody sees it: the public zones and vars, and
        // the pieces revealed to every player.
        let rule = if display.ascii { "--" } else { "──" };
        grimoire_cli::say!("\n{rule} the game is over {rule}");
        for line in screen(game, &g.st, NOBODY) {
            grimoire_cli::say!("{}", grimoire_cli::ascii::plain(line));
        }
        if let Some(text) = outcome_text(g.st.outcome) {
            grimoire_cli::say!("\n{text}");
        }
    }
    g.log.finish(&g.st, error.as_ref().map(|e: &ExecError| e.message.clone()));
    (g.log, error, end)
}

/// The latest `ROLLS_SHOWN` of `lines`, after how many earlier `what`s
/// there were.
fn latest(lines: &[&String], what: &str) -> Vec<String> {
    let mut out = Vec::new();
    if lines.len() > ROLLS_SHOWN {
        out.push(format!("({} earlier)", grimoire_cli::ui::plural((lines.len() - ROLLS_SHOWN) as u64, what)));
    }
    out.extend(lines.iter().skip(lines.len().saturating_sub(ROLLS_SHOWN)).map(|t| (*t).clone()));
    out
}

/// Whether `word` is one of `names`, whatever its case.
fn is(word: &str, names: &[&str]) -> bool {
    names.iter().any(|n| word.trim().eq_ignore_ascii_case(n))
}
