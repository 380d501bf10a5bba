"""Makes the folder KEPT hold exactly what the folder NEW holds, writing
only the files whose content differs (and removing what NEW lacks).

usage: python3 tools/ci/sync-tree.py NEW KEPT

The Python wheels are built from the unpacked sdist (tools/ci/python-wheel.sh,
tools/ci/python-wheels-cross.sh), in one place under the target directory:
cargo finds a crate fresh when none of its files is newer than its build, so
copied by content, only the crates whose sources changed are compiled again
(from a new directory every time, every crate is; the tarball's own dates
cannot be trusted for this). Everything else there is removed, so the build
sees exactly the sdist.
"""

import filecmp
import os
import shutil
import sys

new, kept = sys.argv[1:3]
os.makedirs(kept, exist_ok=True)
for root, dirs, files in os.walk(new):
    here = os.path.join(kept, os.path.relpath(root, new))
    for name in os.listdir(here):
        p = os.path.join(here, name)
        is_dir = os.path.isdir(p) and not os.path.islink(p)
        if (name in dirs) != is_dir or (name not in dirs and name not in files):
            shutil.rmtree(p) if is_dir else os.remove(p)
    for d in dirs:
        os.makedirs(os.path.join(here, d), exist_ok=True)
    for f in files:
        a, b = os.path.join(root, f), os.path.join(here, f)
        if not os.path.lexists(b) or not filecmp.cmp(a, b, shallow=False):
            if os.path.lexists(b):
                os.remove(b)
            shutil.copy(a, b)
        shutil.copymode(a, b)
