#!/usr/bin/env python3
"""Instructions a message of one function, by mnemonic, from a callgrind run.

    valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=OUT \\
        skein-miner-bench count IMPL CASE 40
    python3 tools/bench/callgrind-opcodes.py OUT BINARY FUNCTION_REGEX MESSAGES

MESSAGES is what the run hashed (for `count ... 40`: 41 batches of 64, the
check batch included, 2624). A mnemonic with a memory operand is counted
apart (`vpaddq mem`). Used in docs/lanes.md to set the lane kernel's
instructions beside cpuminer-opt's, opcode by opcode.
"""
import collections
import re
import subprocess
import sys


def self_costs(path, function):
    """Instruction address -> Ir of the functions matching `function`."""
    names, costs = {}, collections.Counter()
    current, position, after_call = None, 0, False
    for line in open(path):
        m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if m:
            if m.group(3):
                names[m.group(2)] = m.group(3)
            if m.group(1) == "fn":
                current = names[m.group(2)]
            continue
        if line.startswith("calls="):
            after_call = True  # the next cost line is the callee's, inclusive
            continue
        # With --dump-instr=yes a cost line is: instruction line Ir.
        m = re.match(r"^(0x[0-9a-f]+|[+-]\d+|\*)\s+\S+\s+(\d+)", line)
        if not m:
            continue
        p = m.group(1)
        if p.startswith("0x"):
            position = int(p, 16)
        elif p != "*":
            position += int(p)
        if after_call:
            after_call = False
        elif current and re.search(function, current):
            costs[position] += int(m.group(2))
    return costs


def main():
    out, binary, function, messages = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    costs = self_costs(out, function)
    if not costs:
        sys.exit(f"callgrind-opcodes: no function matching {function!r} in {out}")
    dis = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn",
         f"--start-address={min(costs)}", f"--stop-address={max(costs) + 1}", binary],
        capture_output=True, text=True, check=True,
    ).stdout
    ops = {}
    for line in dis.splitlines():
        m = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m:
            ops[int(m.group(1), 16)] = m.group(2) + (" mem" if "(%r" in m.group(3) else "")
    by_op = collections.Counter()
    for address, ir in costs.items():
        by_op[ops.get(address, "?")] += ir
    print(f"{'total':<18} {sum(costs.values()) / messages:8.1f}")
    for op, ir in by_op.most_common():
        if ir / messages >= 0.5:
            print(f"{op:<18} {ir / messages:8.1f}")


if __name__ == "__main__":
    main()
