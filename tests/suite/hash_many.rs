//! `hash_many` / `SkeinMany` against one-message-at-a-time hashing, on every
//! multi-lane kernel this machine runs, and against the RustCrypto `skein`
//! crate for plain Skein-512-256.

use rand::{Rng, SeedableRng};
use skein_simd::{Backend, LaneForm, Params, Platform, Skein, SkeinMany, TreeParams};

/// Every lane kernel form here: backend, and form (`Backend::lane_forms`).
pub(crate) fn lane_backends() -> Vec<(Backend, LaneForm)> {
    let list: Vec<(Backend, LaneForm)> = Backend::ALL
        .iter()
        .copied()
        .flat_map(|b| b.lane_forms().iter().map(move |&f| (b, f)))
        .collect();
    assert!(list.contains(&(Backend::Portable, LaneForm::OneGroup)));
    list
}

/// One message at a time, on the portable single-stream backend.
fn one_by_one<const W: usize>(params: &Params, messages: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let params = params.backend(Backend::Portable);
    messages
        .iter()
        .map(|m| {
            let mut h = Skein::<W>::with_params(&params).unwrap();
            h.update(m);
            h.finalize_vec()
        })
        .collect()
}

fn params_have_tree(params: &Params) -> bool {
    format!("{params:?}").contains("tree: Some")
}

fn check<const W: usize>(params: &Params, messages: &[Vec<u8>], what: &str) {
    let want = one_by_one::<W>(params, messages);
    for (backend, form) in lane_backends() {
        if params_have_tree(params) && !backend.is_available() {
            // Tree messages go through `Skein` on the single-stream backend.
            continue;
        }
        let many = Platform::with_lane_form(form, || {
            SkeinMany::<W>::with_params(&params.backend(backend)).unwrap()
        });
        assert_eq!(many.backend(), backend);
        let got = many.hash_many_vec(messages);
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(
                g,
                w,
                "Skein-{} {what}: message {i} of {} (len {}) on {backend} x{}",
                64 * W,
                messages.len(),
                messages[i].len(),
                many.lanes()
            );
        }
    }
}

fn random_messages(rng: &mut impl Rng, count: usize, max_len: usize) -> Vec<Vec<u8>> {
    (0..count)
        .map(|_| {
            let len = rng.gen_range(0..=max_len);
            random_bytes(rng, len)
        })
        .collect()
}

fn random_bytes(rng: &mut impl Rng, len: usize) -> Vec<u8> {
    (0..len).map(|_| rng.gen()).collect()
}

fn all_sizes(params: &Params, messages: &[Vec<u8>], what: &str) {
    check::<4>(params, messages, what);
    check::<8>(params, messages, what);
    check::<16>(params, messages, what);
}

#[test]
fn every_length_0_to_600_in_one_batch() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let messages: Vec<_> = (0..=600).map(|len| random_bytes(&mut rng, len)).collect();
    all_sizes(&Params::new(), &messages, "lengths 0..=600");
}

#[test]
fn mixed_lengths_random_batches() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(2);
    for round in 0..20 {
        let count = rng.gen_range(0..40);
        let max_len = if round % 4 == 0 { 5000 } else { 300 };
        let messages = random_messages(&mut rng, count, max_len);
        all_sizes(&Params::new(), &messages, "random batch");
    }
}

#[test]
fn equal_lengths_every_batch_size() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    for count in 1..=17 {
        for len in [0usize, 1, 31, 32, 33, 64, 127, 128, 129, 1024] {
            let messages: Vec<_> = (0..count).map(|_| random_bytes(&mut rng, len)).collect();
            all_sizes(&Params::new(), &messages, "equal lengths");
        }
    }
}

/// Whole lane groups of every length 0..=600, each message at an odd
/// offset of one buffer, on every lane kernel form against the portable
/// single-stream backend: every last block of the equal-length path, the
/// whole ones and the 16-byte ones read in place (a header's tail, an
/// 80-byte message), the shorter ones zero-padded.
#[test]
fn equal_lengths_0_to_600_at_unaligned_offsets() {
    fn lengths<const W: usize>(rng: &mut impl Rng) {
        // 17 messages: two groups of 8, four of 4 or 2, three of 5, and
        // leftovers for every form.
        let count = 17;
        let params = Params::new().output_bits(8 * 8 * W as u64);
        let forms: Vec<_> = lane_backends()
            .into_iter()
            .map(|(backend, form)| {
                Platform::with_lane_form(form, || {
                    SkeinMany::<W>::with_params(&params.backend(backend)).unwrap()
                })
            })
            .collect();
        let reference = Skein::<W>::with_params(&params.backend(Backend::Portable)).unwrap();
        for len in 0..=600 {
            let buffer = random_bytes(rng, count * (len + 1) + 1);
            let messages: Vec<&[u8]> = (0..count)
                .map(|i| &buffer[1 + i * (len + 1)..][..len])
                .collect();
            let want: Vec<Vec<u8>> = messages
                .iter()
                .map(|m| {
                    let mut h = reference.clone();
                    h.update(m);
                    h.finalize_vec()
                })
                .collect();
            for many in &forms {
                let got = many.hash_many_vec(&messages);
                for (i, w) in want.iter().enumerate() {
                    assert_eq!(
                        &got[i],
                        w,
                        "Skein-{} equal lengths {len}: message {i} on {} x{}",
                        64 * W,
                        many.backend(),
                        many.lanes()
                    );
                }
            }
        }
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(10);
    lengths::<4>(&mut rng);
    lengths::<8>(&mut rng);
    lengths::<16>(&mut rng);
}

/// Batches in which whole lane groups share one length (each group's
/// message and output stage run in a few kernel calls): lengths around
/// every block boundary up to four blocks and past that, batch sizes that
/// are and are not multiples of every lane count, such groups amid other
/// lengths in random order, and outputs of one byte, one block and more
/// than one block (partial last word and byte).
#[test]
fn equal_short_lengths_in_whole_lane_groups() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(9);
    fn sizes<const W: usize>(rng: &mut impl Rng) {
        let block = 8 * W;
        let mut lens: Vec<usize> = (0..=4)
            .flat_map(|k| [k * block, k * block + 1, (k * block).saturating_sub(1)])
            .chain([3 * block + 5, 4 * block + 1])
            .collect();
        lens.sort_unstable();
        lens.dedup();
        // One block; one byte; two blocks, a word and a partial one.
        let outputs = [8 * block as u64, 3, 8 * (2 * block as u64 + 13) - 5];
        for (n, &len) in lens.iter().enumerate() {
            let params = Params::new().output_bits(outputs[n % 3]);
            for count in [1, 3, 4, 5, 8, 9, 17] {
                let messages: Vec<_> = (0..count).map(|_| random_bytes(rng, len)).collect();
                check::<W>(&params, &messages, "equal short lengths");
            }
            // Two lengths' groups and odd lengths, shuffled.
            let mut messages: Vec<_> = (0..19).map(|_| random_bytes(rng, len)).collect();
            messages.extend((0..17).map(|_| random_bytes(rng, lens[(n + 5) % lens.len()])));
            messages.extend((0..6).map(|_| {
                let len = rng.gen_range(0..5 * block);
                random_bytes(rng, len)
            }));
            for i in (1..messages.len()).rev() {
                messages.swap(i, rng.gen_range(0..=i));
            }
            check::<W>(&params, &messages, "equal short lengths amid others");
        }
    }
    sizes::<4>(&mut rng);
    sizes::<8>(&mut rng);
    sizes::<16>(&mut rng);
}

#[test]
fn every_argument_and_long_outputs() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(4);
    let messages = random_messages(&mut rng, 21, 700);
    let key = [0x5au8; 32];
    let long_key = [0xa5u8; 300];
    let cases = [
        Params::new().output_bits(256).key(&key),
        Params::new()
            .output_bits(160)
            .key(&long_key)
            .personalization(b"20261130 me@example.org app"),
        Params::new()
            .output_bits(2056)
            .nonce(b"nonce")
            .public_key(b"pk")
            .key_id(b"id")
            .key(&key),
        Params::new().output_bits(1),
        Params::new().output_bits(1025),
        Params::new().output_bits(4096),
    ];
    for params in &cases {
        all_sizes(params, &messages, "with arguments");
    }
}

#[test]
fn tree_parameters_hash_each_message_as_a_tree() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let messages = random_messages(&mut rng, 9, 3000);
    let params = Params::new()
        .output_bits(384)
        .tree(TreeParams::new(1, 2, 3).unwrap());
    all_sizes(&params, &messages, "tree");
}

#[test]
fn zfs_style_keyed_large_blocks_and_one_call_forms() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(6);
    let salt: [u8; 32] = rng.gen();
    let params = Params::new().output_bits(256).key(&salt);
    let messages: Vec<Vec<u8>> = (0..11)
        .map(|_| (0..128 * 1024).map(|_| rng.gen()).collect())
        .collect();
    let want = one_by_one::<8>(&params, &messages);
    let mut flat = vec![0u8; messages.len() * 32];
    SkeinMany::<8>::with_params(&params)
        .unwrap()
        .hash_many_into(&messages, &mut flat);
    for (i, w) in want.iter().enumerate() {
        assert_eq!(&flat[32 * i..32 * (i + 1)], &w[..], "block {i}");
    }
    assert_eq!(
        SkeinMany::<8>::with_params(&params)
            .unwrap()
            .hash_many_vec(&messages),
        want
    );
    check::<8>(&params, &messages, "ZFS 128 KiB keyed");
}

#[test]
fn plain_skein512_256_matches_rustcrypto() {
    use skein::digest::Digest;
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let messages = random_messages(&mut rng, 50, 2000);
    for (backend, form) in lane_backends() {
        let many = Platform::with_lane_form(form, || {
            SkeinMany::<8>::with_params(&Params::new().output_bits(256).backend(backend)).unwrap()
        });
        for (m, got) in messages.iter().zip(many.hash_many_vec(&messages)) {
            assert_eq!(
                got,
                skein::Skein512::<skein::consts::U32>::digest(m).to_vec(),
                "{backend} in {form:?}"
            );
        }
    }
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "threads: wasm32-wasip1 has none (spawning one fails as Unsupported)"
)]
fn thread_count_does_not_change_results() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(8);
    // Large enough in total to be split across threads.
    let mut messages = random_messages(&mut rng, 150, 6000);
    messages.extend((0..20).map(|_| vec![rng.gen::<u8>(); 20_000]));
    let params = Params::new().output_bits(512).key(b"k");
    let want = one_by_one::<8>(&params, &messages);
    for threads in [1, 2, 3, 8] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let got = pool.install(|| {
            SkeinMany::<8>::with_params(&params)
                .unwrap()
                .hash_many_vec(&messages)
        });
        assert_eq!(got, want, "{threads} threads");
    }
}

#[test]
#[cfg_attr(
    panic = "abort",
    ignore = "catch_unwind: with panic=abort (wasm32-wasip1) the panic ends the process"
)]
fn wrong_output_buffer_panics_and_bad_params_are_errors() {
    assert!(SkeinMany::<8>::with_params(&Params::new().output_bits(0)).is_err());
    let result = std::panic::catch_unwind(|| {
        let mut out = [0u8; 63];
        SkeinMany::<8>::with_params(&Params::new())
            .unwrap()
            .hash_many_into(&[b"x"], &mut out);
    });
    assert!(result.is_err());
    // No messages: nothing to do, nothing written.
    let mut none: [u8; 0] = [];
    SkeinMany::<4>::with_params(&Params::new())
        .unwrap()
        .hash_many_into::<&[u8]>(&[], &mut none);
}

/// No messages: nothing to compute, whatever the output length. (The output
/// stage must not walk the output blocks of zero digests: 2^64 - 1 bits
/// would never end.) Runs on a thread, so a regression fails on time; on
/// WebAssembly, which has no threads, on the test's own (a regression hangs
/// until the CI step's timeout).
#[test]
fn no_messages_return_at_once_whatever_the_output_length() {
    if cfg!(target_family = "wasm") {
        hash_no_messages();
        return;
    }
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        hash_no_messages();
        done.send(()).unwrap();
    });
    finished
        .recv_timeout(std::time::Duration::from_secs(20))
        .expect("hash_many of no messages did not return within 20 s");
}

fn hash_no_messages() {
    for (backend, _) in lane_backends() {
        for bits in [1u64 << 40, u64::MAX] {
            let params = Params::new().output_bits(bits).backend(backend);
            let none: [&[u8]; 0] = [];
            SkeinMany::<4>::with_params(&params)
                .unwrap()
                .hash_many_into(&none, &mut []);
            SkeinMany::<8>::with_params(&params)
                .unwrap()
                .hash_many_into(&none, &mut []);
            assert!(SkeinMany::<16>::with_params(&params)
                .unwrap()
                .hash_many_vec(&none)
                .is_empty());
        }
    }
}

/// A forced backend means the same in `SkeinMany` as in `Platform::force`:
/// its instruction set's multi-lane kernel, or the portable one when it has
/// none (the single-stream-only `asm` included), and the same digests.
#[test]
fn forced_backend_follows_the_platform_rule() {
    let messages: Vec<Vec<u8>> = (0..20u8).map(|i| vec![i; 100 * i as usize]).collect();
    let want = one_by_one::<8>(&Params::new(), &messages);
    for backend in Backend::ALL.iter().copied().filter(|b| b.is_available()) {
        let params = Params::new().backend(backend);
        let many = SkeinMany::<8>::with_params(&params)
            .unwrap_or_else(|e| panic!("SkeinMany with {backend} forced: {e}"));
        let lanes_of = if backend.lanes().is_some() {
            backend
        } else {
            Backend::Portable
        };
        assert_eq!(many.backend(), lanes_of, "forced {backend}");
        assert_eq!(many.hash_many_vec(&messages), want, "forced {backend}");
    }
    for backend in Backend::ALL.iter().copied().filter(|b| !b.is_available()) {
        assert!(SkeinMany::<8>::with_params(&Params::new().backend(backend)).is_err());
    }
}

/// The form a batch of one length runs (`SkeinMany::lane_form_for_length`,
/// the test hook the benchmarks label their rows with): past two blocks the
/// form of runs of blocks (`lane_form`), with a form forced the same form
/// at every length (the forced one, or where the instruction set lacks it
/// at this width, the one `lane_form` falls back to), and always one of the
/// instruction set's forms.
#[test]
fn lane_form_for_length_names_a_form_of_the_kernel() {
    for backend in Backend::ALL.iter().copied().filter(|b| b.is_available()) {
        let params = Params::new().backend(backend);
        let many = SkeinMany::<8>::with_params(&params).unwrap();
        let forms = many.backend().lane_forms();
        for bytes in [0, 64, 80, 128, 129, 4096, usize::MAX] {
            let form = many.lane_form_for_length(bytes);
            assert!(forms.contains(&form), "{backend} at {bytes}: {form:?}");
            if bytes > 128 {
                assert_eq!(form, many.lane_form(), "{backend} at {bytes}");
            }
        }
        for &forced in forms {
            let many =
                Platform::with_lane_form(forced, || SkeinMany::<8>::with_params(&params).unwrap());
            for bytes in [64, 80, 4096] {
                let form = many.lane_form_for_length(bytes);
                assert_eq!(
                    form,
                    many.lane_form(),
                    "{backend} forced {forced:?} at {bytes}"
                );
            }
        }
    }
}
