//! LEB128 varints: the explorer's packed states (`engine/pack.rs`) and its
//! frontier (`validate/frontier.rs`) hold mostly small numbers, which take
//! one byte this way.

/// Append `x`, seven bits a byte, low bits first.
#[inline]
pub(crate) fn put(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push((x as u8) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// Read the varint at `*at` and move past it; `None` past the end or for
/// more than 64 bits.
#[inline]
pub(crate) fn get(bytes: &[u8], at: &mut usize) -> Option<u64> {
    // Most numbers take one byte.
    if let Some(&b) = bytes.get(*at) {
        if b < 0x80 {
            *at += 1;
            return Some(u64::from(b));
        }
    }
    let mut x = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        x |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Some(x);
        }
    }
    None
}
