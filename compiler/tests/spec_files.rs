//! Finding every spec file (`*.hind`) below some directories. The example
//! snapshots of this crate and of the code generator, and the build script of
//! `tests/codegen`, all walk the same trees: they include this file with
//! `#[path]` rather than each keeping a copy of the walk.

use std::path::{Path, PathBuf};

/// Every `.hind` file below `dirs`, at any depth, sorted (a directory that
/// cannot be read contributes none).
pub(crate) fn hind_files<P: AsRef<Path>>(dirs: &[P]) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "hind") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    for dir in dirs {
        walk(dir.as_ref(), &mut files);
    }
    files.sort();
    files
}
