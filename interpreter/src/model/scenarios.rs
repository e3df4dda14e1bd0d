//! Scenarios: a position reached by steps, and what must hold there.

use super::*;

/// The scenario local holding the player who must decide now (`decider`).
pub const SCENARIO_DECIDER: u16 = 0;
/// The scenario local holding the single winner of a finished game (`winner`).
pub const SCENARIO_WINNER: u16 = 1;
/// Locals every scenario binds before its own (`decider`, `winner`).
pub const SCENARIO_LOCALS: u16 = 2;

/// A scenario: a position reached by steps, and what must hold there. Its
/// expressions live in [`Model::scenario_exprs`], out of the game's arena,
/// so that a scenario never changes how a game is compiled or explored.
#[derive(Debug, Clone, Serialize)]
pub struct ScenarioDef {
    /// Name.
    pub name: String,
    /// The file that declares it.
    pub file: FileId,
    /// Files of the modules it runs on besides the base and its own file:
    /// those its file extends, those named by `with` and theirs.
    pub needs: Vec<FileId>,
    /// Modules named by `with` that are not loaded: the scenario is skipped.
    /// With each, a loaded module whose name is one typo away, if any.
    pub missing: Vec<(String, Option<String>)>,
    /// Number of players.
    pub players: u8,
    /// Seed of the game's dice and shuffles, and of the random agent of `play`.
    pub seed: u64,
    /// Options switched on.
    pub options: Vec<String>,
    /// Steps in order.
    pub steps: Vec<ScenarioStep>,
    /// Local slots its expressions use, `SCENARIO_LOCALS` included.
    pub locals: u16,
    /// What the scenario cites.
    pub cites: Vec<Citation>,
    /// Its `assume` clauses.
    pub assumes: Vec<String>,
    /// Where its name is written.
    pub at: Loc,
}

impl ScenarioDef {
    /// The files it runs on, by index in the files compiled, in order: the
    /// base, its own file and the modules it needs (see `needs`).
    pub fn runs_on(&self) -> Vec<usize> {
        let mut files = vec![0, self.file.idx()];
        files.extend(self.needs.iter().map(|f| f.idx()));
        files.sort_unstable();
        files.dedup();
        files
    }
}

/// One step of a scenario.
#[derive(Debug, Clone, Serialize)]
pub struct ScenarioStep {
    /// What it does.
    pub step: StepDef,
    /// What it cites.
    pub cites: Vec<Citation>,
    /// Where it is written.
    pub at: Loc,
}

/// What a `place` step moves.
#[derive(Debug, Clone, Serialize)]
pub enum PlaceWhat {
    /// One piece.
    Piece(ExprId),
    /// The top piece of a zone.
    Top(ExprId),
    /// Every piece of a zone.
    All(ExprId),
    /// N pieces of a kind from a zone, the top-most first.
    Count {
        /// How many.
        n: ExprId,
        /// Which kind.
        kind: KindId,
        /// From where.
        from: ExprId,
    },
}

/// Scenario steps, resolved.
#[derive(Debug, Clone, Serialize)]
pub enum StepDef {
    /// Take the option with this label.
    ChooseLabel(String),
    /// Take the n-th option, from 1.
    ChooseIndex(u32),
    /// Take the option holding these values (one per binding of the `choose`).
    ChooseValue(Vec<ExprId>),
    /// The random agent takes this many decisions.
    Play(u32),
    /// The random agent decides until this holds.
    PlayUntil(ExprId),
    /// The random agent decides until the game ends.
    PlayToEnd,
    /// Move pieces by hand.
    Place {
        /// What.
        what: PlaceWhat,
        /// Where.
        to: ExprId,
        /// At the front.
        bottom: bool,
    },
    /// Change a var or counter by hand.
    Set(LValue, AssignOp, ExprId),
    /// This must hold.
    Expect(ExprId),
    /// The options offered, compared with labels.
    ExpectOptions(OptionsTest, Vec<String>),
    /// The question of the pending decision.
    ExpectPrompt(String),
    /// The game is over (true) or not (false).
    ExpectOver(bool),
}
