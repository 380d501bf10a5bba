#!/usr/bin/env python3
"""Rewrite the few instructions outside the hashing loops that the MPC7450
model (../shared/tools/g4model/g4sim.py) has no timing class for into the
nearest ones it has, so that a trace through library code (the lane
scheduler, memset/memcpy of the lane state, PIC prologues) can be replayed.
The hashing loops themselves contain none of them; the rewrites only touch
the per-call overhead around them.

usage: normalize-trace.py TRACE   (rewrites the file in place; prints counts)

  bge- / beq+ ...     branch hints dropped (bge, beq)
  bdnzl, bcl          bl (a branch that sets LR: the PIC "get PC" idiom)
  beqlr, bnelr, ...   blr
  andi. / rlwinm. ...  addic. (IU1, writes its register and CR0)
  mtcrf M, rS         ori rS, rS, 0 (one IU1 instruction)
  stwu, lwzu          stw, lwz (the base update dropped)
  dcbz rA, rB         stwx r0, rA, rB (one store to that line)
"""
import re
import sys
from collections import Counter

CONDLR = re.compile(r"^b(eq|ne|lt|gt|le|ge|so|ns)lr[+-]?$")
RECORD = re.compile(r"^(andi|andis|rlwinm|rlwimi|rlwnm|and|or|xor|srawi|slw|srw|add|subf|neg|extsb|extsh|cntlzw)\.$")


def rewrite(dis):
    parts = dis.split(None, 1)
    m, ops = parts[0], (parts[1] if len(parts) > 1 else "")
    if re.match(r"^b\w*[+-]$", m):
        return m[:-1] + (" " + ops if ops else "")
    if m in ("bdnzl", "bcl"):
        return "bl " + ops.split(",")[-1].strip()
    if CONDLR.match(m):
        return "blr"
    if RECORD.match(m):
        o = [x.strip() for x in ops.split(",")]
        return "addic. %s, %s, 0" % (o[0], o[1])
    if m == "mtcrf":
        r = ops.split(",")[-1].strip()
        return "ori %s, %s, 0" % (r, r)
    if m in ("stwu", "lwzu"):
        return m[:-1] + " " + ops
    if m == "dcbz":
        a, b = [x.strip() for x in ops.split(",")]
        return "stwx r0, %s, %s" % (a, b)
    return None


def main():
    path = sys.argv[1]
    out, counts = [], Counter()
    with open(path) as f:
        for line in f:
            if line.startswith("T ") and line.count("|") >= 2:
                head, dis, mem = line.split("|", 2)
                new = rewrite(dis.strip())
                if new is not None:
                    counts[dis.split()[0]] += 1
                    line = "%s| %s |%s" % (head, new, mem)
            out.append(line)
    with open(path, "w") as f:
        f.writelines(out)
    print("normalize-trace: %s" % (dict(counts) or "nothing to rewrite"), file=sys.stderr)


if __name__ == "__main__":
    main()
