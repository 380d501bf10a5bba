//! A pause point for the tests of files that change while being hashed.
//!
//! With `SKEINSUM_TEST_PAUSE=STAGE:PATH` in the environment, reaching STAGE
//! ("map": size taken, file not yet mapped; "hash": mapped, not yet hashed)
//! creates PATH and waits until the test removes it (at most 60 s). This lets
//! a test truncate or grow a file at exactly that moment instead of racing.
//! Without the variable this costs one environment look-up per run.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

fn setting() -> Option<&'static (String, PathBuf)> {
    static SETTING: OnceLock<Option<(String, PathBuf)>> = OnceLock::new();
    SETTING
        .get_or_init(|| {
            let value = std::env::var_os("SKEINSUM_TEST_PAUSE")?;
            let value = value.to_str()?;
            let (stage, path) = value.split_once(':')?;
            Some((stage.to_string(), PathBuf::from(path)))
        })
        .as_ref()
}

pub fn pause(stage: &str) {
    let Some((wanted, path)) = setting() else {
        return;
    };
    if wanted != stage || std::fs::write(path, stage).is_err() {
        return;
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while path.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(2));
    }
}
