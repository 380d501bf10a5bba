//! Knobs for the integration tests, compiled only with the `test-hooks`
//! feature (which `cargo test` turns on through the dev-dependency of
//! skeinsum on itself); in every other build each is a constant that the
//! compiler removes.
//!
//! - `SKEINSUM_TEST_PAUSE=STAGE[#N]:PATH`: the Nth time (default the first)
//!   STAGE is reached ("map": size taken, file not yet mapped; "hash": a
//!   window mapped, not yet hashed; "read": the first block of a read input
//!   absorbed; "window": a batch window taken, none of its files opened
//!   yet; "batch": a chunk of a window's files opened and read or
//!   mapped, not yet hashed, while other chunks go on, so `batch#N` counts
//!   chunks in the order they get there and a test that changes files
//!   there keeps to one chunk: at most `CHUNK_FILES` files; "walk": a directory of `-r` listed, its
//!   entries not yet walked), create PATH and wait until the test removes it (at most
//!   60 s). A test can then truncate, grow or rewrite the file at exactly
//!   that moment instead of racing.
//! - `SKEINSUM_TEST_MAP_WINDOW=BYTES`: map in windows of BYTES instead of
//!   `MAP_WINDOW`, so that small files cross windows.
//! - `SKEINSUM_TEST_WINDOW_BYTES=BYTES`: a batch window holds BYTES read or
//!   mapped at once instead of `WINDOW_BYTES` (256 MiB), its chunks
//!   reserving at most BYTES at a time, so that a few small files pass it.
//! - `SKEINSUM_TEST_REFUSE_MAP=OFFSET`: the mapping of the window starting at
//!   or after byte OFFSET fails, as on a file system that refuses mmap.
//! - `SKEINSUM_TEST_REFUSE_THREAD=1`: starting a helper thread (reading
//!   ahead, prefaulting) fails, as under a limit on threads.

#[cfg(feature = "test-hooks")]
mod hooks {
    use std::path::PathBuf;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::OnceLock;
    use std::time::{Duration, Instant};

    struct Pause {
        stage: String,
        nth: usize,
        path: PathBuf,
    }

    fn setting() -> Option<&'static Pause> {
        static SETTING: OnceLock<Option<Pause>> = OnceLock::new();
        SETTING
            .get_or_init(|| {
                let value = std::env::var("SKEINSUM_TEST_PAUSE").ok()?;
                let (stage, path) = value.split_once(':')?;
                let (stage, nth) = match stage.split_once('#') {
                    Some((stage, nth)) => (stage, nth.parse().ok()?),
                    None => (stage, 1),
                };
                Some(Pause {
                    stage: stage.to_string(),
                    nth,
                    path: PathBuf::from(path),
                })
            })
            .as_ref()
    }

    pub fn pause(stage: &str) {
        static REACHED: AtomicUsize = AtomicUsize::new(0);
        let Some(pause) = setting() else {
            return;
        };
        if pause.stage != stage || REACHED.fetch_add(1, Ordering::SeqCst) + 1 != pause.nth {
            return;
        }
        if std::fs::write(&pause.path, stage).is_err() {
            return;
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        while pause.path.exists() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    fn number(name: &str) -> Option<u64> {
        std::env::var(name).ok()?.parse().ok()
    }

    pub fn map_window(default: u64) -> u64 {
        number("SKEINSUM_TEST_MAP_WINDOW")
            .filter(|&w| w > 0)
            .unwrap_or(default)
    }

    pub fn window_bytes(default: u64) -> u64 {
        number("SKEINSUM_TEST_WINDOW_BYTES")
            .filter(|&w| w > 0)
            .unwrap_or(default)
    }

    pub fn refuse_map(at: u64) -> bool {
        number("SKEINSUM_TEST_REFUSE_MAP").is_some_and(|from| at >= from)
    }

    pub fn refuse_thread() -> bool {
        number("SKEINSUM_TEST_REFUSE_THREAD") == Some(1)
    }
}

#[cfg(feature = "test-hooks")]
pub use hooks::{map_window, pause, refuse_map, refuse_thread, window_bytes};

#[cfg(not(feature = "test-hooks"))]
#[inline(always)]
pub fn pause(_stage: &str) {}

#[cfg(not(feature = "test-hooks"))]
#[inline(always)]
pub fn map_window(default: u64) -> u64 {
    default
}

#[cfg(not(feature = "test-hooks"))]
#[inline(always)]
pub fn window_bytes(default: u64) -> u64 {
    default
}

#[cfg(not(feature = "test-hooks"))]
#[inline(always)]
pub fn refuse_map(_at: u64) -> bool {
    false
}

#[cfg(not(feature = "test-hooks"))]
#[inline(always)]
pub fn refuse_thread() -> bool {
    false
}
