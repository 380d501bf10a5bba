//! Threefish against the Skein team's known answers (skein_golden_kat_internals.txt,
//! as republished in Crypto++'s TestVectors/threefish.txt), and round trips.
use skein_simd::{Threefish, Threefish1024, Threefish256, Threefish512};

fn bytes(words: &[u64]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Key words 0x1716151413121110, 0x1F1E1D1C1B1A1918, ... (bytes 0x10, 0x11, ...).
fn counting_key(words: usize) -> Vec<u8> {
    (0..8 * words).map(|i| 0x10 + i as u8).collect()
}
/// Plaintext bytes 0xFF, 0xFE, ... (words 0xF8F9FAFBFCFDFEFF, ...).
fn falling_block(words: usize) -> Vec<u8> {
    (0..8 * words).map(|i| 0xFF - i as u8).collect()
}
const COUNTING_TWEAK: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

fn check<const W: usize>(key: &[u8], tweak: &[u8; 16], plain: &[u8], expected: &[u64]) {
    let cipher = Threefish::<W>::new(key, tweak);
    let mut block = plain.to_vec();
    cipher.encrypt_block(&mut block);
    assert_eq!(block, bytes(expected), "Threefish-{} encrypt", 64 * W);
    cipher.decrypt_block(&mut block);
    assert_eq!(block, plain, "Threefish-{} decrypt", 64 * W);
}

#[test]
fn threefish256_known_answers() {
    check::<4>(
        &[0; 32],
        &[0; 16],
        &[0; 32],
        &[
            0x94EEEA8B1F2ADA84,
            0xADF103313EAE6670,
            0x952419A1F4B16D53,
            0xD83F13E63C9F6B11,
        ],
    );
    check::<4>(
        &counting_key(4),
        &COUNTING_TWEAK,
        &falling_block(4),
        &[
            0xDF8FEA0EFF91D0E0,
            0xD50AD82EE69281C9,
            0x76F48D58085D869D,
            0xDF975E95B5567065,
        ],
    );
}

#[test]
fn threefish512_known_answers() {
    check::<8>(
        &[0; 64],
        &[0; 16],
        &[0; 64],
        &[
            0xBC2560EFC6BBA2B1,
            0xE3361F162238EB40,
            0xFB8631EE0ABBD175,
            0x7B9479D4C5479ED1,
            0xCFF0356E58F8C27B,
            0xB1B7B08430F0E7F7,
            0xE9A380A56139ABF1,
            0xBE7B6D4AA11EB47E,
        ],
    );
    check::<8>(
        &counting_key(8),
        &COUNTING_TWEAK,
        &falling_block(8),
        &[
            0x2C5AD426964304E3,
            0x9A2436D6D8CA01B4,
            0xDD456DB00E333863,
            0x794725970EB9368B,
            0x043546998D0A2A27,
            0x25A7C918EA204478,
            0x346201A1FEDF11AF,
            0x3DAF1C5C3D672789,
        ],
    );
}

#[test]
fn threefish1024_known_answers() {
    check::<16>(
        &[0; 128],
        &[0; 16],
        &[0; 128],
        &[
            0x04B3053D0A3D5CF0,
            0x0136E0D1C7DD85F7,
            0x067B212F6EA78A5C,
            0x0DA9C10B4C54E1C6,
            0x0F4EC27394CBACF0,
            0x32437F0568EA4FD5,
            0xCFF56D1D7654B49C,
            0xA2D5FB14369B2E7B,
            0x540306B460472E0B,
            0x71C18254BCEA820D,
            0xC36B4068BEAF32C8,
            0xFA4329597A360095,
            0xC4A36C28434A5B9A,
            0xD54331444B1046CF,
            0xDF11834830B2A460,
            0x1E39E8DFE1F7EE4F,
        ],
    );
    check::<16>(
        &counting_key(16),
        &COUNTING_TWEAK,
        &falling_block(16),
        &[
            0xB0C33CD7DB4D65A6,
            0xBC49A85A1077D75D,
            0x6855FCAFEA7293E4,
            0x1C5385AB1B7754D2,
            0x30E4AAFFE780F794,
            0xE1BBEE708CAFD8D5,
            0x9CA837B7423B0F76,
            0xBD1403670D4963B3,
            0x451F2E3CE61EA48A,
            0xB360832F9277D4FB,
            0x0AAFC7A65E12D688,
            0xC8906E79016D05D7,
            0xB316570A15F41333,
            0x74E98A2869F5D50E,
            0x57CE6F9247432BCE,
            0xDE7CDD77215144DE,
        ],
    );
}

fn round_trips<const W: usize>() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x7f15 + W as u64);
    for _ in 0..200 {
        let key: Vec<u8> = (0..8 * W).map(|_| rng.gen()).collect();
        let tweak: [u8; 16] = rng.gen();
        let plain: Vec<u8> = (0..8 * W).map(|_| rng.gen()).collect();
        let cipher = Threefish::<W>::new(&key, &tweak);
        let mut block = plain.clone();
        cipher.encrypt_block(&mut block);
        assert_ne!(block, plain);
        cipher.decrypt_block(&mut block);
        assert_eq!(block, plain);
    }
}

#[test]
fn random_round_trips() {
    round_trips::<4>();
    round_trips::<8>();
    round_trips::<16>();
}

#[test]
fn tweak_changes_ciphertext() {
    let a = Threefish512::new(&[1; 64], &[0; 16]);
    let b = Threefish512::new(&[1; 64], &[1; 16]);
    let (mut x, mut y) = ([9u8; 64], [9u8; 64]);
    a.encrypt_block(&mut x);
    b.encrypt_block(&mut y);
    assert_ne!(x, y);
    let _ = (Threefish256::BLOCK_BYTES, Threefish1024::BLOCK_BYTES);
}

#[test]
#[should_panic(expected = "Threefish key must be 64 bytes")]
fn wrong_key_length_panics() {
    let _ = Threefish512::new(&[0; 32], &[0; 16]);
}
