"""pyskein 1.0's constructions on Skein and Threefish, with its outputs and
semantics: the Skein-PRNG (`Random`, `RandomBytes`) and the stream cipher
(`StreamCipher`).

Python, because `Random` is a `random.Random` (its `randrange`, `gauss`,
`shuffle`, ... are the standard library's, driven by `getrandbits` and
`random` below). The extension module runs this file at import with
`skein512` and `threefish` (its own) in the globals and `__name__` set to
`skein_simd`, and exports the three classes.
"""

import random as _stdlib_random


class Random(_stdlib_random.Random):
    """The Skein-PRNG as a `random.Random` (pyskein's `skein.Random`).

    The state is a block of `hasher().block_size` bytes. Seeding hashes the
    old state followed by the seed; output comes from Threefish keyed with
    the state, encrypting the counter 0 (the next state) and 1 (64, 32 or 128
    output bytes), tweak type Out (63) at position 0.
    """

    _BPF = _stdlib_random.BPF
    _RECIP_BPF = _stdlib_random.RECIP_BPF
    # Threefish tweak of the output step: the type field (byte 15) Out = 63.
    _TWEAK = bytes(15) + b"\x3f"
    _random = _stdlib_random

    def __init__(self, seed=None, hasher=skein512):  # noqa: F821 (from the extension)
        """`seed` as for `seed()`; `hasher`: skein256, skein512 or skein1024
        (or any callable that makes such a hash object)."""
        self._hasher = hasher
        size = hasher().block_size
        self._state_bytes = size
        self._state = bytes(size)
        self._counter0 = bytes(size)
        self._counter1 = bytes([1]) + bytes(size - 1)
        super().__init__(seed)

    def seed(self, seed=None):
        """Hash `seed` into the state. A `bytes` seed is used as it is (the
        Skein specification's reseeding); anything else seeds a
        `random.Random`, whose first `randrange(256)` values, one per state
        byte, are the seed (so `None` means fresh entropy, and the types
        that `random.Random` refuses are refused)."""
        if not isinstance(seed, bytes):
            derive = self._random.Random(seed)
            seed = bytes([derive.randrange(256) for _ in range(self._state_bytes)])
        self._state = self._hasher(self._state + seed).digest()
        self._buffer = b""
        self._number = 0
        self._bits = 0

    def read(self, n):
        """`n` random bytes; `read(a) + read(b)` equals `read(a + b)` of the
        same state."""
        if n < 0:
            raise ValueError("number of random bytes needs to be >= 0")
        have = len(self._buffer)
        if have < n:
            blocks = (n - have - 1) // self._state_bytes + 1
            size = self._state_bytes
            if (
                type(blocks) is int
                and type(self._state) is bytes
                and len(self._state) == size
                and self._counter0 == bytes(size)
                and self._counter1 == bytes([1]) + bytes(size - 1)
            ):
                # The usual case, natively: the same blocks as the loop below.
                self._state, fresh = _prng_blocks(self._state, self._TWEAK, blocks)  # noqa: F821
                self._buffer += fresh
            else:
                pieces = [self._buffer]
                for _ in range(blocks):
                    encrypt = threefish(self._state, self._TWEAK).encrypt_block  # noqa: F821
                    self._state = encrypt(self._counter0)
                    pieces.append(encrypt(self._counter1))
                self._buffer = b"".join(pieces)
        out = self._buffer[:n]
        self._buffer = self._buffer[n:]
        return out

    def getrandbits(self, k):
        """An int of `k` random bits. Bits left over from earlier calls come
        first; new bytes are read little-endian."""
        bits = self._bits
        for byte in self.read((k - bits - 1) // 8 + 1):
            self._number |= byte << bits
            bits += 8
        result = self._number & ((1 << k) - 1)
        self._number >>= k
        self._bits = bits - k
        return result

    def random(self):
        """The next float in [0.0, 1.0): 53 random bits."""
        return self.getrandbits(self._BPF) * self._RECIP_BPF

    def getstate(self):
        """The state, for `setstate()`: (state, buffered bytes, leftover
        bits' value, their count, gauss_next), as pyskein has it."""
        return (self._state, self._buffer, self._number, self._bits, self.gauss_next)

    def setstate(self, state):
        """Restore a state from `getstate()`."""
        self._state, self._buffer, self._number, self._bits, self.gauss_next = state

    def __reduce__(self):
        # random.Random pickles as (class, (), getstate()), which loses the
        # hasher: pyskein's unpickled Random of another hasher than skein512
        # then keys Threefish with a state of the wrong size. The default
        # hasher keeps exactly that form; another one is passed along.
        if self._hasher is skein512:  # noqa: F821
            return (type(self), (), self.getstate())
        return (type(self), (None, self._hasher), self.getstate())


class RandomBytes:
    """A stream of pseudo-random bytes from Skein's output (pyskein's
    `skein.RandomBytes`): each `read(n)` hashes the state to `state_size + n`
    bytes, the first `state_size` of which are the next state."""

    def __init__(self, seed, hasher=skein512):  # noqa: F821
        """`seed`: bytes; `hasher`: skein256, skein512 or skein1024."""
        self._hasher = hasher
        self.state_size = hasher().block_size
        self._state = bytes(self.state_size)
        self.seed(seed)

    def seed(self, seed):
        """Hash the bytes `seed` into the state."""
        self._state = self._hasher(self._state + seed).digest()

    def read(self, n):
        """`n` pseudo-random bytes."""
        size = self.state_size
        h = self._hasher(self._state, digest_bits=8 * (size + n))
        self._state = h.digest(0, size)
        return h.digest(size, size + n)


class StreamCipher:
    """The Skein paper's stream cipher (pyskein's `skein.StreamCipher`): the
    keystream is the output of `hasher(key=key, nonce=nonce,
    digest_bits=2**64-1)`, read on from the current position. Each call
    costs as much as its message, wherever the position."""

    DIGEST_BITS = 2**64 - 1

    def __init__(self, key, nonce=b"", hasher=skein512):  # noqa: F821
        self._h = hasher(key=key, nonce=nonce, digest_bits=self.DIGEST_BITS)
        self._pos = 0

    def keystream(self, n):
        """The next `n` bytes of the keystream."""
        end = self._pos + n
        stream = self._h.digest(self._pos, end)
        self._pos = end
        return stream

    def encrypt(self, plain):
        """`plain` (bytes) XOR the next `len(plain)` keystream bytes."""
        n = len(plain)
        stream = self.keystream(n)
        if type(plain) in (bytes, bytearray):
            # Whole-buffer XOR in C; the same bytes as the loop below.
            mixed = int.from_bytes(plain, "little") ^ int.from_bytes(stream, "little")
            return mixed.to_bytes(n, "little")
        try:
            return bytes(x ^ y for x, y in zip(plain, stream))
        except TypeError as e:
            self._pos -= len(plain)
            raise TypeError("argument must be a bytes object") from e

    decrypt = encrypt
