#!/usr/bin/env python3
"""Generates the rounds of the AVX2 lane kernel's form with a scalar lane
beside the vector lanes (`LaneForm::WithScalar`): Threefish-256 and -512 on
four lanes in ymm registers and a fifth lane in general-purpose registers,
the two interleaved MIX by MIX, as Rust `asm!` templates, one macro per
state size:

    python3 tools/gen/gen-x86-hybrid-asm.py > src/backend/x86/hybrid_generated.rs
    python3 tools/gen/gen-x86-hybrid-asm.py --check src/backend/x86/hybrid_generated.rs

The output is committed; `--check` (CI) fails when it differs from what this
script prints. The specification's tables (rotation counts, the word
permutation) come from gen-x86-asm.py, and the code is tested against the
Rust `portable` backend like every lane kernel.

Why assembly: written in Rust (the generic kernel over a row of a vector
and a scalar lane), LLVM's scheduler gathers the scalar lane's operations
into stretches of several rounds apart from the vector ones, and spills:
the form ran slower than the vector lanes alone (docs/lanes.md has the
figures, and those of the order chosen below). The two
dependency chains only fill the core's ports together if their operations
stay side by side, which only assembly guarantees.

Operands the caller names (avx2.rs): `v0..` the vector rows and `s0..` the
scalar lane's words (state, read and written), `t` a scratch ymm register,
`ks` and `ts` pointers to the key schedule (W + 1 rows) and the tweak rows
(t0, t1, t0 ^ t1), each row a `WithScalar` (`#[repr(C)]`: the ymm row at
offset 0, the scalar word at 32, 64 bytes apart), `constants` a pointer to
32-byte rows: the subkey numbers 0..=18 broadcast, then the `vpshufb`
masks that rotate by 8, 16, ..., 56. The code covers every subkey injection (0 to 18)
and all 72 rounds; the feed-forward stays in Rust.
"""
import importlib.util
import os
import sys

_spec = importlib.util.spec_from_file_location(
    "gen_x86_asm", os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen-x86-asm.py"))
_scalar = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_scalar)
mixes, rounds = _scalar.mixes, _scalar.rounds

ROW = 64  # bytes between rows of `ks` and `ts`
SCALAR = 32  # the scalar word's offset within a row
SUBKEYS = 19  # rows of subkey numbers in `constants`, before the masks


def vrow(ptr, i):
    return f"ymmword ptr [{{{ptr}}} + {ROW * i}]"


def srow(ptr, i):
    return f"qword ptr [{{{ptr}}} + {ROW * i + SCALAR}]"


def inject(w, s, out):
    """Subkey s added to both the vector rows and the scalar lane."""
    for j in range(w):
        out.append(f"vpaddq {{v{j}}}, {{v{j}}}, {vrow('ks', (s + j) % (w + 1))}")
        out.append(f"add {{s{j}}}, {srow('ks', (s + j) % (w + 1))}")
    for j, t in ((w - 3, s % 3), (w - 2, (s + 1) % 3)):
        out.append(f"vpaddq {{v{j}}}, {{v{j}}}, {vrow('ts', t)}")
        out.append(f"add {{s{j}}}, {srow('ts', t)}")
    if s:
        out.append(f"vpaddq {{v{w - 1}}}, {{v{w - 1}}}, ymmword ptr [{{constants}} + {32 * s}]")
        out.append(f"add {{s{w - 1}}}, {s}")


def vector_mix(a, b, r, out):
    out.append(f"vpaddq {{v{a}}}, {{v{a}}}, {{v{b}}}")
    if r % 8 == 0:
        out.append(f"vpshufb {{v{b}}}, {{v{b}}}, ymmword ptr [{{constants}} + {32 * (SUBKEYS + r // 8 - 1)}]")
    else:
        out.append(f"vpsllq {{t}}, {{v{b}}}, {r}")
        out.append(f"vpsrlq {{v{b}}}, {{v{b}}}, {64 - r}")
        out.append(f"vpor {{v{b}}}, {{v{b}}}, {{t}}")
    out.append(f"vpxor {{v{b}}}, {{v{b}}}, {{v{a}}}")


def body(w):
    out = []
    inject(w, 0, out)
    for d in range(rounds(w)):
        for a, b, r in mixes(w, d):
            vector_mix(a, b, r, out)
            out += [f"add {{s{a}}}, {{s{b}}}", f"rol {{s{b}}}, {r}"]
        # The scalar lane's xors after the round's adds and rotates (as in
        # gen-x86-asm.py): its chain is the longer one.
        for a, b, _ in mixes(w, d):
            out.append(f"xor {{s{b}}}, {{s{a}}}")
        if d % 4 == 3:
            inject(w, d // 4 + 1, out)
    return out


def emit():
    lines = _scalar.header("gen-x86-hybrid-asm.py", "src/backend/x86/hybrid_generated.rs")
    for w in (4, 8):
        code = body(w)
        docs = [
            f"Threefish-{64 * w} on four vector lanes and a scalar lane beside them",
            f"({len(code)} instructions; see gen-x86-hybrid-asm.py).",
        ]
        lines += _scalar.asm_macro(docs, f"hybrid_rounds_{64 * w}", code)
    return "\n".join(lines)


def main():
    _scalar.write_or_check(emit(), "gen-x86-hybrid-asm.py")


if __name__ == "__main__":
    main()
