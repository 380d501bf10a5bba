//! skein.h: the reference's functions, one set per state size.
//!
//! Pointers follow the reference's contract: a context valid for the call,
//! input and output buffers of the stated lengths. What the reference leaves
//! undefined gets an error code here, checked before anything is written: a
//! `NULL` context or buffer (with a length), a context that
//! [`Ctx::validate`] refuses (uninitialized or corrupted) and a buffer that
//! overlaps the context give `SKEIN_FAIL`; an output length of 0 or above
//! `SIZE_MAX - 7` bits gives `SKEIN_BAD_HASHLEN`, checked first, as the
//! reference checks it. `NULL` input is accepted with length 0.

use crate::context::{check_hash_bit_len, Ctx, SKEIN_FAIL, SKEIN_SUCCESS};
use crate::{input, output, platform, region_of, Region};
use core::ffi::c_int;
use skein_simd::hazmat::BlockType;

/// No personalization, public key, key identifier or nonce.
pub(crate) const NO_ARGS: [(BlockType, &[u8]); 4] = [
    (BlockType::Personalization, &[]),
    (BlockType::PublicKey, &[]),
    (BlockType::KeyId, &[]),
    (BlockType::Nonce, &[]),
];

/// What a finishing call does.
#[derive(Clone, Copy)]
pub(crate) enum Finish {
    /// `Final`: `ceil(hashBitLen / 8)` bytes.
    Final,
    /// `Final_Pad`: the chaining value, `8 * W` bytes.
    FinalPad,
    /// `Output`: the output stage only, `ceil(hashBitLen / 8)` bytes.
    Output,
}

/// `Final`, `Final_Pad` or `Output` of the context at `ctx` into `hash_val`.
/// `SKEIN_FAIL`, with nothing written, for a null or corrupted context, a
/// null `hash_val`, or a `hash_val` whose bytes overlap `apart` (the context,
/// or the NIST state around it).
///
/// # Safety
/// `ctx` is null or valid for reads and writes of the context; a non-null
/// `hash_val` is valid for the writes of `step`; `apart` covers `*ctx`.
pub(crate) unsafe fn finish<const W: usize>(
    ctx: *mut Ctx<W>,
    hash_val: *mut u8,
    apart: Region,
    step: Finish,
) -> c_int {
    // SAFETY: by the contract above; null is refused.
    let Some(ctx) = (unsafe { ctx.as_mut() }) else {
        return SKEIN_FAIL;
    };
    if ctx.validate() != SKEIN_SUCCESS {
        return SKEIN_FAIL;
    }
    let len = match step {
        Finish::FinalPad => 8 * W,
        Finish::Final | Finish::Output => ctx.output_len(),
    };
    // SAFETY: by the contract above; `output` refuses a buffer that overlaps
    // the context.
    let Some(out) = (unsafe { output(hash_val, len, apart) }) else {
        return SKEIN_FAIL;
    };
    let p = platform();
    match step {
        Finish::Final => {
            ctx.finalize_valid(p, out);
            SKEIN_SUCCESS
        }
        Finish::FinalPad => ctx.final_pad(p, out),
        Finish::Output => ctx.output(p, out),
    }
}

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
            let rc = check_hash_bit_len(hash_bit_len);
            if rc != SKEIN_SUCCESS {
                return rc;
            }
            // SAFETY: by the contract above; null is refused.
            let Some(ctx) = (unsafe { ctx.as_mut() }) else {
                return SKEIN_FAIL;
            };
            ctx.init(platform(), hash_bit_len, 0, &[], NO_ARGS)
        }

        /// `InitExt(ctx, hashBitLen, treeInfo, key, keyBytes)`: MAC key and
        /// tree parameters, as the reference; the length is checked first.
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
            let rc = check_hash_bit_len(hash_bit_len);
            if rc != SKEIN_SUCCESS {
                return rc;
            }
            let apart = region_of(ctx);
            // SAFETY: by the contract above; null and a key inside the
            // context are refused.
            let (Some(key), Some(ctx)) = (unsafe { input(key, key_bytes, apart) }, unsafe {
                ctx.as_mut()
            }) else {
                return SKEIN_FAIL;
            };
            ctx.init(platform(), hash_bit_len, tree_info, key, NO_ARGS)
        }

        /// `Update(ctx, msg, msgByteCnt)`.
        ///
        /// # Safety
        /// `ctx` is null or valid for reads and writes of the context; `msg`
        /// is valid for `msg_byte_cnt` reads (or null when 0).
        #[no_mangle]
        pub unsafe extern "C" fn $update(
            ctx: *mut $ctx,
            msg: *const u8,
            msg_byte_cnt: usize,
        ) -> c_int {
            let apart = region_of(ctx);
            // SAFETY: by the contract above; null and a message inside the
            // context are refused.
            let (Some(ctx), Some(msg)) = (unsafe { ctx.as_mut() }, unsafe {
                input(msg, msg_byte_cnt, apart)
            }) else {
                return SKEIN_FAIL;
            };
            ctx.update(platform(), msg)
        }

        /// `Final(ctx, hashVal)`: `ceil(hashBitLen / 8)` bytes to `hashVal`.
        ///
        /// # Safety
        /// `ctx` is null or valid for reads and writes of the context;
        /// `hash_val` is valid for that many writes.
        #[no_mangle]
        pub unsafe extern "C" fn $final(ctx: *mut $ctx, hash_val: *mut u8) -> c_int {
            // SAFETY: forwarded contract.
            unsafe { finish(ctx, hash_val, region_of(ctx), Finish::Final) }
        }

        /// `Final_Pad(ctx, hashVal)`: finish the UBI without the output
        /// stage; the whole chaining value (the state size in bytes) to
        /// `hashVal`. For MACs and tree nodes.
        ///
        /// # Safety
        /// `ctx` is null or valid for reads and writes of the context;
        /// `hash_val` is valid for `8 * words` writes.
        #[no_mangle]
        pub unsafe extern "C" fn $final_pad(ctx: *mut $ctx, hash_val: *mut u8) -> c_int {
            // SAFETY: forwarded contract.
            unsafe { finish(ctx, hash_val, region_of(ctx), Finish::FinalPad) }
        }

        /// `Output(ctx, hashVal)`: only the output stage, from the chaining
        /// value in `X` (after `Final_Pad`); `ceil(hashBitLen / 8)` bytes.
        ///
        /// # Safety
        /// As for `Final`.
        #[no_mangle]
        pub unsafe extern "C" fn $output(ctx: *mut $ctx, hash_val: *mut u8) -> c_int {
            // SAFETY: forwarded contract.
            unsafe { finish(ctx, hash_val, region_of(ctx), Finish::Output) }
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
