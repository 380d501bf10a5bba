//! SHA3api_ref.h: the NIST SHA-3 competition API, as the reference's
//! SHA3api_ref.c. `Init` picks Skein-512 for results of up to 512 bits and
//! Skein-1024 above (the reference defines `SKEIN_256_NIST_MAX_HASHBITS` as
//! 0, so it never picks Skein-256). `Update` takes a length in bits; only
//! its last call may end inside a byte. The context inside the state is
//! checked as skein.h's functions check theirs ([`Ctx::validate`]).

use crate::context::{Ctx, CtxHdr, SKEIN_BAD_HASHLEN, SKEIN_FAIL, SKEIN_SUCCESS, T1_FLAG_BIT_PAD};
use crate::skein_h::{finish, Finish, NO_ARGS};
use crate::{input, platform, region_of};
use core::ffi::{c_int, c_uint};

/// The context overlay of `hashState`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union HashStateUnion {
    /// The header shared by all three.
    pub h: CtxHdr,
    /// Skein-256.
    pub ctx_256: Ctx<4>,
    /// Skein-512.
    pub ctx_512: Ctx<8>,
    /// Skein-1024.
    pub ctx1024: Ctx<16>,
}

/// `hashState`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct hashState {
    /// 256, 512 or 1024.
    pub statebits: c_uint,
    /// The context of that size.
    pub u: HashStateUnion,
}

/// Evaluate `$body` with `$c` bound to the context `$state.statebits`
/// selects; `SKEIN_FAIL` for any other value.
macro_rules! on_ctx {
    ($state:expr, |$c:ident| $body:expr) => {
        // SAFETY: every variant is plain data (integers and byte arrays) for
        // which any bit pattern is valid, so using the selected one is sound.
        unsafe {
            match $state.statebits {
                256 => {
                    let $c = &mut $state.u.ctx_256;
                    $body
                }
                512 => {
                    let $c = &mut $state.u.ctx_512;
                    $body
                }
                1024 => {
                    let $c = &mut $state.u.ctx1024;
                    $body
                }
                _ => SKEIN_FAIL,
            }
        }
    };
}

/// `Init(state, hashbitlen)`.
///
/// # Safety
/// `state` is null or valid for writes of a `hashState`.
#[no_mangle]
pub unsafe extern "C" fn Init(state: *mut hashState, hashbitlen: c_int) -> c_int {
    // SAFETY: by the contract above; null is refused.
    let Some(state) = (unsafe { state.as_mut() }) else {
        return SKEIN_FAIL;
    };
    if hashbitlen <= 0 {
        return SKEIN_BAD_HASHLEN;
    }
    let bits = hashbitlen as usize;
    let p = platform();
    if hashbitlen <= 512 {
        state.statebits = 512;
        // SAFETY: every variant is plain data; `init` writes the whole of this one.
        unsafe { state.u.ctx_512.init(p, bits, 0, &[], NO_ARGS) }
    } else {
        state.statebits = 1024;
        // SAFETY: as above.
        unsafe { state.u.ctx1024.init(p, bits, 0, &[], NO_ARGS) }
    }
}

/// `Update(state, data, databitlen)`: the first `databitlen` bits of `data`,
/// most significant bit of each byte first.
///
/// # Safety
/// `state` is null or initialized by `Init`; `data` is valid for
/// `ceil(databitlen / 8)` reads (or null when 0).
#[no_mangle]
pub unsafe extern "C" fn Update(
    state: *mut hashState,
    data: *const u8,
    databitlen: usize,
) -> c_int {
    let apart = region_of(state);
    // SAFETY: by the contract above; null is refused.
    let Some(state) = (unsafe { state.as_mut() }) else {
        return SKEIN_FAIL;
    };
    if on_ctx!(state, |c| c.validate()) != SKEIN_SUCCESS {
        return SKEIN_FAIL;
    }
    // SAFETY: by the contract above; data inside the state is refused.
    let Some(data) = (unsafe { input(data, databitlen.div_ceil(8), apart) }) else {
        return SKEIN_FAIL;
    };
    // SAFETY: the header overlays every variant (plain data).
    let bit_padded = unsafe { state.u.h.t[1] } & T1_FLAG_BIT_PAD != 0;
    if bit_padded && databitlen != 0 {
        return SKEIN_FAIL; // input after a partial final byte
    }
    let partial = databitlen % 8;
    let p = platform();
    if partial == 0 {
        return on_ctx!(state, |c| c.update(p, data));
    }
    // The partial final byte: keep its `partial` bits, then a 1 bit, then zeros.
    let (whole, last) = data.split_at(data.len() - 1);
    let mask = 1u8 << (7 - partial);
    let last = [(last[0] & mask.wrapping_neg()) | mask];
    let rc = on_ctx!(state, |c| match c.update(p, whole) {
        SKEIN_SUCCESS => c.update(p, &last),
        failed => failed,
    });
    if rc == SKEIN_SUCCESS {
        // SAFETY: as above.
        unsafe { state.u.h.t[1] |= T1_FLAG_BIT_PAD };
    }
    rc
}

/// `Final(state, hashval)`: `ceil(hashbitlen / 8)` bytes.
///
/// # Safety
/// `state` is null or initialized by `Init`; `hashval` is valid for that many
/// writes.
#[no_mangle]
pub unsafe extern "C" fn Final(state: *mut hashState, hashval: *mut u8) -> c_int {
    let apart = region_of(state);
    // SAFETY: by the contract above; null is refused.
    let Some(state) = (unsafe { state.as_mut() }) else {
        return SKEIN_FAIL;
    };
    // `finish` checks the context and refuses a `hashval` inside the state.
    on_ctx!(state, |c| finish(c, hashval, apart, Finish::Final))
}

/// `Hash(hashbitlen, data, databitlen, hashval)`: all in one call.
///
/// # Safety
/// As for `Update` and `Final`.
#[no_mangle]
pub unsafe extern "C" fn Hash(
    hashbitlen: c_int,
    data: *const u8,
    databitlen: usize,
    hashval: *mut u8,
) -> c_int {
    let mut state = core::mem::MaybeUninit::<hashState>::zeroed();
    let state = state.as_mut_ptr();
    // SAFETY: `state` is a local `hashState`; the buffers are the caller's.
    unsafe {
        let rc = Init(state, hashbitlen);
        if rc != SKEIN_SUCCESS {
            return rc;
        }
        let rc = Update(state, data, databitlen);
        if rc != SKEIN_SUCCESS {
            return rc;
        }
        Final(state, hashval)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::{offset_of, size_of};

    /// `{ unsigned int statebits; union { ... } u; }`: the union is as large
    /// as the Skein-1024 context and aligned like `u64`.
    #[test]
    fn hash_state_layout() {
        let u = offset_of!(hashState, u);
        assert_eq!(
            u,
            size_of::<c_uint>().next_multiple_of(core::mem::align_of::<u64>())
        );
        assert_eq!(size_of::<HashStateUnion>(), size_of::<Ctx<16>>());
        assert_eq!(size_of::<hashState>(), u + size_of::<Ctx<16>>());
    }
}
