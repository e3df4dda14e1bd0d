//! The options of a pending decision: one value each, or a tuple of values
//! when the `choose` has several bindings (a piece and where it goes).

use super::value::Value;

/// The options offered to whoever must decide, in the order the rules list
/// them. Each option is a slice of `arity` values, one per binding.
#[derive(Debug, Clone, Copy)]
pub struct Options<'s> {
    arity: usize,
    values: &'s [Value],
}

impl<'s> Options<'s> {
    pub(crate) fn new(arity: usize, values: &'s [Value]) -> Self {
        Options { arity: arity.max(1), values }
    }
    /// How many options.
    pub fn len(&self) -> usize {
        self.values.len() / self.arity
    }
    /// No option at all.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
    /// Option `i`: one value per binding of the `choose`.
    pub fn get(&self, i: usize) -> Option<&'s [Value]> {
        self.values.get(i * self.arity..(i + 1) * self.arity)
    }
    /// Every option in order.
    pub fn iter(&self) -> impl Iterator<Item = &'s [Value]> + 's {
        self.values.chunks(self.arity)
    }
}
