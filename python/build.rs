//! The `Py_3_*`, `Py_LIMITED_API` and `PyPy` cfgs of the interpreter pyo3
//! builds for: src/buffer.rs declares the buffer protocol itself where pyo3
//! does not (the stable ABI before 3.11).

fn main() {
    pyo3_build_config::use_pyo3_cfgs();
}
