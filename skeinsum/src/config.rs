//! The Skein arguments of a run, owned, and the hashers built from them.

use std::borrow::Cow;
use std::ffi::OsStr;

use skein_simd::{Backend, DynSkein, OwnedParams, Params, StateSize};
use zeroize::Zeroizing;

use crate::cli::{Args, HexBytes, MAX_KEY_BYTES};
use crate::quote::quote_name;
use crate::report::io_reason;

/// Everything but the message that decides a digest, as given on the command
/// line. The key is wiped when the run ends.
pub struct HashConfig {
    /// `-a`: the state size of plain `HEX  FILE` lines.
    pub state: StateSize,
    /// `-l`, or the state size.
    pub output_bits: u64,
    /// Every other argument (the output length is set per hasher).
    arguments: OwnedParams,
}

impl HashConfig {
    /// Gather the arguments, moving the key (and the other hex values) out of
    /// `args` so that exactly one copy of it exists. Reading the key file or
    /// finding the backend can fail, and both are usage errors (exit 2)
    /// naming the option.
    pub fn from_args(args: &mut Args) -> Result<HashConfig, String> {
        let state = StateSize::from_bits(args.algorithm).expect("clap allows only 256, 512, 1024");
        let mut key = match (args.key_hex.take(), &args.key_file) {
            (Some(hex), _) => checked_key("--key-hex", hex.0)?,
            (None, Some(path)) => {
                let option = format!("--key-file {}", quote_name(&os_bytes(path.as_os_str())));
                let key = read_key(path).map_err(|e| format!("{option}: {}", io_reason(&e)))?;
                checked_key(&option, key)?
            }
            (None, None) => Zeroizing::new(Vec::new()),
        };
        if let Some(backend) = args.backend {
            if !backend.is_available() {
                let usable: Vec<&str> = Backend::available()
                    .into_iter()
                    .map(Backend::name)
                    .collect();
                return Err(format!(
                    "--backend {backend}: not available on this CPU or in this build (usable here: {})",
                    usable.join(", ")
                ));
            }
        }
        let personalization = match (&args.personalization, args.personalization_hex.take()) {
            (Some(text), _) => os_bytes(text).into_owned(),
            (None, Some(mut hex)) => std::mem::take(&mut *hex.0),
            (None, None) => Vec::new(),
        };
        let bytes = |hex: Option<HexBytes>| {
            hex.map(|mut h| std::mem::take(&mut *h.0))
                .unwrap_or_default()
        };
        let mut arguments = OwnedParams::new()
            // Moved out of its wiping buffer into another, not copied.
            .key(std::mem::take(&mut *key))
            .personalization(personalization)
            .public_key(bytes(args.public_key_hex.take()))
            .key_id(bytes(args.key_id_hex.take()))
            .nonce(bytes(args.nonce_hex.take()));
        if let Some(tree) = args.tree {
            arguments = arguments.tree(tree);
        }
        if let Some(backend) = args.backend {
            arguments = arguments.backend(backend);
        }
        Ok(HashConfig {
            state,
            output_bits: args.length.unwrap_or(state.bits()),
            arguments,
        })
    }

    /// A fresh hasher for `state` and `output_bits` (>= 1) with every other
    /// argument of the run.
    pub fn hasher(&self, state: StateSize, output_bits: u64) -> Result<DynSkein, String> {
        DynSkein::new(state, &self.params(output_bits)).map_err(|e| e.to_string())
    }

    /// Every argument of the run, with `output_bits` (>= 1).
    pub fn params(&self, output_bits: u64) -> Params<'_> {
        self.arguments.params().output_bits(output_bits)
    }
}

/// The bytes of a key file, at most [`MAX_KEY_BYTES`] + 1 of them (one more
/// tells that the file is too long), read into one buffer that never grows,
/// so that no unwiped copy is left behind by a reallocation.
fn read_key(path: &std::path::Path) -> std::io::Result<Zeroizing<Vec<u8>>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    if file.metadata()?.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "Is a directory",
        ));
    }
    let mut key = Zeroizing::new(Vec::with_capacity(MAX_KEY_BYTES + 1));
    file.take(MAX_KEY_BYTES as u64 + 1).read_to_end(&mut key)?;
    Ok(key)
}

/// A MAC key must have 1 ..= [`MAX_KEY_BYTES`] bytes: an empty one would
/// silently give an unkeyed hash.
fn checked_key(option: &str, key: Zeroizing<Vec<u8>>) -> Result<Zeroizing<Vec<u8>>, String> {
    if key.is_empty() {
        return Err(format!(
            "{option}: the key is empty (a MAC needs at least one byte)"
        ));
    }
    if key.len() > MAX_KEY_BYTES {
        return Err(format!(
            "{option}: the key is longer than the limit of {MAX_KEY_BYTES} bytes (1 MiB)"
        ));
    }
    Ok(key)
}

/// `Skein-512-256`: the name in `--tag` lines.
pub fn tag_name(state: StateSize, output_bits: u64) -> String {
    format!("Skein-{}-{}", state.bits(), output_bits)
}

/// The raw bytes of an OS string (exact on Unix, UTF-8 elsewhere),
/// borrowed where they can be: a run over thousands of names copies none.
pub fn os_bytes(s: &OsStr) -> Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Cow::Borrowed(s.as_bytes())
    }
    #[cfg(not(unix))]
    {
        match s.to_string_lossy() {
            Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
            Cow::Owned(text) => Cow::Owned(text.into_bytes()),
        }
    }
}

/// The OS string of raw bytes (exact on Unix, UTF-8 elsewhere), borrowed
/// where it can be: opening a name copies it no more than the system call
/// needs.
pub fn bytes_os(b: &[u8]) -> Cow<'_, OsStr> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Cow::Borrowed(OsStr::from_bytes(b))
    }
    #[cfg(not(unix))]
    {
        match String::from_utf8_lossy(b) {
            Cow::Borrowed(text) => Cow::Borrowed(OsStr::new(text)),
            Cow::Owned(text) => Cow::Owned(text.into()),
        }
    }
}
