//! `hindsight build SPEC -o PATH [--block NAME] [--dir DIR]`: generates a Cargo
//! project for one block of the spec (monitor, system or population) (see [`crate::project`]), builds it in
//! release mode offline, and copies the binary to PATH.

use crate::compile::{compile_block, Block};
use crate::project::{binary_path, Project};
use crate::report;
use hindsight_codegen::generate_source;
use hindsight_trace::standalone::Block as Kind;
use hindsight_trace::{EXIT_ERROR, EXIT_OK};
use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{SystemTime, UNIX_EPOCH};

/// What `hindsight build` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// The spec file.
    pub spec: PathBuf,
    /// Where to put the binary.
    pub output: PathBuf,
    /// The block to build (monitor, system or population); `None` when the
    /// spec has exactly one block.
    pub block: Option<String>,
    /// Where to generate the project (kept); a temporary directory otherwise.
    pub dir: Option<PathBuf>,
}

/// Cargo messages that mean a dependency is not in the local cargo cache.
const MISSING_CRATE_SIGNS: [&str; 3] = [
    "no matching package",
    "failed to select a version",
    "attempting to make an HTTP request, but --offline",
];

/// Runs the command; returns the process exit status.
pub fn run(options: &BuildOptions) -> u8 {
    let spec_name = options.spec.display().to_string();
    let Ok(selected) = compile_block(&options.spec, &spec_name, options.block.as_deref()) else {
        return EXIT_ERROR;
    };
    let (name, kind) = match selected.block {
        Block::Monitor(_) => (selected.table().map(|t| &t.name), Kind::Monitor),
        Block::System(_) => (selected.system().map(|s| &s.name), Kind::System),
        Block::Population(_) => (selected.population().map(|p| &p.name), Kind::Population),
    };
    let Some(name) = name else {
        return EXIT_ERROR;
    };
    let monitor_source = match generate_source(&selected.compiled.program) {
        Ok(source) => source,
        Err(diags) => {
            report::diagnostics(&spec_name, &selected.source, &diags);
            return EXIT_ERROR;
        }
    };
    let spec_file = options
        .spec
        .file_name()
        .unwrap_or_default()
        .to_string_lossy();
    let project = Project {
        spec_file: &spec_file,
        monitor: name,
        kind,
        monitor_source: &monitor_source,
    };
    let (dir, temporary) = match &options.dir {
        Some(dir) => (dir.clone(), false),
        None => match temporary_dir() {
            Ok(dir) => (dir, true),
            Err(e) => {
                report::error(format_args!("cannot create a temporary directory: {e}"));
                return EXIT_ERROR;
            }
        },
    };
    if let Err(e) = project.write(&dir) {
        report::error(format_args!(
            "cannot write the project in `{}`: {e}",
            dir.display()
        ));
        return EXIT_ERROR;
    }
    report::line(format_args!(
        "building {} `{name}` of {spec_name} (cargo build --release --offline in {})",
        kind_name(kind),
        dir.display()
    ));
    let status = build_and_copy(&dir, &options.output);
    if status == EXIT_OK {
        if temporary {
            // Only disk space is lost if this fails.
            let _ = fs::remove_dir_all(&dir);
        }
        report::line(format_args!("built {}", options.output.display()));
    } else if temporary {
        report::line(format_args!(
            "note: the generated project is kept in {}",
            dir.display()
        ));
    }
    status
}

/// The block kind's keyword, for messages.
fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Monitor => "monitor",
        Kind::System => "system",
        Kind::Population => "population",
    }
}

/// Builds the project in `dir` and copies its binary to `output`.
fn build_and_copy(dir: &Path, output: &Path) -> u8 {
    let target_dir = dir.join("target");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let result = Command::new(&cargo)
        .args([
            "build",
            "--release",
            "--offline",
            "--quiet",
            "--manifest-path",
        ])
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        .output();
    match result {
        Ok(out) if out.status.success() => {}
        Ok(out) => {
            report_cargo_failure(&out);
            return EXIT_ERROR;
        }
        Err(e) => {
            report::error(format_args!(
                "cannot run `{}`: {e} (building a standalone monitor needs a Rust toolchain)",
                cargo.to_string_lossy()
            ));
            return EXIT_ERROR;
        }
    }
    let binary = binary_path(&target_dir);
    if let Err(e) = fs::copy(&binary, output) {
        report::error(format_args!(
            "cannot copy the monitor `{}` to `{}`: {e}",
            binary.display(),
            output.display()
        ));
        return EXIT_ERROR;
    }
    EXIT_OK
}

/// Reports a failed cargo build: its output, and what to do when a crate is
/// missing from the local cache.
fn report_cargo_failure(out: &Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    report::error(format_args!(
        "cargo could not build the standalone monitor ({}); its output:\n{}{}",
        out.status,
        stdout,
        stderr.trim_end()
    ));
    if MISSING_CRATE_SIGNS.iter().any(|sign| stderr.contains(sign)) {
        report::line(
            "note: building offline needs the crates serde 1, serde_json 1, strsim 0.11, jiff 1, \
             walkdir 2, glob 0.3, tempfile 3, memchr 2, hmac 0.12 and sha2 0.10 (and their dependencies) in the local cargo cache; with network \
             access, run `cargo fetch` in the generated project, then build again",
        );
    }
}

/// A fresh directory for a project that is removed after a successful build:
/// created here (never one that already exists, which someone else could have
/// prepared), readable by its owner only.
fn temporary_dir() -> io::Result<PathBuf> {
    let mut last = None;
    for attempt in 0..100u32 {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!(
            "hindsight-build-{}-{nanos}-{attempt}",
            std::process::id()
        ));
        let mut builder = fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        match builder.create(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free name")))
}
