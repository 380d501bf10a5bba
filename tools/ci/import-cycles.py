#!/usr/bin/env python3
"""Import cycles between the library's source files (src/**/*.rs).

usage: python3 tools/ci/import-cycles.py [SRC_DIR]     (default: src of the repository)

Every .rs file under SRC_DIR is a module: lib.rs the crate root, NAME.rs
and NAME/mod.rs the module `NAME`, NAME/CHILD.rs the module `NAME::CHILD`.
A file pulled in with `include!("...")` (the generated assembly) is read as
part of the file that includes it, not as a module of its own.

An edge goes from file A to file B when A's code names a path that starts
with `crate::`, `$crate::` (in a macro A defines), `super::` or `self::`
and whose longest module prefix is B's module; `use` trees are expanded
(`use super::{a, b::C}` names `super::a` and `super::b::C`). `super` and
`self` are taken from where the path stands, inline modules (`mod checks
{ ... }`) included. A path names the file of its module, not the one an
item is re-exported from. Left out: comments (doc links among them),
string literals, `#[cfg(test)]` modules and uses (test code, not part of
the library), paths without one of those four prefixes (other crates), and
macros invoked by name.

Edges from a file to one of its ancestors (lib.rs, the mod.rs or NAME.rs of
an enclosing module) are left out. The module tree already ties the two the
other way: a parent declares its children (`mod x;`) and re-exports or
calls them, while a child using what its parent declares (`use super::*`,
the crate's `Error` from lib.rs) is how Rust modules are laid out. Counted,
those edges would make nearly every parent and child a cycle and bury the
cycles that matter: between files that are not each other's ancestors
(siblings, or parts of the tree further apart). A parent's edges to its
descendants are counted.

Prints each cycle as a chain of files (src/<a>.rs -> src/<b>.rs -> src/<a>.rs),
every edge of it with the line and path that make it, and exits 1; with
none, prints "import cycles: 0" and exits 0 (2: no lib.rs in SRC_DIR).
Files joined by several cycles (one strongly connected group) are reported
once, as the group's shortest cycle and its other files; the count is of
such groups.
"""

import os
import re
import sys
from collections import deque


def module_of(rel):
    """Module path of a file path relative to the source root."""
    parts = rel[: -len(".rs")].split("/")
    if parts[-1] in ("lib", "mod"):
        parts = parts[:-1]
    return tuple(parts)


RAW_STRING = re.compile(r'b?r(#*)"')
# A char literal ('a', '\n', '\u{1F600}'); a quote that does not start one
# starts a lifetime ('a).
CHAR_LITERAL = re.compile(r"'(\\(u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^\\'])'")


def blank_comments_and_strings(text):
    """`text` with comments, string literals and char literals replaced by
    spaces (newlines kept), so that positions and line numbers still hold."""
    out = list(text)
    i, n = 0, len(text)

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif (m := RAW_STRING.match(text, i)) and not (i and re.match(r"\w", text[i - 1])):
            end = text.find('"' + m.group(1), m.end())
            j = n if end < 0 else end + 1 + len(m.group(1))
            blank(i, j)
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            blank(i, j + 1)
            i = j + 1
        elif c == "'":
            m = CHAR_LITERAL.match(text, i)
            if m:
                blank(i, m.end())
                i = m.end()
            else:
                i += 1
        else:
            i += 1
    return "".join(out)


def line_of(text, pos):
    """Line number (from 1) of position `pos`."""
    return text.count("\n", 0, pos) + 1


USE_TOKEN = re.compile(r"\s*(::|\$?\w+|[{},*;])")


def use_paths(text, pos):
    """The paths of the use tree that starts at `pos` (after `use`), each a
    list of segments (a glob names its module's path), and the position
    after the closing `;`."""
    tokens = []
    while True:
        m = USE_TOKEN.match(text, pos)
        if not m:
            # Something a use tree never holds (a macro's `$(...)*`): stop here.
            semi = text.find(";", pos)
            return [], (len(text) if semi < 0 else semi + 1)
        pos = m.end()
        if m.group(1) == ";":
            break
        tokens.append(m.group(1))
    paths = []

    def tree(k, prefix):
        """Parse one use tree at tokens[k]; returns the index after it."""
        segs = []
        if k < len(tokens) and tokens[k] == "::":
            k += 1  # `::name`: another crate
            prefix = None
        while k < len(tokens):
            t = tokens[k]
            if t == "{":
                k += 1
                while k < len(tokens) and tokens[k] != "}":
                    k = next_tree(k, None if prefix is None else prefix + segs)
                return k + 1
            if t == "*":
                if prefix is not None:
                    paths.append(prefix + segs)
                return k + 1
            if t in (",", "}"):
                break
            if t == "as":
                k += 2  # the alias
                break
            if t != "::":
                segs.append(t)
            k += 1
        if prefix is not None:
            path = prefix if segs == ["self"] else prefix + segs  # `a::{self, b}` names `a`
            if path:
                paths.append(path)
        return k

    def next_tree(k, prefix):
        """One tree and the comma after it; always moves on."""
        after = tree(k, prefix)
        if after < len(tokens) and tokens[after] == ",":
            after += 1
        return max(after, k + 1)

    k = 0
    while k < len(tokens):
        k = next_tree(k, [])
    return paths, pos


ITEM = re.compile(
    r"(?P<cfgtest>#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\])"
    r"|(?P<mod>\bmod\s+(?P<name>\w+)\s*(?P<body>[{;]))"
    r"|(?P<use>\buse\b)"
    r"|(?P<include>\binclude!\s*\()"
    r"|(?P<path>(?<![\w$:])(?:\$crate|crate|super|self)(?:\s*::\s*\w+)+)"
    r"|(?P<open>\{)|(?P<close>\})|(?P<semi>;)"
)


INCLUDE_NAME = re.compile(r'\s*"([^"]+)"\s*\)')


def matching_brace(text, pos):
    """Position after the `}` that closes the `{` at `pos`."""
    depth = 0
    for j in range(pos, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def references(raw, module):
    """Yield (line, segments, path as written, module it stands in) for every
    path of the file's code that starts with crate, $crate, super or self,
    `module` being the file's module; and ("include", name, module) for each
    `include!("name")`."""
    text = blank_comments_and_strings(raw)
    stack = []  # inline modules: (name, brace depth of their body)
    depth = 0
    test_only = False  # the next item is #[cfg(test)]
    pos = 0
    while (m := ITEM.search(text, pos)) is not None:
        pos = m.end()
        here = tuple(module) + tuple(name for name, _ in stack)
        if m.group("cfgtest"):
            test_only = True
            continue
        if m.group("mod"):
            if m.group("body") == "{":
                if test_only:
                    pos = matching_brace(text, m.end("body") - 1)
                else:
                    depth += 1
                    stack.append((m.group("name"), depth))
            test_only = False
        elif m.group("use"):
            paths, pos = use_paths(text, m.end())
            if not test_only:
                for p in paths:
                    yield line_of(text, m.start()), p, "use " + "::".join(p), here
            test_only = False
        elif m.group("include"):
            lit = INCLUDE_NAME.match(raw, m.end())
            if lit:
                yield "include", lit.group(1), here
        elif m.group("path"):
            segs = re.split(r"\s*::\s*", m.group("path"))
            yield line_of(text, m.start()), segs, m.group("path"), here
        elif m.group("open"):
            depth += 1
            test_only = False
        elif m.group("close"):
            if stack and stack[-1][1] == depth:
                stack.pop()
            depth -= 1
        elif m.group("semi"):
            test_only = False


def resolve(segs, here):
    """Absolute module path of a path's segments, `here` the module it is
    written in; None for a path that does not start in this crate."""
    if segs[0] in ("crate", "$crate"):
        out, rest = [], segs[1:]
    elif segs[0] in ("super", "self"):
        out, rest = list(here), segs
    else:
        return None
    for s in rest:
        if s == "super":
            if out:
                out.pop()
        elif s != "self":
            out.append(s)
    return tuple(out)


def main():
    tool_dir = os.path.dirname(os.path.abspath(__file__))
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(tool_dir, "..", "..", "src")
    root = os.path.normpath(root)
    if not os.path.isfile(os.path.join(root, "lib.rs")):
        print(f"import-cycles: no lib.rs in {root}", file=sys.stderr)
        return 2
    label_root = os.path.basename(root)
    files = {}  # relative path -> text
    for d, dirs, names in os.walk(root):
        dirs.sort()
        for f in sorted(names):
            if f.endswith(".rs"):
                p = os.path.join(d, f)
                rel = os.path.relpath(p, root).replace(os.sep, "/")
                with open(p, encoding="utf-8", errors="replace") as fh:
                    files[rel] = fh.read()

    # Files that another includes are read as part of it.
    included = {}  # included file -> (including file, module at the include)
    for rel, raw in files.items():
        for ref in references(raw, module_of(rel)):
            if ref[0] == "include":
                target = os.path.normpath(os.path.join(os.path.dirname(rel), ref[1]))
                target = target.replace(os.sep, "/")
                if target in files:
                    included[target] = (rel, tuple(ref[2]))
    modules = {module_of(rel): rel for rel in files if rel not in included}

    def file_of(path):
        """The file of the longest prefix of `path` that is a module."""
        for n in range(len(path), -1, -1):
            if path[:n] in modules:
                return modules[path[:n]]
        return None

    edges = {rel: {} for rel in modules.values()}  # file -> {file: (where, path)}
    for rel, raw in files.items():
        owner, module = included.get(rel, (rel, module_of(rel)))
        own = module_of(owner)
        ancestors = {own[:k] for k in range(len(own))}
        for ref in references(raw, module):
            if ref[0] == "include":
                continue
            line, segs, written, here = ref
            target = resolve(segs, here)
            if target is None:
                continue
            dst = file_of(target)
            if dst is None or dst == owner or module_of(dst) in ancestors:
                continue
            edges[owner].setdefault(dst, (f"{label_root}/{rel}:{line}", written))

    # Strongly connected groups of files (Tarjan's algorithm, iterative).
    index, low, on_stack, stack, groups = {}, {}, set(), [], []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))

    def shortest_cycle(first, members):
        """Shortest chain of edges within `members` from `first` back to it."""
        back = {first: None}
        queue = deque([first])
        while queue:
            v = queue.popleft()
            for w in sorted(edges[v]):
                if w not in members:
                    continue
                if w == first:
                    chain = [v]
                    while back[chain[-1]] is not None:
                        chain.append(back[chain[-1]])
                    return list(reversed(chain)) + [first]
                if w not in back:
                    back[w] = v
                    queue.append(w)
        return [first]

    name = lambda rel: f"{label_root}/{rel}"
    for group in sorted(groups):
        chain = min((shortest_cycle(f, set(group)) for f in group), key=len)
        print("import cycle: " + " -> ".join(name(f) for f in chain))
        for a, b in zip(chain, chain[1:]):
            where, written = edges[a][b]
            print(f"    {where}: {written}")
        others = [f for f in group if f not in chain]
        if others:
            print("    also in this group: " + ", ".join(name(f) for f in others))
    print(f"{len(modules)} files, {sum(len(e) for e in edges.values())} edges")
    print(f"import cycles: {len(groups)}")
    return 1 if groups else 0


if __name__ == "__main__":
    sys.exit(main())
