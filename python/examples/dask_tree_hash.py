"""One Skein tree digest of a file, hashed by the workers of a Dask cluster.

Skein's tree mode keys every leaf and node only by its position and level,
so the workers can each hash a byte range of the file (reading only that
range, by path) into the chaining values of whole subtrees, and the client
merges them into the digest one machine gives: the same as
`skeinsum --tree LEAF,FAN_OUT,HEIGHT FILE` and
`skein_simd.hash_file(FILE, tree=(LEAF, FAN_OUT, HEIGHT))`.

    python dask_tree_hash.py FILE [--tree 10,1,255] [--state-bits 512]
        [--digest-bits N] [--parts N] [--scheduler tcp://HOST:8786]

Without --scheduler it starts a LocalCluster of 3 worker processes. On a real
cluster every worker must see FILE at the same path (a shared file system,
or the same copy on each host); the arguments, a key among them, travel to
the workers with the tasks (use TLS between hosts when there is a key).
"""

import argparse
import os

import skein_simd


# Settings for workers that hash: Dask's statistical profiler samples every
# worker thread's stack every 10 ms, and the event loops of the scheduler
# and the workers wake every 20 ms to watch their own latency; on a busy
# machine that is CPU time taken from the hashing, for a dashboard this
# example does not start (docs/subtree.md, Dask). On a real cluster, put
# them in the workers' Dask configuration.
HASHING_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
}


def local_cluster(n_workers=3):
    """A LocalCluster of `n_workers` worker processes of one thread each,
    with HASHING_CONFIG (the workers take the configuration they start with)."""
    import dask
    from dask.distributed import LocalCluster

    with dask.config.set(HASHING_CONFIG):
        return LocalCluster(
            n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=None
        )


def hash_range(path, length, subtree_range, args):
    """On a worker: the chaining values of one range of the file, hashed on
    this task's thread alone (threads=1): Dask runs one task per worker
    thread, and a worker thread stands for a core, so the cores are busy
    without more threads than cores (the default, all cores per call,
    would start that many in every worker process). The range is mapped,
    not copied (mmap=True: less system time); a file truncated meanwhile
    kills the worker with SIGBUS, and Dask retries the task elsewhere or
    fails it, never giving a digest."""
    tree = skein_simd.ObjectTree(length, **args)
    return tree.hash_file_range(path, subtree_range, threads=1, mmap=True)


def tree_digest(client, path, parts=None, **args):
    """The digest of the file at `path` (the same path on every worker),
    `args` as `skein_simd.ObjectTree` takes them (`tree=` required), hashed
    in `parts` ranges (default: two per worker thread, so that a worker
    that finishes first takes another while the rest run: measured in
    docs/subtree.md)."""
    length = os.path.getsize(path)
    tree = skein_simd.ObjectTree(length, **args)
    if parts is None:
        parts = max(1, 2 * sum(client.nthreads().values()))
    ranges = tree.split(parts)
    futures = [client.submit(hash_range, path, length, r, args, pure=False) for r in ranges]
    return tree.root(client.gather(futures))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("--tree", default="10,1,255", help="LEAF,FAN_OUT,HEIGHT (default 10,1,255)")
    parser.add_argument("--state-bits", type=int, default=512)
    parser.add_argument("--digest-bits", type=int)
    parser.add_argument("--parts", type=int)
    parser.add_argument("--scheduler", help="address of a running scheduler")
    opts = parser.parse_args()

    from dask.distributed import Client

    args = {"tree": tuple(int(x) for x in opts.tree.split(",")), "state_bits": opts.state_bits}
    if opts.digest_bits:
        args["digest_bits"] = opts.digest_bits
    if opts.scheduler:
        client = Client(opts.scheduler)
    else:
        client = Client(local_cluster())
    with client:
        digest = tree_digest(client, os.path.abspath(opts.file), opts.parts, **args)
    print(f"{digest.hex()}  {opts.file}")


if __name__ == "__main__":
    main()
