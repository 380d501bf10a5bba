//! Chaining values after the configuration block for plain hashing (no key,
//! no tree) of the common output sizes, computed at compile time.

use crate::ubi::config_chain;

/// Skein-256 with 128-bit output.
pub(crate) const S256_128: [u64; 4] = config_chain::<4>(128, 0, 0, 0);
/// Skein-256 with 160-bit output.
pub(crate) const S256_160: [u64; 4] = config_chain::<4>(160, 0, 0, 0);
/// Skein-256 with 224-bit output.
pub(crate) const S256_224: [u64; 4] = config_chain::<4>(224, 0, 0, 0);
/// Skein-256 with 256-bit output.
pub(crate) const S256_256: [u64; 4] = config_chain::<4>(256, 0, 0, 0);
/// Skein-512 with 128-bit output.
pub(crate) const S512_128: [u64; 8] = config_chain::<8>(128, 0, 0, 0);
/// Skein-512 with 160-bit output.
pub(crate) const S512_160: [u64; 8] = config_chain::<8>(160, 0, 0, 0);
/// Skein-512 with 224-bit output.
pub(crate) const S512_224: [u64; 8] = config_chain::<8>(224, 0, 0, 0);
/// Skein-512 with 256-bit output.
pub(crate) const S512_256: [u64; 8] = config_chain::<8>(256, 0, 0, 0);
/// Skein-512 with 384-bit output.
pub(crate) const S512_384: [u64; 8] = config_chain::<8>(384, 0, 0, 0);
/// Skein-512 with 512-bit output.
pub(crate) const S512_512: [u64; 8] = config_chain::<8>(512, 0, 0, 0);
/// Skein-1024 with 384-bit output.
pub(crate) const S1024_384: [u64; 16] = config_chain::<16>(384, 0, 0, 0);
/// Skein-1024 with 512-bit output.
pub(crate) const S1024_512: [u64; 16] = config_chain::<16>(512, 0, 0, 0);
/// Skein-1024 with 1024-bit output.
pub(crate) const S1024_1024: [u64; 16] = config_chain::<16>(1024, 0, 0, 0);

/// The precomputed chaining value for a plain hash of `W` words and
/// `output_bits`, if there is one.
pub(crate) fn lookup<const W: usize>(output_bits: u64) -> Option<[u64; W]> {
    let words: &[u64] = match (W, output_bits) {
        (4, 128) => &S256_128,
        (4, 160) => &S256_160,
        (4, 224) => &S256_224,
        (4, 256) => &S256_256,
        (8, 128) => &S512_128,
        (8, 160) => &S512_160,
        (8, 224) => &S512_224,
        (8, 256) => &S512_256,
        (8, 384) => &S512_384,
        (8, 512) => &S512_512,
        (16, 384) => &S1024_384,
        (16, 512) => &S1024_512,
        (16, 1024) => &S1024_1024,
        _ => return None,
    };
    words.try_into().ok()
}
