//! The fuzz targets' oracle: the plain Skein of the tests
//! (`tests/common/reference.rs`), one file for both.

#[path = "../../tests/common/reference.rs"]
mod reference;
pub use reference::*;
