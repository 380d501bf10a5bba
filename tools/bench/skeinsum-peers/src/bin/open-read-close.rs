//! The file-system floor for skeinsum on many files: open, read and close
//! every FILE on 2 threads (or `-j N`), nothing else, no hashing.
//!
//! usage: open-read-close [-j N] [--uring] FILE...
//!
//! Each thread takes the next file from a shared counter and reads it with
//! one `read` into a buffer of its own, larger than the file (a short read
//! is the end, as for a regular file; a full buffer reads on). `--uring`
//! does the same three steps as one linked chain per file on an io_uring
//! per thread (open into a direct descriptor, read, close), up to 32 files
//! per submission: the best io_uring can do for these steps.
//! Prints the number of bytes read (so that nothing is optimized away).

use std::ffi::CString;
use std::fs::File;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Read buffer per file: larger than every file of the benchmarks.
const BUFFER: usize = 256 << 10;
/// Files per io_uring submission (per thread).
const CHAIN_FILES: usize = 32;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut threads = 2;
    let mut uring = false;
    loop {
        match args.first().map(String::as_str) {
            Some("-j") => {
                threads = args[1].parse().expect("-j N");
                args.drain(..2);
            }
            Some("--uring") => {
                uring = true;
                args.remove(0);
            }
            _ => break,
        }
    }
    let names: Vec<CString> = args
        .iter()
        .map(|a| CString::new(std::ffi::OsStr::new(a).as_bytes()).unwrap())
        .collect();
    let next = AtomicUsize::new(0);
    let total = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let bytes = if uring {
                    uring_files(&names, &next)
                } else {
                    plain_files(&names, &next)
                };
                total.fetch_add(bytes, Ordering::Relaxed);
            });
        }
    });
    println!("{}", total.load(Ordering::Relaxed));
}

fn plain_files(names: &[CString], next: &AtomicUsize) -> usize {
    let mut buffer = vec![0u8; BUFFER];
    let mut total = 0;
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(name) = names.get(i) else {
            return total;
        };
        let mut file = File::open(std::ffi::OsStr::from_bytes(name.as_bytes())).unwrap();
        loop {
            let n = file.read(&mut buffer).unwrap();
            total += n;
            if n < buffer.len() {
                break;
            }
        }
    }
}

fn uring_files(names: &[CString], next: &AtomicUsize) -> usize {
    use io_uring::{opcode, squeue, types, IoUring};
    let mut ring = IoUring::new((3 * CHAIN_FILES) as u32).unwrap();
    ring.submitter()
        .register_files_sparse(CHAIN_FILES as u32)
        .unwrap();
    let mut buffers = vec![vec![0u8; BUFFER]; CHAIN_FILES];
    let mut total = 0;
    loop {
        let first = next.fetch_add(CHAIN_FILES, Ordering::Relaxed);
        if first >= names.len() {
            return total;
        }
        let chunk = &names[first..names.len().min(first + CHAIN_FILES)];
        for (slot, (name, buffer)) in chunk.iter().zip(&mut buffers).enumerate() {
            let slot = slot as u32;
            let entries = [
                opcode::OpenAt::new(types::Fd(libc::AT_FDCWD), name.as_ptr())
                    .flags(libc::O_RDONLY)
                    .file_index(Some(
                        types::DestinationSlot::try_from_slot_target(slot).unwrap(),
                    ))
                    .build()
                    .flags(squeue::Flags::IO_LINK)
                    .user_data(0),
                opcode::Read::new(types::Fixed(slot), buffer.as_mut_ptr(), BUFFER as u32)
                    .offset(0)
                    .build()
                    // Hard: a short read (every read here) would cancel a
                    // soft link's close.
                    .flags(squeue::Flags::IO_HARDLINK)
                    .user_data(1),
                opcode::Close::new(types::Fixed(slot)).build().user_data(2),
            ];
            // SAFETY: the names and buffers outlive the submission (every
            // completion is reaped below before they are touched again).
            unsafe { ring.submission().push_multiple(&entries).unwrap() };
        }
        ring.submit_and_wait(3 * chunk.len()).unwrap();
        for cqe in ring.completion() {
            assert!(
                cqe.result() >= 0,
                "io_uring op {}: {}",
                cqe.user_data(),
                cqe.result()
            );
            if cqe.user_data() == 1 {
                total += cqe.result() as usize;
            }
        }
    }
}
