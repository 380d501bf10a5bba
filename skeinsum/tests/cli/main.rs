//! End-to-end tests of the `skeinsum` binary: one test binary (one link),
//! a module per topic over a small helper layer.
//!
//! Expected digests come from independent sources only (see `oracle`):
//! the RustCrypto `skein` crate, the official golden file, the reference C
//! code through pyskein, GNU sha256sum's behaviour; never from earlier
//! output of the tool. The pause points and knobs some tests use
//! (`skeinsum/src/testing.rs`) exist only with the `test-hooks` feature,
//! which skeinsum's dev-dependency on itself turns on.

// Expected values: RustCrypto digests, golden entries, file contents.
mod oracle;
// Running the binary: temporary directories, pauses, limits, bounded waits.
mod util;

mod batch;
mod changing_files;
mod check;
mod check_options;
mod check_reports;
mod errors;
mod formats;
mod input;
mod leases;
mod limits;
mod mapping;
mod memory_limits;
mod options;
mod raw;
mod recursive;
mod recursive_changes;
mod skein_options;
mod subtree_parts;
