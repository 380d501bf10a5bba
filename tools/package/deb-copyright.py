#!/usr/bin/env python3
"""Writes the Debian copyright file (machine-readable format 1.0) of one
binary package built by tools/package/deb.sh.

usage: deb-copyright.py CRATE... > copyright

CRATE is a package of this workspace whose build the Debian package holds
(skeinsum for `skeinsum`, skein-simd-capi for the library packages). The
file gives the project's licence (MIT or Apache-2.0), and lists what the
programs and libraries are linked with statically: the Rust standard
library and every crate that `cargo tree -e normal,no-proc-macro` gives
for the build target, each with the licence its Cargo.toml declares and the
copyright lines of its licence files (the MIT licence asks that they go
with every copy). The text of each licence named follows (Apache-2.0 by
its path in /usr/share/common-licenses, as Debian policy asks). A licence
without a text here is an error, so that a new dependency under another
licence cannot slip into a package unnoticed.

Run from inside the repository, with the dependencies' sources downloaded
(any build or `cargo fetch` has done that).
"""

import json
import os
import re
import subprocess
import sys

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# SPDX identifiers (as Cargo.toml writes them) with the text that goes into
# the copyright file's licence paragraph.
APACHE = (
    "Licensed under the Apache License, Version 2.0 (the \"License\");\n"
    "you may not use this file except in compliance with the License.\n"
    "You may obtain a copy of the License at\n"
    "\n"
    "    http://www.apache.org/licenses/LICENSE-2.0\n"
    "\n"
    "Unless required by applicable law or agreed to in writing, software\n"
    "distributed under the License is distributed on an \"AS IS\" BASIS,\n"
    "WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.\n"
    "See the License for the specific language governing permissions and\n"
    "limitations under the License.\n"
    "\n"
    "On Debian systems, the complete text of the Apache License, Version 2.0,\n"
    "is in /usr/share/common-licenses/Apache-2.0.\n"
)


def mit_text():
    """The MIT licence's terms: the repository's LICENSE-MIT without its
    copyright line (the copyright lines are given per work)."""
    with open(os.path.join(REPO, "LICENSE-MIT"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("Permission is hereby granted")
    return text[start:]


LLVM_EXCEPTION = (
    "\n"
    "---- LLVM Exceptions to the Apache 2.0 License ----\n"
    "\n"
    "As an exception, if, as a result of your compiling your source code, portions\n"
    "of this Software are embedded into an Object form of such source code, you\n"
    "may redistribute such embedded portions in such Object form without complying\n"
    "with the conditions of Sections 4(a), 4(b) and 4(d) of the License.\n"
    "\n"
    "In addition, if you combine or link compiled forms of this Software with\n"
    "software that is licensed under the GPLv2 (\"Combined Software\") and if a\n"
    "court of competent jurisdiction determines that the patent provision (Section\n"
    "3), the indemnity provision (Section 9) or other Section of the License\n"
    "conflicts with the conditions of the GPLv2, you may retroactively and\n"
    "prospectively choose to deem waived or otherwise exclude such Section(s) of\n"
    "the License, but only in their entirety and only with respect to the Combined\n"
    "Software.\n"
)

BSD_3_CLAUSE = (
    "Redistribution and use in source and binary forms, with or without\n"
    "modification, are permitted provided that the following conditions are\n"
    "met:\n"
    "\n"
    "1. Redistributions of source code must retain the above copyright\n"
    "notice, this list of conditions and the following disclaimer.\n"
    "\n"
    "2. Redistributions in binary form must reproduce the above copyright\n"
    "notice, this list of conditions and the following disclaimer in the\n"
    "documentation and/or other materials provided with the distribution.\n"
    "\n"
    "3. Neither the name of the copyright holder nor the names of its\n"
    "contributors may be used to endorse or promote products derived from\n"
    "this software without specific prior written permission.\n"
    "\n"
    "THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS \"AS\n"
    "IS\" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED\n"
    "TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A\n"
    "PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT\n"
    "HOLDER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL,\n"
    "SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED\n"
    "TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR\n"
    "PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF\n"
    "LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING\n"
    "NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS\n"
    "SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.\n"
)

ZLIB = (
    "This software is provided 'as-is', without any express or implied\n"
    "warranty. In no event will the authors be held liable for any damages\n"
    "arising from the use of this software.\n"
    "\n"
    "Permission is granted to anyone to use this software for any purpose,\n"
    "including commercial applications, and to alter it and redistribute it\n"
    "freely, subject to the following restrictions:\n"
    "\n"
    "1. The origin of this software must not be misrepresented; you must not\n"
    "   claim that you wrote the original software. If you use this software\n"
    "   in a product, an acknowledgment in the product documentation would be\n"
    "   appreciated but is not required.\n"
    "2. Altered source versions must be plainly marked as such, and must not be\n"
    "   misrepresented as being the original software.\n"
    "3. This notice may not be removed or altered from any source distribution.\n"
)

# Keyed by SPDX licence (with its exception, if any), as Cargo.toml names it.
LICENCE_TEXTS = {
    "MIT": mit_text,
    "Apache-2.0": lambda: APACHE,
    "Apache-2.0 WITH LLVM-exception": lambda: APACHE + LLVM_EXCEPTION,
    "BSD-3-Clause": lambda: BSD_3_CLAUSE,
    "Zlib": lambda: ZLIB,
}


def run(*args):
    return subprocess.run(args, cwd=REPO, check=True, capture_output=True, text=True).stdout


def host_triple():
    out = run("rustc", "-vV")
    return re.search(r"^host: (\S+)$", out, re.M).group(1)


def linked_crates(crate, triple):
    """(name, version, licence) of every crate the build of CRATE links,
    CRATE and the workspace's path crates included."""
    out = run(
        "cargo", "tree", "-q", "-p", crate, "--target", triple, "-e", "normal,no-proc-macro",
        "--prefix", "none", "--format", "{p}\t{l}",
    )
    crates = set()
    for line in out.splitlines():
        pkg, _, licence = line.partition("\t")
        fields = pkg.split()
        name, version = fields[0], fields[1].lstrip("v")
        crates.add((name, version, licence.replace(" (*)", "").strip()))
    return sorted(crates)


def manifest_dirs():
    """(name, version) -> the crate's source directory, from cargo metadata."""
    meta = json.loads(run("cargo", "metadata", "-q", "--format-version", "1"))
    return {
        (p["name"], p["version"]): os.path.dirname(p["manifest_path"]) for p in meta["packages"]
    }


def copyright_lines(directory):
    """The `Copyright ...` lines of a crate's licence files (not the Apache
    licence's template line), without duplicates, in file order."""
    lines = []
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return lines
    for name in names:
        if not re.match(r"(?i)(licen[cs]e|copying|copyright)", name):
            continue
        path = os.path.join(directory, name)
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                line = line.strip()
                if re.match(r"(?i)copyright\b.*\d{4}", line) and "[yyyy]" not in line and line not in lines:
                    lines.append(line)
    return lines


def licences(expression):
    """The licences of an SPDX expression (`MIT OR Apache-2.0`,
    `MIT/Apache-2.0`, `Apache-2.0 WITH LLVM-exception OR MIT`), each with
    its exception."""
    atoms = re.split(r"\s+(?:OR|AND)\s+|/|[()]", expression)
    return [" ".join(a.split()) for a in atoms if a.strip()]


def dep5(expression):
    """An SPDX expression or licence in the copyright format's syntax
    (`or`, `and`, `with NAME exception`)."""
    text = re.sub(r"\s*/\s*", " OR ", expression)
    text = re.sub(r" WITH (\S+)-exception", r" with \1 exception", text)
    return text.replace(" OR ", " or ").replace(" AND ", " and ")


def main():
    crates = sys.argv[1:]
    if not crates:
        sys.exit("usage: deb-copyright.py CRATE...")
    triple = host_triple()
    dirs = manifest_dirs()
    workspace = {n for (n, _v), d in dirs.items() if os.path.commonpath([REPO, d]) == REPO}
    linked = sorted({c for crate in crates for c in linked_crates(crate, triple)})
    used = {"MIT", "Apache-2.0"}
    listing = []
    for name, version, licence in linked:
        if name in workspace:
            continue
        if not licence:
            sys.exit(f"deb-copyright.py: the crate {name} {version} declares no licence")
        used.update(licences(licence))
        listing.append(f" {name} {version}: {dep5(licence)}")
        for line in copyright_lines(dirs.get((name, version), "")):
            listing.append(f"  {line}")
    missing = sorted(used - LICENCE_TEXTS.keys())
    if missing:
        sys.exit(
            "deb-copyright.py: no licence text for " + ", ".join(missing)
            + " (a crate linked into the packages uses it): add it to LICENCE_TEXTS"
        )
    with open(os.path.join(REPO, "LICENSE-MIT"), encoding="utf-8") as f:
        own = next(line.strip() for line in f if line.startswith("Copyright"))
    own = re.sub(r"^Copyright (\(c\) )?", "", own)
    out = [
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/",
        "Upstream-Name: skein-simd",
        "Source: https://github.com/skein-simd/skein-simd",
        "Comment: The programs and libraries are linked statically with the Rust",
        " standard library (MIT or Apache-2.0) and with these crates, each under the",
        " licence its Cargo.toml declares (the texts are below):",
        " .",
        *listing,
        "",
        "Files: *",
        f"Copyright: {own}",
        "License: MIT or Apache-2.0",
    ]
    for ident in sorted(used):
        out.append("")
        out.append(f"License: {dep5(ident)}")
        for line in LICENCE_TEXTS[ident]().rstrip("\n").split("\n"):
            out.append(f" {line}" if line.strip() else " .")
    print("\n".join(out))


if __name__ == "__main__":
    main()
