//! skein.h: the reference's functions, one set per state size.
//!
//! Pointers follow the reference's contract: a context valid for the call
//! (`NULL` gives `SKEIN_FAIL`, where the reference would crash), input and
//! output buffers of the stated lengths that do not overlap the context
//! (the reference's `memcpy` needs that too). `NULL` input is accepted with
//! length 0.

use crate::context::{Ctx, SKEIN_FAIL};
use crate::{input, output, platform};
use core::ffi::c_int;

/// No personalization, public key, key identifier or nonce.
pub(crate) const NO_ARGS: [(u64, &[u8]); 4] = [(0, &[]); 4];

macro_rules! reference_api {
    ($w:literal, $ctx:ident, $init:ident, $init_ext:ident, $update:ident, $final:ident, $final_pad:ident, $output:ident) => {
        /// The context type of this state size.
        pub type $ctx = Ctx<$w>;

        /// `Init(ctx, hashBitLen)`: plain hashing with a `hashBitLen`-bit result.
        ///
        /// # Safety
        /// `ctx` is null or valid for writes of the context.
        #[no_mangle]
        pub unsafe extern "C" fn $init(ctx: *mut $ctx, hash_bit_len: usize) -> c_int {
            // SAFETY: by the contract above; null is refused.
            let Some(ctx) = (unsafe { ctx.as_mut() }) else {
                return SKEIN_FAIL;
            };
            ctx.init(platform(), hash_bit_len, 0, &[], NO_ARGS)
        }

        /// `InitExt(ctx, hashBitLen, treeInfo, key, keyBytes)`: MAC key and
        /// tree parameters, as the reference.
        ///
        /// # Safety
        /// `ctx` is null or valid for writes; `key` is valid for `key_bytes`
        /// reads (or null when 0).
        #[no_mangle]
        pub unsafe extern "C" fn $init_ext(
            ctx: *mut $ctx,
            hash_bit_len: usize,
            tree_info: u64,
            key: *const u8,
            key_bytes: usize,
        ) -> c_int {
            // SAFETY: by the contract above; null is refused.
            let (Some(ctx), Some(key)) =
                (unsafe { ctx.as_mut() }, unsafe { input(key, key_bytes) })
            else {
                return SKEIN_FAIL;
            };
            ctx.init(platform(), hash_bit_len, tree_info, key, NO_ARGS)
        }

        /// `Update(ctx, msg, msgByteCnt)`.
        ///
        /// # Safety
        /// `ctx` is null or an initialized context; `msg` is valid for
        /// `msg_byte_cnt` reads (or null when 0).
        #[no_mangle]
        pub unsafe extern "C" fn $update(
            ctx: *mut $ctx,
            msg: *const u8,
            msg_byte_cnt: usize,
        ) -> c_int {
            // SAFETY: by the contract above; null is refused.
            let (Some(ctx), Some(msg)) =
                (unsafe { ctx.as_mut() }, unsafe { input(msg, msg_byte_cnt) })
            else {
                return SKEIN_FAIL;
            };
            ctx.update(platform(), msg)
        }

        /// `Final(ctx, hashVal)`: `ceil(hashBitLen / 8)` bytes to `hashVal`.
        ///
        /// # Safety
        /// `ctx` is null or an initialized context; `hash_val` is valid for
        /// that many writes.
        #[no_mangle]
        pub unsafe extern "C" fn $final(ctx: *mut $ctx, hash_val: *mut u8) -> c_int {
            // SAFETY: by the contract above; null is refused.
            let Some(ctx) = (unsafe { ctx.as_mut() }) else {
                return SKEIN_FAIL;
            };
            // SAFETY: by the contract above.
            let Some(out) = (unsafe { output(hash_val, ctx.output_len()) }) else {
                return SKEIN_FAIL;
            };
            ctx.finalize(platform(), out)
        }

        /// `Final_Pad(ctx, hashVal)`: finish the UBI without the output
        /// stage; the whole chaining value (the state size in bytes) to
        /// `hashVal`. For MACs and tree nodes.
        ///
        /// # Safety
        /// `ctx` is null or an initialized context; `hash_val` is valid for
        /// `8 * words` writes.
        #[no_mangle]
        pub unsafe extern "C" fn $final_pad(ctx: *mut $ctx, hash_val: *mut u8) -> c_int {
            // SAFETY: by the contract above; null is refused.
            let Some(ctx) = (unsafe { ctx.as_mut() }) else {
                return SKEIN_FAIL;
            };
            // SAFETY: by the contract above.
            let Some(out) = (unsafe { output(hash_val, 8 * $w) }) else {
                return SKEIN_FAIL;
            };
            ctx.final_pad(platform(), out)
        }

        /// `Output(ctx, hashVal)`: only the output stage, from the chaining
        /// value in `X` (after `Final_Pad`); `ceil(hashBitLen / 8)` bytes.
        ///
        /// # Safety
        /// As for `Final`.
        #[no_mangle]
        pub unsafe extern "C" fn $output(ctx: *mut $ctx, hash_val: *mut u8) -> c_int {
            // SAFETY: by the contract above; null is refused.
            let Some(ctx) = (unsafe { ctx.as_mut() }) else {
                return SKEIN_FAIL;
            };
            // SAFETY: by the contract above.
            let Some(out) = (unsafe { output(hash_val, ctx.output_len()) }) else {
                return SKEIN_FAIL;
            };
            ctx.output(platform(), out);
            crate::context::SKEIN_SUCCESS
        }
    };
}

reference_api!(
    4,
    Skein_256_Ctxt_t,
    Skein_256_Init,
    Skein_256_InitExt,
    Skein_256_Update,
    Skein_256_Final,
    Skein_256_Final_Pad,
    Skein_256_Output
);
reference_api!(
    8,
    Skein_512_Ctxt_t,
    Skein_512_Init,
    Skein_512_InitExt,
    Skein_512_Update,
    Skein_512_Final,
    Skein_512_Final_Pad,
    Skein_512_Output
);
reference_api!(
    16,
    Skein1024_Ctxt_t,
    Skein1024_Init,
    Skein1024_InitExt,
    Skein1024_Update,
    Skein1024_Final,
    Skein1024_Final_Pad,
    Skein1024_Output
);
