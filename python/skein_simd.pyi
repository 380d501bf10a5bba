"""Skein-256/512/1024 and Threefish: a faster, maintained drop-in for pyskein 1.0.

``import skein_simd as skein`` in place of ``import skein``.
"""

import os
import random
import sys
from collections.abc import Callable, Iterable
from typing import Any, Final, Optional, Sequence, SupportsIndex, TypedDict, Union, final

if sys.version_info >= (3, 12):
    from collections.abc import Buffer
    from typing import Unpack
else:
    from typing_extensions import Buffer, Unpack

__version__: str

_Tree = Sequence[SupportsIndex]
_Path = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

# The keyword-only arguments of every hash function (each b"" or None when
# left out): MAC or KDF key, personalization, public key, KDF key identifier,
# nonce, tree=(leaf, fan_out, max_height).
_Params = TypedDict(
    "_Params",
    {
        "key": Buffer,
        "pers": Buffer,
        "public_key": Buffer,
        "key_id": Buffer,
        "nonce": Buffer,
        "tree": Optional[_Tree],
    },
    total=False,
)

@final
class skein:
    """A Skein hash object (returned by skein256, skein512, skein1024)."""

    # Read-only, fixed when the object is made.
    name: Final[str]
    """'Skein-256', 'Skein-512' or 'Skein-1024'."""
    digest_size: Final[int]
    """Digest length in bytes (rounded up)."""
    digest_bits: Final[int]
    """Digest length in bits."""
    block_size: Final[int]
    """State size in bytes: 32, 64 or 128."""
    block_bits: Final[int]
    """State size in bits: 256, 512 or 1024."""
    @property
    def hashed_bits(self) -> int:
        """Number of message bits hashed so far."""
    def update(self, message: Buffer, bits: Optional[int] = None) -> None:
        """Hash `message`; with `bits`, only its first `bits` bits (most significant first).

        After a partial byte, further calls must give at most the bits that
        complete it (ValueError otherwise). A message holds at most
        2**96 - 2**64 bytes (OverflowError past it, the object unchanged).
        """
    def digest(self, start: int = ..., stop: int = ..., /) -> bytes:
        """The digest so far (digest_size bytes), or digest()[start:stop]; give both or neither.

        A slice computes only its own output blocks, for any digest_bits. Each
        bound is an int taken modulo 2**64 by its own value (as in pyskein).
        """
    def hexdigest(self) -> str:
        """The digest as lower-case hexadecimal digits."""
    def hash_many_from(self, messages: Iterable[Buffer]) -> list[bytes]:
        """The digests of many messages that each continue this object's message.

        For each m: what copy(), update(m), digest() give, computed on the
        SIMD lanes and all cores with the GIL released; what was hashed so far
        is not hashed again. The object is left as it is. ValueError after a
        partial byte.
        """
    def copy(self) -> "skein":
        """A copy of the hash object."""

def skein256(init: Buffer = b"", digest_bits: int = 256, **params: Unpack[_Params]) -> skein:
    """A new Skein-256 hash object."""

def skein512(init: Buffer = b"", digest_bits: int = 512, **params: Unpack[_Params]) -> skein:
    """A new Skein-512 hash object.

    tree=(leaf, fan_out, max_height): tree hashing with leaves of 2**leaf
    blocks and nodes of 2**fan_out children (1..56, 1..56, 2..255), on all cores.
    """

def skein1024(init: Buffer = b"", digest_bits: int = 1024, **params: Unpack[_Params]) -> skein:
    """A new Skein-1024 hash object."""

@final
class threefish:
    """Threefish-256/512/1024 (by key length: 32, 64 or 128 bytes) with a 16-byte tweak."""

    def __init__(self, key: Buffer, tweak: Buffer, /) -> None: ...
    tweak: bytes
    """The 16-byte tweak; settable (bytes or bytearray)."""
    @property
    def block_size(self) -> int:
        """Block and key size in bytes."""
    @property
    def block_bits(self) -> int:
        """Block and key size in bits."""
    def encrypt_block(self, block: Buffer, /) -> bytes:
        """Encrypt one block (as long as the key)."""
    def decrypt_block(self, block: Buffer, /) -> bytes:
        """Decrypt one block (as long as the key)."""

def _from_state(state: tuple[Any, ...], /) -> skein:
    """A hash object from the state its pickle holds (TypeError if not a tuple, ValueError if malformed).

    Malformed includes a message byte count other than the saved hasher's.
    """

_Hasher = Callable[..., skein]

class Random(random.Random):
    """The Skein-PRNG as a random.Random (pyskein's skein.Random, same outputs).

    A bytes seed is hashed into the state as it is; any other seed (None: fresh
    entropy) seeds a random.Random whose randrange(256) values are the seed.
    """

    def __init__(self, seed: object = None, hasher: _Hasher = ...) -> None: ...
    def seed(self, seed: object = None) -> None:  # type: ignore[override]
        """Hash `seed` into the state."""
    def read(self, n: int) -> bytes:
        """`n` random bytes; read(a) + read(b) == read(a + b)."""
    def getrandbits(self, k: int) -> int: ...
    def random(self) -> float: ...
    def getstate(self) -> tuple[bytes, bytes, int, int, Optional[float]]: ...
    def setstate(self, state: tuple[bytes, bytes, int, int, Optional[float]]) -> None: ...

class RandomBytes:
    """Pseudo-random bytes from Skein's output (pyskein's skein.RandomBytes)."""

    state_size: int
    def __init__(self, seed: bytes, hasher: _Hasher = ...) -> None: ...
    def seed(self, seed: bytes) -> None:
        """Hash the bytes `seed` into the state."""
    def read(self, n: int) -> bytes:
        """`n` pseudo-random bytes."""

class StreamCipher:
    """The Skein paper's stream cipher (pyskein's skein.StreamCipher): the
    keystream is hasher(key=key, nonce=nonce, digest_bits=2**64-1)'s output;
    each call costs as much as its message, wherever the position."""

    DIGEST_BITS: int
    def __init__(self, key: Buffer, nonce: Buffer = b"", hasher: _Hasher = ...) -> None: ...
    def keystream(self, n: int) -> bytes:
        """The next `n` keystream bytes."""
    def encrypt(self, plain: bytes) -> bytes:
        """`plain` XOR the next len(plain) keystream bytes."""
    def decrypt(self, plain: bytes) -> bytes:
        """The same as encrypt."""

class SubtreeRange:
    """The nodes first..first+count of tree level `level` (1: leaves) and the
    object's bytes start:end under them; made by ObjectTree.split or
    ObjectTree.range. Pickles as its five numbers."""

    level: int
    first: int
    count: int
    start: int
    end: int
    def __init__(self, level: int, first: int, count: int, start: int, end: int) -> None: ...

class Subtrees:
    """The chaining values of a run of nodes of one level (keyed values in a
    keyed tree). Pickles as bytes(values); Subtrees(data) reads them back."""

    level: int
    first: int
    count: int
    state_bits: int
    def __init__(self, data: Buffer) -> None: ...
    def __bytes__(self) -> bytes: ...

class SubtreeProof:
    """The proof of one range (ObjectTree.proof): the chaining values beside
    its path to the root (keyed values in a keyed tree). Pickles as
    bytes(proof); SubtreeProof(data) reads them back; len(proof) is theirs."""

    level: int
    first: int
    count: int
    siblings: int
    state_bits: int
    def __init__(self, data: Buffer) -> None: ...
    def __bytes__(self) -> bytes: ...
    def __len__(self) -> int: ...

class ObjectTree:
    """The tree of one object of `length` bytes (tree= required): split it into
    ranges, hash each anywhere (hash_range, hash_file_range) and merge the
    values with root() into skein<state_bits>(object, ..., tree=...).digest().
    Sharp tool: values of another object or other arguments give a wrong
    digest, not an error."""

    length: int
    state_bits: int
    digest_bits: int
    root_level: int
    def __init__(self, length: int, digest_bits: Optional[int] = None, *,
                 state_bits: int = 512, **params: Unpack[_Params]) -> None: ...
    def nodes_at(self, level: int) -> int:
        """Nodes of tree level `level` (1: leaves): 1 at the root, 0 above."""
    def node_span(self, level: int) -> int:
        """Message bytes under one node of `level`."""
    def split(self, parts: int) -> list[SubtreeRange]:
        """At most `parts` consecutive ranges of about equal size."""
    def range(self, level: int, first: int, count: int) -> SubtreeRange:
        """The nodes first..first+count of `level`; ValueError if the tree has none such."""
    def hash_range(self, range: SubtreeRange, data: Buffer) -> Subtrees:
        """The values of `range` from its bytes, with the GIL released."""
    def hash_file_range(self, path: _Path, range: SubtreeRange, *,
                        threads: Optional[int] = None, mmap: bool = False) -> Subtrees:
        """The values of `range` from the file at `path`, reading (or with mmap,
        mapping: SIGBUS if truncated meanwhile) only the range, on `threads`
        threads (None: all cores); OSError if the file changes meanwhile."""
    def parents(self, children: Subtrees) -> Subtrees:
        """The parents of a run of whole parents' children, one level up."""
    def root(self, values: Iterable[Subtrees]) -> bytes:
        """The digest from consecutive runs of one level that hold all its nodes."""
    def proof(self, range: SubtreeRange, values: Iterable[Subtrees]) -> SubtreeProof:
        """The proof of `range` from the values of a whole level at or below its own."""
    def proof_len(self, range: SubtreeRange) -> int:
        """The length in bytes of the proof of `range`."""
    def verify(self, range: SubtreeRange, data: Buffer, proof: SubtreeProof, digest: Buffer) -> None:
        """None if `data` are the object's bytes at `range` (given its digest and the proof), else ValueError."""

def hash_many(messages: Iterable[Buffer], digest_bits: Optional[int] = None, *,
              state_bits: int = 512, **params: Unpack[_Params]) -> list[bytes]:
    """[skein<state_bits>(m, digest_bits, key=key, ...).digest() for m in messages], on SIMD lanes and all cores."""

def hash_file(path: _Path, digest_bits: Optional[int] = None, *,
              state_bits: int = 512, **params: Unpack[_Params]) -> bytes:
    """skein<state_bits>(open(path, "rb").read(), ...).digest(), read in pieces with the GIL released; OSError if a regular file changes meanwhile."""

def platform() -> dict[str, object]:
    """The backends in use: 'skein256', 'skein512', 'skein1024', 'lanes', 'lane_count', 'available'.

    'lane_count' is the same on every run on a machine: where the lane kernel
    has several forms, a fixed rule per CPU picks one. Digests never depend
    on it.
    """
