//! x86-64: one module per instruction set, each with one detection `Token`
//! for both its single-stream block function and its multi-lane kernel (the
//! SIMD ones on the even/odd engine of `backend::even_odd::engine`).

pub(crate) mod asm;
pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod sse2;

/// The [`Row`](crate::backend::dispatch::isa::Row) of `$lanes` lanes in one register
/// on an instruction set without a 64-bit rotate or unsigned 64-bit
/// compares (SSE2, AVX2), written once (inside the `impl`) over its
/// intrinsics:
/// * `rol`: `$by_shuffle(v, r)` where that is `Some` (one shuffle), else
///   two shifts by a count in a register and an or;
/// * `advance`: the carry out of word 0 is the top bit of
///   `(a & b) | ((a | b) & !sum)`, shifted down (`top_bit`) and added to
///   word 1;
/// * `load_rows`: `$transpose`; `store_lanes`: `$untranspose`.
macro_rules! shift_row {
    (
        $lanes:literal, splat = $splat:path, load = $load:path, store = $store:path,
        add = $add:path, xor = $xor:path, and = $and:path, or = $or:path, andnot = $andnot:path,
        sll = $sll:path, srl = $srl:path, top_bit = $top:path,
        rol = $by_shuffle:path, load_rows = $transpose:ident, store_lanes = $untranspose:ident $(,)?
    ) => {
        $crate::backend::dispatch::isa::register_row! { $lanes, splat = $splat, load = $load, store = $store }
        $crate::backend::dispatch::isa::lanewise! { add = $add, xor = $xor, and = $and }
        #[inline(always)]
        unsafe fn rol(self, r: u32) -> Self {
            // SAFETY: the trait's contract.
            unsafe {
                match $by_shuffle(self, r) {
                    Some(v) => v,
                    None => $or(
                        $sll(self, core::arch::x86_64::_mm_cvtsi32_si128(r as i32)),
                        $srl(self, core::arch::x86_64::_mm_cvtsi32_si128(64 - r as i32)),
                    ),
                }
            }
        }
        #[inline(always)]
        unsafe fn advance(t0: Self, t1: Self, step: Self) -> (Self, Self) {
            // SAFETY: the trait's contract.
            unsafe {
                let sum = t0.add(step);
                let carry = $or(t0.and(step), $andnot(sum, $or(t0, step)));
                (sum, t1.add($top(carry)))
            }
        }
        #[inline(always)]
        unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; $lanes], offset: usize) -> [Self; W] {
            // SAFETY: the trait's contract.
            unsafe { $transpose::<W>(blocks, offset) }
        }
        #[inline(always)]
        unsafe fn store_lanes<const W: usize>(rows: &[Self; W], out: &mut [u8]) {
            // SAFETY: the trait's contract.
            unsafe { $untranspose::<W>(rows, out) }
        }
    };
}
use shift_row;

/// The x86 cores whose lane kernels run best in different forms
/// ([`LaneForm`](crate::backend::lanes::LaneForm)): the rules of the
/// instruction sets (`lane_form` in each module) tell them apart where
/// measurements differ (docs/lanes.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Core {
    /// AMD or Hygon before Zen 5 (family 0x17 to 0x19: Zen to Zen 4).
    ZenBefore5 = 1,
    /// AMD Zen 5 and later (family 0x1A on): 2-cycle vector latency.
    Zen5On = 2,
    /// Intel's Golden Cove server cores (Sapphire and Emerald Rapids:
    /// family 6, models 0x8F and 0xCF), whose short messages lose with a
    /// scalar lane beside the AVX2 lanes (docs/lanes.md).
    IntelGoldenCove = 4,
    /// Intel before those, and every other vendor.
    Other = 3,
}

/// This CPU's [`Core`], from `cpuid` once, then cached.
pub(crate) fn core() -> Core {
    use core::sync::atomic::{AtomicU8, Ordering};
    // 0 until identified, then the `Core`'s discriminant.
    static CACHED: AtomicU8 = AtomicU8::new(0);
    match CACHED.load(Ordering::Relaxed) {
        1 => Core::ZenBefore5,
        2 => Core::Zen5On,
        3 => Core::Other,
        4 => Core::IntelGoldenCove,
        _ => {
            let core = identify();
            CACHED.store(core as u8, Ordering::Relaxed);
            core
        }
    }
}

/// The vendor string, family and model of `cpuid` leaves 0 and 1.
fn identify() -> Core {
    use core::arch::x86_64::__cpuid;
    // SAFETY: `cpuid` exists on every x86-64 CPU, and leaves 0 and 1 on
    // every one; it reads no memory. (Newer Rust makes it a safe function.)
    #[allow(unused_unsafe)]
    let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1).eax) };
    let amd = matches!(
        [vendor.ebx, vendor.edx, vendor.ecx],
        // "AuthenticAMD", "HygonGenuine"
        [0x6874_7541, 0x6974_6e65, 0x444d_4163] | [0x6f67_7948, 0x6e65_476e, 0x656e_6975]
    );
    let base = (signature >> 8) & 0xF;
    let family = if base == 0xF {
        base + ((signature >> 20) & 0xFF)
    } else {
        base
    };
    // The extended model counts only in families 6 and 15 (Intel's SDM,
    // CPUID leaf 1).
    let model = if base == 0x6 || base == 0xF {
        ((signature >> 4) & 0xF) | ((signature >> 12) & 0xF0)
    } else {
        (signature >> 4) & 0xF
    };
    match (amd, family, model) {
        (true, 0x1A.., _) => Core::Zen5On,
        (true, _, _) => Core::ZenBefore5,
        (false, 6, 0x8F | 0xCF) => Core::IntelGoldenCove,
        (false, _, _) => Core::Other,
    }
}
