//! Block-function backends, one module per instruction set. Only
//! [`crate::platform`] chooses between them.

pub(crate) mod portable;
