//! Two entry points for tools that look at a state, or change it by hand,
//! between two decisions (the scenarios of `grimoire test`):
//!
//! - [`Game::eval`] compiles one expression of the model and evaluates it in
//!   a state, the way the rules would;
//! - [`Game::reask`] asks the pending decision again, so that its options
//!   reflect a position changed by hand.
//!
//! Neither is used by games, the validator or the explorer.

use super::compile::Compiler;
use super::error::{ExecError, ExecErrorKind};
use super::layout::Game;
use super::run::Run;
use super::state::{State, NO_ACTOR};
use super::value::Value;
use crate::model::ExprId;

impl Game {
    /// Evaluate expression `expr` of the model in `st`, with `locals` in the
    /// first local slots (a scenario's `decider` and `winner`, then the
    /// slots its comprehensions bind: `locals` must be as long as the frame
    /// the resolver counted). The expression is compiled on each call; the
    /// state is left as it was. A collection cannot be evaluated (the
    /// resolver never gives one here); `none` is [`Value::None`].
    pub fn eval(&self, st: &mut State, expr: ExprId, locals: &[Value]) -> Result<Value, ExecError> {
        let frame = u16::try_from(locals.len()).unwrap_or(u16::MAX);
        let mut c = Compiler::new(self, frame);
        let f = c.val(expr);
        let window = c.frame;
        let mut r = Run::new(self, st, self.step_fuel);
        let v = self.in_window(&mut r, window, NO_ACTOR, |r| {
            for (i, v) in locals.iter().enumerate() {
                r.set_local(i as u16, *v);
            }
            f(r)
        });
        let err = r.err.take();
        r.st.scratch.clear();
        match err {
            Some(e) => Err(*e),
            None => Ok(v),
        }
    }

    /// Ask the pending decision again in the state as it is now: its
    /// options (and who decides) are computed afresh, and a decision left
    /// with one option is taken, as the rules would. For a position changed
    /// by hand; nothing happens when no `choose` is pending (the game is
    /// over, or chance is to decide while exploring).
    pub fn reask(&self, st: &mut State) -> Result<(), ExecError> {
        let Some(p) = st.pending else { return Ok(()) };
        if st.outcome.is_some() || p.shuffle.is_some() || st.exploring {
            return Ok(());
        }
        let Some(frame) = st.frames.last_mut() else {
            return Err(ExecError::new(ExecErrorKind::BadChoice, "a decision is pending but no rule is running", None));
        };
        frame.pc = p.pc;
        st.pending = None;
        st.options.clear();
        st.arity = 1;
        self.run(st)
    }
}
