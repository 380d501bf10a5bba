#!/usr/bin/env python3
"""Draws the headline chart: throughput against message size for skein-simd
and its peers, and hash_many (many messages on the SIMD lanes, one thread)
against one stream, as a self-contained SVG.

    python3 tools/bench/bench.py --sizes 64,256,1024,4096,16384,65536,1048576,16777216 \\
        --pyskein-min 65536 --csv docs/data/throughput.csv
    python3 tools/bench/chart.py docs/data/throughput.csv -o docs/img/throughput.svg

(docs/performance.md has the exact commands of the committed chart.)

Input: one or more CSVs that `bench.py --csv` writes (columns case,
state_bits, output_bits, msg_bytes, impl, ns_per_hash, mb_per_s,
clock_ghz); with several, each point is the best over all of them (more
passes of the same benchmark, the same way bench.py keeps the best pass). Plain
Python 3 standard library, no plotting package: the SVG is written by hand.
`--case` picks the hash (default Skein-512-512, the largest case the
reference C covers), `--title` adds a line under the heading (e.g. the
machine). `--table CASE,...` also prints the markdown table of the README
(MB/s per contender, ratios to the reference C) for those cases.
"""
import argparse
import csv
import math
from xml.sax.saxutils import escape

from bench import size_label  # the sizes as bench.py prints them

# Contender in the CSV -> (legend label, colour, dashed).
SERIES = [
    ("skein-simd hash_many", "skein-simd hash_many (SIMD lanes, 1 thread)", "#1b7837", True),
    ("skein-simd digest_into", "skein-simd digest_into (one-shot)", "#2166ac", True),
    ("skein-simd", "skein-simd (new, update, finalize)", "#2166ac", False),
    ("skein-ffi C", "reference C (skein-ffi 0.5.0, -O3)", "#b2182b", False),
    ("pyskein C", "pyskein 1.0 C (from Python)", "#e08214", False),
    ("Botan 2", "Botan 2", "#8073ac", False),
    ("RustCrypto 0.2", "RustCrypto skein 0.2", "#555555", False),
    ("RustCrypto 0.1", "RustCrypto skein 0.1", "#999999", False),
]


def load(paths, case):
    """{impl: [(msg_bytes, MB/s), ...] sorted}, the best MB/s per point over
    every file."""
    best = {}
    for path in paths:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if row["case"] != case:
                    continue
                key = (row["impl"], int(row["msg_bytes"]))
                best[key] = max(best.get(key, 0.0), float(row["mb_per_s"]))
    points = {}
    for (impl, n), mb in best.items():
        points.setdefault(impl, []).append((n, mb))
    for v in points.values():
        v.sort()
    return points


def chart(points, case, subtitle):
    width, height = 780, 500
    left, right, top, bottom = 70, 20, 62, 150
    pw, ph = width - left - right, height - top - bottom
    series = [s for s in SERIES if s[0] in points]
    sizes = sorted({n for s in series for n, _ in points[s[0]]})
    ymax = max(mb for s in series for _, mb in points[s[0]])
    step = 250 if ymax <= 2000 else 500
    ytop = step * math.ceil(ymax * 1.05 / step)
    lx0, lx1 = math.log2(sizes[0]), math.log2(sizes[-1])

    def x(n):
        return left + (math.log2(n) - lx0) / (lx1 - lx0) * pw

    def y(mb):
        return top + ph - mb / ytop * ph

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{left}" y="22" font-size="16" font-weight="bold">{escape(case)}: throughput against message size</text>',
        f'<text x="{left}" y="42" fill="#444">{escape(subtitle)}</text>',
    ]
    v = 0
    while v <= ytop:
        out.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{left + pw}" y2="{y(v):.1f}" stroke="#e5e5e5"/>')
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v}</text>')
        v += step
    for n in sizes:
        out.append(f'<line x1="{x(n):.1f}" y1="{top}" x2="{x(n):.1f}" y2="{top + ph}" stroke="#f0f0f0"/>')
        out.append(f'<text x="{x(n):.1f}" y="{top + ph + 16}" text-anchor="middle">{size_label(n)}</text>')
    out.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#888"/>')
    out.append(f'<text x="{left + pw / 2}" y="{top + ph + 34}" text-anchor="middle">message size</text>')
    out.append(
        f'<text transform="translate(18 {top + ph / 2}) rotate(-90)" text-anchor="middle">MB/s (higher is better)</text>'
    )
    for key, label, colour, dashed in series:
        pts = points[key]
        path = " ".join(f"{x(n):.1f},{y(mb):.1f}" for n, mb in pts)
        dash = ' stroke-dasharray="6 4"' if dashed else ""
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        for n, mb in pts:
            out.append(f'<circle cx="{x(n):.1f}" cy="{y(mb):.1f}" r="3" fill="{colour}"/>')
    # Legend: two columns under the plot.
    for i, (key, label, colour, dashed) in enumerate(series):
        lx = left + (i % 2) * (pw / 2)
        ly = top + ph + 56 + (i // 2) * 20
        dash = ' stroke-dasharray="6 4"' if dashed else ""
        out.append(f'<line x1="{lx:.1f}" y1="{ly - 4}" x2="{lx + 28:.1f}" y2="{ly - 4}" stroke="{colour}" stroke-width="2"{dash}/>')
        out.append(f'<text x="{lx + 34:.1f}" y="{ly}">{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def table(paths, cases):
    """Markdown: one row per (case, size), MB/s of the main contenders and
    skein-simd's speed over the reference C's."""
    cols = ["skein-simd", "skein-simd hash_many", "skein-ffi C", "pyskein C", "RustCrypto 0.2", "RustCrypto 0.1"]
    heads = ["skein-simd", "hash_many (lanes)", "reference C", "pyskein C", "RustCrypto 0.2", "RustCrypto 0.1"]
    rows = []
    for case in cases:
        points = load(paths, case)
        by_size = {}
        for impl, pts in points.items():
            for n, mb in pts:
                by_size.setdefault(n, {})[impl] = mb
        for n in sorted(by_size):
            t = by_size[n]
            cells = [case, size_label(n)] + [f"{t[c]:.0f}" if c in t else "–" for c in cols]
            ratio = f"{t['skein-simd'] / t['skein-ffi C']:.2f}x" if "skein-ffi C" in t else "–"
            rows.append("| " + " | ".join(cells + [ratio]) + " |")
    head = "| hash | message | " + " | ".join(heads) + " | skein-simd / reference C |"
    return "\n".join([head, "|" + "---|" * (len(heads) + 3)] + rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+", help="CSVs bench.py --csv wrote (best per point over all)")
    ap.add_argument("-o", "--output", required=True, help="where to write the SVG")
    ap.add_argument("--case", default="Skein-512-512", help="hash to draw (a `case` value of the CSV)")
    ap.add_argument("--title", default=None, help="line under the heading (default: the measured clock)")
    ap.add_argument("--table", default=None, help="also print the markdown table of these cases (comma-separated)")
    a = ap.parse_args()
    points = load(a.csv, a.case)
    if not points:
        raise SystemExit(f"no rows for case {a.case!r} in {a.csv}")
    subtitle = a.title or "one thread; best of interleaved rounds"
    with open(a.output, "w") as f:
        f.write(chart(points, a.case, subtitle))
    if a.table:
        print(table(a.csv, a.table.split(",")))


if __name__ == "__main__":
    main()
