//! Files under a real lease (`F_SETLEASE`), as Samba and NFS servers hold
//! them: hashed once the holder lets go.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tempfile::TempDir;

use crate::oracle::*;
use crate::util::*;

/// A write lease held on a file by this process, as Samba and NFS servers
/// hold them: another process's open of the file starts a break, and the
/// holder (a thread here) lets go as soon as it sees it.
struct Lease {
    holder: Option<std::thread::JoinHandle<bool>>,
}

impl Lease {
    /// Take the lease on `path` (a file nothing else has open), or the
    /// error of `F_SETLEASE`. `EAGAIN` (another open of the file) is tried
    /// again for up to 10 s: a process that another test forks copies our
    /// descriptor for the moment before its `exec` closes it.
    fn take(path: &Path) -> std::io::Result<Lease> {
        use std::os::fd::AsRawFd;
        ignore_sigio();
        let deadline = Instant::now() + Duration::from_secs(10);
        let file = loop {
            let file = fs::OpenOptions::new().read(true).write(true).open(path)?;
            // SAFETY: fcntl on a descriptor owned by `file`, integer arguments.
            if unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETLEASE, libc::F_WRLCK) } == 0 {
                break file;
            }
            let e = std::io::Error::last_os_error();
            if e.raw_os_error() != Some(libc::EAGAIN) || Instant::now() > deadline {
                return Err(e);
            }
            drop(file);
            std::thread::sleep(Duration::from_millis(5));
        };
        let holder = std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(60);
            loop {
                // SAFETY: as above; `file` lives in this closure.
                let now = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETLEASE) };
                // A break in progress shows as the type it will end in.
                if now != libc::F_WRLCK {
                    // SAFETY: as above.
                    unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETLEASE, libc::F_UNLCK) };
                    return true;
                }
                if Instant::now() > deadline {
                    return false;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        Ok(Lease {
            holder: Some(holder),
        })
    }

    /// Whether the lease was broken (another open met it) and let go.
    fn was_broken(mut self) -> bool {
        self.holder.take().unwrap().join().unwrap()
    }
}

/// The break is signalled with SIGIO, whose default action ends the
/// process; the holder notices the break by `F_GETLEASE` instead.
fn ignore_sigio() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: setting a signal's disposition to SIG_IGN; no handler runs.
        unsafe { libc::signal(libc::SIGIO, libc::SIG_IGN) };
    });
}

/// A directory where this process can take leases: the temporary
/// directory, or else /dev/shm (tmpfs); none is a failure.
fn lease_dir() -> TempDir {
    let enabled = fs::read_to_string("/proc/sys/fs/leases-enable").unwrap_or_default();
    assert_eq!(
        enabled.trim(),
        "1",
        "leases are off (/proc/sys/fs/leases-enable)"
    );
    let mut tried = Vec::new();
    for base in [std::env::temp_dir(), PathBuf::from("/dev/shm")] {
        let Ok(dir) = TempDir::new_in(&base) else {
            tried.push(format!("{}: cannot make a directory", base.display()));
            continue;
        };
        let probe = dir.path().join("probe");
        fs::write(&probe, b"probe").unwrap();
        match Lease::take(&probe) {
            Ok(lease) => {
                // Break it by an open, as skeinsum will.
                drop(fs::File::open(&probe));
                assert!(
                    lease.was_broken(),
                    "a lease in {} was not broken",
                    base.display()
                );
                return dir;
            }
            Err(e) => tried.push(format!("{}: {e}", base.display())),
        }
    }
    panic!("no directory takes a lease: {tried:?}");
}

/// Files under a lease are hashed once the holder lets go: on the batch
/// path, alone, by `-c` and by `-r` (one by one and in a batch), each with
/// the right digest and status 0.
#[test]
fn leased_files_are_hashed_once_the_holder_lets_go() {
    let dir = lease_dir();
    let d = dir.path();
    let leased = pattern(3000, 7);
    let other = b"other\n";
    fs::create_dir(d.join("t")).unwrap();
    fs::write(d.join("t/leased"), &leased).unwrap();
    fs::write(d.join("t/other"), other).unwrap();
    let expected = line(&leased, "t/leased") + &line(other, "t/other");
    fs::write(d.join("list"), &expected).unwrap();
    let runs: [(&[&str], String); 6] = [
        (&["-j2", "t/leased", "t/other"], expected.clone()),
        (&["t/leased"], line(&leased, "t/leased")),
        (
            &["-j2", "-c", "list"],
            "t/leased: OK\nt/other: OK\n".to_string(),
        ),
        (
            &["-j1", "-c", "list"],
            "t/leased: OK\nt/other: OK\n".to_string(),
        ),
        (&["-j2", "-r", "t"], expected.clone()),
        (&["-j1", "-r", "t"], expected.clone()),
    ];
    for (args, want) in runs {
        let lease = Lease::take(&d.join("t/leased"))
            .unwrap_or_else(|e| panic!("cannot take the lease again: {e}"));
        let out = run(d, &[], args, None);
        assert!(lease.was_broken(), "{args:?} never opened the leased file");
        assert_clean(&out, &want, &format!("{args:?}"));
    }
}
