//! Ctrl-C during a long command (`simulate`, `validate`, `explore`, an
//! interactive `play`): the first press asks the work to stop at its next
//! boundary (a game, a slice of a level, a decision), after which the
//! command prints and saves what was done and exits 130; a second press
//! ends the process at once, with the same code (a second signal within
//! half a second of the first is taken for the same request). SIGTERM and SIGHUP (what
//! `timeout` and service managers send) are caught the same way, so a run
//! stopped by a time limit still reports what it did.
//!
//! The signal is caught with the `ctrlc` crate: its handler runs on a
//! thread of its own, never inside the signal, so it may print and set the
//! flag the work polls ([`Stop`]).

use grimoire_interpreter::validate::Stop;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Signals this close after the first are the same request (see [`catch`]).
const SAME_REQUEST: Duration = Duration::from_millis(500);

/// Exit code of an interrupted command: 128 + SIGINT, as shells report a
/// process that SIGINT ended.
pub const INTERRUPTED: u8 = 130;

/// From now on, Ctrl-C sets the returned flag instead of ending the
/// process; `then` says what happens next ("the game stops here"). When
/// the handler cannot be set (one was set already), Ctrl-C ends the process
/// as it would without this, and the flag is never set.
pub fn catch(then: &'static str) -> Stop {
    let stop = Stop::default();
    let flag = stop.clone();
    let first: Mutex<Option<Instant>> = Mutex::new(None);
    let set = ctrlc::set_handler(move || {
        let mut first = first.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match *first {
            None => {
                *first = Some(Instant::now());
                flag.request();
                crate::esay!("\ninterrupted: {then} (Ctrl-C again quits at once)");
            }
            // `timeout` sends its SIGTERM to the process and then to its
            // process group, which holds the process too: the same request
            // twice within microseconds, not a second press.
            Some(at) if at.elapsed() < SAME_REQUEST => {}
            Some(_) => std::process::exit(i32::from(INTERRUPTED)),
        }
    });
    if set.is_err() {
        crate::esay!("warning: Ctrl-C could not be caught: it will end grimoire at once");
    }
    stop
}
