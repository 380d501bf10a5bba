//! The C library's entry points (capi/src, through their exported C symbols)
//! against the Rust API and the plain reference Skein of
//! `tests/support/src/reference.rs`, for all three state sizes:
//! - `Init` / `InitExt` / `skein_simd_*_init_params` with every argument, the
//!   message in arbitrary `Update` pieces, a partial last byte by the
//!   reference's convention (padded byte, `Skein_Set_Bit_Pad_Flag`), `Final`;
//! - a tree walked by the caller as the reference code does it (a copy of the
//!   context per node, `Skein_Set_T0`, `Skein_Set_Tree_Level`, `Update`,
//!   `Final_Pad`, then `Output` from the root), against the library's tree;
//! - `skein_simd_*_hash_many` with any tree word, against `SkeinMany`;
//! - the NIST API (`Init`, `Update` with bit lengths, `Final`, `Hash`);
//! - contexts a C program corrupted (random bytes over the whole struct, or
//!   one field: buffer fill, output length, tweak words and flags, chaining
//!   value; the NIST state's size), given to every function that takes one:
//!   `SKEIN_FAIL` exactly for a context no init produces (`bCnt` above the
//!   block, `hashBitLen` 0 or above `SIZE_MAX - 7`), and then nothing
//!   written and the context unchanged; never a crash, a panic or a write
//!   beyond the output;
//! - `hash_many` with messages and results in one buffer: `SKEIN_FAIL`, with
//!   nothing written, exactly when a message shares a byte with the results;
//! - null pointers and the backend queries.
#![no_main]

use core::ffi::{c_char, c_int, c_uint};
use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use skein_simd::{Params, Platform, Skein, SkeinMany, TreeParams};
use skein_simd_capi::context::Ctx;
use skein_simd_test_support::reference;

const SKEIN_SUCCESS: c_int = 0;
const SKEIN_FAIL: c_int = 1;
const SKEIN_BAD_HASHLEN: c_int = 2;
const T1_FLAG_BIT_PAD: u64 = 1 << 55;
const T1_POS_TREE_LVL: u32 = 48;

/// Output lengths up to this many bits (counter-mode output included).
const MAX_OUTPUT_BITS: u16 = 4200;

/// The largest `hashBitLen` the library accepts: above it the reference's
/// byte count `(hashBitLen + 7) >> 3` wraps around.
const MAX_HASH_BIT_LEN: usize = usize::MAX - 7;

/// Bytes after every output buffer that must stay as they were.
const GUARD: usize = 64;
/// Contexts asking for more output than this are not finished (no buffer).
const MAX_FINISH_BYTES: usize = 1 << 16;

/// `skein_simd_params_t` of skein_simd.h.
#[repr(C)]
struct SkeinSimdParams {
    hash_bit_len: usize,
    tree_info: u64,
    key: *const u8,
    key_bytes: usize,
    pers: *const u8,
    pers_bytes: usize,
    public_key: *const u8,
    public_key_bytes: usize,
    key_id: *const u8,
    key_id_bytes: usize,
    nonce: *const u8,
    nonce_bytes: usize,
}

/// `hashState` of SHA3api_ref.h: the union's largest member is the
/// Skein-1024 context, and all three start with the same header.
#[repr(C)]
#[derive(Clone, Copy)]
struct HashState {
    statebits: c_uint,
    ctx: Ctx<16>,
}

type Init<const W: usize> = unsafe extern "C" fn(*mut Ctx<W>, usize) -> c_int;
type InitExt<const W: usize> =
    unsafe extern "C" fn(*mut Ctx<W>, usize, u64, *const u8, usize) -> c_int;
type Update<const W: usize> = unsafe extern "C" fn(*mut Ctx<W>, *const u8, usize) -> c_int;
type Finish<const W: usize> = unsafe extern "C" fn(*mut Ctx<W>, *mut u8) -> c_int;
type InitParams<const W: usize> =
    unsafe extern "C" fn(*mut Ctx<W>, *const SkeinSimdParams) -> c_int;
type HashMany = unsafe extern "C" fn(
    *const SkeinSimdParams,
    *const *const u8,
    *const usize,
    usize,
    *mut u8,
) -> c_int;

extern "C" {
    fn Skein_256_Init(ctx: *mut Ctx<4>, hash_bit_len: usize) -> c_int;
    fn Skein_512_Init(ctx: *mut Ctx<8>, hash_bit_len: usize) -> c_int;
    fn Skein1024_Init(ctx: *mut Ctx<16>, hash_bit_len: usize) -> c_int;
    fn Skein_256_InitExt(
        ctx: *mut Ctx<4>,
        hash_bit_len: usize,
        tree_info: u64,
        key: *const u8,
        key_bytes: usize,
    ) -> c_int;
    fn Skein_512_InitExt(
        ctx: *mut Ctx<8>,
        hash_bit_len: usize,
        tree_info: u64,
        key: *const u8,
        key_bytes: usize,
    ) -> c_int;
    fn Skein1024_InitExt(
        ctx: *mut Ctx<16>,
        hash_bit_len: usize,
        tree_info: u64,
        key: *const u8,
        key_bytes: usize,
    ) -> c_int;
    fn Skein_256_Update(ctx: *mut Ctx<4>, msg: *const u8, len: usize) -> c_int;
    fn Skein_512_Update(ctx: *mut Ctx<8>, msg: *const u8, len: usize) -> c_int;
    fn Skein1024_Update(ctx: *mut Ctx<16>, msg: *const u8, len: usize) -> c_int;
    fn Skein_256_Final(ctx: *mut Ctx<4>, out: *mut u8) -> c_int;
    fn Skein_512_Final(ctx: *mut Ctx<8>, out: *mut u8) -> c_int;
    fn Skein1024_Final(ctx: *mut Ctx<16>, out: *mut u8) -> c_int;
    fn Skein_256_Final_Pad(ctx: *mut Ctx<4>, out: *mut u8) -> c_int;
    fn Skein_512_Final_Pad(ctx: *mut Ctx<8>, out: *mut u8) -> c_int;
    fn Skein1024_Final_Pad(ctx: *mut Ctx<16>, out: *mut u8) -> c_int;
    fn Skein_256_Output(ctx: *mut Ctx<4>, out: *mut u8) -> c_int;
    fn Skein_512_Output(ctx: *mut Ctx<8>, out: *mut u8) -> c_int;
    fn Skein1024_Output(ctx: *mut Ctx<16>, out: *mut u8) -> c_int;
    fn skein_simd_256_init_params(ctx: *mut Ctx<4>, params: *const SkeinSimdParams) -> c_int;
    fn skein_simd_512_init_params(ctx: *mut Ctx<8>, params: *const SkeinSimdParams) -> c_int;
    fn skein_simd_1024_init_params(ctx: *mut Ctx<16>, params: *const SkeinSimdParams) -> c_int;
    fn skein_simd_256_hash_many(
        p: *const SkeinSimdParams,
        m: *const *const u8,
        n: *const usize,
        count: usize,
        out: *mut u8,
    ) -> c_int;
    fn skein_simd_512_hash_many(
        p: *const SkeinSimdParams,
        m: *const *const u8,
        n: *const usize,
        count: usize,
        out: *mut u8,
    ) -> c_int;
    fn skein_simd_1024_hash_many(
        p: *const SkeinSimdParams,
        m: *const *const u8,
        n: *const usize,
        count: usize,
        out: *mut u8,
    ) -> c_int;
    fn skein_simd_backend(state_bits: usize) -> *const c_char;
    fn skein_simd_many_backend(state_bits: usize) -> *const c_char;
    fn skein_simd_many_lanes(state_bits: usize) -> usize;
    fn skein_simd_version() -> *const c_char;
    fn Init(state: *mut HashState, hashbitlen: c_int) -> c_int;
    fn Update(state: *mut HashState, data: *const u8, databitlen: usize) -> c_int;
    fn Final(state: *mut HashState, hashval: *mut u8) -> c_int;
    fn Hash(hashbitlen: c_int, data: *const u8, databitlen: usize, hashval: *mut u8) -> c_int;
}

/// The reference API of one state size.
struct Api<const W: usize> {
    init: Init<W>,
    init_ext: InitExt<W>,
    update: Update<W>,
    finish: Finish<W>,
    final_pad: Finish<W>,
    output: Finish<W>,
    init_params: InitParams<W>,
    hash_many: HashMany,
}

const API_256: Api<4> = Api {
    init: Skein_256_Init,
    init_ext: Skein_256_InitExt,
    update: Skein_256_Update,
    finish: Skein_256_Final,
    final_pad: Skein_256_Final_Pad,
    output: Skein_256_Output,
    init_params: skein_simd_256_init_params,
    hash_many: skein_simd_256_hash_many,
};
const API_512: Api<8> = Api {
    init: Skein_512_Init,
    init_ext: Skein_512_InitExt,
    update: Skein_512_Update,
    finish: Skein_512_Final,
    final_pad: Skein_512_Final_Pad,
    output: Skein_512_Output,
    init_params: skein_simd_512_init_params,
    hash_many: skein_simd_512_hash_many,
};
const API_1024: Api<16> = Api {
    init: Skein1024_Init,
    init_ext: Skein1024_InitExt,
    update: Skein1024_Update,
    finish: Skein1024_Final,
    final_pad: Skein1024_Final_Pad,
    output: Skein1024_Output,
    init_params: skein_simd_1024_init_params,
    hash_many: skein_simd_1024_hash_many,
};

/// Safe calls: every pointer is a live Rust reference or slice of the stated
/// length, or null where the API accepts it.
impl<const W: usize> Api<W> {
    fn init(&self, ctx: &mut Ctx<W>, bits: usize) -> c_int {
        // SAFETY: a valid context.
        unsafe { (self.init)(ctx, bits) }
    }
    fn init_ext(&self, ctx: &mut Ctx<W>, bits: usize, tree_info: u64, key: &[u8]) -> c_int {
        // SAFETY: a valid context and key slice.
        unsafe { (self.init_ext)(ctx, bits, tree_info, nullable(key), key.len()) }
    }
    fn init_params(&self, ctx: &mut Ctx<W>, params: &SkeinSimdParams) -> c_int {
        // SAFETY: a valid context; `params` made by `c_params` from live slices.
        unsafe { (self.init_params)(ctx, params) }
    }
    fn update(&self, ctx: &mut Ctx<W>, msg: &[u8]) -> c_int {
        // SAFETY: a valid context and message slice.
        unsafe { (self.update)(ctx, nullable(msg), msg.len()) }
    }
    /// `Final` into a buffer of the length the context's `hashBitLen` asks for.
    fn finish(&self, ctx: &mut Ctx<W>) -> (c_int, Vec<u8>) {
        let mut out = vec![0u8; ctx.h.hash_bit_len.div_ceil(8)];
        // SAFETY: a valid context; `out` has the bytes `Final` writes.
        let rc = unsafe { (self.finish)(ctx, out.as_mut_ptr()) };
        (rc, out)
    }
    fn final_pad(&self, ctx: &mut Ctx<W>) -> (c_int, Vec<u8>) {
        let mut out = vec![0u8; 8 * W];
        // SAFETY: a valid context; `out` has the state size `Final_Pad` writes.
        let rc = unsafe { (self.final_pad)(ctx, out.as_mut_ptr()) };
        (rc, out)
    }
    fn output(&self, ctx: &mut Ctx<W>) -> (c_int, Vec<u8>) {
        let mut out = vec![0u8; ctx.h.hash_bit_len.div_ceil(8)];
        // SAFETY: a valid context; `out` has the bytes `Output` writes.
        let rc = unsafe { (self.output)(ctx, out.as_mut_ptr()) };
        (rc, out)
    }
    fn hash_many(&self, params: &SkeinSimdParams, messages: &[&[u8]], out: &mut [u8]) -> c_int {
        let ptrs: Vec<*const u8> = messages.iter().map(|m| nullable(m)).collect();
        let lens: Vec<usize> = messages.iter().map(|m| m.len()).collect();
        assert_eq!(out.len(), messages.len() * params.hash_bit_len.div_ceil(8));
        // SAFETY: `count` pointers and lengths of live slices; `out` holds
        // `count` results.
        unsafe {
            (self.hash_many)(
                params,
                ptrs.as_ptr(),
                lens.as_ptr(),
                messages.len(),
                out.as_mut_ptr(),
            )
        }
    }
}

/// Null for an empty slice (the API's "absent"), else its pointer.
fn nullable(s: &[u8]) -> *const u8 {
    if s.is_empty() {
        core::ptr::null()
    } else {
        s.as_ptr()
    }
}

#[derive(Arbitrary, Debug)]
enum Corruption {
    BufferFill(u16),
    BufferFillAny(usize),
    Tweak0(u64),
    Tweak1(u64),
    /// Set these bits of tweak word 1 (flags, type, tree level).
    Flags(u64),
    Chain(u8, u64),
    OutputBits(u16),
    OutputBitsAny(usize),
    /// `SIZE_MAX - n`.
    OutputBitsNearMax(u8),
    /// These bytes, repeated, over the whole context.
    Whole(Vec<u8>),
}

#[derive(Arbitrary, Debug)]
struct Input {
    state: u8,
    /// `% MAX_OUTPUT_BITS`; 0 must be refused.
    hash_bits: u16,
    key: Vec<u8>,
    personalization: Vec<u8>,
    public_key: Vec<u8>,
    key_id: Vec<u8>,
    nonce: Vec<u8>,
    /// Tree word: leaf, node, max level, and bits above them.
    tree_info: u32,
    pieces: Vec<u16>,
    /// `% 8`: bits of the message's last byte (0: all 8).
    last_byte_bits: u8,
    /// NIST API result length (any `int`, `% MAX_OUTPUT_BITS` when positive).
    nist_bits: i16,
    corruption: Corruption,
    /// Where `hash_many`'s results go in the buffer holding the messages.
    results_at: u16,
    state_query: u16,
    message: Vec<u8>,
}

impl Input {
    fn output_bits(&self) -> usize {
        usize::from(self.hash_bits % MAX_OUTPUT_BITS)
    }
    fn partial(&self) -> u64 {
        if self.message.is_empty() {
            0
        } else {
            u64::from(self.last_byte_bits % 8)
        }
    }
    fn bits(&self) -> u64 {
        8 * self.message.len() as u64
            - if self.partial() == 0 {
                0
            } else {
                8 - self.partial()
            }
    }
    /// The message with its last byte bit-padded when it is partial.
    fn padded(&self) -> Vec<u8> {
        reference::pad_bits(&self.message, self.bits())
    }
    /// `data` cut into the `pieces` (0 included), the rest as the last piece.
    fn split<'a>(&self, mut data: &'a [u8]) -> Vec<&'a [u8]> {
        let mut list = Vec::new();
        for &n in &self.pieces {
            let (now, later) = data.split_at(usize::from(n).min(data.len()));
            list.push(now);
            data = later;
        }
        list.push(data);
        list
    }
    fn c_params(&self, tree_info: u64) -> SkeinSimdParams {
        SkeinSimdParams {
            hash_bit_len: self.output_bits(),
            tree_info,
            key: nullable(&self.key),
            key_bytes: self.key.len(),
            pers: nullable(&self.personalization),
            pers_bytes: self.personalization.len(),
            public_key: nullable(&self.public_key),
            public_key_bytes: self.public_key.len(),
            key_id: nullable(&self.key_id),
            key_id_bytes: self.key_id.len(),
            nonce: nullable(&self.nonce),
            nonce_bytes: self.nonce.len(),
        }
    }
    fn rust_params(&self) -> Params<'_> {
        Params::new()
            .output_bits(self.output_bits() as u64)
            .key(&self.key)
            .personalization(&self.personalization)
            .public_key(&self.public_key)
            .key_id(&self.key_id)
            .nonce(&self.nonce)
    }
    /// The tree shape of the tree word, when it is one the specification allows.
    fn tree(&self) -> Option<TreeParams> {
        let [leaf, node, height, above] = self.tree_info.to_le_bytes();
        if above != 0 {
            return None;
        }
        TreeParams::new(leaf, node, height).ok()
    }
}

/// The library's result for `params` over the message (partial last byte
/// through `update_bits`).
fn rust_hash<const W: usize>(params: &Params<'_>, input: &Input) -> Vec<u8> {
    let mut h = Skein::<W>::with_params(params).unwrap();
    match input.message.split_last() {
        Some((last, whole)) if input.partial() != 0 => {
            h.update(whole);
            h.update_bits(&[*last], input.partial());
        }
        _ => h.update(&input.message),
    }
    h.finalize_vec()
}

/// After an init: the padded message in the pieces, the bit-pad flag for a
/// partial last byte, `Final`.
fn c_hash<const W: usize>(api: &Api<W>, mut ctx: Ctx<W>, input: &Input) -> Vec<u8> {
    let padded = input.padded();
    for piece in input.split(&padded) {
        assert_eq!(api.update(&mut ctx, piece), SKEIN_SUCCESS);
    }
    if input.partial() != 0 {
        ctx.h.t[1] |= T1_FLAG_BIT_PAD; // Skein_Set_Bit_Pad_Flag
    }
    let (rc, out) = api.finish(&mut ctx);
    assert_eq!(rc, SKEIN_SUCCESS);
    out
}

fn check_reference_api<const W: usize>(api: &Api<W>, input: &Input) {
    let bits = input.output_bits();
    let mut ctx = Ctx::<W>::ZEROED;
    if bits == 0 {
        assert_eq!(api.init(&mut ctx, 0), SKEIN_BAD_HASHLEN);
        assert_eq!(api.init_ext(&mut ctx, 0, 0, &input.key), SKEIN_BAD_HASHLEN);
        assert_eq!(
            api.init_params(&mut ctx, &input.c_params(0)),
            SKEIN_BAD_HASHLEN
        );
        return;
    }
    let plain = Params::new().output_bits(bits as u64);
    assert_eq!(api.init(&mut ctx, bits), SKEIN_SUCCESS);
    assert_eq!(
        c_hash(api, ctx, input),
        rust_hash::<W>(&plain, input),
        "Init"
    );

    let mut ctx = Ctx::<W>::ZEROED;
    assert_eq!(api.init_ext(&mut ctx, bits, 0, &input.key), SKEIN_SUCCESS);
    // A copy of an initialized context is a template (ZFS reuses one per salt).
    let template = ctx;
    assert_eq!(
        c_hash(api, ctx, input),
        rust_hash::<W>(&plain.key(&input.key), input),
        "InitExt"
    );
    assert_eq!(
        c_hash(api, template, input),
        rust_hash::<W>(&plain.key(&input.key), input),
        "InitExt, copied"
    );

    let mut ctx = Ctx::<W>::ZEROED;
    assert_eq!(api.init_params(&mut ctx, &input.c_params(0)), SKEIN_SUCCESS);
    assert_eq!(
        c_hash(api, ctx, input),
        rust_hash::<W>(&input.rust_params(), input),
        "init_params"
    );
}

/// The tree walked by the caller, as the reference code's tree example does:
/// per node a copy of the context initialized with the tree word, its
/// position and level set, `Update`, `Final_Pad`; `Output` from the root.
fn check_tree_walk<const W: usize>(api: &Api<W>, input: &Input) {
    let (Some(tree), bits) = (input.tree(), input.output_bits()) else {
        return;
    };
    if bits == 0 {
        return;
    }
    let mut template = Ctx::<W>::ZEROED;
    assert_eq!(
        api.init_params(&mut template, &input.c_params(u64::from(input.tree_info))),
        SKEIN_SUCCESS
    );
    let shape = (tree.leaf_log2(), tree.fan_out_log2(), tree.max_height());
    let root = reference::tree_walk::<W>(
        &input.padded(),
        input.partial() != 0,
        shape,
        |part, level, position, pad| {
            let mut node = template;
            node.h.t[0] = position; // Skein_Set_T0
            node.h.t[1] |= level << T1_POS_TREE_LVL; // Skein_Set_Tree_Level
            assert_eq!(api.update(&mut node, part), SKEIN_SUCCESS);
            if pad {
                node.h.t[1] |= T1_FLAG_BIT_PAD;
            }
            let (rc, chain) = api.final_pad(&mut node);
            assert_eq!(rc, SKEIN_SUCCESS);
            chain
        },
    );
    let mut ctx = template;
    for (word, bytes) in ctx.x.iter_mut().zip(root.chunks_exact(8)) {
        *word = u64::from_le_bytes(bytes.try_into().unwrap());
    }
    let (rc, got) = api.output(&mut ctx);
    assert_eq!(rc, SKEIN_SUCCESS);
    assert_eq!(
        got,
        rust_hash::<W>(&input.rust_params().tree(tree), input),
        "tree walked through the C API, {shape:?}"
    );
}

fn check_hash_many<const W: usize>(api: &Api<W>, input: &Input) {
    // Any tree word: valid ones hash each message as a tree, others fail.
    let tree_info = u64::from(input.tree_info) * u64::from(input.state & 0x80 != 0);
    let params = input.c_params(tree_info);
    let messages = input.split(&input.message);
    let len = input.output_bits().div_ceil(8);
    let mut out = vec![0u8; messages.len() * len];
    let rc = api.hash_many(&params, &messages, &mut out);
    if input.output_bits() == 0 {
        assert_eq!(rc, SKEIN_BAD_HASHLEN);
        return;
    }
    let tree = input.tree();
    if tree_info != 0 && tree.is_none() {
        assert_eq!(rc, SKEIN_FAIL, "tree word {tree_info:#x}");
        return;
    }
    assert_eq!(rc, SKEIN_SUCCESS);
    let mut rust = input.rust_params();
    if tree_info != 0 {
        rust = rust.tree(tree.unwrap());
    }
    let want: Vec<u8> = SkeinMany::<W>::with_params(&rust)
        .unwrap()
        .hash_many_vec(&messages)
        .concat();
    assert_eq!(out, want, "hash_many");
    // Null arrays are refused unless there are no messages.
    // SAFETY: null arrays with a count of 0, then null arrays the library must refuse.
    unsafe {
        assert_eq!(
            (api.hash_many)(
                &params,
                core::ptr::null(),
                core::ptr::null(),
                0,
                core::ptr::null_mut()
            ),
            SKEIN_SUCCESS
        );
        assert_eq!(
            (api.hash_many)(
                &params,
                core::ptr::null(),
                core::ptr::null(),
                1,
                out.as_mut_ptr()
            ),
            SKEIN_FAIL
        );
        assert_eq!(
            (api.hash_many)(
                core::ptr::null(),
                core::ptr::null(),
                core::ptr::null(),
                0,
                core::ptr::null_mut()
            ),
            SKEIN_FAIL
        );
    }
}

/// `bytes`, repeated, as every byte of a context (the field order of the
/// C struct, little-endian).
fn context_of_bytes<const W: usize>(bytes: &[u8]) -> Ctx<W> {
    let mut all = bytes.iter().copied().cycle();
    let mut next = |n: usize| -> Vec<u8> {
        (0..n)
            .map(|_| all.next().unwrap_or(0xFF)) // no bytes: all 0xFF
            .collect()
    };
    const Z: usize = size_of::<usize>();
    let mut ctx = Ctx::<W>::ZEROED;
    ctx.h.hash_bit_len = usize::from_le_bytes(next(Z).try_into().unwrap());
    ctx.h.b_cnt = usize::from_le_bytes(next(Z).try_into().unwrap());
    for t in &mut ctx.h.t {
        *t = u64::from_le_bytes(next(8).try_into().unwrap());
    }
    for x in &mut ctx.x {
        *x = u64::from_le_bytes(next(8).try_into().unwrap());
    }
    for b in &mut ctx.b {
        b.copy_from_slice(&next(8));
    }
    ctx
}

fn corrupt<const W: usize>(ctx: &mut Ctx<W>, corruption: &Corruption) {
    match corruption {
        Corruption::BufferFill(n) => ctx.h.b_cnt = usize::from(*n),
        Corruption::BufferFillAny(n) => ctx.h.b_cnt = *n,
        Corruption::Tweak0(t) => ctx.h.t[0] = *t,
        Corruption::Tweak1(t) => ctx.h.t[1] = *t,
        Corruption::Flags(f) => ctx.h.t[1] |= *f,
        Corruption::Chain(i, v) => ctx.x[usize::from(*i) % W] = *v,
        Corruption::OutputBits(n) => ctx.h.hash_bit_len = usize::from(*n),
        Corruption::OutputBitsAny(n) => ctx.h.hash_bit_len = *n,
        Corruption::OutputBitsNearMax(n) => ctx.h.hash_bit_len = usize::MAX - usize::from(*n),
        Corruption::Whole(bytes) => *ctx = context_of_bytes(bytes),
    }
}

/// Whether the library must refuse the context: one no init produces.
fn refused<const W: usize>(ctx: &Ctx<W>) -> bool {
    ctx.h.b_cnt > 8 * W || ctx.h.hash_bit_len == 0 || ctx.h.hash_bit_len > MAX_HASH_BIT_LEN
}

fn same<const W: usize>(a: &Ctx<W>, b: &Ctx<W>) -> bool {
    a.h.hash_bit_len == b.h.hash_bit_len
        && a.h.b_cnt == b.h.b_cnt
        && a.h.t == b.h.t
        && a.x == b.x
        && a.b == b.b
}

/// `finish` (`Final`, `Final_Pad` or `Output`) of `ctx` into a buffer of
/// `len` bytes and a guard: `None` when the output is too large to give.
/// Checks that nothing beyond the `len` bytes was written, and nothing at all
/// on failure.
fn finish_guarded<const W: usize>(
    finish: Finish<W>,
    ctx: &mut Ctx<W>,
    len: usize,
) -> Option<c_int> {
    if len > MAX_FINISH_BYTES {
        return None;
    }
    let mut out = vec![0xA5u8; len + GUARD];
    // SAFETY: a valid context; `out` has the `len` bytes the call may write.
    let rc = unsafe { finish(ctx, out.as_mut_ptr()) };
    let untouched = if rc == SKEIN_SUCCESS { len } else { 0 };
    assert!(
        out[untouched..].iter().all(|&b| b == 0xA5),
        "wrote beyond {untouched} bytes, returning {rc}"
    );
    Some(rc)
}

/// A context a C program damaged, then given to every function that takes
/// one: `SKEIN_FAIL` exactly when it is one no init produces, and then
/// nothing written and the context unchanged.
fn check_corrupted<const W: usize>(api: &Api<W>, input: &Input) {
    let mut ctx = Ctx::<W>::ZEROED;
    if api.init_ext(
        &mut ctx,
        input.output_bits().max(1),
        u64::from(input.tree_info),
        &input.key,
    ) != SKEIN_SUCCESS
    {
        panic!("InitExt failed");
    }
    let messages = input.split(&input.message);
    assert_eq!(api.update(&mut ctx, messages[0]), SKEIN_SUCCESS);
    corrupt(&mut ctx, &input.corruption);
    let bad = refused(&ctx);
    let want = if bad { SKEIN_FAIL } else { SKEIN_SUCCESS };
    let what = &input.corruption;
    let rest = messages.get(1).copied().unwrap_or(&[]);
    let before = ctx;
    let mut updated = ctx;
    assert_eq!(
        api.update(&mut updated, rest),
        want,
        "Update after {what:?}"
    );
    if bad {
        assert!(same(&updated, &before), "Update changed a refused context");
    }
    let out_len = ctx.h.hash_bit_len.div_ceil(8);
    // A refused context gets a 4 KiB buffer it must leave alone.
    let given = if bad { 4096 } else { out_len };
    for (name, finish, len) in [
        ("Final", api.finish, given),
        ("Final_Pad", api.final_pad, 8 * W),
        ("Output", api.output, given),
    ] {
        let mut c = updated;
        if let Some(rc) = finish_guarded(finish, &mut c, len) {
            assert_eq!(rc, want, "{name} after {what:?}");
            if bad {
                assert!(same(&c, &before), "{name} changed a refused context");
            }
        }
    }
}

/// `hash_many` with the messages (pieces of `input.message`) and the results
/// in one buffer, the results at `input.results_at`: `SKEIN_FAIL` and the
/// buffer unchanged when a message shares a byte with them, else the results
/// of separate buffers.
fn check_overlap<const W: usize>(api: &Api<W>, input: &Input) {
    let bits = input.output_bits();
    if bits == 0 {
        return;
    }
    let params = input.c_params(0);
    let messages = input.split(&input.message);
    let total = messages.len() * bits.div_ceil(8);
    let mut want = vec![0u8; total];
    assert_eq!(api.hash_many(&params, &messages, &mut want), SKEIN_SUCCESS);
    let size = input.message.len() + total + 1;
    let mut buf = input.message.clone();
    buf.resize(size, 0x3C);
    let at = usize::from(input.results_at) % (size - total);
    let mut ranges = Vec::new();
    let mut start = 0;
    for m in &messages {
        ranges.push((start, m.len()));
        start += m.len();
    }
    let shared = ranges
        .iter()
        .any(|&(s, n)| n != 0 && s < at + total && at < s + n);
    let copy = buf.clone();
    let base = buf.as_mut_ptr();
    let ptrs: Vec<*const u8> = ranges
        .iter()
        .map(|&(s, _)| base.wrapping_add(s).cast_const())
        .collect();
    let lens: Vec<usize> = ranges.iter().map(|&(_, n)| n).collect();
    // SAFETY: every pointer is into `buf` (derived from one raw pointer, with
    // no reference to it alive during the call), with the stated lengths;
    // the results fit in `buf` after `at`.
    let rc = unsafe {
        (api.hash_many)(
            &params,
            ptrs.as_ptr(),
            lens.as_ptr(),
            messages.len(),
            base.wrapping_add(at),
        )
    };
    if shared {
        assert_eq!(rc, SKEIN_FAIL, "results at {at} over a message");
        assert_eq!(buf, copy, "a refused hash_many wrote");
    } else {
        assert_eq!(rc, SKEIN_SUCCESS);
        assert_eq!(
            &buf[at..at + total],
            &want[..],
            "results beside the messages"
        );
        assert_eq!(buf[..at], copy[..at]);
        assert_eq!(buf[at + total..], copy[at + total..]);
    }
}

fn check_null_pointers<const W: usize>(api: &Api<W>) {
    let mut ctx = Ctx::<W>::ZEROED;
    assert_eq!(api.init(&mut ctx, 8 * W), SKEIN_SUCCESS);
    let mut out = [0u8; 128];
    // SAFETY: null pointers, which the library must refuse (or accept with a
    // length of 0), and buffers large enough for any state size.
    unsafe {
        assert_eq!((api.init)(core::ptr::null_mut(), 256), SKEIN_FAIL);
        assert_eq!(
            (api.init_ext)(&mut ctx, 256, 0, core::ptr::null(), 1),
            SKEIN_FAIL
        );
        assert_eq!((api.init_params)(&mut ctx, core::ptr::null()), SKEIN_FAIL);
        assert_eq!(
            (api.init_params)(core::ptr::null_mut(), core::ptr::null()),
            SKEIN_FAIL
        );
        assert_eq!(api.init(&mut ctx, 8 * W), SKEIN_SUCCESS);
        assert_eq!((api.update)(&mut ctx, core::ptr::null(), 0), SKEIN_SUCCESS);
        assert_eq!((api.update)(&mut ctx, core::ptr::null(), 1), SKEIN_FAIL);
        assert_eq!(
            (api.update)(core::ptr::null_mut(), out.as_ptr(), 1),
            SKEIN_FAIL
        );
        for finish in [api.finish, api.final_pad, api.output] {
            assert_eq!(finish(core::ptr::null_mut(), out.as_mut_ptr()), SKEIN_FAIL);
            assert_eq!(finish(&mut ctx, core::ptr::null_mut()), SKEIN_FAIL);
        }
        assert_eq!((api.finish)(&mut ctx, out.as_mut_ptr()), SKEIN_SUCCESS);
    }
}

fn check_state_size<const W: usize>(api: &Api<W>, input: &Input) {
    check_reference_api(api, input);
    check_tree_walk(api, input);
    check_hash_many(api, input);
    check_overlap(api, input);
    check_corrupted(api, input);
    check_null_pointers(api);
}

/// Safe wrappers of the NIST API on a live `hashState`.
fn nist_init(state: &mut HashState, bits: c_int) -> c_int {
    // SAFETY: a valid state.
    unsafe { Init(state, bits) }
}
fn nist_update(state: &mut HashState, data: &[u8], bits: usize) -> c_int {
    assert!(bits.div_ceil(8) <= data.len());
    // SAFETY: a valid state; `data` holds at least `ceil(bits / 8)` bytes.
    unsafe { Update(state, nullable(data), bits) }
}
fn nist_final(state: &mut HashState) -> (c_int, Vec<u8>) {
    let mut out = vec![0u8; state.ctx.h.hash_bit_len.div_ceil(8)];
    // SAFETY: a valid state; `out` has the bytes `Final` writes.
    let rc = unsafe { Final(state, out.as_mut_ptr()) };
    (rc, out)
}

fn check_nist(input: &Input) {
    let bits = c_int::from(input.nist_bits);
    let bits = if bits > 0 {
        bits % c_int::from(MAX_OUTPUT_BITS) + 1
    } else {
        bits
    };
    let mut state = HashState {
        statebits: 0,
        ctx: Ctx::ZEROED,
    };
    let mut out = vec![0u8; usize::try_from(bits).unwrap_or(0).div_ceil(8)];
    // SAFETY: `out` has the result's bytes; the message slice is live.
    let one_shot = unsafe {
        Hash(
            bits,
            nullable(&input.message),
            input.bits() as usize,
            out.as_mut_ptr(),
        )
    };
    if bits <= 0 {
        assert_eq!(nist_init(&mut state, bits), SKEIN_BAD_HASHLEN);
        assert_eq!(one_shot, SKEIN_BAD_HASHLEN);
        return;
    }
    assert_eq!(one_shot, SKEIN_SUCCESS);
    assert_eq!(nist_init(&mut state, bits), SKEIN_SUCCESS);
    // The pieces in bits: whole bytes, the partial byte ending the last
    // non-empty piece (empty calls may follow it).
    let pieces = input.split(&input.message);
    let last = pieces.iter().rposition(|p| !p.is_empty());
    for (i, piece) in pieces.iter().enumerate() {
        let cut = if Some(i) == last && input.partial() != 0 {
            8 - input.partial() as usize
        } else {
            0
        };
        assert_eq!(
            nist_update(&mut state, piece, 8 * piece.len() - cut),
            SKEIN_SUCCESS
        );
    }
    if input.partial() != 0 {
        assert_eq!(
            nist_update(&mut state, b"x", 8),
            SKEIN_FAIL,
            "Update after a partial byte"
        );
    }
    let (rc, got) = nist_final(&mut state);
    assert_eq!(rc, SKEIN_SUCCESS);
    let params = Params::new().output_bits(bits as u64);
    let want = if bits <= 512 {
        rust_hash::<8>(&params, input)
    } else {
        rust_hash::<16>(&params, input)
    };
    assert_eq!(got, want, "NIST Init/Update/Final, {bits} bits");
    assert_eq!(out, want, "NIST Hash, {bits} bits");

    // A state whose size field a C program overwrote.
    let mut bad = state;
    bad.statebits = c_uint::from(input.state_query);
    // Another valid size reads the same bytes as that context: any result.
    let rc = nist_update(&mut bad, b"", 0);
    if !matches!(bad.statebits, 256 | 512 | 1024) {
        assert_eq!(rc, SKEIN_FAIL, "Update with statebits {}", bad.statebits);
        assert_eq!(
            nist_final(&mut bad).0,
            SKEIN_FAIL,
            "Final with statebits {}",
            bad.statebits
        );
    }
    // The context inside the state corrupted as skein.h's are: the same
    // rule for the state size `Init` chose (its `bCnt` limit is that size's
    // block).
    let mut bad = state;
    corrupt(&mut bad.ctx, &input.corruption);
    let refused = bad.ctx.h.b_cnt > bad.statebits as usize / 8
        || bad.ctx.h.hash_bit_len == 0
        || bad.ctx.h.hash_bit_len > MAX_HASH_BIT_LEN;
    let want = if refused { SKEIN_FAIL } else { SKEIN_SUCCESS };
    let mut c = bad;
    assert_eq!(
        nist_update(&mut c, b"", 0),
        want,
        "NIST Update after {:?}",
        input.corruption
    );
    let len = if refused {
        4096
    } else {
        bad.ctx.h.hash_bit_len.div_ceil(8)
    };
    if len <= MAX_FINISH_BYTES {
        let mut out = vec![0xA5u8; len + GUARD];
        let mut c = bad;
        // SAFETY: a valid state; `out` has the bytes `Final` may write.
        let rc = unsafe { Final(&mut c, out.as_mut_ptr()) };
        assert_eq!(rc, want, "NIST Final after {:?}", input.corruption);
        let untouched = if rc == SKEIN_SUCCESS { len } else { 0 };
        assert!(
            out[untouched..].iter().all(|&b| b == 0xA5),
            "NIST Final wrote beyond {untouched} bytes"
        );
    }

    // SAFETY: null pointers the library must refuse.
    unsafe {
        assert_eq!(Init(core::ptr::null_mut(), 256), SKEIN_FAIL);
        assert_eq!(
            Update(core::ptr::null_mut(), core::ptr::null(), 0),
            SKEIN_FAIL
        );
        assert_eq!(Final(core::ptr::null_mut(), out.as_mut_ptr()), SKEIN_FAIL);
    }
}

/// The backend queries name what this process uses, for the three sizes only.
fn check_queries(input: &Input) {
    let q = usize::from(input.state_query);
    let valid = matches!(q, 256 | 512 | 1024);
    // SAFETY: the functions take any value and return static C strings or null.
    let (name, many, lanes, version) = unsafe {
        (
            skein_simd_backend(q),
            skein_simd_many_backend(q),
            skein_simd_many_lanes(q),
            skein_simd_version(),
        )
    };
    assert_eq!(!name.is_null(), valid);
    assert_eq!(!many.is_null(), valid);
    assert_eq!(lanes != 0, valid);
    assert!(!version.is_null());
    // The library reads SKEIN_SIMD_BACKEND once; without it, the detected backend.
    if valid && std::env::var_os("SKEIN_SIMD_BACKEND").is_none() {
        // SAFETY: non-null results are NUL-terminated static strings.
        let name = unsafe { core::ffi::CStr::from_ptr(name) }.to_str().unwrap();
        assert_eq!(name, Platform::detect().backend().name());
    }
}

fuzz_target!(|input: Input| {
    match input.state % 3 {
        0 => check_state_size(&API_256, &input),
        1 => check_state_size(&API_512, &input),
        _ => check_state_size(&API_1024, &input),
    }
    check_nist(&input);
    check_queries(&input);
});
