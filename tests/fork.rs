//! The threaded paths in a forked child. After `fork()` the child has the
//! parent's rayon pool state but none of its threads: `hash_many` and tree
//! hashing must still finish there (on the caller's thread) and give the same
//! digests. The child runs under `alarm`, so a hang fails the test instead of
//! blocking it.
#![cfg(unix)]

use skein_simd::{Params, Skein512, SkeinMany512, TreeParams};
use std::io::Read;
use std::os::fd::FromRawFd;

/// Seconds the child may take before SIGALRM kills it.
const CHILD_SECONDS: u32 = 30;

fn messages() -> Vec<Vec<u8>> {
    (0..256u32)
        .map(|i| (0..4096u32).map(|j| (i * 31 + j * 7) as u8).collect())
        .collect()
}

/// A global pool with several threads, so that the parent takes the
/// threaded path whatever the core count.
fn threaded_global_pool() {
    // Another test of this binary may have built it already.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build_global();
    assert!(rayon::current_num_threads() > 1);
}

/// Run `work` in a forked child (under `alarm`) and return what it
/// produced, or panic if the child did not exit normally.
fn in_child(work: impl FnOnce() -> Vec<u8>) -> Vec<u8> {
    let mut fds = [0; 2];
    // SAFETY: `fds` is a valid array of two ints for pipe(2) to fill.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: fork(2) has no memory preconditions; the child only hashes,
    // writes to the pipe and leaves with `_exit`, never returning to the
    // test harness.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        // SAFETY: plain syscalls on the child's own descriptors and timer.
        unsafe {
            libc::close(fds[0]);
            libc::alarm(CHILD_SECONDS);
        }
        let code = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
            Ok(bytes) => {
                // SAFETY: `bytes` is a live buffer of `bytes.len()` bytes.
                let n = unsafe { libc::write(fds[1], bytes.as_ptr().cast(), bytes.len()) };
                if n == bytes.len() as isize {
                    0
                } else {
                    3
                }
            }
            Err(_) => 2,
        };
        // SAFETY: leaving the child without running the parent's atexit
        // handlers or the test harness.
        unsafe { libc::_exit(code) };
    }
    // SAFETY: the parent's copy of the write end is no longer needed.
    unsafe { libc::close(fds[1]) };
    // SAFETY: `fds[0]` is an open descriptor that only this `File` owns.
    let mut reader = unsafe { std::fs::File::from_raw_fd(fds[0]) };
    let mut got = Vec::new();
    reader.read_to_end(&mut got).unwrap();
    let mut status = 0;
    // SAFETY: waiting for the child forked above; `status` is a valid int.
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    assert!(
        libc::WIFEXITED(status),
        "child did not exit (signal {}: SIGALRM means it hung)",
        libc::WTERMSIG(status)
    );
    assert_eq!(libc::WEXITSTATUS(status), 0, "child failed");
    got
}

#[test]
fn hash_many_and_tree_hashing_finish_in_a_forked_child() {
    threaded_global_pool();
    let msgs = messages();
    let single: Vec<u8> = msgs
        .iter()
        .flat_map(|m| Skein512::hash_vec(512, m))
        .collect();

    // The parent uses the pool first, so the child inherits its state.
    let parent = SkeinMany512::with_params(&Params::new())
        .unwrap()
        .hash_many_vec(&msgs)
        .concat();
    assert_eq!(parent, single);
    let child = in_child(|| {
        SkeinMany512::with_params(&Params::new())
            .unwrap()
            .hash_many_vec(&msgs)
            .concat()
    });
    assert_eq!(child, single, "hash_many in the child");

    // Tree hashing of 1 MiB in 128-byte leaves, against the same tree on a
    // one-thread pool.
    let params = Params::new().tree(TreeParams::new(1, 2, 255).unwrap());
    let data: Vec<u8> = (0..1u32 << 20).map(|i| (i % 251) as u8).collect();
    let tree = |data: &[u8]| {
        let mut h = Skein512::with_params(&params).unwrap();
        h.update(data);
        h.finalize_vec()
    };
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| tree(&data));
    assert_eq!(tree(&data), one_thread);
    let child = in_child(|| tree(&data));
    assert_eq!(child, one_thread, "tree hashing in the child");
}
