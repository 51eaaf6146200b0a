//! Embeds the sources of the crates a standalone monitor needs (the runtime
//! and the trace I/O) so that `hindsight build` can vendor them into the
//! projects it generates. The file list is made here by walking the crates'
//! `src/` directories, so it can never go stale.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs, io};

/// The vendored crates: the constant naming their files, and their directory
/// relative to this crate.
const CRATES: [(&str, &str); 3] = [
    ("RUNTIME_SOURCES", "../runtime"),
    ("STUB_SOURCES", "../runtime/stub"),
    ("TRACE_SOURCES", "../trace"),
];

fn main() -> io::Result<()> {
    let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let mut out = String::new();
    for (constant, dir) in CRATES {
        let root = manifest_dir.join(dir);
        let src = root.join("src");
        println!("cargo:rerun-if-changed={}", src.display());
        let mut files = Vec::new();
        collect_rust_files(&src, &mut files)?;
        files.sort();
        let _ = writeln!(
            out,
            "/// The sources of `{dir}`: path relative to the crate root, text.\n\
             pub const {constant}: &[(&str, &str)] = &["
        );
        for file in files {
            let relative = file
                .strip_prefix(&root)
                .map_err(io::Error::other)?
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            let absolute = file.display().to_string();
            let _ = writeln!(out, "    ({relative:?}, include_str!({absolute:?})),");
        }
        out.push_str("];\n");
    }
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").unwrap_or_default());
    fs::write(out_dir.join("vendored_sources.rs"), out)
}

/// Every `.rs` file under `dir`, recursively.
fn collect_rust_files(dir: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_rust_files(&path, files)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    Ok(())
}
