//! `-r`: every regular file below each directory operand, in the order of
//! the bytes of its path, handed to the hashing path in bounded chunks.
//!
//! The walk is depth first, each directory's entries sorted by their bytes,
//! where a directory sorts as its name followed by `/`. That is exactly the
//! order of the full paths: everything below `a/` shares the prefix `a/`,
//! and `a-b` or `a.c` (`-` and `.` are below `/`) come before it while
//! `a0` comes after. The order is therefore the same on every run and with
//! any `-j`, and no path but those of the current chunk is held: memory is
//! the listings of the directories on the current path (each sorted whole,
//! as it must be), up to [`LOOKAHEAD_DIRS`] listings read ahead per level,
//! and one chunk of names.
//!
//! With more than one thread, the next directories of a level are listed
//! in parallel on the current rayon pool before they are entered; with
//! `-j 1` one at a time, on this thread.
//!
//! Symbolic links below an operand are skipped unless `-L` (as `grep -r`
//! and `-R`; an operand itself is always followed, as it was named). Each
//! directory below an operand is opened relative to its parent's open
//! descriptor (`openat`, `O_DIRECTORY|O_NOFOLLOW` without `-L`) and read
//! through its own, which the walk holds until the files found in it are
//! hashed: a directory renamed, removed or swapped for a link after it was
//! listed cannot lead the walk (or, through `crate::files::held`, the
//! opening of its files) anywhere else, as a path looked up again would. With
//! `-L`, a link that cannot be resolved is an error for that name, and a
//! directory that is one of its own ancestors (same device and inode) is an
//! error instead of a loop. Other entries (FIFOs, sockets, devices) are not
//! regular files and are skipped. Each directory that cannot be listed is
//! one error line naming it; the walk goes on and the run ends with
//! status 1.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io;
#[cfg(unix)]
use std::sync::Arc;

use rayon::prelude::*;

#[cfg(not(unix))]
use crate::config::bytes_os;
use crate::config::os_bytes;
use crate::files::descriptors::{dirs_held, out_of_descriptors, Relief};
#[cfg(unix)]
use crate::files::held::open_dir;
use crate::files::held::{self, prefix_of, reopen, Dir, DirId};
use crate::files::Origin;
use crate::quote::quote_name;
use crate::report::{io_reason, warn, OutputClosed};
use crate::testing;

/// Names handed to the hashing path at once: a few batch windows' worth,
/// so that the windows are full while memory stays bounded.
pub const CHUNK: usize = 1024;
/// Directories of one level listed ahead of the walk (in parallel).
pub const LOOKAHEAD_DIRS: usize = 16;
/// Directories whose descriptors a chunk holds at most (a chunk is hashed
/// early when its files span more): bounds the descriptors the walk keeps
/// open beside those of the hashing, in a tree of many small directories.
/// Fewer under a low limit on descriptors ([`dirs_held`]).
const DIRS_HELD: usize = 64;

/// How far back a level's entries are searched for directories to list
/// ahead: bounds the scan in a directory of many files and few directories.
const LOOKAHEAD_SCAN: usize = 1024;

/// Hash every regular file below each directory of `operands`, in order,
/// by calling `hash` with chunks of at most [`CHUNK`] names and
/// `Origin::Walked`; while it runs, `crate::files::held::open_entry` opens
/// those names relative to their directories. An operand that is not a
/// directory (standard input `-`, a file, a name that does not exist) is
/// passed on as it is, in its place, with `Origin::Named`. Errors of the walk are
/// reported in their place among the result lines; `Ok(false)` if any.
pub fn hash_below(
    operands: &[OsString],
    follow_links: bool,
    parallel: bool,
    mut hash: impl FnMut(&[Vec<u8>], Origin) -> Result<(), OutputClosed>,
) -> Result<bool, OutputClosed> {
    let mut ok = true;
    let mut chunk = Chunk::default();
    let walked = Origin::Walked { follow_links };
    for found in Walk::new(operands, follow_links, parallel) {
        match found {
            Found::File(name, dir) => {
                if !chunk.has_room(&name, &dir) {
                    chunk.hash(walked, &mut hash)?;
                }
                chunk.push(name, dir);
                if chunk.names.len() == CHUNK {
                    chunk.hash(walked, &mut hash)?;
                }
            }
            Found::Operand(name) => {
                chunk.hash(walked, &mut hash)?;
                hash(&[name], Origin::Named)?;
            }
            Found::Release => chunk.hash(walked, &mut hash)?,
            Found::Failed(name, e) => {
                // The files before it are printed first.
                chunk.hash(walked, &mut hash)?;
                warn(format_args!("{}: {}", quote_name(&name), io_reason(&e)));
                ok = false;
            }
        }
    }
    chunk.hash(walked, &mut hash)?;
    Ok(ok)
}

/// Names of walked files waiting to be hashed, and their directories, by
/// the prefix of their paths (up to the last `/`).
#[derive(Default)]
struct Chunk {
    names: Vec<Vec<u8>>,
    dirs: HashMap<Vec<u8>, Dir>,
}

impl Chunk {
    /// Whether `name` can join: its directory is held already, or fewer
    /// than [`dirs_held`] are and its prefix is not that of another open
    /// directory (an operand given twice, or one below another).
    fn has_room(&self, name: &[u8], dir: &Option<Dir>) -> bool {
        #[cfg(unix)]
        return match (self.dirs.get(prefix_of(name)), dir) {
            (Some(held), Some(dir)) => Arc::ptr_eq(held, dir),
            (Some(_), None) => false,
            (None, Some(_)) => self.dirs.len() < dirs_held(DIRS_HELD),
            (None, None) => true,
        };
        #[cfg(not(unix))]
        {
            let _ = (name, dir);
            true
        }
    }

    fn push(&mut self, name: Vec<u8>, dir: Option<Dir>) {
        #[cfg(unix)]
        if let Some(dir) = dir {
            self.dirs.entry(prefix_of(&name).to_vec()).or_insert(dir);
        }
        #[cfg(not(unix))]
        let _ = dir;
        self.names.push(name);
    }

    /// Hand the names to `hash`, their directories to
    /// [`open_entry`](crate::files::held::open_entry) for that time, and
    /// empty the chunk.
    fn hash(
        &mut self,
        walked: Origin,
        hash: &mut impl FnMut(&[Vec<u8>], Origin) -> Result<(), OutputClosed>,
    ) -> Result<(), OutputClosed> {
        let hashed = held::hold(std::mem::take(&mut self.dirs), || hash(&self.names, walked));
        self.names.clear();
        hashed
    }
}

/// One step of the walk.
#[derive(Debug)]
pub enum Found {
    /// A regular file found below an operand, with its directory (none if
    /// the walk ran out of descriptors and let it go).
    File(Vec<u8>, Option<Dir>),
    /// An operand that is not a directory, passed on as named.
    Operand(Vec<u8>),
    /// A name that could not be walked, and why.
    Failed(Vec<u8>, io::Error),
    /// No descriptor was left to open a directory: the names found so far
    /// are to be hashed now, so that their directories are closed, before
    /// the walk tries it again.
    Release,
}

/// The walk over the operands, as an iterator of [`Found`] in output order.
pub struct Walk<'a> {
    operands: std::slice::Iter<'a, OsString>,
    /// The directories on the current path, the operand first.
    stack: Vec<Frame>,
    follow_links: bool,
    /// Directories listed ahead per level (1: none ahead, on this thread).
    lookahead: usize,
    /// How far the walk went to find a descriptor for the directory it
    /// opens next (step 1: [`Found::Release`] asked for; step 2: the
    /// descriptors of the directories above it let go too).
    relief: Relief,
}

/// A directory being walked.
struct Frame {
    /// Its path with a `/` at the end: the prefix of its entries' paths.
    prefix: Vec<u8>,
    id: Option<DirId>,
    /// Its descriptor; none once the walk, out of descriptors, let it go
    /// (its entries are then opened by their paths).
    dir: Option<Dir>,
    /// Entries not yet walked, sorted in reverse (the next one last).
    entries: Vec<Entry>,
}

struct Entry {
    /// The name, with `/` appended for a directory (its sort key).
    name: Vec<u8>,
    kind: Kind,
}

enum Kind {
    File,
    /// A directory, with its listing once read (ahead of time or not).
    Dir(Option<io::Result<Listing>>),
    /// A symbolic link that `-L` could not resolve.
    Failed(io::Error),
}

/// The entries of a directory, and what identifies it.
struct Listing {
    id: Option<DirId>,
    /// Kept open only for the directory entered next; one listed further
    /// ahead is closed and opened again when entered (`reopen`), so that
    /// the listings read ahead hold no descriptors.
    dir: Option<Dir>,
    /// Sorted in reverse, as [`Frame::entries`].
    entries: Vec<Entry>,
}

impl Entry {
    /// An entry of `kind` named `name` (with `/` appended for a directory).
    fn new(mut name: Vec<u8>, kind: Kind) -> Entry {
        if let Kind::Dir(_) = kind {
            name.push(b'/');
        }
        Entry { name, kind }
    }
}

impl Listing {
    /// The listing of `entries`, sorted for the walk.
    fn sorted(id: Option<DirId>, dir: Option<Dir>, mut entries: Vec<Entry>) -> Listing {
        // Names in one directory differ, so the order is total.
        entries.sort_unstable_by(|a, b| b.name.cmp(&a.name));
        testing::pause("walk");
        Listing { id, dir, entries }
    }
}

impl<'a> Walk<'a> {
    pub fn new(operands: &'a [OsString], follow_links: bool, parallel: bool) -> Walk<'a> {
        Walk {
            operands: operands.iter(),
            stack: Vec::new(),
            follow_links,
            lookahead: if parallel { LOOKAHEAD_DIRS } else { 1 },
            relief: Relief::new(2),
        }
    }

    /// The next operand: walked if it is a directory, else passed on.
    fn start(&mut self, operand: &OsString) -> Option<Found> {
        let name = os_bytes(operand).into_owned();
        if name == b"-" || !std::fs::metadata(operand).is_ok_and(|m| m.is_dir()) {
            return Some(Found::Operand(name));
        }
        let mut prefix = name;
        if !prefix.ends_with(b"/") {
            prefix.push(b'/');
        }
        match list(None, &prefix, true, self.follow_links) {
            Ok(listing) => {
                self.stack.push(Frame {
                    prefix,
                    id: listing.id,
                    dir: listing.dir,
                    entries: listing.entries,
                });
                None
            }
            Err(e) => Some(Found::Failed(os_bytes(operand).into_owned(), e)),
        }
    }

    /// List the next directories of the top level that are not listed yet,
    /// up to `lookahead` of them, in parallel when there are several.
    fn list_ahead(&mut self) {
        let follow_links = self.follow_links;
        let Some(frame) = self.stack.last_mut() else {
            return;
        };
        let Frame {
            prefix,
            dir,
            entries,
            ..
        } = frame;
        type Unlisted<'e> = (usize, &'e mut Option<io::Result<Listing>>, &'e [u8]);
        let mut unlisted: Vec<Unlisted<'_>> = entries
            .iter_mut()
            .rev()
            .take(LOOKAHEAD_SCAN)
            .filter_map(|entry| match &mut entry.kind {
                Kind::Dir(listing @ None) => Some((listing, &entry.name[..])),
                _ => None,
            })
            .take(self.lookahead)
            .enumerate()
            .map(|(i, (slot, name))| (i, slot, name))
            .collect();
        let (prefix, dir) = (&prefix[..], dir.as_ref());
        let read = |(i, slot, name): &mut Unlisted<'_>| {
            let path = [prefix, name].concat();
            let at = dir.map(|dir| (dir, *name));
            let mut listing = list(at, &path, follow_links, follow_links);
            if *i > 0 {
                // Not the next entry: entered later, opened again then.
                if let Ok(listing) = &mut listing {
                    listing.dir = None;
                }
            }
            **slot = Some(listing);
        };
        if unlisted.len() > 1 {
            unlisted.par_iter_mut().for_each(read);
            // Out of descriptors with several open at once: one at a time.
            unlisted
                .iter_mut()
                .filter(|(_, slot, _)| matches!(slot, Some(Err(e)) if out_of_descriptors(e)))
                .for_each(read);
        } else {
            unlisted.iter_mut().for_each(read);
        }
    }
}

impl Iterator for Walk<'_> {
    type Item = Found;

    fn next(&mut self) -> Option<Found> {
        loop {
            let Some(frame) = self.stack.last_mut() else {
                let operand = self.operands.next()?;
                match self.start(operand) {
                    Some(found) => return Some(found),
                    None => continue,
                }
            };
            if matches!(
                frame.entries.last(),
                Some(Entry {
                    kind: Kind::Dir(None),
                    ..
                })
            ) {
                self.list_ahead();
            }
            let frame = self.stack.last_mut().expect("a frame is on the stack");
            let Some(entry) = frame.entries.pop() else {
                self.stack.pop();
                continue;
            };
            let path = [&frame.prefix[..], &entry.name].concat();
            match entry.kind {
                Kind::File => return Some(Found::File(path, frame.dir.clone())),
                Kind::Failed(e) => return Some(Found::Failed(path, e)),
                Kind::Dir(listing) => {
                    let listing = listing.expect("listed ahead just now");
                    let name = path[..path.len() - 1].to_vec();
                    let opened = listing.and_then(|mut listing| {
                        let dir = match listing.dir.take() {
                            Some(dir) => dir,
                            None => reopen(
                                frame.dir.as_ref(),
                                &entry.name,
                                &path,
                                self.follow_links,
                                listing.id,
                            )?,
                        };
                        Ok((listing, dir))
                    });
                    let (listing, dir) = match opened {
                        Ok(opened) => opened,
                        // Out of descriptors: first those held for the names
                        // waiting to be hashed are let go, then those of the
                        // directories on the path, this one's parent too
                        // (their entries are opened by path from then on, as
                        // the walk did before it held descriptors), and the
                        // directory is tried again each time.
                        Err(e) => match self.relief.next_step(&e) {
                            None => return Some(Found::Failed(name, e)),
                            Some(step) => {
                                frame.entries.push(Entry {
                                    name: entry.name,
                                    kind: Kind::Dir(None),
                                });
                                if step == 1 {
                                    return Some(Found::Release);
                                }
                                for frame in &mut self.stack {
                                    frame.dir = None;
                                }
                                continue;
                            }
                        },
                    };
                    self.relief.reset();
                    if let Some(ancestor) = self
                        .stack
                        .iter()
                        .find(|f| f.id.is_some() && f.id == listing.id)
                    {
                        let ancestor = &ancestor.prefix[..ancestor.prefix.len() - 1];
                        let e = io::Error::other(format!(
                            "directory loop ({} again), not followed",
                            quote_name(ancestor)
                        ));
                        return Some(Found::Failed(name, e));
                    }
                    self.stack.push(Frame {
                        prefix: path,
                        id: listing.id,
                        dir: Some(dir),
                        entries: listing.entries,
                    });
                }
            }
        }
    }
}

/// Read and sort the entries of the directory `path` (ending in `/`): an
/// operand (`at` is `None`), opened by its path, or the entry `name` of the
/// open directory `parent` (`at` is `Some((parent, name))`), opened
/// relative to it, so that its parent's path is not looked up again.
/// Unless `follow` (`-L`, or an operand, which was named), a name that is a
/// symbolic link now (swapped in since its parent was listed) is not
/// followed: the directory is opened with `O_NOFOLLOW` and read through that
/// descriptor, so what is listed is what was opened. `O_NONBLOCK`: a name
/// that became a FIFO fails as `Not a directory` without waiting.
fn list(
    at: Option<(&Dir, &[u8])>,
    path: &[u8],
    follow: bool,
    follow_links: bool,
) -> io::Result<Listing> {
    #[cfg(unix)]
    return list_open(open_dir(at, path, follow)?, follow_links);
    #[cfg(not(unix))]
    {
        let _ = (at, follow);
        list_by_path(path, follow_links)
    }
}

/// The entries of the directory `dir` (identified by `id`) just opened.
#[cfg(unix)]
fn list_open((dir, id): (Dir, DirId), follow_links: bool) -> io::Result<Listing> {
    use rustix::fs::{AtFlags, FileType};
    let mut entries = Vec::new();
    for entry in rustix::fs::Dir::read_from(&dir)? {
        let entry = entry?;
        let name = entry.file_name().to_bytes().to_vec();
        if name == b"." || name == b".." {
            continue;
        }
        // The type comes with the entry on most file systems (no `stat`).
        let mut kind = entry.file_type();
        if kind == FileType::Unknown || (kind == FileType::Symlink && follow_links) {
            let at = if kind == FileType::Symlink {
                AtFlags::empty()
            } else {
                AtFlags::SYMLINK_NOFOLLOW
            };
            kind = match rustix::fs::statat(&dir, entry.file_name(), at) {
                Ok(stat) => FileType::from_raw_mode(stat.st_mode as _),
                // Gone since it was listed, or a link that cannot be resolved.
                Err(e) => {
                    entries.push(Entry {
                        name,
                        kind: Kind::Failed(e.into()),
                    });
                    continue;
                }
            };
        }
        let kind = match kind {
            FileType::RegularFile => Kind::File,
            FileType::Directory => Kind::Dir(None),
            _ => continue,
        };
        entries.push(Entry::new(name, kind));
    }
    Ok(Listing::sorted(Some(id), Some(dir), entries))
}

/// Elsewhere: by name (a link swapped in is followed).
/// Read and sort the entries of the directory `path` (ending in `/`, which
/// also makes it fail as `Not a directory` on what has turned into a file
/// since its parent was listed).
#[cfg(not(unix))]
fn list_by_path(path: &[u8], follow_links: bool) -> io::Result<Listing> {
    let path = bytes_os(path);
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(&path)? {
        let entry = entry?;
        let name = os_bytes(&entry.file_name()).into_owned();
        // The type comes with the entry on most file systems (no `stat`).
        let kind = match entry.file_type() {
            Ok(t) if t.is_file() => Kind::File,
            Ok(t) if t.is_dir() => Kind::Dir(None),
            Ok(t) if t.is_symlink() && follow_links => match std::fs::metadata(entry.path()) {
                Ok(m) if m.is_file() => Kind::File,
                Ok(m) if m.is_dir() => Kind::Dir(None),
                Ok(_) => continue,
                Err(e) => Kind::Failed(e),
            },
            Ok(_) => continue,
            // Gone since it was listed (a file system without types in
            // its entries needs an `lstat`).
            Err(e) => Kind::Failed(e),
        };
        entries.push(Entry::new(name, kind));
    }
    Ok(Listing::sorted(None, Some(()), entries))
}
