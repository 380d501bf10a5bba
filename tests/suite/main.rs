//! The library's integration tests: one test binary with a module per topic
//! (each module's own documentation says what it covers), so that
//! `cargo test` links the library and the dev-dependencies once rather than
//! once per topic. `tests/fork.rs` stays a binary of its own: it forks, which
//! is only sound while no other test runs threads in the same process.

mod api_guarantees;
mod backend_lists;
mod backends;
mod conformance;
mod digest_serializable;
mod digest_traits;
mod doc_paths;
mod golden_kat;
mod hash_many;
mod hash_many_from;
mod internals;
mod one_block_output;
mod output_reader;
mod owned_params;
mod properties;
mod reference_vectors;
mod saved_state;
mod saved_state_vectors;
mod subtree;
mod subtree_proof;
mod threefish;
mod tree;
