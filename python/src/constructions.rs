//! pyskein 1.0's constructions `Random`, `RandomBytes` and `StreamCipher`,
//! written in Python (`constructions.py`: `Random` subclasses
//! `random.Random`, which a Rust class cannot) and run at import with this
//! module's `skein512` and `threefish` and a native `Random.read` loop.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyModule};

const SOURCE: &str = include_str!("constructions.py");
/// The file name that tracebacks show.
const FILENAME: &str = "skein_simd/constructions.py";
const CLASSES: [&str; 3] = ["Random", "RandomBytes", "StreamCipher"];

/// Run `constructions.py` in a namespace named like the module (so pickle
/// finds the classes as `skein_simd.Random`, ...) and add its classes to `m`.
pub fn add_to(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let globals = PyDict::new(py);
    globals.set_item("__name__", m.name()?)?;
    for name in ["skein512", "threefish"] {
        globals.set_item(name, m.getattr(name)?)?;
    }
    // Not part of the module's API: only constructions.py sees it.
    globals.set_item(
        "_prng_blocks",
        wrap_pyfunction!(crate::threefish::prng_blocks, py)?,
    )?;
    let builtins = py.import("builtins")?;
    let code = builtins.call_method1("compile", (SOURCE, FILENAME, "exec"))?;
    builtins.call_method1("exec", (code, &globals))?;
    for name in CLASSES {
        let class = globals
            .get_item(name)?
            .expect("constructions.py defines each class");
        m.add(name, class)?;
    }
    Ok(())
}
