//! The reference's hash contexts as plain data, and what the reference's
//! functions do to them, in safe Rust over the library's block function.
//!
//! Every field lives in the C struct: the chaining value `X`, the tweak `T`,
//! the buffered block `b` and its fill `bCnt`. Nothing is kept elsewhere and
//! nothing points anywhere, so a C program may copy a context by assignment
//! (the ZFS template) or set its tweak words (tree hashing) between calls,
//! exactly as with the reference code. The backend is the process-wide one of
//! [`crate::platform`]; contexts never store it.

use core::ffi::c_int;
use skein_simd::hazmat::BlockType;

use skein_simd::{hazmat, Platform};
use zeroize::Zeroize;

pub(crate) const SKEIN_SUCCESS: c_int = 0;
pub(crate) const SKEIN_FAIL: c_int = 1;
pub(crate) const SKEIN_BAD_HASHLEN: c_int = 2;

/// The largest `hashBitLen` accepted: above it the reference's byte count
/// `(hashBitLen + 7) >> 3` wraps around in `size_t` (to 0).
pub(crate) const MAX_HASH_BIT_LEN: usize = usize::MAX - 7;

/// `SKEIN_BAD_HASHLEN` for an output length of 0 bits or above
/// [`MAX_HASH_BIT_LEN`], else `SKEIN_SUCCESS`.
pub(crate) fn check_hash_bit_len(bits: usize) -> c_int {
    if (1..=MAX_HASH_BIT_LEN).contains(&bits) {
        SKEIN_SUCCESS
    } else {
        SKEIN_BAD_HASHLEN
    }
}

// Tweak word 1 fields, as the reference skein.h's SKEIN_T1_* macros define
// them (spec 3.5.1: tweak bit 126 first, 127 final, 119 bit pad, type from
// bit 120; word 1 holds tweak bits 64..127).
pub(crate) const T1_FLAG_FIRST: u64 = 1 << (126 - 64);
pub(crate) const T1_FLAG_FINAL: u64 = 1 << (127 - 64);
pub(crate) const T1_FLAG_BIT_PAD: u64 = 1 << (119 - 64);
const T1_POS_BLK_TYPE: u32 = 120 - 64;

/// `Skein_Ctxt_Hdr_t`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CtxHdr {
    /// Output length in bits (`hashBitLen`).
    pub hash_bit_len: usize,
    /// Bytes buffered in `b` (`bCnt`).
    pub b_cnt: usize,
    /// Tweak: position, then flags, type and tree level (`T`).
    pub t: [u64; 2],
}

/// `Skein_256_Ctxt_t`, `Skein_512_Ctxt_t` and `Skein1024_Ctxt_t`: header,
/// chaining value, block buffer (`u08b_t b[8 * W]`, as `[[u8; 8]; W]` for a
/// length stable Rust can spell; same size and alignment).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Ctx<const W: usize> {
    /// `h`.
    pub h: CtxHdr,
    /// `X`.
    pub x: [u64; W],
    /// `b`.
    pub b: [[u8; 8]; W],
}

impl<const W: usize> Ctx<W> {
    const BLOCK: usize = 8 * W;

    /// All fields zero: what [`Self::wipe`] leaves, refused by
    /// [`Self::validate`] (`hashBitLen` 0) until an init.
    pub const ZEROED: Self = Self {
        h: CtxHdr {
            hash_bit_len: 0,
            b_cnt: 0,
            t: [0; 2],
        },
        x: [0; W],
        b: [[0; 8]; W],
    };

    /// Zero every field, with writes the compiler keeps (a keyed context
    /// holds key material); the context is then refused until an init.
    pub(crate) fn wipe(&mut self) {
        self.h.hash_bit_len.zeroize();
        self.h.b_cnt.zeroize();
        self.h.t.zeroize();
        self.x.zeroize();
        self.b.zeroize();
    }

    /// Whether this can be a context that an init produced: `bCnt` at most a
    /// block and `hashBitLen` one that init accepts. Every function that
    /// takes a context in use checks it with this first, and refuses it with
    /// `SKEIN_FAIL` before reading anything else or writing anything. The
    /// reference checks `bCnt` only (the rest is its undefined behaviour:
    /// output from a wrapped or a 2^61-byte length); the tweak and the
    /// chaining value are the caller's to set, so any value is valid.
    pub(crate) fn validate(&self) -> c_int {
        if self.h.b_cnt > Self::BLOCK || check_hash_bit_len(self.h.hash_bit_len) != SKEIN_SUCCESS {
            SKEIN_FAIL
        } else {
            SKEIN_SUCCESS
        }
    }

    /// `Skein_Start_New_Type`: position 0, first-block flag, `ty`, empty buffer.
    fn start_new_type(&mut self, ty: BlockType, extra_flags: u64) {
        self.h.t = [
            0,
            T1_FLAG_FIRST | extra_flags | ((ty as u64) << T1_POS_BLK_TYPE),
        ];
        self.h.b_cnt = 0;
    }

    /// `InitExt`, plus the arguments of spec 3.5 that the reference's API
    /// lacks (personalization, public key, key identifier, nonce), each as a
    /// UBI after the configuration, in the specification's order. An empty
    /// argument is an absent one, as for the key in the reference.
    ///
    /// Without a key or arguments (plain `Init`, where this is inlined and
    /// the test folds away) only the header and `X` are written, as by the
    /// reference's `Init`: `b` is not read before `Update` fills it and
    /// `Final` pads it from `bCnt`.
    #[inline]
    pub(crate) fn init(
        &mut self,
        p: &Platform,
        hash_bit_len: usize,
        tree_info: u64,
        key: &[u8],
        rest: [(BlockType, &[u8]); 4],
    ) -> c_int {
        let rc = check_hash_bit_len(hash_bit_len);
        if rc != SKEIN_SUCCESS {
            return rc;
        }
        self.h.hash_bit_len = hash_bit_len;
        if key.is_empty() && rest.iter().all(|(_, arg)| arg.is_empty()) {
            self.x = hazmat::config_chain::<W>(p, &[0; W], hash_bit_len as u64, tree_info);
        } else {
            self.init_with_args(p, tree_info, key, rest);
        }
        self.start_new_type(BlockType::Message, 0);
        SKEIN_SUCCESS
    }

    /// The chain of [`Self::init`] with a key or arguments: a key or an
    /// argument leaves its last block (padded) in `b`, so `b` is zeroed after
    /// them (the reference leaves the key's there).
    #[inline(never)]
    fn init_with_args(
        &mut self,
        p: &Platform,
        tree_info: u64,
        key: &[u8],
        rest: [(BlockType, &[u8]); 4],
    ) {
        self.x = [0; W];
        if !key.is_empty() {
            self.x = self.ubi(p, BlockType::Key, key);
        }
        let bits = self.h.hash_bit_len as u64;
        self.x = hazmat::config_chain::<W>(p, &self.x, bits, tree_info);
        for (ty, arg) in rest {
            if !arg.is_empty() {
                self.x = self.ubi(p, ty, arg);
            }
        }
        self.b = [[0; 8]; W];
    }

    /// A whole UBI of type `ty` over `data`, from the current chain, as
    /// `InitExt` does for the key (Update then Final_Pad). The context is
    /// valid (`hashBitLen` is set first).
    fn ubi(&mut self, p: &Platform, ty: BlockType, data: &[u8]) -> [u64; W] {
        self.start_new_type(ty, 0);
        self.update(p, data);
        self.process_final(p);
        self.x
    }

    /// `Update`: buffer the input, compress every block except the last one
    /// (only `Final` knows which is final). `SKEIN_FAIL` for a context that
    /// fails [`Self::validate`] (uninitialized or corrupted), where the
    /// reference's only check is a disabled assertion. Inlined: input that
    /// fits in the buffer is one copy; the rest is [`Self::update_blocks`].
    #[inline]
    pub(crate) fn update(&mut self, p: &Platform, msg: &[u8]) -> c_int {
        if self.validate() != SKEIN_SUCCESS {
            return SKEIN_FAIL;
        }
        let fill = self.h.b_cnt;
        if msg.len() <= Self::BLOCK - fill {
            self.b.as_flattened_mut()[fill..fill + msg.len()].copy_from_slice(msg);
            self.h.b_cnt = fill + msg.len();
        } else {
            self.update_blocks(p, msg);
        }
        SKEIN_SUCCESS
    }

    /// [`Self::update`] of more than the buffer's free room: fill and
    /// compress the buffer, compress whole blocks in place, keep the last.
    #[inline(never)]
    fn update_blocks(&mut self, p: &Platform, mut msg: &[u8]) {
        let block = Self::BLOCK;
        let mut fill = self.h.b_cnt;
        if fill > 0 {
            let (head, tail) = msg.split_at(block - fill);
            self.b.as_flattened_mut()[fill..].copy_from_slice(head);
            msg = tail;
            hazmat::compress::<W>(
                p,
                &mut self.x,
                &mut self.h.t,
                self.b.as_flattened(),
                block as u64,
            );
            fill = 0;
        }
        if msg.len() > block {
            let (whole, tail) = msg.split_at((msg.len() - 1) / block * block);
            hazmat::compress::<W>(p, &mut self.x, &mut self.h.t, whole, block as u64);
            msg = tail;
        }
        self.b.as_flattened_mut()[fill..fill + msg.len()].copy_from_slice(msg);
        self.h.b_cnt = fill + msg.len();
    }

    /// The final block of the UBI in progress: final flag, zero padding.
    /// The context must pass [`Self::validate`] (its callers check).
    /// Inlined, as is the output stage, so that `Final` is one function of
    /// two block-function calls.
    #[inline(always)]
    fn process_final(&mut self, p: &Platform) {
        let fill = self.h.b_cnt;
        // The flag through `black_box`: with a known constant LLVM narrows
        // this to a one-byte `or` of the tweak's top byte, which the block
        // function's 8-byte load of the word cannot take from the store
        // buffer (a store-forwarding stall at the start of every final
        // block); opaque, it stays a whole-word `or`, as gcc's `bts`.
        self.h.t[1] |= core::hint::black_box(T1_FLAG_FINAL);
        if fill < Self::BLOCK {
            self.b.as_flattened_mut()[fill..].fill(0);
        }
        hazmat::compress::<W>(
            p,
            &mut self.x,
            &mut self.h.t,
            self.b.as_flattened(),
            fill as u64,
        );
    }

    /// `Final_Pad`: finish the UBI and write the whole chaining value
    /// (`8 * W` bytes, whatever `hashBitLen` says) to `out`. `SKEIN_FAIL` for
    /// a context that fails [`Self::validate`].
    pub(crate) fn final_pad(&mut self, p: &Platform, out: &mut [u8]) -> c_int {
        if self.validate() != SKEIN_SUCCESS {
            return SKEIN_FAIL;
        }
        self.process_final(p);
        for (bytes, word) in out.chunks_exact_mut(8).zip(&self.x) {
            bytes.copy_from_slice(&word.to_le_bytes());
        }
        SKEIN_SUCCESS
    }

    /// `Final`: finish the UBI, then the output stage. `SKEIN_FAIL` for a
    /// context that fails [`Self::validate`].
    pub(crate) fn finalize(&mut self, p: &Platform, out: &mut [u8]) -> c_int {
        if self.validate() != SKEIN_SUCCESS {
            return SKEIN_FAIL;
        }
        self.finalize_valid(p, out);
        SKEIN_SUCCESS
    }

    /// [`Self::finalize`] of a context that passed [`Self::validate`] (for
    /// callers that checked it already, to size `out`).
    pub(crate) fn finalize_valid(&mut self, p: &Platform, out: &mut [u8]) {
        if out.len() > Self::BLOCK {
            self.process_final(p);
            self.output_stage(p, out);
        } else {
            self.process_final_and_output_block(p, out);
        }
    }

    /// [`Self::process_final`], then the output stage of one block (every
    /// `Final` up to the state size) in the same call of the block function
    /// ([`hazmat::compress_then_output`]: on x86-64 the chain stays in
    /// registers, with no second entry and no copy of `X`). Leaves the
    /// context as [`Self::output_stage`] does. `out` is at most a block.
    #[inline(always)]
    fn process_final_and_output_block(&mut self, p: &Platform, out: &mut [u8]) {
        let fill = self.h.b_cnt;
        // The flag through `black_box`, as in `process_final`.
        self.h.t[1] |= core::hint::black_box(T1_FLAG_FINAL);
        if fill < Self::BLOCK {
            self.b.as_flattened_mut()[fill..].fill(0);
        }
        hazmat::compress_then_output::<W>(
            p,
            &mut self.x,
            &mut self.h.t,
            self.b.as_flattened(),
            fill as u64,
            out,
        );
        // What the output stage of one block leaves: counter 0 in `b`, the
        // output tweak after its block, nothing buffered.
        self.b = [[0; 8]; W];
        self.h.t = [
            8,
            T1_FLAG_FINAL | ((BlockType::Output as u64) << T1_POS_BLK_TYPE),
        ];
        self.h.b_cnt = 0;
    }

    /// Output length in bytes, `ceil(hashBitLen / 8)`.
    pub(crate) fn output_len(&self) -> usize {
        self.h.hash_bit_len.div_ceil(8)
    }

    /// `Output`: the output stage (spec 3.5.3) from the chaining value `X`.
    /// `SKEIN_FAIL` for a context that fails [`Self::validate`].
    pub(crate) fn output(&mut self, p: &Platform, out: &mut [u8]) -> c_int {
        if self.validate() != SKEIN_SUCCESS {
            return SKEIN_FAIL;
        }
        self.output_stage(p, out);
        SKEIN_SUCCESS
    }

    /// The output stage into `out` (block `i` of it is UBI(X, i as 8 bytes,
    /// OUT)). One block (every `Final` up to the state size) is one
    /// block-function call here; longer outputs take the library's path
    /// ([`hazmat::output`]: the multi-lane kernel from 8 blocks on). Leaves
    /// the context as the reference's `Output` does: `X` unchanged (a later
    /// `Output` gives the same bytes), the last counter block in `b` (which
    /// overwrites the message's last block there), the output tweak after
    /// its one block in `T`, `bCnt` 0. The one copy of `X` made here (the
    /// output block, on the stack) is wiped.
    #[inline(always)]
    fn output_stage(&mut self, p: &Platform, out: &mut [u8]) {
        let blocks = out.len().div_ceil(Self::BLOCK);
        self.b = [[0; 8]; W];
        self.b[0] = (blocks.saturating_sub(1) as u64).to_le_bytes();
        let tweak = [
            0,
            T1_FLAG_FIRST | T1_FLAG_FINAL | ((BlockType::Output as u64) << T1_POS_BLK_TYPE),
        ];
        self.h.t = tweak;
        self.h.b_cnt = 0;
        if blocks > 1 {
            hazmat::output::<W>(p, &self.x, out);
            self.h.t = [8, tweak[1] & !T1_FLAG_FIRST];
            return;
        }
        // Word by word, each through `black_box`: the block function has
        // just stored `X` as 8-byte words, and the 16-byte loads of the
        // copy LLVM would make cannot take their bytes from two stores
        // (a store-forwarding stall before the output block can start).
        let mut chain: [u64; W] = core::array::from_fn(|i| core::hint::black_box(self.x[i]));
        hazmat::compress::<W>(p, &mut chain, &mut self.h.t, self.b.as_flattened(), 8);
        if out.len() == Self::BLOCK {
            // The whole block (`Final` at the state size): fixed-size stores.
            for (bytes, word) in out[..Self::BLOCK].chunks_exact_mut(8).zip(&chain) {
                bytes.copy_from_slice(&word.to_le_bytes());
            }
        } else {
            let (words, tail) = out.split_at_mut(out.len() / 8 * 8);
            for (bytes, word) in words.chunks_exact_mut(8).zip(&chain) {
                bytes.copy_from_slice(&word.to_le_bytes());
            }
            if !tail.is_empty() {
                let word = chain[words.len() / 8].to_le_bytes();
                tail.copy_from_slice(&word[..tail.len()]);
            }
        }
        chain.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::{align_of, offset_of, size_of};

    /// The reference's struct definitions, field by field: two `size_t`
    /// then `u64b_t T[2]` in the header; then `u64b_t X[W]`; then
    /// `u08b_t b[8 W]`. C puts `T` right after the two `size_t` when they
    /// fill whole `u64` alignment units, which is every target with 4- or
    /// 8-byte `size_t`.
    #[test]
    fn layout_is_the_reference_layout() {
        let z = size_of::<usize>();
        assert_eq!(offset_of!(CtxHdr, hash_bit_len), 0);
        assert_eq!(offset_of!(CtxHdr, b_cnt), z);
        assert_eq!(offset_of!(CtxHdr, t), 2 * z);
        assert_eq!(size_of::<CtxHdr>(), 2 * z + 16);
        for (w, size, x, b) in [
            (
                4,
                size_of::<Ctx<4>>(),
                offset_of!(Ctx<4>, x),
                offset_of!(Ctx<4>, b),
            ),
            (
                8,
                size_of::<Ctx<8>>(),
                offset_of!(Ctx<8>, x),
                offset_of!(Ctx<8>, b),
            ),
            (
                16,
                size_of::<Ctx<16>>(),
                offset_of!(Ctx<16>, x),
                offset_of!(Ctx<16>, b),
            ),
        ] {
            assert_eq!(x, 2 * z + 16, "X of W={w}");
            assert_eq!(b, 2 * z + 16 + 8 * w, "b of W={w}");
            assert_eq!(size, 2 * z + 16 + 16 * w, "sizeof of W={w}");
        }
        assert_eq!(align_of::<Ctx<8>>(), align_of::<u64>());
    }
}
