//! What every backend plugs into, written once: the two traits an
//! instruction set implements (`isa.rs`), the `#[target_feature]` glue that
//! implements them from a detection expression and a row type
//! (`feature_glue.rs`), the macro that generates `Backend` and `Choice` from
//! the backend table in `backend/mod.rs` (`registry.rs`), and what a chosen
//! backend does (`choice.rs`).

pub(super) mod choice;
pub(super) mod feature_glue;
pub(crate) mod isa;
pub(super) mod registry;
