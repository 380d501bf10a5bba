//! Inputs through the buffer protocol, as `hashlib` and pyskein (`y*`) take
//! them: any object exporting a C-contiguous buffer, read as raw bytes
//! whatever its item type (`bytes`, `bytearray`, `memoryview`, `array`,
//! NumPy arrays, `mmap` ...).

use pyo3::prelude::*;
use std::mem::MaybeUninit;

#[cfg(any(not(Py_LIMITED_API), Py_3_11))]
use pyo3::ffi::{PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer, Py_buffer};
#[cfg(all(Py_LIMITED_API, not(Py_3_11)))]
use stable_abi_before_3_11::{PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer, Py_buffer};

/// The buffer protocol for the stable ABI wheel (abi3) on CPython 3.9 and
/// 3.10, where pyo3 does not declare it: Python 3.11 put it in the stable ABI
/// as it had been since 3.3, the same `Py_buffer` layout and the same two
/// exported functions, so these declarations are those of 3.11's headers.
/// Copying every input into `bytes` instead would cost a copy of each
/// message. CPython only: pyo3 builds PyPy without `Py_LIMITED_API`.
#[cfg(all(Py_LIMITED_API, not(Py_3_11)))]
#[allow(non_camel_case_types, non_upper_case_globals)]
mod stable_abi_before_3_11 {
    use pyo3::ffi::{PyObject, Py_ssize_t};
    use std::ffi::{c_char, c_int, c_void};

    /// Include/pybuffer.h of CPython 3.11 (Include/cpython/object.h before).
    #[repr(C)]
    pub struct Py_buffer {
        pub buf: *mut c_void,
        pub obj: *mut PyObject,
        pub len: Py_ssize_t,
        pub itemsize: Py_ssize_t,
        pub readonly: c_int,
        pub ndim: c_int,
        pub format: *mut c_char,
        pub shape: *mut Py_ssize_t,
        pub strides: *mut Py_ssize_t,
        pub suboffsets: *mut Py_ssize_t,
        pub internal: *mut c_void,
    }

    pub const PyBUF_SIMPLE: c_int = 0;

    extern "C" {
        pub fn PyObject_GetBuffer(obj: *mut PyObject, view: *mut Py_buffer, flags: c_int) -> c_int;
        pub fn PyBuffer_Release(view: *mut Py_buffer);
    }
}

/// A held buffer view, released on drop. Not `Send`: it is made and dropped
/// where the GIL is held; only the `&[u8]` borrowed from it goes into
/// `Python::detach` closures.
pub struct Bytes {
    view: Box<Py_buffer>,
}

impl Bytes {
    /// The buffer of `obj`: `TypeError` when it has none, `BufferError` when
    /// it is not contiguous (the errors of `PyObject_GetBuffer(PyBUF_SIMPLE)`,
    /// as with pyskein and `hashlib`).
    pub fn get(obj: &Bound<'_, PyAny>) -> PyResult<Bytes> {
        let mut view = Box::new(MaybeUninit::<Py_buffer>::uninit());
        // SAFETY: `obj` is a live object (we hold the GIL through `obj`'s
        // token); `view` points to writable memory for one Py_buffer. On
        // success the view is filled in and must be released exactly once.
        let rc = unsafe { PyObject_GetBuffer(obj.as_ptr(), view.as_mut_ptr(), PyBUF_SIMPLE) };
        if rc != 0 {
            return Err(PyErr::fetch(obj.py()));
        }
        // SAFETY: PyObject_GetBuffer succeeded, so the view is initialized.
        let view = unsafe { Box::from_raw(Box::into_raw(view).cast::<Py_buffer>()) };
        Ok(Bytes { view })
    }

    /// The bytes of the buffer.
    pub fn as_slice(&self) -> &[u8] {
        let len = self.view.len as usize;
        if len == 0 || self.view.buf.is_null() {
            return &[];
        }
        // SAFETY: a PyBUF_SIMPLE view is `len` contiguous bytes at `buf`,
        // valid until released (in our `Drop`). As with `hashlib`, a caller
        // that mutates a `bytearray` from another thread while it is being
        // hashed gets an unspecified digest; the memory itself stays valid
        // because an exported buffer cannot be resized.
        unsafe { std::slice::from_raw_parts(self.view.buf as *const u8, len) }
    }

    pub fn len(&self) -> usize {
        self.view.len as usize
    }
}

impl Drop for Bytes {
    fn drop(&mut self) {
        // SAFETY: the view was filled by a successful PyObject_GetBuffer and
        // is released once, here; `Bytes` is not `Send`, so this runs on a
        // thread attached to the interpreter.
        unsafe { PyBuffer_Release(&mut *self.view as *mut Py_buffer) };
    }
}
