//! skein_simd.h's subtree hashing: the library's `hazmat::ObjectTree` for C
//! (docs/subtree.md). A tree is a heap object behind an opaque pointer;
//! ranges are plain structs; values are the library's byte form, so they
//! travel between processes and machines as they are.

use super::{library_params, skein_simd_params_t, slice_of};
use crate::context::{SKEIN_FAIL, SKEIN_SUCCESS};
use crate::{forced_backend, input, output, Region, NOWHERE};
use core::ffi::c_int;
use skein_simd::hazmat::{ObjectTree, SubtreeRange, Subtrees};

/// `skein_simd_subtree_range_t`: the nodes `first .. first + count` of
/// tree level `level` (1: leaves) and the object's bytes `start .. end`
/// under them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct skein_simd_subtree_range_t {
    /// The level (1: leaves).
    pub level: u32,
    /// The first node of the run.
    pub first: u64,
    /// How many nodes.
    pub count: u64,
    /// The first byte under them.
    pub start: u64,
    /// One past the last byte under them.
    pub end: u64,
}

/// `skein_simd_object_tree_t`: the tree of one object, of one state size.
pub enum skein_simd_object_tree_t {
    /// Skein-256.
    S256(ObjectTree<4>),
    /// Skein-512.
    S512(ObjectTree<8>),
    /// Skein-1024.
    S1024(ObjectTree<16>),
}

/// `$body` with `$t` the tree whatever its state size, `$w` its words.
macro_rules! with_tree {
    ($tree:expr, $t:ident, $w:ident => $body:expr) => {
        match $tree {
            skein_simd_object_tree_t::S256($t) => {
                const $w: usize = 4;
                $body
            }
            skein_simd_object_tree_t::S512($t) => {
                const $w: usize = 8;
                $body
            }
            skein_simd_object_tree_t::S1024($t) => {
                const $w: usize = 16;
                $body
            }
        }
    };
}

/// The library's range for `r`, if it is one of `tree`'s.
fn range_in<const W: usize>(
    tree: &ObjectTree<W>,
    r: &skein_simd_subtree_range_t,
) -> Option<SubtreeRange> {
    let level = u8::try_from(r.level).ok()?;
    let range = tree.range(level, r.first, r.count).ok()?;
    (range.bytes() == (r.start..r.end)).then_some(range)
}

fn c_range(r: &SubtreeRange) -> skein_simd_subtree_range_t {
    skein_simd_subtree_range_t {
        level: r.level().into(),
        first: r.first(),
        count: r.count(),
        start: r.bytes().start,
        end: r.bytes().end,
    }
}

/// The tree of an object of `length` bytes hashed with `params` (whose
/// `treeInfo` must be a tree) and a state of `stateBits` (256, 512, 1024):
/// a new object in `*tree`, freed by `skein_simd_object_tree_free`.
/// `SKEIN_FAIL` for a NULL pointer, a bad size, no or a bad tree word;
/// `SKEIN_BAD_HASHLEN` for `hashBitLen` 0.
///
/// # Safety
/// `params` is NULL or valid, with its argument pointers valid for their
/// lengths; `tree` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn skein_simd_object_tree_new(
    stateBits: usize,
    params: *const skein_simd_params_t,
    length: u64,
    tree: *mut *mut skein_simd_object_tree_t,
) -> c_int {
    // SAFETY: the caller passes null or a valid pointer.
    let Some(p) = (unsafe { params.as_ref() }) else {
        return SKEIN_FAIL;
    };
    if tree.is_null() {
        return SKEIN_FAIL;
    }
    // SAFETY: the caller's contract for the argument pointers.
    let mut params = match unsafe { library_params(p) } {
        Ok(params) => params,
        Err(rc) => return rc,
    };
    // A sequential word is valid for hashing, not for a tree.
    if p.treeInfo == 0 {
        return SKEIN_FAIL;
    }
    if let Some(b) = forced_backend() {
        params = params.backend(b);
    }
    let made = match stateBits {
        256 => ObjectTree::new(&params, length).map(skein_simd_object_tree_t::S256),
        512 => ObjectTree::new(&params, length).map(skein_simd_object_tree_t::S512),
        1024 => ObjectTree::new(&params, length).map(skein_simd_object_tree_t::S1024),
        _ => return SKEIN_FAIL,
    };
    let Ok(made) = made else { return SKEIN_FAIL };
    // SAFETY: checked non-null; the caller's contract: valid for a write.
    unsafe { tree.write(Box::into_raw(Box::new(made))) };
    SKEIN_SUCCESS
}

/// Free a tree made by `skein_simd_object_tree_new` (NULL: nothing).
///
/// # Safety
/// `tree` is NULL or a pointer `skein_simd_object_tree_new` wrote, not freed.
#[no_mangle]
pub unsafe extern "C" fn skein_simd_object_tree_free(tree: *mut skein_simd_object_tree_t) {
    if !tree.is_null() {
        // SAFETY: by the contract, a live box of ours.
        drop(unsafe { Box::from_raw(tree) });
    }
}

/// At most `parts` consecutive ranges of about equal size: writes the
/// first `min(n, maxRanges)` to `ranges` and returns `n` (ask with
/// `maxRanges` 0); 0 for a NULL tree, or NULL `ranges` with `maxRanges` > 0.
///
/// # Safety
/// `tree` is NULL or valid; `ranges` has room for `maxRanges` ranges.
#[no_mangle]
pub unsafe extern "C" fn skein_simd_object_tree_split(
    tree: *const skein_simd_object_tree_t,
    parts: usize,
    ranges: *mut skein_simd_subtree_range_t,
    maxRanges: usize,
) -> usize {
    // SAFETY: the caller passes null or a valid tree.
    let Some(tree) = (unsafe { tree.as_ref() }) else {
        return 0;
    };
    if ranges.is_null() && maxRanges > 0 {
        return 0;
    }
    let split: Vec<skein_simd_subtree_range_t> =
        with_tree!(tree, t, _W => t.split(parts).iter().map(c_range).collect());
    for (i, r) in split.iter().take(maxRanges).enumerate() {
        // SAFETY: the caller's contract: room for `maxRanges` ranges.
        unsafe { ranges.add(i).write(*r) };
    }
    split.len()
}

/// Bytes of the values of `range`: 10 + count * stateBits / 8 (0 for a
/// NULL argument).
///
/// # Safety
/// Both pointers are NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn skein_simd_subtree_values_len(
    tree: *const skein_simd_object_tree_t,
    range: *const skein_simd_subtree_range_t,
) -> usize {
    // SAFETY: the caller passes null or valid pointers.
    let (Some(tree), Some(range)) = (unsafe { tree.as_ref() }, unsafe { range.as_ref() }) else {
        return 0;
    };
    let words = with_tree!(tree, _t, W => W);
    usize::try_from(range.count)
        .ok()
        .and_then(|n| n.checked_mul(8 * words))
        .and_then(|n| n.checked_add(10))
        .unwrap_or(0)
}

/// The values of `range` from its bytes (`dataLen` = `end - start` of them
/// at `data`) into `values` (`valuesLen` = `skein_simd_subtree_values_len`
/// bytes). `SKEIN_FAIL`, with nothing written, for a range that is not the
/// tree's, a wrong length, a NULL pointer or `values` overlapping `data`.
///
/// # Safety
/// `tree` and `range` are NULL or valid; `data` has `dataLen` readable
/// bytes and `values` `valuesLen` writable ones.
#[no_mangle]
pub unsafe extern "C" fn skein_simd_subtree_hash(
    tree: *const skein_simd_object_tree_t,
    range: *const skein_simd_subtree_range_t,
    data: *const u8,
    dataLen: usize,
    values: *mut u8,
    valuesLen: usize,
) -> c_int {
    // SAFETY: the caller passes null or valid pointers.
    let (Some(tree), Some(r)) = (unsafe { tree.as_ref() }, unsafe { range.as_ref() }) else {
        return SKEIN_FAIL;
    };
    let out_region: Region = (values.cast_const(), valuesLen);
    // SAFETY: the caller's contract for the two buffers; they must not
    // overlap (the values are written after the data is read, but a
    // shared byte is a caller's mistake either way).
    let Some(data) = (unsafe { input(data, dataLen, out_region) }) else {
        return SKEIN_FAIL;
    };
    // SAFETY: as above.
    let Some(out) = (unsafe { output(values, valuesLen, NOWHERE) }) else {
        return SKEIN_FAIL;
    };
    with_tree!(tree, t, _W => {
        let Some(range) = range_in(t, r) else { return SKEIN_FAIL };
        let bytes = range.bytes();
        if dataLen as u64 != bytes.end - bytes.start {
            return SKEIN_FAIL;
        }
        let Ok(mut hasher) = t.hasher(&range) else { return SKEIN_FAIL };
        hasher.update(data);
        let Ok(done) = hasher.finish() else { return SKEIN_FAIL };
        let encoded = done.to_bytes();
        if encoded.len() != out.len() {
            return SKEIN_FAIL;
        }
        out.copy_from_slice(&encoded);
    });
    SKEIN_SUCCESS
}

/// The digest, `(hashBitLen + 7) / 8` bytes at `hashVal`, from `count`
/// value buffers (`values[i]`, `valuesLens[i]` bytes): consecutive runs of
/// one level that hold all of its nodes, in order. `SKEIN_FAIL`, with
/// nothing written, for values that do not fit the tree, a NULL pointer
/// or a buffer that overlaps the digest.
///
/// # Safety
/// `tree` is NULL or valid; `values` and `valuesLens` hold `count`
/// pointers and lengths, each buffer readable for its length; `hashVal`
/// has room for the digest.
#[no_mangle]
pub unsafe extern "C" fn skein_simd_object_tree_root(
    tree: *const skein_simd_object_tree_t,
    values: *const *const u8,
    valuesLens: *const usize,
    count: usize,
    hashVal: *mut u8,
) -> c_int {
    // SAFETY: the caller passes null or a valid tree.
    let Some(tree) = (unsafe { tree.as_ref() }) else {
        return SKEIN_FAIL;
    };
    // SAFETY: the caller's contract: `count` pointers and lengths.
    let (Some(ptrs), Some(lens)) = (unsafe { slice_of(values, count) }, unsafe {
        slice_of(valuesLens, count)
    }) else {
        return SKEIN_FAIL;
    };
    with_tree!(tree, t, W => {
        let parts: Option<Vec<Subtrees<W>>> = ptrs
            .iter()
            .zip(lens)
            .map(|(&p, &n)| {
                // SAFETY: the caller's contract: buffer `i` has `lens[i]` bytes.
                let bytes = unsafe { input(p, n, NOWHERE) }?;
                Subtrees::<W>::from_bytes(bytes).ok()
            })
            .collect();
        let Some(parts) = parts else { return SKEIN_FAIL };
        let Ok(mut reader) = t.root(&parts) else { return SKEIN_FAIL };
        let reader_len = reader.len() as usize;
        let digest: Region = (hashVal.cast_const(), reader_len);
        let overlapping = ptrs.iter().zip(lens).any(|(&p, &n)| crate::overlaps(p, n, digest));
        if overlapping {
            return SKEIN_FAIL;
        }
        // SAFETY: the caller's contract: room for the digest; overlaps none
        // of the values (checked).
        let Some(out) = (unsafe { output(hashVal, reader_len, NOWHERE) }) else {
            return SKEIN_FAIL;
        };
        reader.fill(out);
        skein_simd::mask_unused_bits(out, t.output_bits());
    });
    SKEIN_SUCCESS
}
