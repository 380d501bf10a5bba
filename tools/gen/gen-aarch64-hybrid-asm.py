#!/usr/bin/env python3
"""Generates the rounds of the AArch64 kernel without SHA3 for Skein-512:
Threefish-512 on two NEON lanes (one q register per word, rotations by
`SHL` + `SRI`) and two scalar lanes in general-purpose registers
(rotations inside `EOR`), interleaved MIX by MIX, as a Rust `asm!`
template:

    python3 tools/gen/gen-aarch64-hybrid-asm.py > src/backend/aarch64/hybrid_generated.rs
    python3 tools/gen/gen-aarch64-hybrid-asm.py --check src/backend/aarch64/hybrid_generated.rs

The output is committed; `--check` fails when it differs from what this
script prints. The code is tested against the `portable` backend like
every lane kernel.

Why assembly (docs/aarch64.md, "Without SHA3"): written in Rust over rows,
two scalar lanes need 16 state words, 16 message words and 24 key and
tweak words, and LLVM spills state words and message words alike (about
270 loads and 140 stores a block) and turns `SHL` + `SRI` into `SHL` +
`USRA`, whose accumulate adds two cycles to every NEON rotation. Here the
registers are chosen: the scalar state and the first lane's eight key
words stay in registers, the other scalar key and tweak words are loaded
where they are added (Neoverse N1 has two load pipes the rounds leave
idle), and nothing is stored.

Operands the caller names (neon.rs, `hybrid_rounds_512!`): `v0..v7` the
NEON lanes' words (read and written), `k0..k8` their key schedule and
`t0..t2` their tweak rows, `vc` the subkey counter (0 on entry) and `one`
a register of ones, `vt` a scratch q register; `a0..a7` and `b0..b7` the
two scalar lanes' words (read and written), `c0..c7` key words 0..7 of the
first scalar lane, `p` a pointer to the words below, `u` and `w` scratch
registers. The words at `p` (u64): 0..9 the second scalar lane's key
schedule ks, 9..18 its e[i] = ks[i] + ts[(i + 1) % 3] (ts: its tweak
words), 18..27 the first lane's e, 27 the first lane's key word 8. All 19 subkey injections and 72 rounds; the
feed-forward stays in Rust.
"""
import sys

ROT_512 = [
    [46, 36, 19, 37], [33, 27, 14, 42], [17, 49, 36, 39], [44, 9, 54, 56],
    [39, 30, 34, 24], [13, 50, 10, 17], [25, 29, 39, 43], [8, 35, 56, 22],
]
PERM_512 = [2, 1, 4, 7, 6, 5, 0, 3]
W = 8
B_KS, B_E, A_E, A_K8 = 0, 9, 18, 27  # word offsets at `p`


def slots():
    t = [list(range(W))]
    for _ in range(3):
        t.append([t[-1][PERM_512[i]] for i in range(W)])
    return t


def inject(s, out):
    """Subkey s: NEON rows, then the first and the second scalar lane."""
    for j in range(W):
        out.append(f"add {{v{j}:v}}.2d, {{v{j}:v}}.2d, {{k{(s + j) % 9}:v}}.2d")
    out.append(f"add {{v5:v}}.2d, {{v5:v}}.2d, {{t{s % 3}:v}}.2d")
    out.append(f"add {{v6:v}}.2d, {{v6:v}}.2d, {{t{(s + 1) % 3}:v}}.2d")
    if s > 0:
        out.append("add {vc:v}.2d, {vc:v}.2d, {one:v}.2d")
        out.append("add {v7:v}.2d, {v7:v}.2d, {vc:v}.2d")
    # Scalar words 5 and 6 take e[(s + 5) % 9] and e[(s + 6) % 9], where
    # e[i] = ks[i] + ts[(i + 1) % 3]: the tweak word that goes with a key
    # word there depends only on the key word's index (9 is a multiple of
    # 3), so one addition of a word the caller summed serves both.
    # First scalar lane: key words 0..7 in registers, 8 and e at `p`.
    for j in (0, 1, 2, 3, 4, 7):
        k = (s + j) % 9
        if k < 8:
            out.append(f"add {{a{j}}}, {{a{j}}}, {{c{k}}}")
        else:
            out.append(f"ldr {{u}}, [{{p}}, #{8 * A_K8}]")
            out.append(f"add {{a{j}}}, {{a{j}}}, {{u}}")
    loads(A_E + (s + 5) % 9, A_E + (s + 6) % 9, out)
    out.append("add {a5}, {a5}, {u}")
    out.append("add {a6}, {a6}, {w}")
    if s > 0:
        out.append(f"add {{a7}}, {{a7}}, #{s}")
    # Second scalar lane: every word loaded, in pairs where adjacent.
    for j, k in ((0, 1), (2, 3)):
        loads(B_KS + (s + j) % 9, B_KS + (s + k) % 9, out)
        out.append(f"add {{b{j}}}, {{b{j}}}, {{u}}")
        out.append(f"add {{b{k}}}, {{b{k}}}, {{w}}")
    loads(B_KS + (s + 4) % 9, B_KS + (s + 7) % 9, out)
    out.append("add {b4}, {b4}, {u}")
    out.append("add {b7}, {b7}, {w}")
    if s > 0:
        out.append(f"add {{b7}}, {{b7}}, #{s}")
    loads(B_E + (s + 5) % 9, B_E + (s + 6) % 9, out)
    out.append("add {b5}, {b5}, {u}")
    out.append("add {b6}, {b6}, {w}")


def loads(i, k, out):
    """Word i at `p` into `u`, word k into `w` (one `LDP` when adjacent)."""
    if k == i + 1:
        out.append(f"ldp {{u}}, {{w}}, [{{p}}, #{8 * i}]")
    else:
        out.append(f"ldr {{u}}, [{{p}}, #{8 * i}]")
        out.append(f"ldr {{w}}, [{{p}}, #{8 * k}]")


def round_(d, out):
    slot = slots()[d % 4]
    for j in range(W // 2):
        a, b = slot[2 * j], slot[2 * j + 1]
        r = ROT_512[d % 8][j]
        out.append(f"add {{v{a}:v}}.2d, {{v{a}:v}}.2d, {{v{b}:v}}.2d")
        out.append(f"shl {{vt:v}}.2d, {{v{b}:v}}.2d, #{r}")
        out.append(f"sri {{vt:v}}.2d, {{v{b}:v}}.2d, #{64 - r}")
        out.append(f"eor {{v{b}:v}}.16b, {{vt:v}}.16b, {{v{a}:v}}.16b")
        for lane in "ab":
            out.append(f"add {{{lane}{a}}}, {{{lane}{a}}}, {{{lane}{b}}}")
            out.append(f"eor {{{lane}{b}}}, {{{lane}{a}}}, {{{lane}{b}}}, ror #{64 - r}")


def rounds():
    out = []
    inject(0, out)
    for s in range(0, 18, 2):
        for d in range(8):
            round_(d, out)
            if d == 3:
                inject(s + 1, out)
        inject(s + 2, out)
    return out


def generate():
    body = rounds()
    lines = [
        "// @generated by tools/gen/gen-aarch64-hybrid-asm.py: do not edit; regenerate with",
        "// `python3 tools/gen/gen-aarch64-hybrid-asm.py > src/backend/aarch64/hybrid_generated.rs`.",
        "",
        "/// Threefish-512 on two NEON lanes and two scalar lanes beside them",
        f"/// ({len(body)} instructions; see gen-aarch64-hybrid-asm.py).",
        "macro_rules! hybrid_rounds_512 {",
        "    ($($operands:tt)*) => {",
        "        core::arch::asm!(",
    ]
    lines += [f'            "{insn}",' for insn in body]
    lines += ["            $($operands)*", "        )", "    };", "}", ""]
    return "\n".join(lines)


def main():
    text = generate()
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        with open(sys.argv[2]) as f:
            if f.read() != text:
                sys.exit(f"{sys.argv[2]} differs from gen-aarch64-hybrid-asm.py's output: regenerate it")
        return
    if len(sys.argv) != 1:
        sys.exit(__doc__)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
