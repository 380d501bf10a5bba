#!/usr/bin/env python3
"""Cycle estimate of one block iteration of a kernel, by llvm-mca.

usage: tools/bench/mca-loop.py BINARY SYMBOL BYTES TRIPLE CPU [CPU...]

Disassembles BINARY (llvm-objdump), takes the first function whose name
contains SYMBOL, finds its block loop (the backward branch spanning the most
instructions and no call), drops the branches and feeds the loop body to
`llvm-mca -mtriple=TRIPLE -mcpu=CPU`. BYTES is the message bytes one
iteration consumes (lanes x block size). Prints, per CPU, one line:

    CPU  insns/iter  cycles/iter  cycles/byte

These are estimates from LLVM's scheduling model of that core (steady
state, perfect caches and branch prediction), not measurements.
Environment: LLVM_OBJDUMP (default llvm-objdump-19), LLVM_MCA (llvm-mca-19),
MCA_MATTR (extra -mattr for llvm-mca, e.g. +sha3 for XAR on cores whose
LLVM model leaves it out), MCA_ARGS (more llvm-mca options, split at spaces,
e.g. -dispatch=4 for Neoverse N1's real decode width: LLVM's model
dispatches 8).
"""
import os
import re
import subprocess
import sys


def functions(dump):
    name, body = None, []
    for line in dump.splitlines():
        m = re.match(r"^([0-9a-f]+) <(.*)>:$", line)
        if m:
            if name:
                yield name, body
            name, body = m.group(2), []
            continue
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S.*)$", line)
        if m and name:
            body.append((int(m.group(1), 16), m.group(2)))
    if name:
        yield name, body


BRANCH = re.compile(r"^(b|b\.\w+|bc|bdnz\w*|bne\w*|beq\w*|blt\w*|bgt\w*|ble\w*|bge\w*|cbn?z|tbn?z|j[a-z]+)\s+(.*)$")


CALL = re.compile(r"^(bl|blr|call\w*|bctrl)\s")


def clean(insn):
    insn = insn.split("//")[0]  # AArch64 comments
    insn = re.sub(r"\s+<[^>]*>", "", insn)
    return insn.strip()


def loop_body(body):
    best = None
    for i, (addr, insn) in enumerate(body):
        m = BRANCH.match(insn.replace("\t", " "))
        if not m:
            continue
        target = re.search(r"0x([0-9a-f]+)", m.group(2))
        if not target:
            continue
        t = int(target.group(1), 16)
        if t >= addr:
            continue
        start = next((j for j, (a, _) in enumerate(body) if a == t), None)
        # A loop with a call in it is one around the block loop (a kernel
        # inlined into its caller), not the block loop.
        if start is not None and any(CALL.match(x.replace("\t", " ")) for _, x in body[start:i]):
            continue
        if start is not None and (best is None or i - start > best[1] - best[0]):
            best = (start, i)
    if best is None:
        sys.exit("mca-loop: no loop found")
    lines = []
    for _, insn in body[best[0] : best[1]]:
        if BRANCH.match(insn.replace("\t", " ")):
            continue
        lines.append(clean(insn.replace("\t", " ")))
    return lines


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    binary, symbol, nbytes, triple = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    objdump = os.environ.get("LLVM_OBJDUMP", "llvm-objdump-19")
    mca = os.environ.get("LLVM_MCA", "llvm-mca-19")
    dump = subprocess.run([objdump, "-d", "--no-show-raw-insn", binary], check=True, capture_output=True, text=True).stdout
    body = next((b for n, b in functions(dump) if symbol in n), None)
    if body is None:
        sys.exit(f"mca-loop: no function containing {symbol!r}")
    asm = "\n".join(loop_body(body)) + "\n"
    for cpu in sys.argv[5:]:
        out = subprocess.run(
            [mca, f"-mtriple={triple}", f"-mcpu={cpu}", f"-mattr={os.environ.get('MCA_MATTR', '')}", "-iterations=200", "-summary-view", "-resource-pressure=false", "-instruction-info=false"]
            + os.environ.get("MCA_ARGS", "").split(),
            input=asm, capture_output=True, text=True,
        )
        if out.returncode != 0:
            sys.exit(f"mca-loop: llvm-mca failed for {cpu}:\n{out.stderr[:2000]}")
        cycles = int(re.search(r"Total Cycles:\s+(\d+)", out.stdout).group(1)) / 200
        insns = int(re.search(r"Instructions:\s+(\d+)", out.stdout).group(1)) / 200
        print(f"{cpu:14} {insns:8.0f} {cycles:10.1f} {cycles / nbytes:8.2f}")


if __name__ == "__main__":
    main()
