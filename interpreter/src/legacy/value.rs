//! Runtime values: small, `Copy`, and hashable.

use serde::{Deserialize, Serialize};

/// A value at run time. Collections are never values: they are iterated where
/// they are written, so evaluating an expression never allocates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Value {
    /// Nothing.
    #[default]
    None,
    /// An integer.
    Int(i64),
    /// A truth value.
    Bool(bool),
    /// A player, from 0.
    Player(u8),
    /// A component instance.
    Piece(u16),
    /// A runtime zone (a space is a zone).
    Zone(u16),
    /// A die face.
    Face(u16),
    /// A variant of a kind.
    Variant(u16),
    /// A direction: 1 clockwise, -1 counterclockwise.
    Dir(i8),
    /// A row of a table.
    Row(u16, u16),
}
