//! Inputs through the buffer protocol, as `hashlib` and pyskein (`y*`) take
//! them: any object exporting a C-contiguous buffer, read as raw bytes
//! whatever its item type (`bytes`, `bytearray`, `memoryview`, `array`,
//! NumPy arrays, `mmap` ...).

use pyo3::ffi;
use pyo3::prelude::*;
use std::mem::MaybeUninit;

/// A held buffer view, released on drop. Not `Send`: it is made and dropped
/// where the GIL is held; only the `&[u8]` borrowed from it goes into
/// `Python::detach` closures.
pub struct Bytes {
    view: Box<ffi::Py_buffer>,
}

impl Bytes {
    /// The buffer of `obj`: `TypeError` when it has none, `BufferError` when
    /// it is not contiguous (the errors of `PyObject_GetBuffer(PyBUF_SIMPLE)`,
    /// as with pyskein and `hashlib`).
    pub fn get(obj: &Bound<'_, PyAny>) -> PyResult<Bytes> {
        let mut view = Box::new(MaybeUninit::<ffi::Py_buffer>::uninit());
        // SAFETY: `obj` is a live object (we hold the GIL through `obj`'s
        // token); `view` points to writable memory for one Py_buffer. On
        // success the view is filled in and must be released exactly once.
        let rc =
            unsafe { ffi::PyObject_GetBuffer(obj.as_ptr(), view.as_mut_ptr(), ffi::PyBUF_SIMPLE) };
        if rc != 0 {
            return Err(PyErr::fetch(obj.py()));
        }
        // SAFETY: PyObject_GetBuffer succeeded, so the view is initialized.
        let view = unsafe { Box::from_raw(Box::into_raw(view).cast::<ffi::Py_buffer>()) };
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
        unsafe { ffi::PyBuffer_Release(&mut *self.view as *mut ffi::Py_buffer) };
    }
}
