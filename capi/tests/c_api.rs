//! The C tests, compiled with the `cc` crate's C compiler and linked against
//! this package's `libskein_simd.a` and `libskein_simd.so`, then run on the
//! golden KAT file and pyskein's vectors, with the reference C code compiled
//! in as a peer (crates.io skein-ffi 0.5.0's ext/skein/c_skein.c, brought
//! by `cargo fetch`: only its C source is used, its Rust part needs nightly):
//! tests/c/skein_test.c (the reference API, the NIST API, skein_simd.h) and
//! tests/c/libmd_test.c (FreeBSD libmd's functions), both written against
//! include/ only. 32-bit PowerPC: tools/ci/capi-test.sh.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory with libskein_simd.{a,so} for this test's target and
/// profile. `cargo test` builds no cdylib or staticlib for integration tests
/// (only an rlib can be linked into them, and this package has none: see
/// Cargo.toml), so this runs `cargo build` for them, once per test process.
/// In the test's profile (`dev` for `cargo test`): a release library runs
/// the C programs 20 to 50 times faster, but building this crate alone in
/// release (opt-level 3, thin LTO) takes more CPU time (20 s) than building
/// the unoptimized library with its dependencies (14 s) and running the
/// programs on it (about 1.5 s each), and tools/package/capi-install.sh,
/// which builds it with other arguments, would then build it again in CI.
fn library_dir() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            // The test binary is <target-dir>[/<triple>]/<profile>/deps/c_api-*.
            let exe = std::env::current_exe().unwrap();
            let profile_dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
            let mut target_dir = profile_dir.parent().unwrap().to_path_buf();
            let (target, host) = (env!("SKEIN_CAPI_TARGET"), env!("SKEIN_CAPI_HOST"));
            if target_dir.file_name().is_some_and(|n| n == target) {
                target_dir.pop();
            }
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let mut cmd = Command::new(cargo);
            cmd.args(["build", "-p", "skein-simd-capi", "--target-dir"])
                .arg(&target_dir);
            // Named only when cross-compiling, so that a host build shares
            // the test's build directory.
            let mut dir = target_dir.clone();
            if target != host {
                cmd.args(["--target", target]);
                dir.push(target);
            }
            if profile_dir.file_name().is_some_and(|n| n == "release") {
                cmd.arg("--release");
            }
            let status = cmd
                .current_dir(manifest_dir())
                .status()
                .expect("cargo build");
            assert!(status.success(), "cargo build -p skein-simd-capi failed");
            dir.push(profile_dir.file_name().unwrap());
            for lib in ["libskein_simd.a", "libskein_simd.so"] {
                assert!(
                    dir.join(lib).is_file(),
                    "{} was not built",
                    dir.join(lib).display()
                );
            }
            dir
        })
        .clone()
}

/// `$SKEIN_GOLDEN_KAT`, else `../shared/kat/…` beside the repository, else
/// `.cache/kat/…` in it. Missing is a failure.
pub fn golden_kat() -> PathBuf {
    let repo = manifest_dir().join("..");
    let candidates = [
        std::env::var_os("SKEIN_GOLDEN_KAT").map(PathBuf::from),
        Some(repo.join("../shared/kat/skein_golden_kat.txt")),
        Some(repo.join(".cache/kat/skein_golden_kat.txt")),
    ];
    candidates.into_iter().flatten().find(|p| p.is_file()).unwrap_or_else(|| {
        panic!("the golden KAT file is missing: set SKEIN_GOLDEN_KAT or run tools/ci/fetch-golden-kat.sh")
    })
}

/// skein-ffi 0.5.0's ext/skein directory: `cargo fetch` of a throwaway
/// manifest that depends on it, then `cargo metadata` for where it went.
fn reference_source() -> PathBuf {
    static SOURCE: OnceLock<PathBuf> = OnceLock::new();
    SOURCE.get_or_init(fetch_reference_source).clone()
}

fn fetch_reference_source() -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let dir = std::env::temp_dir().join("skein-capi-reference-peer");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"peer\"\nversion = \"0.0.0\"\nedition = \"2021\"\n[workspace]\n\
         [dependencies]\nskein-ffi = \"=0.5.0\"\n",
    )
    .unwrap();
    std::fs::write(dir.join("src/lib.rs"), "").unwrap();
    let manifest = dir.join("Cargo.toml");
    let fetch = Command::new(&cargo)
        .arg("fetch")
        .arg("--manifest-path")
        .arg(&manifest)
        .status()
        .expect("cargo fetch");
    assert!(
        fetch.success(),
        "cargo fetch of skein-ffi 0.5.0 (the reference C peer) failed"
    );
    let out = Command::new(&cargo)
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(&manifest)
        .output()
        .expect("cargo metadata");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = String::from_utf8(out.stdout).unwrap();
    let manifest = json
        .split("\"manifest_path\":\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .find(|path| path.contains("skein-ffi-0.5.0"))
        .expect("skein-ffi 0.5.0 in the metadata");
    let src = Path::new(manifest).parent().unwrap().join("ext/skein");
    assert!(
        src.join("c_skein.c").is_file(),
        "{} has no c_skein.c",
        src.display()
    );
    src
}

#[derive(Clone, Copy, Debug)]
enum Link {
    Static,
    Dynamic,
}

/// The C test programs: each with tests/c/test_data.c and ref_peer.c.
#[derive(Clone, Copy, Debug)]
enum Program {
    /// skein_test.c: the reference API, the NIST API and skein_simd.h.
    Skein,
    /// libmd_test.c: FreeBSD libmd's functions.
    Libmd,
}

impl Program {
    fn name(self) -> &'static str {
        match self {
            Program::Skein => "skein_test",
            Program::Libmd => "libmd_test",
        }
    }

    /// The first words of the last line of a run that passed:
    /// "<prefix> N passed, 0 failed".
    fn summary(self) -> &'static str {
        match self {
            Program::Skein => "c-api: ",
            Program::Libmd => "libmd: ",
        }
    }
}

/// The C test program, compiled and linked once per test process; its path.
fn build(program: Program, link: Link) -> PathBuf {
    static BUILT: [OnceLock<PathBuf>; 4] = [const { OnceLock::new() }; 4];
    BUILT[program as usize * 2 + link as usize]
        .get_or_init(|| compile(program, link))
        .clone()
}

fn compile(program: Program, link: Link) -> PathBuf {
    let libs = library_dir();
    let out_dir = std::env::temp_dir().join(format!("skein-capi-test-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let compiler = cc::Build::new()
        .target(env!("SKEIN_CAPI_TARGET"))
        .host(env!("SKEIN_CAPI_HOST"))
        .opt_level(2)
        .cargo_metadata(false)
        .warnings(true)
        .get_compiler();
    let c = manifest_dir().join("tests/c");
    let link_args: Vec<String> = match link {
        Link::Static => vec![
            libs.join("libskein_simd.a").display().to_string(),
            "-lpthread".into(),
            "-ldl".into(),
            "-lm".into(),
        ],
        Link::Dynamic => vec![
            format!("-L{}", libs.display()),
            "-lskein_simd".into(),
            format!("-Wl,-rpath,{}", libs.display()),
        ],
    };
    let name = format!("{}_{link:?}", program.name()).to_lowercase();
    let exe = out_dir.join(&name);
    let status = compiler
        .to_command()
        .args(["-std=c99", "-Wall"])
        .arg(format!("-I{}", manifest_dir().join("include").display()))
        .arg(format!("-I{}", c.display()))
        .arg(format!("-I{}", reference_source().display()))
        .arg(c.join(format!("{}.c", program.name())))
        .arg(c.join("test_data.c"))
        .arg(c.join("ref_peer.c"))
        .arg("-o")
        .arg(&exe)
        .args(link_args)
        .status()
        .expect("run the C compiler");
    assert!(status.success(), "compiling {name} failed");
    exe
}

/// Run a C test program; returns its output.
fn run(program: Program, exe: &Path, backend: Option<&str>) -> String {
    let mut cmd = Command::new(exe);
    cmd.arg(golden_kat())
        .arg(manifest_dir().join("../tests/data/pyskein_vectors.txt"));
    match backend {
        Some(b) => cmd.env("SKEIN_SIMD_BACKEND", b),
        None => cmd.env_remove("SKEIN_SIMD_BACKEND"),
    };
    let out = cmd.output().expect("run the C tests");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    println!("{stdout}");
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success(),
        "{} ({backend:?}) failed",
        exe.display()
    );
    let last = stdout.lines().last().unwrap_or_default();
    assert!(
        last.starts_with(program.summary()) && last.ends_with(" passed, 0 failed"),
        "unexpected summary {last:?}"
    );
    stdout
}

/// `program` linked against the static and against the shared library.
fn run_linked_both_ways(program: Program) {
    for link in [Link::Static, Link::Dynamic] {
        run(program, &build(program, link), None);
    }
}

#[test]
fn c_program_linked_statically_and_dynamically() {
    run_linked_both_ways(Program::Skein);
}

/// Every backend this CPU has, forced through SKEIN_SIMD_BACKEND, and seen
/// in use by skein_simd_backend().
#[test]
fn c_program_on_every_backend() {
    let exe = build(Program::Skein, Link::Static);
    for backend in skein_simd::Backend::available() {
        let out = run(Program::Skein, &exe, Some(backend.name()));
        let want = format!("backends {0} / {0} / {0}", backend.name());
        assert!(
            out.contains(&want),
            "{backend}: expected {want:?} in\n{out}"
        );
    }
}

#[test]
fn libmd_program_linked_statically_and_dynamically() {
    run_linked_both_ways(Program::Libmd);
}
