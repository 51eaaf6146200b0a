//! Generates the Rust code of the random specs of [`seeded::specs`] into
//! `OUT_DIR/random.rs`, and of [`seeded::future_specs`] into `OUT_DIR/future.rs`:
//! one module per spec, their sources, and the `typed_monitors!` list that
//! makes them walkable from the tests.

use std::fmt::Write as _;
use std::path::PathBuf;

use hindsight_codegen::generate_source;
use hindsight_compiler::compile;
use hindsight_compiler::diag::render;

// Public in the library, which shares this file with the build script.
#[allow(unreachable_pub)]
#[path = "src/seeded.rs"]
mod seeded;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/seeded.rs");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));

    let sources: Vec<String> = seeded::specs().iter().map(|s| s.source()).collect();
    write_monitors(&sources, &out_dir.join("random.rs"));
    let sources: Vec<String> = seeded::future_specs().iter().map(|s| s.source()).collect();
    write_monitors(&sources, &out_dir.join("future.rs"));
    let sources: Vec<String> = seeded::timed_specs().iter().map(|s| s.source()).collect();
    write_monitors(&sources, &out_dir.join("timed.rs"));
}

/// Writes to `path` one module `spec_K` with the generated code of each source,
/// the sources as `SOURCES`, and the `typed_monitors!` list over the modules.
fn write_monitors(sources: &[String], path: &std::path::Path) {
    let mut file = String::new();
    for (k, source) in sources.iter().enumerate() {
        let name = format!("random spec {k}");
        let compiled = compile(source).unwrap_or_else(|d| panic!("{}", render(&name, source, &d)));
        let code = generate_source(&compiled.program)
            .unwrap_or_else(|d| panic!("{}", render(&name, source, &d)));
        writeln!(
            file,
            "/// Random spec {k}.\npub mod spec_{k} {{\n{code}\n}}"
        )
        .unwrap();
    }
    writeln!(file, "/// The spec sources, in spec order.").unwrap();
    writeln!(file, "pub const SOURCES: [&str; {}] = [", sources.len()).unwrap();
    for source in sources {
        writeln!(file, "    {source:?},").unwrap();
    }
    writeln!(file, "];").unwrap();
    let specs: Vec<String> = (0..sources.len()).map(|k| format!("spec_{k}")).collect();
    // Timed monitors have the steps' time as an input beyond `INPUTS`: they
    // are driven through `StepMonitor` only.
    let list = if path.ends_with("timed.rs") {
        "step_monitors"
    } else {
        "typed_monitors"
    };
    writeln!(file, "crate::typed::{list}!({});", specs.join(", ")).unwrap();

    std::fs::write(path, file).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
}
