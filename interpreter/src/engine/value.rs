//! Runtime values: small, `Copy`, and hashable.

use std::hash::{Hash, Hasher};

/// A value at run time. Collections are never values: they are iterated where
/// they are written, so evaluating an expression never allocates.
///
/// Every payload is 64 bits wide, and truth values are two variants, so that
/// the compiler lays a value out as a pair of machine words (a tag and a
/// payload) and passes and returns it in two registers. With payloads of
/// mixed widths (a piece was a `u16`, a truth value a `bool`), a value
/// returned by a closure or handed to a visitor went through memory, written
/// in pieces and read back whole, and the read waited for the writes (a
/// failed store forwarding) at every item walked. Ids are still those of
/// `Game` (below 65,536): the constructors take them at their own width.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub enum Value {
    /// Nothing.
    #[default]
    None,
    /// An integer.
    Int(i64),
    /// The truth value false.
    False,
    /// The truth value true.
    True,
    /// A player, from 0.
    Player(u64),
    /// A component instance.
    Piece(u64),
    /// A runtime zone (a space is a zone).
    Zone(u64),
    /// A die face.
    Face(u64),
    /// A variant of a kind.
    Variant(u64),
    /// A direction: 1 clockwise, -1 counterclockwise.
    Dir(i64),
    /// A row of a table: the table in the high 32 bits, the row in the low.
    Row(u64),
}

impl Value {
    /// A truth value.
    #[inline(always)]
    pub const fn bool(b: bool) -> Value {
        if b {
            Value::True
        } else {
            Value::False
        }
    }

    /// A player, by number from 0.
    #[inline(always)]
    pub const fn player(p: u8) -> Value {
        Value::Player(p as u64)
    }

    /// A component instance.
    #[inline(always)]
    pub const fn piece(p: u16) -> Value {
        Value::Piece(p as u64)
    }

    /// A zone.
    #[inline(always)]
    pub const fn zone(z: u16) -> Value {
        Value::Zone(z as u64)
    }

    /// A die face.
    #[inline(always)]
    pub const fn face(f: u16) -> Value {
        Value::Face(f as u64)
    }

    /// A variant of a kind.
    #[inline(always)]
    pub const fn variant(x: u16) -> Value {
        Value::Variant(x as u64)
    }

    /// A direction: 1 clockwise, -1 counterclockwise.
    #[inline(always)]
    pub const fn dir(d: i8) -> Value {
        Value::Dir(d as i64)
    }

    /// Row `row` of table `table`.
    #[inline(always)]
    pub const fn row(table: u16, row: u16) -> Value {
        Value::Row((table as u64) << 32 | row as u64)
    }

    /// The table and the row of a `Row`.
    #[inline(always)]
    pub const fn row_parts(packed: u64) -> (u16, u16) {
        ((packed >> 32) as u16, packed as u16)
    }
}

/// Written as when the payloads had their own widths: `Bool(true)`,
/// `Piece(3)`, `Row(0, 2)` (the previous engine's values read the same).
impl std::fmt::Debug for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let one = |f: &mut std::fmt::Formatter<'_>, name: &str, x: &dyn std::fmt::Debug| f.debug_tuple(name).field(x).finish();
        match *self {
            Value::None => f.write_str("None"),
            Value::Int(i) => one(f, "Int", &i),
            Value::False => one(f, "Bool", &false),
            Value::True => one(f, "Bool", &true),
            Value::Player(p) => one(f, "Player", &p),
            Value::Piece(p) => one(f, "Piece", &p),
            Value::Zone(z) => one(f, "Zone", &z),
            Value::Face(x) => one(f, "Face", &x),
            Value::Variant(x) => one(f, "Variant", &x),
            Value::Dir(d) => one(f, "Dir", &d),
            Value::Row(packed) => {
                let (table, row) = Value::row_parts(packed);
                f.debug_tuple("Row").field(&table).field(&row).finish()
            }
        }
    }
}

/// Hashed exactly as when the payloads had their own widths (the derived
/// `Hash` of that enum): a game's raw fingerprint, which logs record, hashes
/// its values, and the logs written before must still replay.
impl Hash for Value {
    fn hash<H: Hasher>(&self, h: &mut H) {
        // An id variant: its old discriminant, then its 16-bit payload.
        fn id<H: Hasher>(h: &mut H, discriminant: isize, x: u64) {
            h.write_isize(discriminant);
            h.write_u16(x as u16);
        }
        match *self {
            Value::None => h.write_isize(0),
            Value::Int(i) => {
                h.write_isize(1);
                h.write_i64(i);
            }
            Value::False | Value::True => {
                h.write_isize(2);
                h.write_u8(u8::from(*self == Value::True));
            }
            Value::Player(p) => {
                h.write_isize(3);
                h.write_u8(p as u8);
            }
            Value::Piece(x) => id(h, 4, x),
            Value::Zone(x) => id(h, 5, x),
            Value::Face(x) => id(h, 6, x),
            Value::Variant(x) => id(h, 7, x),
            Value::Dir(d) => {
                h.write_isize(8);
                h.write_i8(d as i8);
            }
            Value::Row(packed) => {
                let (table, row) = Value::row_parts(packed);
                h.write_isize(9);
                h.write_u16(table);
                h.write_u16(row);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Value;
    use std::hash::{DefaultHasher, Hash, Hasher};

    /// The value as it was laid out before its payloads were widened: its
    /// derived `Hash` and `Debug` are what logs and messages were made with.
    #[derive(Debug, Hash)]
    enum Before {
        None,
        Int(i64),
        Bool(bool),
        Player(u8),
        Piece(u16),
        Zone(u16),
        Face(u16),
        Variant(u16),
        Dir(i8),
        Row(u16, u16),
    }

    fn hash(x: &impl Hash) -> u64 {
        let mut h = DefaultHasher::new();
        x.hash(&mut h);
        h.finish()
    }

    #[test]
    fn values_hash_and_read_as_before() {
        let pairs = [
            (Value::None, Before::None),
            (Value::Int(-7), Before::Int(-7)),
            (Value::Int(i64::MAX), Before::Int(i64::MAX)),
            (Value::bool(false), Before::Bool(false)),
            (Value::bool(true), Before::Bool(true)),
            (Value::player(3), Before::Player(3)),
            (Value::piece(65_534), Before::Piece(65_534)),
            (Value::zone(12), Before::Zone(12)),
            (Value::face(2), Before::Face(2)),
            (Value::variant(9), Before::Variant(9)),
            (Value::dir(-1), Before::Dir(-1)),
            (Value::dir(1), Before::Dir(1)),
            (Value::row(4, 300), Before::Row(4, 300)),
        ];
        for (now, before) in &pairs {
            assert_eq!(hash(now), hash(before), "{now:?}");
            assert_eq!(format!("{now:?}"), format!("{before:?}"));
        }
    }

    #[test]
    fn a_value_is_two_words() {
        assert_eq!(std::mem::size_of::<Value>(), 16);
        assert_eq!(std::mem::size_of::<Option<Value>>(), 16);
        assert_eq!(Value::row_parts(match Value::row(65_535, 65_534) {
            Value::Row(packed) => packed,
            _ => 0,
        }), (65_535, 65_534));
    }
}
