//! Reading ahead on another thread: while one block is hashed, the next is
//! read, so that a stream (standard input, a pipe, a device) or a large
//! file read without mapping costs the time of the slower of the two, not
//! their sum. The blocks come from a small pool kept from input to input:
//! a block is faulted in once per run, not once per input.

use std::io::{self, Read};
use std::sync::mpsc;

/// Bytes per block.
pub const BLOCK: usize = 1 << 20;
/// Blocks in flight: one hashed, one queued, one being read.
const DEPTH: usize = 3;
/// The smallest buffer tried when memory is short: one page or so, which
/// still reads a file, if slowly.
const BLOCK_MIN: usize = 4 << 10;

/// Room left beside a buffer or thread taken while memory is short: the
/// small allocations of the rest of the run cannot fail gracefully (Rust
/// aborts on them), so a buffer or thread that would leave less is not
/// taken.
const SPARE_ROOM: usize = 1 << 20;
/// The address space a thread takes: its stack (Rust's default size) and
/// what the C library and Rust's runtime allocate for it.
const THREAD_ROOM: usize = 2 << 20;

/// Whether `bytes` more (and [`SPARE_ROOM`]) can be allocated now: asked by
/// allocating them, untouched, and letting them go at once.
fn room_for(bytes: usize) -> bool {
    Vec::<u8>::new()
        .try_reserve_exact(bytes.saturating_add(SPARE_ROOM))
        .is_ok()
}

/// Whether `count` threads more can be started with room to spare (see
/// [`spawn`]).
pub(crate) fn room_for_threads(count: usize) -> bool {
    room_for(THREAD_ROOM.saturating_mul(count))
}

/// The main thread's stack a run may need, deepest in a debug build.
const STACK_ROOM: usize = 1 << 20;

/// Under a limit on the address space, grow the main thread's stack to
/// [`STACK_ROOM`] now, while there is room. Its stack grows on demand, and
/// growth that finds no room left (the buffers took it) is a `SIGSEGV`,
/// not an error; the pages stay the stack's once touched. Without a limit,
/// nothing: the pages would only cost time.
pub(crate) fn take_stack_room() {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    if rustix::process::getrlimit(rustix::process::Resource::As)
        .current
        .is_some()
    {
        touch_stack();
    }
}

#[inline(never)]
fn touch_stack() {
    let mut pages = [0u8; STACK_ROOM];
    std::hint::black_box(&mut pages);
}

/// A zeroed buffer of `wanted` bytes or, if the allocator refuses that
/// (a limit on the address space, `ulimit -v`), of the largest size down
/// to [`BLOCK_MIN`] that it gives with room to spare: short memory makes
/// reading slower, never ends the run. `None` if not even that can be had.
pub(crate) fn try_buffer(wanted: usize) -> Option<Vec<u8>> {
    let mut size = wanted;
    loop {
        let mut buffer = Vec::new();
        if room_for(size) && buffer.try_reserve_exact(size).is_ok() {
            buffer.resize(size, 0);
            return Some(buffer);
        }
        if size <= BLOCK_MIN {
            return None;
        }
        size = (size / 2).max(BLOCK_MIN);
    }
}

/// The error of an input for which no buffer could be had at all.
pub(crate) fn out_of_memory() -> io::Error {
    io::Error::new(io::ErrorKind::OutOfMemory, "not enough memory")
}

/// The blocks of a run, at most [`DEPTH`] of [`BLOCK`] bytes.
#[derive(Default)]
pub struct Pool {
    free: Vec<Vec<u8>>,
}

impl Pool {
    /// Read `input` to its end on another thread, in blocks handed to
    /// `consume` on this one, in order. The first read error ends it
    /// (`Interrupted` is retried).
    pub fn read_all(
        &mut self,
        input: impl Read + Send,
        mut consume: impl FnMut(&[u8]),
    ) -> io::Result<()> {
        let (full_tx, full_rx) = mpsc::sync_channel::<io::Result<(Vec<u8>, usize)>>(DEPTH);
        let (free_tx, free_rx) = mpsc::channel::<Vec<u8>>();
        // Blocks already made count against DEPTH.
        let pooled = self.free.len();
        for block in self.free.drain(..) {
            free_tx.send(block).expect("the receiver is alive");
        }
        // Taken by the reader thread; left here if it cannot be started.
        let input = std::sync::Mutex::new(Some(input));
        std::thread::scope(|s| {
            // Owned here, so that a panic in `consume` drops it too and a
            // reader waiting for a block wakes up.
            let free_tx = free_tx;
            let input = &input;
            // The blocks still to be made count as the thread's.
            let blocks = DEPTH.saturating_sub(pooled) * BLOCK;
            let spawned = spawn(s, blocks, move || {
                let mut input = input
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .take()
                    .expect("the input is there until the reader takes it");
                let mut made = pooled;
                loop {
                    let mut block = match free_rx.try_recv() {
                        Ok(block) => block,
                        Err(_) if made < DEPTH => match try_buffer(BLOCK) {
                            Some(block) => {
                                made += 1;
                                block
                            }
                            // No memory for another block: the ones made
                            // go round (none at all: this input's error).
                            None if made == 0 => {
                                let _ = full_tx.send(Err(out_of_memory()));
                                return free_rx;
                            }
                            None => {
                                made = DEPTH;
                                match free_rx.recv() {
                                    Ok(block) => block,
                                    Err(_) => return free_rx,
                                }
                            }
                        },
                        Err(_) => match free_rx.recv() {
                            Ok(block) => block,
                            // The consumer is gone.
                            Err(_) => return free_rx,
                        },
                    };
                    // The block is filled before it is handed on (a pipe
                    // gives at most 64 KiB per read): one hand-over per MiB.
                    let mut filled = 0;
                    let error = loop {
                        match input.read(&mut block[filled..]) {
                            Ok(0) => break None,
                            Ok(n) => {
                                filled += n;
                                if filled == block.len() {
                                    break None;
                                }
                            }
                            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                            Err(e) => break Some(e),
                        }
                    };
                    let end = error.is_some() || filled < block.len();
                    if end && filled == 0 && error.is_none() {
                        // The end, with the block for the pool.
                        let _ = full_tx.send(Ok((block, 0)));
                        return free_rx;
                    }
                    if filled > 0 && full_tx.send(Ok((block, filled))).is_err() {
                        return free_rx;
                    }
                    if end {
                        // The end (a block of 0 bytes), or the error.
                        let _ = full_tx.send(error.map_or(Ok((Vec::new(), 0)), Err));
                        return free_rx;
                    }
                }
            });
            let reader = match spawned {
                Ok(reader) => reader,
                // No thread to be had (a limit on processes or threads):
                // read on this one.
                Err(_) => {
                    let input = input.lock().unwrap_or_else(|e| e.into_inner()).take();
                    let input = input.expect("the reader never started");
                    let mut block = self.free.pop().unwrap_or_default();
                    return read_here(input, &mut block, &mut consume).inspect(|()| {
                        self.free.push(block);
                    });
                }
            };
            let mut result = Ok(());
            for got in full_rx {
                match got {
                    Ok((block, 0)) => {
                        if block.capacity() > 0 {
                            self.free.push(block);
                        }
                        break;
                    }
                    Ok((block, n)) => {
                        consume(&block[..n]);
                        // The reader may have stopped already; the block
                        // is then collected below.
                        let _ = free_tx.send(block);
                    }
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                }
            }
            // Every block sent back before the reader ended is in its queue.
            let free_rx = reader.join().expect("the reader does not panic");
            self.free.extend(free_rx.try_iter());
            self.free.truncate(DEPTH);
            result
        })
    }
}

/// Start `work` on a new thread of the scope `s`: an error, not a panic,
/// when the system gives no thread (`EAGAIN`: a pids cgroup, `RLIMIT_NPROC`)
/// or too little memory is left for it and the `memory` bytes it will
/// allocate (a limit on the address space), so that the caller can do
/// the work on its own thread instead.
pub(crate) fn spawn<'scope, 'env, T: Send + 'scope>(
    s: &'scope std::thread::Scope<'scope, 'env>,
    memory: usize,
    work: impl FnOnce() -> T + Send + 'scope,
) -> io::Result<std::thread::ScopedJoinHandle<'scope, T>> {
    if crate::testing::refuse_thread() {
        return Err(io::Error::new(
            io::ErrorKind::WouldBlock,
            "no thread (test hook)",
        ));
    }
    if !room_for(THREAD_ROOM.saturating_add(memory)) {
        return Err(out_of_memory());
    }
    std::thread::Builder::new().spawn_scoped(s, work)
}

/// Read `input` to its end on this thread, through `block`.
fn read_here(
    mut input: impl Read,
    block: &mut Vec<u8>,
    consume: &mut impl FnMut(&[u8]),
) -> io::Result<()> {
    if block.is_empty() {
        *block = try_buffer(BLOCK).ok_or_else(out_of_memory)?;
    }
    loop {
        match input.read(block) {
            Ok(0) => return Ok(()),
            Ok(n) => consume(&block[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that gives short, uneven reads and one `Interrupted`.
    struct Uneven {
        data: Vec<u8>,
        at: usize,
        calls: usize,
    }

    impl Read for Uneven {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.calls += 1;
            if self.calls == 2 {
                return Err(io::ErrorKind::Interrupted.into());
            }
            let n = (self.calls * 7919 % 300_000)
                .min(buf.len())
                .min(self.data.len() - self.at);
            buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    #[test]
    fn every_byte_in_order_and_blocks_kept() {
        let data: Vec<u8> = (0..5_000_000u32)
            .map(|i| (i * 31 + (i >> 9)) as u8)
            .collect();
        let mut pool = Pool::default();
        for _ in 0..3 {
            let mut got = Vec::new();
            let input = Uneven {
                data: data.clone(),
                at: 0,
                calls: 0,
            };
            pool.read_all(input, |b| got.extend_from_slice(b)).unwrap();
            assert!(got == data);
            assert!((1..=DEPTH).contains(&pool.free.len()));
        }
        // Larger blocks than one read: a file reads whole blocks.
        let mut got = Vec::new();
        pool.read_all(&data[..], |b| got.extend_from_slice(b))
            .unwrap();
        assert!(got == data);
    }

    /// From the second input on, the pooled blocks count: no more than
    /// DEPTH blocks are ever handed to `consume` (all live at once).
    #[test]
    fn pooled_blocks_count_against_depth() {
        let data = vec![5u8; 12 * BLOCK];
        let mut pool = Pool::default();
        for _ in 0..2 {
            let mut seen = std::collections::HashSet::new();
            pool.read_all(&data[..], |b| {
                seen.insert(b.as_ptr() as usize);
                // A slow consumer: the reader fills every block it may.
                std::thread::sleep(std::time::Duration::from_millis(3));
            })
            .unwrap();
            assert!(seen.len() <= DEPTH, "{} blocks live", seen.len());
        }
    }

    #[test]
    fn a_read_error_ends_it() {
        struct Failing(usize);
        impl Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.0 += 1;
                if self.0 > 3 {
                    return Err(io::Error::other("broken"));
                }
                buf[0] = 1;
                Ok(1)
            }
        }
        let mut seen = 0;
        let e = Pool::default()
            .read_all(Failing(0), |b| seen += b.len())
            .unwrap_err();
        assert_eq!(e.to_string(), "broken");
        assert_eq!(seen, 3);
    }
}
