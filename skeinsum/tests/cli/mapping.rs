//! Mapped files: windows, a refused mapping read instead, a file larger
//! than the address space allowed, and SIGBUS from elsewhere.

use std::fs;
use std::path::Path;
use std::process::Stdio;

use skein_simd_test_support::reference::{skein_dyn, Args};

use crate::oracle::*;
use crate::util::*;

/// Files larger than one mapping window are mapped window
/// by window; forced to 64 KiB windows here so that a small file crosses
/// many, with a last window that is not full.
#[test]
fn files_are_mapped_in_windows() {
    let dir = Dir::new();
    let data = pattern((1 << 20) + 12_345, 8);
    dir.file("f", &data);
    for window in ["65536", "4096", "1048576"] {
        dir.cmd()
            .env("SKEINSUM_TEST_MAP_WINDOW", window)
            .args(["-a", "1024", "f"])
            .prints(format!("{}  f\n", reference(1024, 1024, &data)));
    }
}

/// Windows of 4 MiB, the smallest that get a prefault thread, which also
/// unmaps the window before it and maps the next one ahead: two of them,
/// and three with a short last one (mapped ahead, hashed without a
/// prefault thread of its own); in tree mode on two threads too.
#[test]
fn windows_with_prefault_threads() {
    let dir = Dir::new();
    for (name, len) in [("g", 8 << 20), ("h", (12 << 20) + 12_345)] {
        let data = pattern(len, 10);
        dir.file(name, &data);
        dir.cmd()
            .env("SKEINSUM_TEST_MAP_WINDOW", (4 << 20).to_string())
            .args(["-a", "256", name])
            .prints(format!("{}  {name}\n", reference(256, 256, &data)));
    }
    // The tree on the `-j` threads behind the prefault thread, against the
    // spec oracle of the test-support crate.
    let data = pattern((12 << 20) + 12_345, 10);
    let args = Args {
        output_bits: 512,
        tree: Some((5, 1, 255)),
        ..Args::default()
    };
    let expected = hex::encode(skein_dyn(512, &args, &data, data.len() as u64 * 8));
    dir.cmd()
        .env("SKEINSUM_TEST_MAP_WINDOW", (4 << 20).to_string())
        .args(["-a", "512", "--tree", "5,1,255", "-j", "2", "h"])
        .prints(format!("{expected}  h\n"));
}

/// A refused mapping of a window that the prefault thread of the one
/// before would have mapped ahead: the rest is read, the same digest.
#[test]
fn refused_mapping_after_prefault_windows() {
    let dir = Dir::new();
    let data = pattern((12 << 20) + 12_345, 11);
    dir.file("f", &data);
    for refuse_from in [4 << 20, 8 << 20, 12 << 20] {
        dir.cmd()
            .env("SKEINSUM_TEST_MAP_WINDOW", (4 << 20).to_string())
            .env("SKEINSUM_TEST_REFUSE_MAP", refuse_from.to_string())
            .arg("f")
            .gives(0, format!("{}  f\n", reference(512, 512, &data)), "");
    }
}

/// When the system refuses to map (a file system without mmap, as
/// /sys/kernel/btf/vmlinux is for root on Linux), the file is read instead;
/// also from the middle of a file whose first windows were mapped.
#[test]
fn refused_mapping_falls_back_to_reading() {
    let dir = Dir::new();
    let data = pattern(300_000, 9);
    dir.file("f", &data);
    for refuse_from in ["0", "131072", "150000"] {
        dir.cmd()
            .env("SKEINSUM_TEST_MAP_WINDOW", "65536")
            .env("SKEINSUM_TEST_REFUSE_MAP", refuse_from)
            .arg("f")
            .gives(0, format!("{}  f\n", reference(512, 512, &data)), "");
    }
    // The real case, where this machine has it: mmap of the kernel's BTF
    // file is refused with EACCES while read works.
    let btf = Path::new("/sys/kernel/btf/vmlinux");
    match fs::read(btf) {
        Ok(bytes) if bytes.len() as u64 >= 16384 => {
            skeinsum().arg(btf).prints(format!(
                "{}  {}\n",
                reference(512, 512, &bytes),
                btf.display()
            ));
        }
        _ => eprintln!(
            "{} not readable here: only the forced refusal was checked",
            btf.display()
        ),
    }
}

/// A file larger than the address space allowed is hashed (it was
/// mapped whole: `Cannot allocate memory`). 512 MiB of zeros (sparse) under
/// a 256 MiB `ulimit -v`.
#[cfg(unix)]
#[test]
fn file_larger_than_the_address_space_limit() {
    let dir = Dir::new();
    let len = 512u64 << 20;
    dir.zeros("big", len);
    let expected = format!("{}  big\n", reference_zeros(len));
    sh(dir.path(), "ulimit -v 262144 && exec \"$0\" big").gives(0, expected, "");
}

/// The SIGBUS guard repairs faults in our own mapping only: a SIGBUS sent by
/// another process while it is armed still kills as it should.
#[cfg(unix)]
#[test]
fn foreign_sigbus_is_not_swallowed() {
    use std::os::unix::process::ExitStatusExt;
    let dir = Dir::new();
    let file = dir.file("victim", &pattern(1 << 20, 3));
    let sentinel = dir.path().join("paused");
    let mut child = std_skeinsum()
        .arg(&file)
        .env(
            "SKEINSUM_TEST_PAUSE",
            format!("hash:{}", sentinel.display()),
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_pause(&sentinel, "skeinsum");
    assert_eq!(
        // SAFETY: kill has no memory-safety preconditions; the pid is our child's.
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGBUS) },
        0
    );
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGBUS), "{status:?}");
}
