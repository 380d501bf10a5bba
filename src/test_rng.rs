//! Seeded pseudo-random inputs for the checks of the crate's internals
//! (`internal_checks`): Threefish-512 in counter mode under a key made
//! from the seed, so that the checks need no random-number crate (the
//! library cannot depend on one only while testing). The inputs only have
//! to vary; the checks compare two computations of the same thing.

use crate::Threefish512;
use core::ops::{Range, RangeInclusive};

/// A stream of pseudo-random words from a seed.
pub(crate) struct TestRng {
    cipher: Threefish512,
    counter: u64,
    block: [u8; 64],
    used: usize,
}

impl TestRng {
    pub(crate) fn seed_from_u64(seed: u64) -> Self {
        let mut key = [0u8; 64];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        TestRng {
            cipher: Threefish512::new(&key, &[0; 16]),
            counter: 0,
            block: [0; 64],
            used: 64,
        }
    }

    fn next_u64(&mut self) -> u64 {
        if self.used == 64 {
            self.block = [0; 64];
            self.block[..8].copy_from_slice(&self.counter.to_le_bytes());
            self.cipher.encrypt_block(&mut self.block);
            self.counter += 1;
            self.used = 0;
        }
        let word = u64::from_le_bytes(self.block[self.used..self.used + 8].try_into().unwrap());
        self.used += 8;
        word
    }

    /// A value of `T` (every value about equally likely).
    pub(crate) fn gen<T: FromWord>(&mut self) -> T {
        T::from_word(self.next_u64())
    }

    /// A value in `range` (nearly uniform: the ranges are small).
    pub(crate) fn gen_range<T: FromWord, R: Bounds<T>>(&mut self, range: R) -> T {
        let (low, span) = range.low_and_span();
        T::from_word(low.wrapping_add(self.next_u64() % span))
    }
}

/// What [`TestRng::gen`] makes from a word.
pub(crate) trait FromWord: Copy {
    fn from_word(word: u64) -> Self;
    fn to_word(self) -> u64;
}

macro_rules! from_word {
    ($($t:ty),*) => {$(
        impl FromWord for $t {
            fn from_word(word: u64) -> Self {
                word as $t
            }
            fn to_word(self) -> u64 {
                self as u64
            }
        }
    )*};
}
from_word!(u8, u32, u64, usize, i32);

impl FromWord for bool {
    fn from_word(word: u64) -> Self {
        word & 1 == 1
    }
    fn to_word(self) -> u64 {
        self as u64
    }
}

/// The ranges [`TestRng::gen_range`] takes: the low end and the count of
/// values, as words.
pub(crate) trait Bounds<T> {
    fn low_and_span(self) -> (u64, u64);
}

impl<T: FromWord> Bounds<T> for Range<T> {
    fn low_and_span(self) -> (u64, u64) {
        let (low, high) = (self.start.to_word(), self.end.to_word());
        assert!(high > low, "an empty range");
        (low, high - low)
    }
}

impl<T: FromWord> Bounds<T> for RangeInclusive<T> {
    fn low_and_span(self) -> (u64, u64) {
        let (low, high) = (self.start().to_word(), self.end().to_word());
        assert!(high >= low, "an empty range");
        (low, high - low + 1)
    }
}
