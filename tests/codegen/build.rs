//! Generates the code of every example spec (`examples/**/*.hind`) and of the
//! hand-written specs in `specs/` into `OUT_DIR`, plus `cases.rs`: one module per
//! spec and the list of every monitor for the tests to run.

use hindsight_compiler::codegen::generate_source;
use hindsight_compiler::compile;
use hindsight_compiler::diag::render;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn hind_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            hind_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "hind") {
            out.push(path);
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    let mut files = Vec::new();
    for dir in [manifest.join("../../examples"), manifest.join("specs")] {
        println!("cargo:rerun-if-changed={}", dir.display());
        hind_files(&dir, &mut files);
    }
    files.sort();
    let mut modules = String::new();
    let mut cases = String::new();
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let source = std::fs::read_to_string(path).expect("readable spec");
        // The path below `examples/` or `specs/`, so specs with the same file
        // name in different directories get different modules.
        let relative = path.with_extension("");
        let relative = [manifest.join("../../examples"), manifest.join("specs")]
            .iter()
            .find_map(|dir| relative.strip_prefix(dir).ok())
            .unwrap_or(&relative)
            .to_string_lossy()
            .to_string();
        let module: String = relative
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let name = path.display().to_string();
        let compiled =
            compile(&source).unwrap_or_else(|d| panic!("{}", render(&name, &source, &d)));
        let code =
            generate_source(&compiled).unwrap_or_else(|d| panic!("{}", render(&name, &source, &d)));
        let file = out_dir.join(format!("{module}.rs"));
        std::fs::write(&file, code).expect("writable OUT_DIR");
        writeln!(
            modules,
            "/// Spec `{name}`.\npub mod {module} {{ include!({file:?}); }}",
            file = file.display().to_string()
        )
        .unwrap();
        for table in &compiled.tables {
            let monitor = format!("{module}::r#{}", table.name);
            writeln!(
                cases,
                "    Case {{ spec: {name:?}, source: include_str!({name:?}), \
                 schema: &{monitor}::SCHEMA, new: || Box::new({monitor}::Monitor::new()) }},"
            )
            .unwrap();
        }
    }
    let text = format!(
        "{modules}\n/// Every monitor of every spec.\npub const CASES: &[Case] = &[\n{cases}];\n"
    );
    std::fs::write(out_dir.join("cases.rs"), text).expect("writable OUT_DIR");
}
