//! A hasher whose state size is chosen at run time (for tools like skeinsum).

use crate::{Error, Params, Skein1024, Skein256, Skein512, StateSize};

/// A streaming hasher of any state size.
///
/// ```
/// use skein_simd::{DynSkein, Params, StateSize};
/// let mut h = DynSkein::new(StateSize::S1024, &Params::new().output_bits(256)).unwrap();
/// h.update(b"abc");
/// assert_eq!(h.finalize_vec().len(), 32);
/// ```
#[derive(Clone, Debug)]
pub enum DynSkein {
    /// Skein-256.
    S256(Skein256),
    /// Skein-512.
    S512(Skein512),
    /// Skein-1024.
    S1024(Skein1024),
}

/// `$e` on the value inside whichever variant of the per-state-size enum
/// `$enum` (one variant a state size: `S256`, `S512`, `S1024`, as
/// [`StateSize`]) `$self` is; with `=> $to`, the result wrapped in the same
/// variant of `$to`. The one list of the sizes' variants for [`DynSkein`]
/// and [`crate::DynOutputReader`].
macro_rules! each_size {
    ($enum:ident, $self:expr, $x:ident => $e:expr) => {
        match $self {
            $enum::S256($x) => $e,
            $enum::S512($x) => $e,
            $enum::S1024($x) => $e,
        }
    };
    ($enum:ident, $self:expr, $x:ident => $e:expr => $to:ident) => {
        match $self {
            $enum::S256($x) => $to::S256($e),
            $enum::S512($x) => $to::S512($e),
            $enum::S1024($x) => $to::S1024($e),
        }
    };
}
pub(crate) use each_size;

macro_rules! each {
    ($self:expr, $h:ident => $e:expr) => {
        each_size!(DynSkein, $self, $h => $e)
    };
}

impl DynSkein {
    /// A hasher for `state` with these arguments.
    pub fn new(state: StateSize, params: &Params<'_>) -> Result<DynSkein, Error> {
        Ok(match state {
            StateSize::S256 => DynSkein::S256(Skein256::with_params(params)?),
            StateSize::S512 => DynSkein::S512(Skein512::with_params(params)?),
            StateSize::S1024 => DynSkein::S1024(Skein1024::with_params(params)?),
        })
    }
    /// Absorb message bytes.
    pub fn update(&mut self, data: &[u8]) {
        each!(self, h => h.update(data))
    }
    /// Absorb the first `bits` bits of `data` (see [`crate::Skein::update_bits`]).
    pub fn update_bits(&mut self, data: &[u8], bits: u64) {
        each!(self, h => h.update_bits(data, bits))
    }
    /// Output length in bytes.
    pub fn output_len(&self) -> usize {
        each!(self, h => h.output_len())
    }
    /// The backends doing the work.
    pub fn platform(&self) -> crate::Platform {
        each!(self, h => h.platform())
    }
    /// Finish into `out` (exactly `output_len()` bytes).
    pub fn finalize_into(self, out: &mut [u8]) {
        each!(self, h => h.finalize_into(out))
    }
    /// Finish and return the result.
    #[cfg(feature = "alloc")]
    pub fn finalize_vec(self) -> alloc::vec::Vec<u8> {
        each!(self, h => h.finalize_vec())
    }
    /// Finish and compare with `expected` in constant time.
    #[cfg(feature = "alloc")]
    pub fn verify(self, expected: &[u8]) -> bool {
        each!(self, h => h.verify(expected))
    }
}
