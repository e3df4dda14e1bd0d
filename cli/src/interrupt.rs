//! Ctrl-C during a long command (`simulate`, `validate`, `explore`, an
//! interactive `play`): the first press asks the work to stop at its next
//! boundary (a game, a slice of a level, a decision), after which the
//! command prints and saves what was done and exits 130; a second press
//! ends the process at once, with the same code. SIGTERM and SIGHUP (what
//! `timeout` and service managers send) are caught the same way, so a run
//! stopped by a time limit still reports what it did.
//!
//! The signal is caught with the `ctrlc` crate: its handler runs on a
//! thread of its own, never inside the signal, so it may print and set the
//! flag the work polls ([`Stop`]).

use grimoire_interpreter::validate::Stop;
use std::sync::atomic::{AtomicU32, Ordering};

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
    let presses = AtomicU32::new(0);
    let set = ctrlc::set_handler(move || {
        if presses.fetch_add(1, Ordering::SeqCst) == 0 {
            flag.request();
            crate::esay!("\ninterrupted: {then} (Ctrl-C again quits at once)");
        } else {
            std::process::exit(i32::from(INTERRUPTED));
        }
    });
    if set.is_err() {
        crate::esay!("warning: Ctrl-C could not be caught: it will end grimoire at once");
    }
    stop
}
