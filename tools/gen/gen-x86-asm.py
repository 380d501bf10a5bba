#!/usr/bin/env python3
"""Generates the x86-64 assembly of the UBI block loops (Threefish-256/512/1024
plus the feed-forward, whole runs of blocks per call) as Rust `asm!`
templates, one macro per state size:

    python3 tools/gen/gen-x86-asm.py > src/backend/x86/asm_generated.rs
    python3 tools/gen/gen-x86-asm.py --check src/backend/x86/asm_generated.rs
    python3 tools/gen/gen-x86-asm.py --raw 512 [grouped|interleaved]
                                                  # one loop, plain text
    python3 tools/gen/gen-x86-asm.py --functions  # every form, GNU as

The output is committed; `--check` (CI) fails when it differs from what this
script prints. Everything the code depends on -- rotation counts, the word
permutation, subkey indices -- comes from the specification's tables below,
and the code is tested against the Rust `portable` backend and the golden
file like every other backend.

Calling convention of every loop (explicit registers, set by the wrapper in
asm.rs): rdi = chain (W words, read and written), rsi = tweak (2 words,
read and written), rdx = blocks, rcx = number of blocks (at least 1), r8 =
bytes added to the tweak position per block. The code saves rbx and rbp
itself (Rust cannot name them as operands), keeps its key schedule and spill
slots in a frame below the stack pointer and wipes that frame before it
returns. Only baseline x86-64 instructions.

Design (the timings behind each choice, and the machine they were taken
on, are in docs/x86-64.md, "The generated assembly, measured"):
  * No word ever moves: round d names its MIX operands through the slot
    table (logical word i sits in slot SLOT[d % 4][i]), so the permutation
    costs nothing and every key injection sees the identity layout.
  * The measured core runs several simple ALU operations per cycle (rotates
    at a lower rate than adds), so Skein-512 and -1024 are bound by the
    number of ALU operations, and Skein-256 by its dependency chain (two
    cycles per round plus one per key injection).
  * Skein-256 and -512 come in two forms (FORMS), chosen at run time by
    kind of core (`Form` in asm.rs), because the best order differs:
    - grouped (AMD Zen): per round, every MIX's add and rotate first, then
      the round's xors: fewer cycles per Skein-256 block there than
      add/rotate/xor per MIX. Rotating into a fresh register (BMI2
      `rorx`) instead of in place, and other orders (rotates first, adds
      first), measured no better or worse. Subkey words W-3 and W-1
      (tweak word, subkey number) are summed into two spare registers one
      group of four rounds ahead; word W-2, an addition target of the next
      round with a cycle of slack, takes its two terms directly. For
      Skein-256 this measured faster than summing all three ahead or
      adding all three directly.
    - interleaved (Intel Golden Cove): each MIX's add, rotate and xor
      together, as the reference C and the submission's assembly order
      them; word W-1 takes its key word (loaded ahead) and the subkey
      number in one `lea` (one ALU operation fewer an injection), and for
      Skein-256 word W-2's two terms are summed ahead too. 4% fewer
      cycles than grouped for Skein-256 there, 9% for Skein-512.
  * Skein-256/512 keep the state, tweak words t0, t1 and the block pointer in
    registers; the extended key and t2 live in the frame and are added from
    memory (loads are nearly free next to ALU work). Skein-256 with the
    whole key schedule and t2 in registers too (all 15 registers, 58
    instructions fewer a block, as gcc compiles the reference C) measured
    slower on Golden Cove in every order tried.
  * Tried and dropped: the sums on the vector unit (from the frame: the
    8-byte key stores do not forward to vector loads, and it measured
    slower; GPR to vector moves cost an ALU slot each), reusing Skein-512's
    sums across the period lcm(9, 3) = 9 of their indices (slightly fewer
    cycles per block on long runs, but a one-block call slower).
  * Skein-256 and -512 also come with the first output block after the
    loop (`..._output`, r9 = where its 8 * W bytes go): the end of every
    hash whose digest fits in one block (the C API's `Final`, the
    one-shot hashes). The chain stays in registers from the message's last
    block into the output block, whose message (counter 0) and tweak are
    constants: no message loads, no feed-forward, and no second entry,
    frame and wipe, nor a store and reload of the chain between the two.
  * Skein-1024 has 16 state words and 15 usable registers: one word at a
    time lives in its spill slot, chosen by furthest next use (Belady), about
    one store and one load per round on the load/store ports. Its chain is
    far shorter than its ALU work, so all subkey terms are added directly
    onto the state words and the tweak stays in the frame.
"""
import sys

ROT = {
    4: [[14, 16], [52, 57], [23, 40], [5, 37], [25, 33], [46, 12], [58, 22], [32, 32]],
    8: [[46, 36, 19, 37], [33, 27, 14, 42], [17, 49, 36, 39], [44, 9, 54, 56],
        [39, 30, 34, 24], [13, 50, 10, 17], [25, 29, 39, 43], [8, 35, 56, 22]],
    16: [[24, 13, 8, 47, 8, 17, 22, 37], [38, 19, 10, 55, 49, 18, 23, 52],
         [33, 4, 51, 13, 34, 41, 59, 17], [5, 20, 48, 41, 47, 28, 16, 25],
         [41, 9, 37, 31, 12, 47, 44, 30], [16, 34, 56, 51, 4, 53, 42, 41],
         [31, 44, 47, 46, 19, 42, 44, 25], [9, 48, 35, 52, 23, 31, 37, 20]],
}
PERM = {
    4: [0, 3, 2, 1],
    8: [2, 1, 4, 7, 6, 5, 0, 3],
    16: [0, 9, 2, 13, 6, 11, 4, 15, 10, 7, 12, 3, 14, 5, 8, 1],
}
C240 = 0x1BD11BDAA9FC1A22
T1_FIRST_BIT = 62
# Tweak word 1 of the first output block: first and final flags, type
# Output (63); its position (word 0) is 8, the counter's bytes.
OUT_T1 = (1 << 62) | (1 << 63) | (63 << 56)

REGS = ["rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"]


def slots(w):
    t = [list(range(w))]
    for _ in range(3):
        prev = t[-1]
        t.append([prev[PERM[w][i]] for i in range(w)])
    return t


def rounds(w):
    return 80 if w == 16 else 72


def mixes(w, d):
    """Physical (a, b, rotation) of the MIXes of round d."""
    s = slots(w)[d % 4]
    return [(s[2 * j], s[2 * j + 1], ROT[w][d % 8][j]) for j in range(w // 2)]


def subkey_index(w, s, i):
    return (s + i) % (w + 1)


class Frame:
    """Offsets of the stack frame below rsp: secrets first (wiped at the
    end), then the saved arguments."""

    def __init__(self, w):
        off = 0
        self.ks = off
        off += 8 * (w + 1)
        self.ts = off
        off += 24
        self.spill = off
        off += 8 * (w if w == 16 else 0)
        self.secret_end = off
        self.chainp, self.tweakp, self.bpb, self.blk, self.end, self.outp = (off + 8 * k for k in range(6))
        off += 48
        self.size = (off + 15) // 16 * 16

    def k(self, j):
        return f"qword ptr [rsp + {self.ks + 8 * j}]"

    def t(self, j):
        return f"qword ptr [rsp + {self.ts + 8 * j}]"

    def sp(self, word):
        return f"qword ptr [rsp + {self.spill + 8 * word}]"

    def at(self, off):
        return f"qword ptr [rsp + {off}]"


def prologue(w, f, out, output=False):
    out += [
        "push rbx",
        "push rbp",
        f"sub rsp, {f.size}",
        f"mov {f.at(f.chainp)}, rdi",
        f"mov {f.at(f.tweakp)}, rsi",
        f"mov {f.at(f.bpb)}, r8",
        f"shl rcx, {(8 * w).bit_length() - 1}",
        "add rcx, rdx",
        f"mov {f.at(f.end)}, rcx",
        f"mov {f.at(f.blk)}, rdx",
    ]
    if output:
        out.append(f"mov {f.at(f.outp)}, r9")


def wipe_and_return(f, zero, out):
    out.append(f"xor {zero}, {zero}")
    for off in range(0, f.secret_end, 8):
        out.append(f"mov {f.at(off)}, {zero}")
    out += [f"add rsp, {f.size}", "pop rbp", "pop rbx"]


# The forms of the Skein-256/512 loop (gen_resident's options), one per
# kind of core (docs/x86-64.md, "The generated assembly, measured"):
#   grouped: a round's xors after its adds and rotates; words W-3 and W-1
#     take sums made one group of four rounds ahead, word W-2 its two
#     terms directly (measured best on AMD Zen).
#   interleaved: each MIX's add, rotate and xor together, the subkey
#     number folded into word W-1's key word by a three-operand `lea`,
#     and (Skein-256) word W-2's terms summed ahead too (measured best on
#     Intel Golden Cove).
FORMS = {
    "grouped": {4: {}, 8: {}},
    "interleaved": {
        4: dict(interleave=True, sum_mid=True, counter_lea=True),
        8: dict(interleave=True, counter_lea=True),
    },
}


def gen_resident(w, interleave=False, sum_mid=False, counter_lea=False, output=False):
    """Skein-256/512: state, t0, t1 and the block pointer in registers.

    interleave: each MIX's add, rotate and xor together, else a round's
    xors after its adds and rotates. sum_mid: word W-2's key and tweak
    words summed ahead too. counter_lea: word W-1 takes its key word and
    the subkey number in one `lea`, the key word loaded ahead. output:
    after the blocks (the last one of a UBI), the first block of the
    output stage from the chain in registers, written to r9 (8 * W
    bytes, any alignment)."""
    f = Frame(w)
    x = ["r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"][:w]
    blk, t0, t1 = "rdi", "rax", "rbx"
    # Sums for words W-3, W-1 and (sum_mid) W-2; tmp is also a temporary
    # at the top and the end of the loop.
    sa, sc, tmp = "rdx", "rsi", "rcx"
    t = [t0, t1, f.t(2)]
    out = []
    prologue(w, f, out, output)
    out += [f"mov {t0}, qword ptr [rsi]", f"mov {t1}, qword ptr [rsi + 8]"]
    out += [f"mov {x[i]}, qword ptr [rdi + {8 * i}]" for i in range(w)]
    out.append(f"mov {blk}, rdx")

    def sums(s):
        a, b, c = (subkey_index(w, s, w - j) for j in (3, 2, 1))
        ops = [f"mov {tmp}, {f.k(b)}", f"add {tmp}, {t[(s + 1) % 3]}"] if sum_mid else []
        ops += [f"mov {sa}, {f.k(a)}", f"add {sa}, {t[s % 3]}", f"mov {sc}, {f.k(c)}"]
        return ops if counter_lea else ops + [f"add {sc}, {s}"]

    def inject(s):
        ops = [f"add {x[i]}, {f.k(subkey_index(w, s, i))}" for i in range(w - 3)]
        if sum_mid:
            ops.append(f"add {x[w - 2]}, {tmp}")
        else:
            ops += [f"add {x[w - 2]}, {f.k(subkey_index(w, s, w - 2))}", f"add {x[w - 2]}, {t[(s + 1) % 3]}"]
        ops.append(f"add {x[w - 3]}, {sa}")
        if counter_lea:
            return ops + [f"lea {x[w - 1]}, [{x[w - 1]} + {sc} + {s}]"]
        return ops + [f"add {x[w - 1]}, {sc}"]

    def block(zero_message):
        """One block: the key schedule from the chain in x, Threefish, and
        the feed-forward. zero_message: the first output block, whose
        message is counter 0 (all zero) and whose tweak is a constant (the
        position 8, the first and final flags, type Output): no message
        loads and no feed-forward."""
        if zero_message:
            out.extend([f"mov {t0}, 8", f"mov {t1}, {OUT_T1:#x}", f"mov {tmp}, {OUT_T1 | 8:#x}", f"mov {f.t(2)}, {tmp}"])
        else:
            out.extend([f"add {t0}, {f.at(f.bpb)}", f"adc {t1}, 0", f"mov {tmp}, {t0}", f"xor {tmp}, {t1}",
                        f"mov {f.t(2)}, {tmp}"])
        out.extend(f"mov {f.k(i)}, {x[i]}" for i in range(w))
        # Parity word: a tree of xors (depth 4 for 8 words).
        out.extend([f"mov {sa}, {x[0]}", f"xor {sa}, {x[1]}", f"mov {sc}, {x[2]}", f"xor {sc}, {x[3]}"])
        for i in range(4, w, 2):
            out.extend([f"mov {tmp}, {x[i]}", f"xor {tmp}, {x[i + 1]}", f"xor {[sa, sc][i // 2 % 2]}, {tmp}"])
        out.extend([f"xor {sa}, {sc}", f"mov {sc}, {C240:#x}", f"xor {sa}, {sc}", f"mov {f.k(w)}, {sa}"])
        # Injection 0 together with the message words.
        if not zero_message:
            out.extend(f"add {x[i]}, qword ptr [{blk} + {8 * i}]" for i in range(w))
        out.extend([f"add {x[w - 3]}, {t0}", f"add {x[w - 2]}, {t1}"])
        out.extend(sums(1))
        for s in range(1, rounds(w) // 4 + 1):
            for d in range(4 * (s - 1), 4 * s):
                xors = []
                for a, b, r in mixes(w, d):
                    out.extend([f"add {x[a]}, {x[b]}", f"rol {x[b]}, {r}"])
                    (out if interleave else xors).append(f"xor {x[b]}, {x[a]}")
                out.extend(xors)
            out.extend(inject(s))
            if s < rounds(w) // 4:
                out.extend(sums(s + 1))
        if not zero_message:
            out.extend(f"xor {x[i]}, qword ptr [{blk} + {8 * i}]" for i in range(w))

    out.append("2:")
    block(False)
    out += [f"btr {t1}, {T1_FIRST_BIT}", f"add {blk}, {8 * w}", f"cmp {blk}, {f.at(f.end)}", "jb 2b"]
    out.append(f"mov {tmp}, {f.at(f.chainp)}")
    out += [f"mov qword ptr [{tmp} + {8 * i}], {x[i]}" for i in range(w)]
    out += [f"mov {tmp}, {f.at(f.tweakp)}", f"mov qword ptr [{tmp}], {t0}", f"mov qword ptr [{tmp} + 8], {t1}"]
    if output:
        # The first output block from the chain still in registers: no
        # store and reload of the chain, no second call.
        block(True)
        out.append(f"mov {tmp}, {f.at(f.outp)}")
        out += [f"mov qword ptr [{tmp} + {8 * i}], {x[i]}" for i in range(w)]
    wipe_and_return(f, tmp, out)
    return out


class Alloc:
    """Registers for the 16 words of Skein-1024: furthest-next-use eviction
    into per-word spill slots."""

    def __init__(self, f, uses, out):
        self.f, self.uses, self.out = f, uses, out
        self.reg = {}  # word -> register
        self.free = []
        self.pos = 0

    def next_use(self, word):
        for p in range(self.pos, len(self.uses)):
            if word in self.uses[p]:
                return p
        return len(self.uses) + 1

    def ensure(self, word, pinned=()):
        if word in self.reg:
            return self.reg[word]
        if not self.free:
            victims = [v for v in self.reg if v not in pinned and v != word]
            v = max(victims, key=self.next_use)
            self.out.append(f"mov {self.f.sp(v)}, {self.reg[v]}")
            self.free.append(self.reg.pop(v))
        r = self.free.pop()
        self.out.append(f"mov {r}, {self.f.sp(word)}")
        self.reg[word] = r
        return r


def gen_spilling(w=16):
    """Skein-1024: 16 words in 15 registers, tweak and pointers in the frame."""
    f = Frame(w)
    out = []
    prologue(w, f, out)
    # Chain into the key slots, tweak into the frame: the loop top finds
    # every chaining word in the key schedule.
    out += ["mov rax, qword ptr [rsi]", f"mov {f.t(0)}, rax", "mov rax, qword ptr [rsi + 8]", f"mov {f.t(1)}, rax"]
    for i in range(w):
        out += [f"mov rax, qword ptr [rdi + {8 * i}]", f"mov {f.k(i)}, rax"]

    # Uses, in order, for the allocator: the rounds' MIX pairs and each
    # injection's words.
    uses = []
    for s in range(1, rounds(w) // 4 + 1):
        for d in range(4 * (s - 1), 4 * s):
            uses += [{a, b} for a, b, _ in mixes(w, d)]
        uses += [{i} for i in range(w)]

    out.append("2:")
    out += [
        f"mov rax, {f.t(0)}", f"add rax, {f.at(f.bpb)}", f"mov {f.t(0)}, rax",
        f"mov rbx, {f.t(1)}", "adc rbx, 0", f"mov {f.t(1)}, rbx",
        "xor rax, rbx", f"mov {f.t(2)}, rax",
    ]
    out += [f"mov rcx, {C240:#x}", f"mov rdx, {f.k(1)}"]
    out += [f"xor rcx, {f.k(i)}" for i in range(0, w, 2)]
    out += [f"xor rdx, {f.k(i)}" for i in range(3, w, 2)]
    out += ["xor rcx, rdx", f"mov {f.k(w)}, rcx"]
    # Load m + k: words 0..13 into 14 registers, word 14 to its spill slot
    # (through word 13's register before that is loaded), word 15 into the
    # block pointer's register last.
    regs = [r for r in REGS if r != "rbp"][:14]
    p = "rbp"
    out.append(f"mov {p}, {f.at(f.blk)}")
    out += [f"mov {regs[13]}, qword ptr [{p} + {8 * 14}]", f"add {regs[13]}, {f.k(14)}",
            f"add {regs[13]}, {f.t(1)}", f"mov {f.sp(14)}, {regs[13]}"]
    for i in range(14):
        out += [f"mov {regs[i]}, qword ptr [{p} + {8 * i}]", f"add {regs[i]}, {f.k(i)}"]
    out.append(f"add {regs[13]}, {f.t(0)}")
    out += [f"mov {p}, qword ptr [{p} + {8 * 15}]", f"add {p}, {f.k(15)}"]
    al = Alloc(f, uses, out)
    al.reg = {i: regs[i] for i in range(14)}
    al.reg[15] = p
    for s in range(1, rounds(w) // 4 + 1):
        for d in range(4 * (s - 1), 4 * s):
            for a, b, r in mixes(w, d):
                ra = al.ensure(a, pinned={b})
                rb = al.ensure(b, pinned={a})
                out += [f"add {ra}, {rb}", f"rol {rb}, {r}", f"xor {rb}, {ra}"]
                al.pos += 1
        for i in range(w):
            ri = al.ensure(i)
            out.append(f"add {ri}, {f.k(subkey_index(w, s, i))}")
            if i == w - 3:
                out.append(f"add {ri}, {f.t(s % 3)}")
            elif i == w - 2:
                out.append(f"add {ri}, {f.t((s + 1) % 3)}")
            elif i == w - 1:
                out.append(f"add {ri}, {s}")
            al.pos += 1
    # Feed-forward into the key slots (the next block's key). Word `a` parks
    # its value in its spill slot to lend its register to the block pointer.
    spilled = [v for v in range(w) if v not in al.reg]
    assert len(spilled) == 1
    a = min(al.reg)
    pb = al.reg.pop(a)
    out += [f"mov {f.sp(a)}, {pb}", f"mov {pb}, {f.at(f.blk)}"]
    for i in sorted(al.reg):
        out += [f"xor {al.reg[i]}, qword ptr [{pb} + {8 * i}]", f"mov {f.k(i)}, {al.reg[i]}"]
    r = al.reg[max(al.reg)]
    for v in [a] + spilled:
        out += [f"mov {r}, {f.sp(v)}", f"xor {r}, qword ptr [{pb} + {8 * v}]", f"mov {f.k(v)}, {r}"]
    out += [f"btr {f.t(1)}, {T1_FIRST_BIT}", f"add {pb}, {8 * w}", f"mov {f.at(f.blk)}, {pb}",
            f"cmp {pb}, {f.at(f.end)}", "jb 2b"]
    out.append(f"mov rdi, {f.at(f.chainp)}")
    for i in range(w):
        out += [f"mov rax, {f.k(i)}", f"mov qword ptr [rdi + {8 * i}], rax"]
    out += [f"mov rsi, {f.at(f.tweakp)}", f"mov rax, {f.t(0)}", "mov qword ptr [rsi], rax",
            f"mov rax, {f.t(1)}", "mov qword ptr [rsi + 8], rax"]
    wipe_and_return(f, "rax", out)
    return out


def loop(w, form="grouped", output=False):
    """The block loop of state size w in `form`; with output (Skein-256 and
    -512), the first output block after it (gen_resident)."""
    return gen_resident(w, **FORMS[form][w], output=output) if w < 16 else gen_spilling(w)


def functions():
    """Every form of the Skein-256/512 loops as a System V function
    `skein_loop_<form>_<bits>(chain, tweak, blocks, n, bytes_per_block)`
    (GNU as, Intel syntax), for tools/bench/asm-forms.sh."""
    out = [".intel_syntax noprefix", ".text"]
    for w in (4, 8):
        for form in FORMS:
            name = f"skein_loop_{form}_{64 * w}"
            out += [f".globl {name}", f".type {name}, @function", ".p2align 5", f"{name}:"]
            out += [f"push {r}" for r in ("r12", "r13", "r14", "r15")] + loop(w, form)
            out += [f"pop {r}" for r in ("r15", "r14", "r13", "r12")] + ["ret", f".size {name}, . - {name}"]
    return out + ['.section .note.GNU-stack,"",@progbits']


def header(script, target):
    """The first lines of a generated file."""
    return [
        f"// @generated by tools/gen/{script}: do not edit; regenerate with",
        f"// `python3 tools/gen/{script} > {target}`.",
        "",
    ]


def asm_macro(docs, name, body):
    """`macro_rules! name`: `core::arch::asm!` with the instructions of
    `body` as its template and the caller's operands after them."""
    lines = [f"/// {d}" for d in docs]
    lines += [f"macro_rules! {name} {{", "    ($($operands:tt)*) => {", "        core::arch::asm!("]
    lines += [f'            "{b}",' for b in body]
    lines += ["            $($operands)*", "        )", "    };", "}", ""]
    return lines


def emit():
    lines = header("gen-x86-asm.py", "src/backend/x86/asm_generated.rs")
    for w in (4, 8):
        for form in FORMS:
            body = loop(w, form)
            docs = [f"The UBI block loop of Skein-{64 * w}, {form} form ({len(body)} instructions; see gen-x86-asm.py)."]
            lines += asm_macro(docs, f"ubi_loop_{64 * w}_{form}", body)
            body = loop(w, form, output=True)
            docs = [f"The same loop, then the first output block into r9 ({len(body)} instructions; see gen-x86-asm.py)."]
            lines += asm_macro(docs, f"ubi_loop_{64 * w}_{form}_output", body)
    body = loop(16)
    docs = [f"The UBI block loop of Skein-1024 ({len(body)} instructions; see gen-x86-asm.py)."]
    lines += asm_macro(docs, "ubi_loop_1024", body)
    return "\n".join(lines)


def write_or_check(text, script):
    """The generator's command line: print `text`, or with `--check FILE`
    fail unless FILE holds exactly it."""
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        with open(sys.argv[2]) as fh:
            if fh.read() != text:
                sys.exit(f"{sys.argv[2]} is stale: regenerate it with python3 tools/gen/{script}")
        return
    if len(sys.argv) != 1:
        sys.exit(sys.modules["__main__"].__doc__)
    sys.stdout.write(text)


def main():
    if sys.argv[1:] == ["--functions"]:
        print("\n".join(functions()))
        return
    if len(sys.argv) in (3, 4) and sys.argv[1] == "--raw":
        if sys.argv[2] not in ("256", "512", "1024") or sys.argv[3:] and sys.argv[3] not in FORMS:
            sys.exit(f"gen-x86-asm.py --raw: {' '.join(sys.argv[2:])}: want 256, 512 or 1024, then {' or '.join(FORMS)}")
        print("\n".join(loop(int(sys.argv[2]) // 64, *sys.argv[3:])))
        return
    write_or_check(emit(), "gen-x86-asm.py")


if __name__ == "__main__":
    main()
