//! Constants of the Skein 1.3 specification that the tests need, written
//! from the specification (not taken from the crate, whose own copies are
//! what the tests check).

/// Tweak word 1 (tweak bits 64..127), spec 3.5.1 ("the tweak"): bit 126 is
/// First, the first block of a UBI.
pub const T1_FIRST: u64 = 1 << (126 - 64);
/// Tweak bit 127 (spec 3.5.1): Final, the last block of a UBI.
pub const T1_FINAL: u64 = 1 << (127 - 64);
