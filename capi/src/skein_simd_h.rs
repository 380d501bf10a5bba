//! skein_simd.h: what the reference API lacks. Every argument of spec 3.5
//! at init; many messages with the same arguments in one call, on the SIMD
//! lanes (and threads, with the `rayon` feature) of `skein_simd::SkeinMany`;
//! which backends this process uses.

use crate::context::{check_hash_bit_len, Ctx, SKEIN_FAIL, SKEIN_SUCCESS};
use crate::{backend_c_name, forced_backend, input, output, platform, region_of, Region, NOWHERE};
use core::ffi::{c_char, c_int};
use skein_simd::hazmat::{self, BlockType};
use skein_simd::{Backend, Params, SkeinMany, StateSize, TreeParams};

mod subtree;

/// `skein_simd_params_t`: output length, tree word and the optional
/// arguments, each a pointer and a length (`NULL, 0` when absent).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct skein_simd_params_t {
    /// Result length in bits (>= 1).
    pub hashBitLen: usize,
    /// `SKEIN_CFG_TREE_INFO(leaf, node, maxLevel)`, or 0 for sequential.
    pub treeInfo: u64,
    /// MAC key.
    pub key: *const u8,
    /// Its length.
    pub keyBytes: usize,
    /// Personalization string.
    pub pers: *const u8,
    /// Its length.
    pub persBytes: usize,
    /// Public key.
    pub publicKey: *const u8,
    /// Its length.
    pub publicKeyBytes: usize,
    /// Key identifier (KDF).
    pub keyId: *const u8,
    /// Its length.
    pub keyIdBytes: usize,
    /// Nonce.
    pub nonce: *const u8,
    /// Its length.
    pub nonceBytes: usize,
}

/// The arguments as slices: key, then (type, bytes) in hashing order.
type Args<'a> = (&'a [u8], [(BlockType, &'a [u8]); 4]);

/// The arguments of `p` as slices; `None` for a null pointer with a length
/// or an argument that overlaps `apart`.
///
/// # Safety
/// Every non-null pointer of `p` is valid for its length in reads.
unsafe fn args<'a>(p: &skein_simd_params_t, apart: Region) -> Option<Args<'a>> {
    // SAFETY: by the contract above.
    unsafe {
        Some((
            input(p.key, p.keyBytes, apart)?,
            [
                (
                    BlockType::Personalization,
                    input(p.pers, p.persBytes, apart)?,
                ),
                (
                    BlockType::PublicKey,
                    input(p.publicKey, p.publicKeyBytes, apart)?,
                ),
                (BlockType::KeyId, input(p.keyId, p.keyIdBytes, apart)?),
                (BlockType::Nonce, input(p.nonce, p.nonceBytes, apart)?),
            ],
        ))
    }
}

/// The tree word as tree parameters: `None` when it has bits outside the
/// three bytes or values the specification does not allow.
fn tree_params(tree_info: u64) -> Option<Option<TreeParams>> {
    if tree_info == 0 {
        return Some(None);
    }
    if tree_info >> 24 != 0 {
        return None;
    }
    let [leaf, node, height, ..] = tree_info.to_le_bytes();
    TreeParams::new(leaf, node, height).ok().map(Some)
}

/// The library's parameters for `p`: its output length checked first (as
/// init checks it, `SKEIN_BAD_HASHLEN`), then its argument pointers and tree
/// word (`SKEIN_FAIL`).
///
/// # Safety
/// Every non-null pointer of `p` is valid for its length in reads.
unsafe fn library_params<'a>(p: &skein_simd_params_t) -> Result<Params<'a>, c_int> {
    let rc = check_hash_bit_len(p.hashBitLen);
    if rc != SKEIN_SUCCESS {
        return Err(rc);
    }
    // SAFETY: by the contract above.
    let Some((key, [(_, pers), (_, pk), (_, kid), (_, nonce)])) = (unsafe { args(p, NOWHERE) })
    else {
        return Err(SKEIN_FAIL);
    };
    let tree = tree_params(p.treeInfo).ok_or(SKEIN_FAIL)?;
    let params = Params::new()
        .output_bits(p.hashBitLen as u64)
        .key(key)
        .personalization(pers)
        .public_key(pk)
        .key_id(kid)
        .nonce(nonce);
    Ok(match tree {
        Some(t) => params.tree(t),
        None => params,
    })
}

/// # Safety
/// As for the exported `init_params` functions.
unsafe fn init_params<const W: usize>(
    ctx: *mut Ctx<W>,
    params: *const skein_simd_params_t,
) -> c_int {
    // SAFETY: the caller passes null or a valid pointer; copied, so that it
    // may be anywhere, even inside the context.
    let Some(params) = (unsafe { params.as_ref() }).copied() else {
        return SKEIN_FAIL;
    };
    // The length first, as InitExt checks it.
    let rc = check_hash_bit_len(params.hashBitLen);
    if rc != SKEIN_SUCCESS {
        return rc;
    }
    // SAFETY: the caller's contract for the argument pointers; an argument
    // inside the context is refused.
    let Some((key, rest)) = (unsafe { args(&params, region_of(ctx)) }) else {
        return SKEIN_FAIL;
    };
    // SAFETY: the caller passes null or a valid context.
    let Some(ctx) = (unsafe { ctx.as_mut() }) else {
        return SKEIN_FAIL;
    };
    ctx.init(platform(), params.hashBitLen, params.treeInfo, key, rest)
}

/// # Safety
/// As for the exported `hash_many` functions.
unsafe fn hash_many<const W: usize>(
    params: *const skein_simd_params_t,
    msgs: *const *const u8,
    msg_byte_cnts: *const usize,
    count: usize,
    hash_vals: *mut u8,
) -> c_int {
    // SAFETY: the caller passes null or a valid pointer.
    let Some(p) = (unsafe { params.as_ref() }) else {
        return SKEIN_FAIL;
    };
    // SAFETY: the caller's contract for the argument pointers.
    let params = match unsafe { library_params(p) } {
        Ok(params) => params,
        Err(rc) => return rc,
    };
    if count == 0 {
        return SKEIN_SUCCESS; // nothing to hash or write, whatever the length
    }
    let many = forced_backend()
        .and_then(|b| SkeinMany::<W>::with_params(&params.backend(b)).ok())
        .or_else(|| SkeinMany::<W>::with_params(&params).ok());
    let Some(many) = many else { return SKEIN_FAIL };
    // SAFETY: the caller's contract for the batch's pointers.
    let Some((messages, out)) =
        (unsafe { batch(msgs, msg_byte_cnts, count, many.output_len(), hash_vals) })
    else {
        return SKEIN_FAIL;
    };
    many.hash_many_into(&messages, out);
    SKEIN_SUCCESS
}

/// The messages and the results of a batch of `count` messages with
/// `digest_len`-byte results, or `None` for a null pointer, a size that
/// overflows, or a message that shares a byte with the results (messages
/// are read while results are written, on several threads).
///
/// # Safety
/// `msgs` and `lens` hold `count` pointers and lengths (or are null); message
/// `i` has `lens[i]` readable bytes; `hash_vals` has room for `count`
/// results.
unsafe fn batch<'a>(
    msgs: *const *const u8,
    lens: *const usize,
    count: usize,
    digest_len: usize,
    hash_vals: *mut u8,
) -> Option<(Vec<&'a [u8]>, &'a mut [u8])> {
    // SAFETY: the caller's contract: `count` pointers and lengths.
    let (ptrs, lens) = unsafe { (slice_of(msgs, count)?, slice_of(lens, count)?) };
    let total = count.checked_mul(digest_len)?;
    let results: Region = (hash_vals.cast_const(), total);
    let messages = ptrs
        .iter()
        .zip(lens)
        // SAFETY: the caller's contract: message `i` has `lens[i]` bytes.
        .map(|(&ptr, &len)| unsafe { input(ptr, len, results) })
        .collect::<Option<Vec<_>>>()?;
    // SAFETY: the caller's contract: `count` results of `digest_len` bytes;
    // no message overlaps them (checked above).
    let out = unsafe { output(hash_vals, total, NOWHERE) }?;
    Some((messages, out))
}

/// # Safety
/// As for the exported `hash_many_from` functions.
unsafe fn hash_many_from<const W: usize>(
    ctx: *const Ctx<W>,
    msgs: *const *const u8,
    msg_byte_cnts: *const usize,
    count: usize,
    hash_vals: *mut u8,
) -> c_int {
    // SAFETY: the caller passes null or a valid context. Copied: the
    // results may then be written anywhere, even over it.
    let Some(mut ctx) = (unsafe { ctx.as_ref() }).copied() else {
        return SKEIN_FAIL;
    };
    let rc = ctx.validate();
    if rc != SKEIN_SUCCESS || count == 0 {
        ctx.wipe();
        return rc;
    }
    let len = ctx.h.hash_bit_len.div_ceil(8);
    // SAFETY: the caller's contract for the batch's pointers.
    let rc = match unsafe { batch(msgs, msg_byte_cnts, count, len, hash_vals) } {
        Some((messages, out)) => {
            let buffered: &[u8] = &ctx.b.as_flattened()[..ctx.h.b_cnt];
            hazmat::many_continuing::<W>(
                platform(),
                &ctx.x,
                ctx.h.t,
                buffered,
                ctx.h.hash_bit_len as u64,
            )
            .hash_many_into(&messages, out);
            SKEIN_SUCCESS
        }
        None => SKEIN_FAIL,
    };
    ctx.wipe();
    rc
}

/// # Safety
/// A non-null `ptr` is valid for `len` reads of `T`.
unsafe fn slice_of<'a, T>(ptr: *const T, len: usize) -> Option<&'a [T]> {
    if len == 0 {
        return Some(&[]);
    }
    // SAFETY: by the contract above, when non-null.
    (!ptr.is_null()).then(|| unsafe { core::slice::from_raw_parts(ptr, len) })
}

macro_rules! extension_api {
    ($w:literal, $init_params:ident, $hash_many:ident, $hash_many_from:ident) => {
        /// Init with every argument: key, configuration (output length, tree
        /// word), personalization, public key, key identifier, nonce, in the
        /// specification's order. With only a key and tree word it equals
        /// `InitExt`.
        ///
        /// # Safety
        /// `ctx` and `params` are null or valid; `params`' pointers are
        /// valid for their lengths.
        #[no_mangle]
        pub unsafe extern "C" fn $init_params(
            ctx: *mut Ctx<$w>,
            params: *const skein_simd_params_t,
        ) -> c_int {
            // SAFETY: forwarded contract.
            unsafe { init_params::<$w>(ctx, params) }
        }

        /// Hash `count` messages with the same arguments; result `i` (of
        /// `ceil(hashBitLen / 8)` bytes) goes to `hashVals + i * that`. A
        /// non-zero tree word hashes each message as a tree (spec 3.5.6).
        /// `SKEIN_FAIL`, with nothing written, when a message overlaps the
        /// results. The arguments are checked before `count`: with `count`
        /// 0, a null `params` or a bad tree word still gives `SKEIN_FAIL`
        /// and a bad `hashBitLen` `SKEIN_BAD_HASHLEN`; valid ones give
        /// `SKEIN_SUCCESS` with nothing read or written.
        ///
        /// # Safety
        /// `params` as for init; `msgs` and `msgByteCnts` hold `count`
        /// entries each, message `i` valid for `msgByteCnts[i]` reads;
        /// `hashVals` valid for `count` results.
        #[no_mangle]
        pub unsafe extern "C" fn $hash_many(
            params: *const skein_simd_params_t,
            msgs: *const *const u8,
            msgByteCnts: *const usize,
            count: usize,
            hashVals: *mut u8,
        ) -> c_int {
            // SAFETY: forwarded contract.
            unsafe { hash_many::<$w>(params, msgs, msgByteCnts, count, hashVals) }
        }

        /// Hash `count` messages that each continue a copy of `ctx` (left
        /// as it is): result `i`, of `ceil(hashBitLen / 8)` bytes with
        /// `ctx`'s `hashBitLen`, goes to `hashVals + i * that` and equals
        /// copying the context, `Update` with message `i`, then `Final`.
        /// `SKEIN_FAIL`, with nothing written, for a context no init made
        /// (as `Update` refuses it) or a message that overlaps the results.
        /// The context is checked before `count`: with `count` 0, a null or
        /// uninitialized context still gives `SKEIN_FAIL`, a valid one
        /// `SKEIN_SUCCESS` with nothing read or written.
        ///
        /// # Safety
        /// `ctx` is null or valid; `msgs`, `msgByteCnts` and `hashVals` as
        /// for `hash_many`.
        #[no_mangle]
        pub unsafe extern "C" fn $hash_many_from(
            ctx: *const Ctx<$w>,
            msgs: *const *const u8,
            msgByteCnts: *const usize,
            count: usize,
            hashVals: *mut u8,
        ) -> c_int {
            // SAFETY: forwarded contract.
            unsafe { hash_many_from::<$w>(ctx, msgs, msgByteCnts, count, hashVals) }
        }
    };
}

extension_api!(
    4,
    skein_simd_256_init_params,
    skein_simd_256_hash_many,
    skein_simd_256_hash_many_from
);
extension_api!(
    8,
    skein_simd_512_init_params,
    skein_simd_512_hash_many,
    skein_simd_512_hash_many_from
);
extension_api!(
    16,
    skein_simd_1024_init_params,
    skein_simd_1024_hash_many,
    skein_simd_1024_hash_many_from
);

/// The lane kernel `hash_many` uses for a state of `bits` bits.
fn many_of(bits: usize) -> Option<(Backend, usize)> {
    let params = Params::new();
    macro_rules! pick {
        ($w:literal) => {
            forced_backend()
                .and_then(|b| SkeinMany::<$w>::with_params(&params.backend(b)).ok())
                .or_else(|| SkeinMany::<$w>::with_params(&params).ok())
                .map(|m| (m.backend(), m.lanes()))
        };
    }
    match bits {
        256 => pick!(4),
        512 => pick!(8),
        1024 => pick!(16),
        _ => None,
    }
}

/// The backend of the block function for a state of `stateBits` bits (256,
/// 512 or 1024), e.g. `"portable"` or `"avx2"`; `NULL` for another size.
#[no_mangle]
pub extern "C" fn skein_simd_backend(stateBits: usize) -> *const c_char {
    match StateSize::from_bits(stateBits as u64) {
        Some(_) => backend_c_name(platform().backend()),
        None => core::ptr::null(),
    }
}

/// The backend of the many-lanes kernel the `hash_many` functions use for a
/// state of `stateBits` bits; `NULL` for another size.
#[no_mangle]
pub extern "C" fn skein_simd_many_backend(stateBits: usize) -> *const c_char {
    many_of(stateBits).map_or(core::ptr::null(), |(b, _)| backend_c_name(b))
}

/// How many messages that kernel hashes side by side (1 for the portable
/// one); 0 for another size. Where the kernel has several forms, a fixed
/// rule per CPU picks one, so the count is the same on every run on a
/// machine; digests never depend on it.
#[no_mangle]
pub extern "C" fn skein_simd_many_lanes(stateBits: usize) -> usize {
    many_of(stateBits).map_or(0, |(_, lanes)| lanes)
}

/// This library's version, e.g. `"0.1.0"`.
#[no_mangle]
pub extern "C" fn skein_simd_version() -> *const c_char {
    const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
    VERSION.as_ptr().cast()
}
