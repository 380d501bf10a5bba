#!/usr/bin/env bash
# The public API of the skein-simd library against its committed snapshot,
# docs/public-api.txt, so that every change to the surface is deliberate.
#
# usage: bash tools/ci/public-api.sh           compare; fails on any difference
#        bash tools/ci/public-api.sh --bless   rewrite docs/public-api.txt
#
# Checks that the published features are additive (an item's signature is
# the same under every combination that has it), then compares the list
# built from rustdoc's JSON (nightly: the format is unstable) with the default
# features plus `digest010` (everything a user can turn on; the
# repository's test hooks off: SKEIN_SIMD_TEST_HOOKS=0), with hidden items included so that they show up
# marked `#[doc(hidden)]`, and lists one line per public item: its kind,
# path and signature; the inherent methods, associated items and trait
# impls of every public type (blanket impls left out; of the auto traits,
# Send and Sync). One line per item, sorted, so a diff names exactly what
# changed. Left out: the variants of `Backend`, which is `#[non_exhaustive]`
# (adding a backend breaks no user), and whose list, in its public order,
# is docs/backends.md, generated and checked by tests/suite/backend_lists.rs;
# one line says so instead.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# Only if missing: in CI, tools/ci/cargo-retry must stay ahead of it.
case ":$PATH:" in *":$HOME/.cargo/bin:"*) ;; *) export PATH="$HOME/.cargo/bin:$PATH" ;; esac
TOOLCHAIN=nightly
SNAPSHOT=docs/public-api.txt

if ! rustup toolchain list | grep -q "^$TOOLCHAIN-"; then
    echo "public-api: error: no '$TOOLCHAIN' Rust toolchain (rustdoc's JSON output needs it)." >&2
    echo "public-api: install it with: rustup toolchain install $TOOLCHAIN" >&2
    exit 1
fi

# shellcheck source=target-dir.sh
. "$(dirname "${BASH_SOURCE[0]}")/target-dir.sh"
json="$target_dir/doc/skein_simd.json"
# The published crate's API: without the test hooks .cargo/config.toml
# turns on inside the repository.
export SKEIN_SIMD_TEST_HOOKS=0

current="$(mktemp)"
lister="$(mktemp)"
combos="$(mktemp -d)"
trap 'rm -rf "$current" "$lister" "$combos"' EXIT
cat > "$lister" << 'EOF'
import json
import re
import sys

doc = json.load(open(sys.argv[1]))
index = doc["index"]
paths = doc["paths"]
AUTO_TRAITS = {"Send", "Sync"}
# Markers the compiler's derives add, whose set changes between nightlies.
DERIVE_MARKERS = {"StructuralPartialEq", "TrivialClone"}
# Non-exhaustive enums whose variants are listed elsewhere (header comment).
VARIANTS_ELSEWHERE = {"skein_simd::Backend": "docs/backends.md"}
# Local items by the public path a user names them by (filled by `collect`).
public_path = {}


def item(i):
    return index.get(str(i))


def crate_version(crate):
    """`name@major.minor` of a registry crate (from the dependency file
    cargo writes beside its `.rmeta`), so that `digest` 0.10 and 0.11 are
    told apart; the plain name for the standard library's crates."""
    rmeta = crate.get("path") or ""
    m = re.search(r"lib(\w+)-(\w+)\.rmeta$", rmeta)
    if m:
        dep = rmeta[: m.start()] + m.group(1) + "-" + m.group(2) + ".d"
        try:
            text = open(dep).read()
        except OSError:
            text = ""
        name = crate["name"].replace("_", "[-_]")
        v = re.search(r"/" + name + r"-(\d+)\.(\d+)\.\d+[^/]*/src/lib\.rs", text)
        if v:
            minor = v.group(1) + "." + v.group(2) if v.group(1) == "0" else v.group(1)
            return crate["name"] + "@" + minor
    return crate["name"]


CRATES = {int(k): crate_version(c) for k, c in doc.get("external_crates", {}).items()}


def path_of(id_, written):
    if id_ in public_path:
        return public_path[id_]
    p = paths.get(str(id_))
    if not p:
        return written
    parts = list(p["path"])
    if p.get("crate_id", 0) in CRATES:
        parts[0] = CRATES[p["crate_id"]]
    return "::".join(parts)


def typenum(t):
    """The number a typenum `UInt<..>`/`UTerm` chain stands for, else None."""
    (k, v), = t.items()
    if k != "resolved_path":
        return None
    name = path_of(v["id"], v["path"]).split("::")[-1]
    if name == "UTerm":
        return 0
    if name != "UInt":
        return None
    hi, bit = (a["type"] for a in v["args"]["angle_bracketed"]["args"])
    n = typenum(hi)
    b = ty(bit).split("::")[-1]
    return None if n is None else 2 * n + (b == "B1")


def args(a):
    if not a:
        return ""
    if "angle_bracketed" in a:
        ab = a["angle_bracketed"]
        parts = [generic_arg(x) for x in ab["args"]]
        for c in ab["constraints"]:
            s = c["name"] + args(c.get("args"))
            b = c["binding"]
            if "equality" in b:
                eq = b["equality"]
                s += " = " + (ty(eq["type"]) if "type" in eq else eq["constant"]["expr"])
            else:
                s += ": " + bounds(b["constraint"])
            parts.append(s)
        return "<" + ", ".join(parts) + ">" if parts else ""
    if "parenthesized" in a:
        p = a["parenthesized"]
        out = " -> " + ty(p["output"]) if p.get("output") else ""
        return "(" + ", ".join(ty(t) for t in p["inputs"]) + ")" + out
    return "(..)"


def generic_arg(x):
    if x == "infer":
        return "_"
    if "type" in x:
        return ty(x["type"])
    if "lifetime" in x:
        return x["lifetime"]
    return x["const"]["expr"]


def trait_path(t):
    return path_of(t["id"], t["path"]) + args(t.get("args"))


def bounds(bs):
    out = []
    for b in bs:
        if "trait_bound" in b:
            tb = b["trait_bound"]
            mod = {"maybe": "?", "maybe_const": "~const "}.get(tb.get("modifier"), "")
            out.append(mod + trait_path(tb["trait"]))
        elif "outlives" in b:
            out.append(b["outlives"])
        else:
            out.append("use<..>")
    return " + ".join(out)


def ty(t):
    if t is None:
        return "()"
    (k, v), = t.items()
    if k == "resolved_path":
        n = typenum(t)
        if n is not None:
            return "typenum::U" + str(n)
        p = path_of(v["id"], v["path"])
        # typenum's named numbers (`typenum::consts::U32`, as `digest` 0.10
        # re-exports them) are the same types as the chains above.
        m = re.fullmatch(r"typenum(?:@\d+)?(?:::\w+)*::U(\d+)", p)
        if m and not v.get("args"):
            return "typenum::U" + m.group(1)
        return p + args(v.get("args"))
    if k == "generic":
        return v
    if k == "primitive":
        return v
    if k == "tuple":
        return "(" + ", ".join(ty(x) for x in v) + ")"
    if k == "slice":
        return "[" + ty(v) + "]"
    if k == "array":
        return "[" + ty(v["type"]) + "; " + v["len"] + "]"
    if k == "borrowed_ref":
        lt = v["lifetime"] + " " if v.get("lifetime") else ""
        return "&" + lt + ("mut " if v["is_mutable"] else "") + ty(v["type"])
    if k == "raw_pointer":
        return "*" + ("mut " if v["is_mutable"] else "const ") + ty(v["type"])
    if k == "impl_trait":
        return "impl " + bounds(v)
    if k == "dyn_trait":
        s = " + ".join(trait_path(p["trait"]) for p in v["traits"])
        return "dyn " + s + (" + " + v["lifetime"] if v.get("lifetime") else "")
    if k == "qualified_path":
        tr = "<" + ty(v["self_type"]) + (" as " + trait_path(v["trait"]) if v.get("trait") else "") + ">"
        return tr + "::" + v["name"] + args(v.get("args"))
    if k == "function_pointer":
        sig = v["sig"]
        out = " -> " + ty(sig["output"]) if sig.get("output") else ""
        return "fn(" + ", ".join(ty(x[1]) for x in sig["inputs"]) + ")" + out
    if k == "infer":
        return "_"
    return k


def generics(g):
    ps = []
    for p in g["params"]:
        (k, v), = p["kind"].items()
        if k == "lifetime":
            ps.append(p["name"] + (": " + " + ".join(v["outlives"]) if v["outlives"] else ""))
        elif k == "type":
            if v.get("is_synthetic"):
                continue
            s = p["name"] + (": " + bounds(v["bounds"]) if v["bounds"] else "")
            ps.append(s + (" = " + ty(v["default"]) if v.get("default") else ""))
        else:
            ps.append("const " + p["name"] + ": " + ty(v["type"]))
    return "<" + ", ".join(ps) + ">" if ps else ""


def where(g):
    ws = []
    for w in g["where_predicates"]:
        if "bound_predicate" in w:
            bp = w["bound_predicate"]
            ws.append(ty(bp["type"]) + ": " + bounds(bp["bounds"]))
        elif "lifetime_predicate" in w:
            lp = w["lifetime_predicate"]
            ws.append(lp["lifetime"] + ": " + " + ".join(lp["outlives"]))
        else:
            eq = w["eq_predicate"]
            ws.append(ty(eq["lhs"]) + " = " + ty(eq["rhs"].get("type")))
    return " where " + ", ".join(ws) if ws else ""


def fn_sig(name, f):
    h = f["header"]
    pre = ("const " if h["is_const"] else "") + ("unsafe " if h["is_unsafe"] else "")
    if h["abi"] != "Rust":
        pre += "extern " + json.dumps(h["abi"]) + " "
    ins = []
    for n, t in f["sig"]["inputs"]:
        if n == "self":
            s = ty(t)
            ins.append({"Self": "self", "&Self": "&self", "&mut Self": "&mut self"}.get(s, "self: " + s))
        else:
            ins.append(n + ": " + ty(t))
    out = " -> " + ty(f["sig"]["output"]) if f["sig"]["output"] else ""
    return pre + "fn " + name + generics(f["generics"]) + "(" + ", ".join(ins) + ")" + out + where(f["generics"])


def marks(it):
    m = ""
    attrs = json.dumps(it.get("attrs", []))
    if "doc(hidden)" in attrs:
        m += "#[doc(hidden)] "
    if "non_exhaustive" in attrs:
        m += "#[non_exhaustive] "
    if it.get("deprecation"):
        m += "#[deprecated] "
    return m


lines = set()


def assoc(owner, it):
    """An inherent method, associated const or type of `owner`."""
    (k, v), = it["inner"].items()
    if k == "function":
        lines.add(marks(it) + fn_sig(owner + "::" + it["name"], v))
    elif k == "assoc_const":
        lines.add(marks(it) + "const " + owner + "::" + it["name"] + ": " + ty(v["type"]))
    elif k == "assoc_type":
        lines.add(marks(it) + "type " + owner + "::" + it["name"] + (" = " + ty(v["type"]) if v.get("type") else ""))


def impls(owner, ids):
    for i in ids:
        it = item(i)
        im = it["inner"]["impl"]
        if im.get("blanket_impl"):
            continue
        tr = im.get("trait")
        last = tr["path"].split("::")[-1] if tr else None
        if im.get("is_synthetic") and last not in AUTO_TRAITS or last in DERIVE_MARKERS:
            continue
        if tr is None:
            for j in im["items"]:
                sub = item(j)
                if sub and sub["visibility"] == "public":
                    assoc(owner, sub)
            continue
        neg = "!" if im.get("is_negative") else ""
        head = "impl" + generics(im["generics"]) + " " + neg + trait_path(tr) + " for " + ty(im["for"])
        head += where(im["generics"])
        lines.add(marks(it) + head)
        # The associated types a trait impl chooses (output sizes and the like).
        for j in im["items"]:
            sub = item(j)
            if sub and "assoc_type" in sub["inner"] and sub["inner"]["assoc_type"].get("type"):
                lines.add(head + " { type " + sub["name"] + " = " + ty(sub["inner"]["assoc_type"]["type"]) + " }")


def collect(prefix, module_items, found):
    """(public path, item) of every public item under a module, re-exports
    resolved (an external crate's re-export as (path, None, source))."""
    for i in module_items:
        it = item(i)
        if it is None or it["visibility"] != "public":
            continue
        (k, v), = it["inner"].items()
        if k == "use":
            target = item(v["id"]) if v.get("id") is not None else None
            if v["is_glob"]:
                if target and "module" in target["inner"]:
                    collect(prefix, target["inner"]["module"]["items"], found)
                continue
            if target is None:
                found.append((prefix + "::" + v["name"], it, v["source"]))
                continue
            path, it = prefix + "::" + v["name"], target
        else:
            path = prefix + "::" + it["name"]
        found.append((path, it, None))
        if "module" in it["inner"]:
            collect(path, it["inner"]["module"]["items"], found)


def emit(path, it):
    (k, v), = it["inner"].items()
    m = marks(it)
    if k == "module":
        lines.add(m + "mod " + path)
    elif k == "function":
        lines.add(m + fn_sig(path, v))
    elif k == "constant":
        lines.add(m + "const " + path + ": " + ty(v["type"]))
    elif k == "static":
        lines.add(m + "static " + path + ": " + ty(v["type"]))
    elif k == "type_alias":
        lines.add(m + "type " + path + generics(v["generics"]) + " = " + ty(v["type"]))
    elif k in ("struct", "union"):
        g = generics(v["generics"])
        lines.add(m + k + " " + path + g + where(v["generics"]))
        kind = v.get("kind", {})
        fields = []
        if "plain" in kind:
            fields = kind["plain"]["fields"]
        elif "tuple" in kind:
            fields = [f for f in kind["tuple"] if f is not None]
        elif k == "union":
            fields = v["fields"]
        for f in fields:
            fi = item(f)
            if fi["visibility"] == "public":
                lines.add(marks(fi) + "field " + path + "::" + fi["name"] + ": " + ty(fi["inner"]["struct_field"]))
        impls(path, v["impls"])
    elif k == "enum":
        lines.add(m + "enum " + path + generics(v["generics"]) + where(v["generics"]))
        if v.get("has_stripped_variants"):
            lines.add("enum " + path + " has private variants")
        if path in VARIANTS_ELSEWHERE and "#[non_exhaustive]" in m:
            lines.add("enum " + path + ": variants in " + VARIANTS_ELSEWHERE[path])
            impls(path, v["impls"])
            return
        for var in v["variants"]:
            vi = item(var)
            vk = vi["inner"]["variant"]["kind"]
            s = ""
            if isinstance(vk, dict) and "tuple" in vk:
                s = "(" + ", ".join(ty(item(f)["inner"]["struct_field"]) if f is not None else "_" for f in vk["tuple"]) + ")"
            elif isinstance(vk, dict) and "struct" in vk:
                s = " { " + ", ".join(item(f)["name"] + ": " + ty(item(f)["inner"]["struct_field"]) for f in vk["struct"]["fields"]) + " }"
            lines.add(marks(vi) + "variant " + path + "::" + vi["name"] + s)
        impls(path, v["impls"])
    elif k == "trait":
        lines.add(m + "trait " + path + generics(v["generics"]))
        for j in v["items"]:
            assoc(path, item(j))
    elif k == "macro":
        lines.add(m + "macro " + path)
    else:
        lines.add(m + k + " " + path)


root = item(doc["root"])
found = []
collect(root["name"], root["inner"]["module"]["items"], found)
for path, it, _ in found:
    # The shortest path names an item re-exported in two places.
    if it["id"] not in public_path or len(path) < len(public_path[it["id"]]):
        public_path[it["id"]] = path
for path, it, extern in found:
    if extern is not None:
        lines.add(marks(it) + "extern crate " + path + " = " + extern)
    else:
        emit(path, it)
print("\n".join(sorted(lines)))
EOF

# The list of the public API built with the cargo feature arguments "$@".
list_api() {
    cargo "+$TOOLCHAIN" rustdoc -q -p skein-simd --lib "$@" -- \
        -Z unstable-options --output-format json --document-hidden-items \
        -A rustdoc::broken-intra-doc-links
    python3 "$lister" "$json"
}

# Features are additive: an item public under several combinations of the
# published features has the same signature under each (no type may change
# when another crate in the graph turns a feature on). The snapshot's
# combination, and the ones that differ in what a signature could take its
# types from: no `std`, `digest` 0.11 alone, `digest` 0.10 alone.
list_api --features digest010 > "$current"
list_api --no-default-features > "$combos/core"
list_api --no-default-features --features std,digest > "$combos/std-digest"
list_api --no-default-features --features std,digest010 > "$combos/std-digest010"
cp "$current" "$combos/all"
python3 - "$combos"/* << 'EOF'
import re
import sys

def key(line):
    """The item a line declares, without its signature: the same key under
    two feature combinations must come with the same line."""
    m = re.match(r"((?:#\[[^\]]*\] )*(?:fn|const|type|static) .*?)(?=<|\(|: | = |$)", line)
    return m.group(1) if m else line

seen = {}
bad = 0
for path in sys.argv[1:]:
    name = path.rsplit("/", 1)[-1]
    for line in open(path).read().splitlines():
        k = key(line)
        if k in seen and seen[k][1] != line:
            print(f"public-api: error: not additive: {seen[k][0]}: {seen[k][1]}")
            print(f"public-api:                      {name}: {line}")
            bad += 1
        seen.setdefault(k, (name, line))
if bad:
    sys.exit(1)
print(f"public-api: features are additive: {len(seen)} items agree across {len(sys.argv) - 1} combinations")
EOF

if [ "${1:-}" = --bless ]; then
    cp "$current" "$SNAPSHOT"
    echo "public-api: wrote $SNAPSHOT ($(wc -l < "$SNAPSHOT") lines)"
    exit 0
fi
if ! diff -u "$SNAPSHOT" "$current"; then
    echo >&2
    echo "public-api: error: the public API of skein-simd differs from $SNAPSHOT (diff above: - snapshot, + now)." >&2
    echo "public-api: if the change is deliberate, run 'bash tools/ci/public-api.sh --bless' and commit $SNAPSHOT with it." >&2
    exit 1
fi
echo "public-api: the public API matches $SNAPSHOT ($(wc -l < "$SNAPSHOT") lines)"
