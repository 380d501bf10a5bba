//! Tells the C tests (tests/c_api.rs) which target they build for.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    for var in ["TARGET", "HOST"] {
        println!(
            "cargo:rustc-env=SKEIN_CAPI_{var}={}",
            std::env::var(var).unwrap_or_default()
        );
    }
}
