//! FreeBSD libmd's Skein functions, as skein(3) documents them:
//! `SKEIN{256,512,1024}_{Init,Update,Final,End,File,FileChunk,Data,Fd,FdChunk}`
//! on the reference contexts (`SKEIN512_CTX` is `Skein_512_Ctxt_t`), for
//! Skein-256-256, Skein-512-512 and Skein-1024-1024.
//!
//! What FreeBSD leaves to crash or to chance is refused, so that no call
//! returns a wrong digest:
//! * a finishing call (`Final`, `End`) takes only a context that the same
//!   size's `Init` produced and that has not been finished since (`Final`
//!   wipes it, as FreeBSD's does). `End` returns `NULL` with `errno` set to
//!   `EINVAL`; `Final` has no error return, so it prints one line to
//!   standard error and aborts, where FreeBSD would crash or leave the
//!   digest unwritten;
//! * `Update` with a `NULL` buffer and a non-zero length (or a buffer inside
//!   the context) wipes the context, so that its finishing call refuses it;
//!   `Update` and `Init` of a `NULL` context do nothing (the finishing call
//!   refuses that too);
//! * `Data` with a `NULL` buffer and a length, a `NULL` file name, a
//!   negative descriptor, offset or length give `NULL` and `EINVAL` (`EBADF`
//!   for the descriptor);
//! * read, seek and open errors give `NULL` with their `errno`. As in
//!   FreeBSD's `mdXhl.c`, that includes a read interrupted by a signal whose
//!   handler was installed without `SA_RESTART` (`EINTR`): it is how a program
//!   bounds a read of a pipe or socket with `alarm()`.
//!
//! As FreeBSD's: an offset of 0 reads from the descriptor's current position
//! (so `Fd` works on pipes); any other offset is a seek from the start of the
//! file; a length of 0, or more than what remains, means to the end of the
//! file, and an offset past the end hashes nothing. `off_t` differs between C
//! programs on 32-bit systems (`_FILE_OFFSET_BITS`), so the library exports
//! `FileChunk64` and `FdChunk64` with 64-bit offsets, and skein.h defines
//! `FileChunk` and `FdChunk` with `off_t` as inline calls of them.

use crate::context::{Ctx, SKEIN_SUCCESS};
use crate::skein_h::NO_ARGS;
use crate::{input, platform, region_of};
use core::ffi::{c_char, c_int, c_uint, c_void};
use std::ffi::{CStr, OsStr};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;
use std::os::unix::ffi::OsStrExt;
use zeroize::Zeroize;

/// Bytes asked of each `read(2)` by the file and descriptor functions.
const READ_CHUNK: usize = 64 * 1024;

/// The largest digest, Skein-1024-1024's, in bytes.
const MAX_DIGEST: usize = 128;

/// Whether `ctx` is a context that this size's `Init` produced and nothing
/// has finished since: valid for [`Ctx::validate`], with the libmd output
/// length (the state size). A wiped context has `hashBitLen` 0.
fn in_use<const W: usize>(ctx: &Ctx<W>) -> bool {
    ctx.validate() == SKEIN_SUCCESS && ctx.h.hash_bit_len == 64 * W
}

/// `Init`: Skein-(64 W)-(64 W), no key.
fn init<const W: usize>(ctx: &mut Ctx<W>) {
    let rc = ctx.init(platform(), 64 * W, 0, &[], NO_ARGS);
    debug_assert_eq!(rc, SKEIN_SUCCESS, "the state size is a valid length");
}

/// `Final` of a context [`in_use`] into `digest` (`8 W` bytes), then the
/// context wiped; `false`, with nothing written or wiped, for another one.
fn finish<const W: usize>(ctx: &mut Ctx<W>, digest: &mut [u8]) -> bool {
    if !in_use(ctx) {
        return false;
    }
    let rc = ctx.finalize(platform(), digest);
    ctx.wipe();
    rc == SKEIN_SUCCESS
}

/// `NULL`, with `errno` set to `code`.
fn fail(code: c_int) -> *mut c_char {
    errno::set_errno(errno::Errno(code));
    core::ptr::null_mut()
}

/// `NULL`, with `errno` from an I/O error (`EIO` if it has none).
fn fail_io(err: &std::io::Error) -> *mut c_char {
    fail(err.raw_os_error().unwrap_or(libc::EIO))
}

/// A wrong call of a `void` function that has no way to report it: one line
/// to standard error, then abort, rather than leave a wrong digest behind.
fn refuse(function: &str, what: &str) -> ! {
    // Ignore a failed write: the abort is the report that matters.
    let _ = writeln!(
        std::io::stderr(),
        "libskein_simd: {function}: {what}; aborting (skein(3) has no error return here)"
    );
    std::process::abort()
}

/// `Update`: as [`Ctx::update`]; a `NULL` or overlapping buffer with a
/// length wipes the context (its finishing call then refuses it).
///
/// # Safety
/// `ctx` is null or valid for reads and writes of the context; a non-null
/// `data` is valid for `len` reads.
unsafe fn update<const W: usize>(ctx: *mut Ctx<W>, data: *const c_void, len: usize) {
    let apart = region_of(ctx);
    // SAFETY: by the contract above; null is skipped.
    let Some(ctx) = (unsafe { ctx.as_mut() }) else {
        return;
    };
    // SAFETY: by the contract above; null and overlap are refused.
    match unsafe { input(data.cast(), len, apart) } {
        // A context not in use stays so: its finishing call refuses it.
        Some(msg) => {
            ctx.update(platform(), msg);
        }
        None => ctx.wipe(),
    }
}

/// `Final(digest, ctx)`: `8 W` bytes to `digest`, the context wiped; aborts
/// for a `NULL` digest or a context not [`in_use`].
///
/// # Safety
/// `ctx` is null or valid for reads and writes of the context; a non-null
/// `digest` is valid for `8 W` writes.
unsafe fn final_<const W: usize>(function: &str, digest: *mut u8, ctx: *mut Ctx<W>) {
    let mut out = [0u8; MAX_DIGEST];
    let out = &mut out[..8 * W];
    if digest.is_null() {
        refuse(function, "NULL digest");
    }
    // SAFETY: by the contract above; null is refused.
    let Some(ctx) = (unsafe { ctx.as_mut() }) else {
        refuse(function, "NULL context");
    };
    if !finish(ctx, out) {
        refuse(
            function,
            "context not initialized by Init, or already finished",
        );
    }
    // The context is no longer borrowed, so `digest` may even lie in it.
    // SAFETY: non-null and, by the contract above, valid for `8 W` writes;
    // `out` is a local array, so the two do not overlap.
    unsafe { core::ptr::copy_nonoverlapping(out.as_ptr(), digest, out.len()) };
    out.zeroize();
}

/// `End(ctx, buf)`: [`final_`] as a lowercase hex string with its NUL
/// (`16 W + 1` bytes) in `buf`, or in memory from `malloc` when `buf` is
/// `NULL`; returns the string. `NULL` with `EINVAL` for a context not
/// [`in_use`] (left unchanged), `ENOMEM` (context unchanged, as FreeBSD's)
/// when `malloc` fails.
///
/// # Safety
/// `ctx` is null or valid for reads and writes of the context; a non-null
/// `buf` is valid for `16 W + 1` writes.
unsafe fn end<const W: usize>(ctx: *mut Ctx<W>, buf: *mut c_char) -> *mut c_char {
    // SAFETY: by the contract above; null is refused.
    match unsafe { ctx.as_mut() } {
        // SAFETY: forwarded contract.
        Some(ctx) if in_use(ctx) => unsafe { end_of(ctx, buf) },
        _ => fail(libc::EINVAL),
    }
}

/// [`end`] of a context known to be [`in_use`], borrowed here.
///
/// # Safety
/// A non-null `buf` is valid for `16 W + 1` writes.
unsafe fn end_of<const W: usize>(ctx: &mut Ctx<W>, buf: *mut c_char) -> *mut c_char {
    let len = 16 * W + 1;
    let buf = if buf.is_null() {
        // SAFETY: plain allocation; the caller frees it with free(3).
        let fresh = unsafe { libc::malloc(len) }.cast::<c_char>();
        if fresh.is_null() {
            return fail(libc::ENOMEM);
        }
        fresh
    } else {
        buf
    };
    let mut digest = [0u8; MAX_DIGEST];
    let digest = &mut digest[..8 * W];
    let mut text = [0u8; 2 * MAX_DIGEST + 1];
    let text = &mut text[..len];
    let finished = finish(ctx, digest);
    debug_assert!(finished, "checked in_use");
    hex::encode_to_slice(&*digest, &mut text[..16 * W]).expect("twice the digest length");
    // SAFETY: `buf` is valid for `len` writes (the caller's contract, or
    // just allocated); `text` is local. The context is not used past
    // `finish`, so `buf` may even lie in it.
    unsafe { core::ptr::copy_nonoverlapping(text.as_ptr(), buf.cast::<u8>(), len) };
    digest.zeroize();
    buf
}

/// `Data(data, len, buf)`: the digest of `len` bytes at `data`, as [`end`].
///
/// # Safety
/// A non-null `data` is valid for `len` reads; a non-null `buf` for
/// `16 W + 1` writes.
unsafe fn data<const W: usize>(data: *const c_void, len: c_uint, buf: *mut c_char) -> *mut c_char {
    let mut ctx = Ctx::<W>::ZEROED;
    // SAFETY: by the contract above; null with a length is refused. The
    // context is local, so nothing can overlap it.
    let Some(msg) = (unsafe { input(data.cast(), len as usize, crate::NOWHERE) }) else {
        return fail(libc::EINVAL);
    };
    init(&mut ctx);
    ctx.update(platform(), msg);
    // SAFETY: forwarded contract; `msg` is not used past the update, so
    // `buf` may overlap it.
    unsafe { end_of(&mut ctx, buf) }
}

/// The digest of what `file` yields from `offset` (0: its current
/// position), `length` bytes or to its end (`length` 0 or past the end), as
/// [`end`].
fn chunk<const W: usize>(
    mut file: &File,
    offset: i64,
    length: i64,
    buf: *mut c_char,
) -> *mut c_char {
    let (Ok(offset), Ok(length)) = (u64::try_from(offset), u64::try_from(length)) else {
        return fail(libc::EINVAL);
    };
    if offset != 0 {
        if let Err(err) = file.seek(SeekFrom::Start(offset)) {
            return fail_io(&err);
        }
    }
    let mut ctx = Ctx::<W>::ZEROED;
    init(&mut ctx);
    let mut remain = if length == 0 { u64::MAX } else { length };
    // The read buffer and, on an error, the context are wiped like every
    // other copy of what was hashed.
    let mut block = zeroize::Zeroizing::new(vec![0u8; READ_CHUNK]);
    while remain > 0 {
        let want = usize::try_from(remain).map_or(READ_CHUNK, |r| r.min(READ_CHUNK));
        match file.read(&mut block[..want]) {
            Ok(0) => break,
            Ok(n) => {
                ctx.update(platform(), &block[..n]);
                remain -= n as u64;
            }
            Err(err) => {
                ctx.wipe();
                return fail_io(&err);
            }
        }
    }
    // SAFETY: `buf`'s contract is the caller's (File*, Fd*).
    unsafe { end_of(&mut ctx, buf) }
}

/// `FdChunk(fd, buf, offset, length)`: [`chunk`] of an open descriptor,
/// which stays open and is left where the reading stopped.
///
/// # Safety
/// A non-null `buf` is valid for `16 W + 1` writes; `fd` is not closed by
/// another thread during the call.
unsafe fn fd_chunk<const W: usize>(
    fd: c_int,
    buf: *mut c_char,
    offset: i64,
    length: i64,
) -> *mut c_char {
    // SAFETY: F_GETFD only reads the descriptor's flags; it fails (EBADF)
    // for one that is not open.
    if fd < 0 || unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
        return fail(libc::EBADF);
    }
    // SAFETY: `fd` is open (checked above) and stays open for the call (the
    // caller's contract); ManuallyDrop never closes it, it stays the caller's.
    let file = ManuallyDrop::new(unsafe { File::from_raw_fd(fd) });
    chunk::<W>(&file, offset, length, buf)
}

/// `FileChunk(filename, buf, offset, length)`: [`chunk`] of the named file,
/// opened read-only; `NULL` with `open`'s `errno` when it cannot be opened.
///
/// # Safety
/// `filename` is null or a NUL-terminated string; a non-null `buf` is valid
/// for `16 W + 1` writes.
unsafe fn file_chunk<const W: usize>(
    filename: *const c_char,
    buf: *mut c_char,
    offset: i64,
    length: i64,
) -> *mut c_char {
    if filename.is_null() {
        return fail(libc::EINVAL);
    }
    // SAFETY: non-null and NUL-terminated by the contract above.
    let name = OsStr::from_bytes(unsafe { CStr::from_ptr(filename) }.to_bytes());
    let file = match File::open(name) {
        Ok(file) => file,
        Err(err) => return fail_io(&err),
    };
    let digest = chunk::<W>(&file, offset, length, buf);
    // Close first, so that a failure's errno is the one `chunk` set.
    let saved = errno::errno();
    drop(file);
    errno::set_errno(saved);
    digest
}

macro_rules! libmd_api {
    ($w:literal, $ctx:ty, $init:ident, $update:ident, $final:ident, $end:ident, $data:ident,
     $file:ident, $file_chunk:ident, $fd:ident, $fd_chunk:ident) => {
        /// `Init(ctx)`: start a digest; a `NULL` context is ignored (its
        /// finishing call refuses it).
        ///
        /// # Safety
        /// `ctx` is null or valid for writes of the context.
        #[no_mangle]
        pub unsafe extern "C" fn $init(ctx: *mut $ctx) {
            // SAFETY: by the contract above; null is skipped.
            if let Some(ctx) = unsafe { ctx.as_mut() } {
                init(ctx);
            }
        }

        /// `Update(ctx, data, len)`; see the module documentation for bad
        /// arguments.
        ///
        /// # Safety
        /// `ctx` is null or valid for reads and writes of the context; a
        /// non-null `data` is valid for `len` reads.
        #[no_mangle]
        pub unsafe extern "C" fn $update(ctx: *mut $ctx, data: *const c_void, len: usize) {
            // SAFETY: forwarded contract.
            unsafe { update(ctx, data, len) }
        }

        /// `Final(digest, ctx)`: the digest (the state size) to `digest`,
        /// then the context wiped. Aborts with a message for a `NULL`
        /// argument or a context not in use.
        ///
        /// # Safety
        /// `ctx` is null or valid for reads and writes of the context; a
        /// non-null `digest` is valid for the digest's writes.
        #[no_mangle]
        pub unsafe extern "C" fn $final(digest: *mut u8, ctx: *mut $ctx) {
            // SAFETY: forwarded contract.
            unsafe { final_(stringify!($final), digest, ctx) }
        }

        /// `End(ctx, buf)`: `Final` as a lowercase hex string in `buf`, or
        /// in `malloc`ed memory when `buf` is `NULL`.
        ///
        /// # Safety
        /// `ctx` is null or valid for reads and writes of the context; a
        /// non-null `buf` is valid for the string's writes.
        #[no_mangle]
        pub unsafe extern "C" fn $end(ctx: *mut $ctx, buf: *mut c_char) -> *mut c_char {
            // SAFETY: forwarded contract.
            unsafe { end(ctx, buf) }
        }

        /// `Data(data, len, buf)`: the hex digest of `len` bytes at `data`.
        ///
        /// # Safety
        /// A non-null `data` is valid for `len` reads; a non-null `buf` for
        /// the string's writes.
        #[no_mangle]
        pub unsafe extern "C" fn $data(
            data_: *const c_void,
            len: c_uint,
            buf: *mut c_char,
        ) -> *mut c_char {
            // SAFETY: forwarded contract.
            unsafe { data::<$w>(data_, len, buf) }
        }

        /// `File(filename, buf)`: the hex digest of a file; `NULL` when it
        /// cannot be opened or read.
        ///
        /// # Safety
        /// `filename` is null or a NUL-terminated string; a non-null `buf`
        /// is valid for the string's writes.
        #[no_mangle]
        pub unsafe extern "C" fn $file(filename: *const c_char, buf: *mut c_char) -> *mut c_char {
            // SAFETY: forwarded contract.
            unsafe { file_chunk::<$w>(filename, buf, 0, 0) }
        }

        /// `FileChunk` with 64-bit `offset` and `length` (skein.h's
        /// `FileChunk` calls it with its `off_t` arguments).
        ///
        /// # Safety
        /// As `File`.
        #[no_mangle]
        pub unsafe extern "C" fn $file_chunk(
            filename: *const c_char,
            buf: *mut c_char,
            offset: i64,
            length: i64,
        ) -> *mut c_char {
            // SAFETY: forwarded contract.
            unsafe { file_chunk::<$w>(filename, buf, offset, length) }
        }

        /// `Fd(fd, buf)`: the hex digest of what `fd` yields from its
        /// current position to its end.
        ///
        /// # Safety
        /// A non-null `buf` is valid for the string's writes; `fd` is not
        /// closed by another thread during the call.
        #[no_mangle]
        pub unsafe extern "C" fn $fd(fd: c_int, buf: *mut c_char) -> *mut c_char {
            // SAFETY: forwarded contract.
            unsafe { fd_chunk::<$w>(fd, buf, 0, 0) }
        }

        /// `FdChunk` with 64-bit `offset` and `length` (skein.h's `FdChunk`
        /// calls it with its `off_t` arguments).
        ///
        /// # Safety
        /// As `Fd`.
        #[no_mangle]
        pub unsafe extern "C" fn $fd_chunk(
            fd: c_int,
            buf: *mut c_char,
            offset: i64,
            length: i64,
        ) -> *mut c_char {
            // SAFETY: forwarded contract.
            unsafe { fd_chunk::<$w>(fd, buf, offset, length) }
        }
    };
}

libmd_api!(
    4,
    Ctx<4>,
    SKEIN256_Init,
    SKEIN256_Update,
    SKEIN256_Final,
    SKEIN256_End,
    SKEIN256_Data,
    SKEIN256_File,
    SKEIN256_FileChunk64,
    SKEIN256_Fd,
    SKEIN256_FdChunk64
);
libmd_api!(
    8,
    Ctx<8>,
    SKEIN512_Init,
    SKEIN512_Update,
    SKEIN512_Final,
    SKEIN512_End,
    SKEIN512_Data,
    SKEIN512_File,
    SKEIN512_FileChunk64,
    SKEIN512_Fd,
    SKEIN512_FdChunk64
);
libmd_api!(
    16,
    Ctx<16>,
    SKEIN1024_Init,
    SKEIN1024_Update,
    SKEIN1024_Final,
    SKEIN1024_End,
    SKEIN1024_Data,
    SKEIN1024_File,
    SKEIN1024_FileChunk64,
    SKEIN1024_Fd,
    SKEIN1024_FdChunk64
);

#[cfg(test)]
mod tests {
    use super::*;

    /// A finished context is refused: End gives NULL and EINVAL, and the
    /// context stays wiped.
    #[test]
    fn finished_context_is_refused() {
        let mut ctx = Ctx::<8>::ZEROED;
        let mut buf = [0 as c_char; 129];
        // SAFETY: a local context and a buffer of 129 bytes (65 needed).
        unsafe {
            SKEIN512_Init(&mut ctx);
            assert!(!SKEIN512_End(&mut ctx, buf.as_mut_ptr()).is_null());
            assert!(SKEIN512_End(&mut ctx, buf.as_mut_ptr()).is_null());
        }
        assert_eq!(errno::errno().0, libc::EINVAL);
        assert_eq!(ctx.h.hash_bit_len, 0);
    }
}
