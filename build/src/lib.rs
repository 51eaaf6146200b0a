//! Compile Hindsight specs to Rust monitors from `build.rs`, in the style of
//! prost-build.
//!
//! In `build.rs`:
//!
//! ```no_run
//! hindsight_build::compile(&["specs/door.hind"]).unwrap();
//! ```
//!
//! Each spec `specs/NAME.hind` becomes `$OUT_DIR/NAME.rs` (formatted Rust, see
//! `docs/generated-code.md`), which the crate includes with
//! `hindsight_runtime::include_monitors!("NAME");`. Cargo reruns the build
//! script when a spec changes. A spec with errors prints the full diagnostic
//! (as `hindsight check` would) on the build script's stderr, which cargo shows
//! when the build fails, and returns [`Error::Spec`].

mod error;

pub use error::Error;

use hindsight_compiler::diag::{self, Diag, Severity};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Compiles every spec into `$OUT_DIR` with the default [`Config`].
pub fn compile(specs: &[impl AsRef<Path>]) -> Result<(), Error> {
    Config::new().compile(specs)
}

/// Options for compiling specs; [`Config::compile`] does the work.
#[derive(Clone, Debug, Default)]
pub struct Config {
    out_dir: Option<PathBuf>,
    sealed_stamps: bool,
}

impl Config {
    /// The defaults: output goes to `$OUT_DIR`.
    pub fn new() -> Self {
        Config::default()
    }

    /// Writes the generated files to `dir` instead of `$OUT_DIR`.
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Makes systems' stamps travel sealed: `Stamp::to_bytes` and
    /// `Stamp::from_bytes` take a `hindsight_runtime::stamp::StampKey`, and a
    /// stamp whose HMAC-SHA-256 tag does not check out is refused before it is
    /// decoded (docs/cpl.md, "Threat model").
    pub fn sealed_stamps(&mut self, sealed: bool) -> &mut Self {
        self.sealed_stamps = sealed;
        self
    }

    /// Compiles each spec to `<out dir>/<file stem>.rs` and prints
    /// `cargo:rerun-if-changed` for it. Stops at the first spec that fails,
    /// after printing its diagnostics to stderr; warnings of specs that compile
    /// are passed to cargo as `cargo:warning` lines (notes are not).
    pub fn compile(&self, specs: &[impl AsRef<Path>]) -> Result<(), Error> {
        let out_dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(Error::NoOutDir)?,
        };
        let mut stems = HashSet::new();
        for spec in specs {
            let spec = spec.as_ref();
            println!("cargo:rerun-if-changed={}", spec.display());
            let stem = spec
                .file_stem()
                .and_then(|s| s.to_str())
                .ok_or_else(|| Error::BadFileName(spec.to_path_buf()))?;
            if !stems.insert(stem.to_string()) {
                return Err(Error::SameStem(stem.to_string()));
            }
            let rust = compile_one(spec, self)?;
            let out = out_dir.join(format!("{stem}.rs"));
            std::fs::write(&out, rust).map_err(|source| Error::Io { path: out, source })?;
        }
        Ok(())
    }
}

/// The generated Rust source of one spec file, generated as `config` says.
fn compile_one(spec: &Path, config: &Config) -> Result<String, Error> {
    let source = hindsight_compiler::source::read_spec(spec).map_err(|source| Error::Io {
        path: spec.to_path_buf(),
        source,
    })?;
    let name = spec.display().to_string();
    let spec_error = |diags: Vec<Diag>| {
        let rendered = diag::render(&name, &source, &diags);
        let _ = std::io::stderr().write_all(rendered.as_bytes());
        Error::Spec {
            path: spec.to_path_buf(),
            errors: diags
                .iter()
                .filter(|d| d.severity >= Severity::Error)
                .count(),
        }
    };
    let compiled = hindsight_compiler::compile(&source).map_err(spec_error)?;
    // Notes (e.g. "decided only at the end of the trace") are information for
    // `hindsight check` users, not something a build should warn about.
    let warnings: Vec<_> = compiled
        .warnings
        .iter()
        .filter(|d| d.severity >= Severity::Warning)
        .cloned()
        .collect();
    for line in diag::render(&name, &source, &warnings).lines() {
        println!("cargo:warning={line}");
    }
    let options = hindsight_codegen::Options {
        sealed_stamps: config.sealed_stamps,
        ..Default::default()
    };
    hindsight_codegen::generate_source_with(&compiled.program, &options).map_err(spec_error)
}
