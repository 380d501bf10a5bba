"""Checks a built wheel of the Python package (and the sdist, when given) as
a user's installer and auditor would see them: the platform tag in the file
name, in the WHEEL file and in `auditwheel show`'s verdict; the one
extension module, for the right machine, needing no library beyond the C
library the platform tag promises; the licence texts byte for byte the
repository's; the metadata's licence expression.

usage: python tools/ci/wheel-check.py WHEEL PLATFORM [--sdist SDIST]
  PLATFORM: the tag auditwheel must find the wheel consistent with:
  manylinux_2_17_x86_64, manylinux_2_17_aarch64, musllinux_1_2_x86_64 or
  musllinux_1_2_aarch64. Run with the python of the venv that holds
  auditwheel (and so pyelftools); exits non-zero with every problem listed.
"""

import argparse
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from io import BytesIO

from elftools.elf.dynamic import DynamicSection
from elftools.elf.elffile import ELFFile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LICENCES = ("LICENSE-MIT", "LICENSE-APACHE")
METADATA_LINES = ("License-Expression: MIT OR Apache-2.0", "License-File: LICENSE-MIT", "License-File: LICENSE-APACHE")
# pyelftools' names of the machines.
MACHINES = {"x86_64": "EM_X86_64", "aarch64": "EM_AARCH64"}
# What the extension may link: the C library the tag stands for (glibc's
# pieces, or musl's one libc), and libgcc_s, which manylinux guarantees
# and Rust's unwinder uses on glibc. Anything else would have to be
# installed by the user, or bundled.
SYSTEM_LIBRARIES = {
    "manylinux": {"libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1", "libgcc_s.so.1",
                  "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1"},
    # musl's one libc, by the name Alpine's links give it (zig's is libc.so,
    # which python-wheels-cross.sh renames: auditwheel takes only this one).
    "musllinux": {"libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1"},
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("wheel")
    ap.add_argument("platform", choices=[f"{p}_{m}" for p in ("manylinux_2_17", "musllinux_1_2") for m in MACHINES])
    ap.add_argument("--sdist")
    args = ap.parse_args()
    family, machine = re.fullmatch(r"(manylinux|musllinux)_\d+_\d+_(\w+)", args.platform).groups()
    # maturin names a manylinux_2_17 wheel with the legacy alias first.
    tags = [args.platform] if family == "musllinux" else [f"manylinux2014_{machine}", args.platform]
    licences = {n: open(os.path.join(REPO, n), "rb").read() for n in LICENCES}
    errors = []
    metadata = {}

    name = os.path.basename(args.wheel)
    want_name = rf"skein_simd-[^-]+-cp39-abi3-{re.escape('.'.join(tags))}\.whl"
    if not re.fullmatch(want_name, name):
        errors.append(f"wheel file name {name}: not cp39-abi3-{'.'.join(tags)}")

    # auditwheel wraps its text: the lines joined before looking.
    auditwheel = os.path.join(os.path.dirname(sys.executable), "auditwheel")
    shown = subprocess.run([auditwheel, "show", args.wheel], capture_output=True, text=True)
    print(shown.stdout + shown.stderr, end="")
    verdict = " ".join(shown.stdout.split())
    if shown.returncode != 0 or f'is consistent with the following platform tag: "{args.platform}"' not in verdict:
        errors.append(f"auditwheel show does not find the wheel consistent with {args.platform}")
    if "external shared libraries are required" in verdict:
        errors.append("auditwheel show lists external shared libraries the wheel requires")

    with zipfile.ZipFile(args.wheel) as z:
        names = z.namelist()
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/WHEEL"))
        wheel_tags = re.findall(r"^Tag: (\S+)$", z.read(f"{info}/WHEEL").decode(), re.M)
        if sorted(wheel_tags) != sorted(f"cp39-abi3-{t}" for t in tags):
            errors.append(f"WHEEL tags {wheel_tags}: expected cp39-abi3- with {tags}")
        sos = [n for n in names if n.endswith(".so")]
        if sos != ["skein_simd/skein_simd.abi3.so"]:
            errors.append(f"extension modules {sos}: expected skein_simd/skein_simd.abi3.so")
        needed = []
        for so in sos:
            elf = ELFFile(BytesIO(z.read(so)))
            if elf["e_machine"] != MACHINES[machine] or elf.elfclass != 64:
                errors.append(f"{so}: {elf['e_machine']}, ELF{elf.elfclass}; expected {MACHINES[machine]}, ELF64")
            for section in elf.iter_sections():
                if isinstance(section, DynamicSection):
                    needed += [t.needed for t in section.iter_tags() if t.entry.d_tag == "DT_NEEDED"]
            extra = sorted(set(needed) - SYSTEM_LIBRARIES[family])
            if extra:
                errors.append(f"{so} needs {extra}, beyond the {family} system libraries")
        for n, text in licences.items():
            member = f"{info}/licenses/{n}"
            if member not in names or z.read(member) != text:
                errors.append(f"wheel: {member} missing or not the repository's {n}")
        metadata["wheel METADATA"] = z.read(f"{info}/METADATA").decode()
        print(f"wheel {name}: tags {wheel_tags}; {', '.join(sos) or 'no .so'} needs {needed}; licences in {info}/licenses/")

    if args.sdist:
        with tarfile.open(args.sdist) as t:
            members = {m.name: m for m in t.getmembers()}
            top = os.path.basename(args.sdist)[: -len(".tar.gz")]
            for n, text in licences.items():
                m = members.get(f"{top}/{n}")
                if m is None or t.extractfile(m).read() != text:
                    errors.append(f"sdist: {top}/{n} missing or not the repository's {n}")
            metadata["sdist PKG-INFO"] = t.extractfile(members[f"{top}/PKG-INFO"]).read().decode()
            print(f"sdist {os.path.basename(args.sdist)}: {len(members)} members, {top}/LICENSE-MIT and {top}/LICENSE-APACHE")

    for where, text in metadata.items():
        for line in METADATA_LINES:
            if line not in text.splitlines():
                errors.append(f"{where}: no line '{line}'")
    if errors:
        sys.exit("ERROR: wheel-check:\n  " + "\n  ".join(errors))
    print(f"{name}{' and ' + os.path.basename(args.sdist) if args.sdist else ''}: tags, libraries, licence texts and licence metadata as expected")


main()
