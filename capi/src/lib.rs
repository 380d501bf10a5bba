//! # libskein_simd: a C library for the Skein reference API
//!
//! `libskein_simd.so` / `libskein_simd.a` implement three C interfaces on
//! the `skein-simd` crate, one header each in `capi/include/`:
//!
//! * `skein.h`: the Skein 1.3 reference API (`Skein_512_Init`, `InitExt`,
//!   `Update`, `Final`, `Final_Pad`, `Output`, for the three state sizes),
//!   with the reference's types, context layout and macros;
//! * `SHA3api_ref.h`: the NIST SHA-3 API (`Init`, `Update` with bit lengths,
//!   `Final`, `Hash`), with the `nist-api` feature (on by default);
//! * `skein_simd.h`: what the reference lacks: every argument of spec 3.5 at
//!   init, many messages with the same arguments in one call (on the SIMD
//!   lanes and threads), and which backend is in use;
//! * also in `skein.h`: FreeBSD libmd's `SKEIN256_*`, `SKEIN512_*` and
//!   `SKEIN1024_*` functions of skein(3) (`Init`, `Update`, `Final`, `End`,
//!   `Data`, `File`, `FileChunk`, `Fd`, `FdChunk`), on Unix (see [`libmd`]).
//!
//! Contexts are the reference's plain structs (see [`context`]); the backend
//! is chosen once per process (see [`platform`]).
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]
// The exported names and types are the C headers' spelling.
#![allow(non_snake_case, non_camel_case_types)]

use skein_simd::{Backend, Platform};
use std::ffi::{c_char, CString};
use std::sync::OnceLock;

// The exported functions, a module per header of capi/include named after
// it (skein_h: skein.h); FreeBSD libmd's functions, which skein.h also
// declares, are their own module, as they are their own API.
pub mod context;
#[cfg(unix)]
pub mod libmd;
#[cfg(feature = "nist-api")]
mod sha3api_ref_h;
mod skein_h;
mod skein_simd_h;

/// Environment variable naming a backend to use instead of the detected one
/// (the names: docs/backends.md, or `skeinsum --list-backends` for those
/// usable here); read once, at the first call. An unknown or unavailable name
/// is ignored: `skein_simd_backend()` tells what is in use.
pub const BACKEND_ENV: &str = "SKEIN_SIMD_BACKEND";

/// The backend named by [`BACKEND_ENV`], if there is one and this CPU runs it.
fn forced_backend() -> Option<Backend> {
    static FORCED: OnceLock<Option<Backend>> = OnceLock::new();
    *FORCED.get_or_init(|| {
        let name = std::env::var(BACKEND_ENV).ok()?;
        Backend::from_name(name.trim()).filter(|b| b.is_available())
    })
}

/// The block-function backends of this process: chosen at the first call,
/// the same for every context afterwards (contexts never store it).
pub fn platform() -> &'static Platform {
    static PLATFORM: OnceLock<Platform> = OnceLock::new();
    PLATFORM.get_or_init(|| {
        forced_backend()
            .and_then(|b| Platform::force(b).ok())
            .unwrap_or_else(Platform::detect)
    })
}

/// A backend's name as a static C string.
fn backend_c_name(backend: Backend) -> *const c_char {
    static NAMES: OnceLock<Vec<(Backend, CString)>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        Backend::ALL
            .iter()
            .copied()
            .map(|b| {
                (
                    b,
                    CString::new(b.name()).expect("backend names have no NUL"),
                )
            })
            .collect()
    });
    names
        .iter()
        .find(|(b, _)| *b == backend)
        .map_or(c"unknown".as_ptr(), |(_, n)| n.as_ptr())
}

/// A range of memory a buffer must not overlap: its start and length.
type Region = (*const u8, usize);

/// No memory: nothing overlaps it.
const NOWHERE: Region = (core::ptr::null(), 0);

/// The bytes of `*value`, as a [`Region`].
fn region_of<T>(value: *const T) -> Region {
    (value.cast(), size_of::<T>())
}

/// Whether `len` bytes at `ptr` share a byte with `other`: compares
/// addresses only, never reads.
fn overlaps(ptr: *const u8, len: usize, (start, other_len): Region) -> bool {
    let (a, b) = (ptr as usize, start as usize);
    len != 0 && other_len != 0 && a < b.saturating_add(other_len) && b < a.saturating_add(len)
}

/// `len` bytes at `ptr` as a slice; `None` for a null `ptr` with `len > 0`,
/// a length no buffer can have (above `isize::MAX`), or a buffer that
/// overlaps `apart`.
///
/// # Safety
/// A non-null `ptr` must be valid for reads of `len` bytes for `'a`.
unsafe fn input<'a>(ptr: *const u8, len: usize, apart: Region) -> Option<&'a [u8]> {
    if len == 0 {
        return Some(&[]);
    }
    if ptr.is_null() || len > isize::MAX as usize || overlaps(ptr, len, apart) {
        return None;
    }
    // SAFETY: non-null and, by the caller's contract, valid for `len` bytes.
    Some(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// `len` writable bytes at `ptr`; `None` for a null `ptr` with `len > 0`, a
/// length above `isize::MAX`, or a buffer that overlaps `apart`.
///
/// # Safety
/// A non-null `ptr` must be valid for writes of `len` bytes for `'a` and,
/// apart from `apart` (checked here), not overlap any other live reference.
unsafe fn output<'a>(ptr: *mut u8, len: usize, apart: Region) -> Option<&'a mut [u8]> {
    if len == 0 {
        return Some(&mut []);
    }
    if ptr.is_null() || len > isize::MAX as usize || overlaps(ptr, len, apart) {
        return None;
    }
    // SAFETY: non-null and, by the caller's contract, valid and exclusive for
    // `len` bytes.
    Some(unsafe { std::slice::from_raw_parts_mut(ptr, len) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlap_is_any_shared_byte() {
        let buf = [0u8; 16];
        let p = buf.as_ptr();
        let at = |i: usize| p.wrapping_add(i);
        assert!(overlaps(at(0), 16, (at(15), 1)));
        assert!(overlaps(at(4), 1, (at(0), 16)));
        assert!(overlaps(at(0), 8, (at(7), 8)));
        assert!(!overlaps(at(0), 8, (at(8), 8)), "adjacent");
        assert!(!overlaps(at(8), 8, (at(0), 8)), "adjacent");
        assert!(!overlaps(at(4), 0, (at(0), 16)), "empty");
        assert!(!overlaps(at(0), 16, NOWHERE));
        assert!(overlaps(at(0), usize::MAX, (at(8), 1)), "no wrap");
    }
}
