//! Chaining values after the configuration block for plain hashing (no key,
//! no tree) of the common output sizes, computed at compile time.

use crate::ubi::config_chain;

/// The precomputed chaining values, each as a constant, and [`lookup`]
/// over them: one line a state size.
macro_rules! chaining_values {
    ($($words:literal words, $state:literal: $($name:ident = $out:literal),*;)*) => {
        $($(
            #[doc = concat!("Skein-", $state, " with ", $out, "-bit output.")]
            pub(crate) const $name: [u64; $words] = config_chain::<$words>($out, 0, 0, 0);
        )*)*

        /// The precomputed chaining value for a plain hash of `W` words and
        /// `output_bits`, if there is one.
        pub(crate) fn lookup<const W: usize>(output_bits: u64) -> Option<[u64; W]> {
            let words: &[u64] = match (W, output_bits) {
                $($(($words, $out) => &$name,)*)*
                _ => return None,
            };
            words.try_into().ok()
        }
    };
}

chaining_values! {
    4 words, 256: S256_128 = 128, S256_160 = 160, S256_224 = 224, S256_256 = 256;
    8 words, 512: S512_128 = 128, S512_160 = 160, S512_224 = 224, S512_256 = 256,
        S512_384 = 384, S512_512 = 512;
    16 words, 1024: S1024_384 = 384, S1024_512 = 512, S1024_1024 = 1024;
}
