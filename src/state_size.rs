//! Skein's three state sizes as a value, for code that picks one at run
//! time: a plain type with no dependency, so that every layer (the backends
//! as much as `DynSkein`) can name it.

/// Skein's three state sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StateSize {
    /// 256-bit state (Skein-256).
    S256,
    /// 512-bit state (Skein-512).
    S512,
    /// 1024-bit state (Skein-1024).
    S1024,
}

impl StateSize {
    /// The state size in bits.
    pub fn bits(self) -> u64 {
        match self {
            StateSize::S256 => 256,
            StateSize::S512 => 512,
            StateSize::S1024 => 1024,
        }
    }
    /// The state size of 256, 512 or 1024 bits.
    pub fn from_bits(bits: u64) -> Option<StateSize> {
        match bits {
            256 => Some(StateSize::S256),
            512 => Some(StateSize::S512),
            1024 => Some(StateSize::S1024),
            _ => None,
        }
    }
}
