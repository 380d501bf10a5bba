//! AVX2 backend (x86-64).
//!
//! Not written yet: `Token::detect` never succeeds, so the platform never
//! selects this backend.

/// Proof that this CPU runs the backend (uninhabited until it exists).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Token {}

impl Token {
    pub(crate) fn detect() -> Option<Token> {
        None
    }
}

pub(crate) fn compress_256(t: Token, _: &mut [u64; 4], _: &mut [u64; 2], _: &[u8], _: u64) {
    match t {}
}
pub(crate) fn compress_512(t: Token, _: &mut [u64; 8], _: &mut [u64; 2], _: &[u8], _: u64) {
    match t {}
}
pub(crate) fn compress_1024(t: Token, _: &mut [u64; 16], _: &mut [u64; 2], _: &[u8], _: u64) {
    match t {}
}
