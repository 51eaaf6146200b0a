//! Why compiling specs failed.

use std::fmt;
use std::path::PathBuf;

/// A failure of [`crate::compile`]. Its `Debug` form is its readable message,
/// so `hindsight_build::compile(..).unwrap()` in build.rs fails legibly.
pub enum Error {
    /// A spec has errors; their full diagnostics were printed to stderr.
    Spec {
        /// The spec file.
        path: PathBuf,
        /// How many errors it has.
        errors: usize,
    },
    /// A spec could not be read or its output could not be written.
    Io {
        /// The file concerned.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// Neither `Config::out_dir` nor the `OUT_DIR` variable (set by cargo for
    /// build scripts) gives the output directory.
    NoOutDir,
    /// A spec path has no UTF-8 file stem to name its output after.
    BadFileName(PathBuf),
    /// Two specs have the same file stem and would write the same output file.
    SameStem(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Spec { path, errors } => {
                let plural = if *errors == 1 { "" } else { "s" };
                write!(
                    f,
                    "{} has {errors} error{plural} (diagnostics above)",
                    path.display()
                )
            }
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::NoOutDir => f.write_str(
                "OUT_DIR is not set: call hindsight_build from build.rs or set Config::out_dir",
            ),
            Error::BadFileName(path) => {
                write!(
                    f,
                    "{}: cannot name the output after this file",
                    path.display()
                )
            }
            Error::SameStem(stem) => write!(
                f,
                "two specs are named `{stem}`: each spec's file stem names its output file"
            ),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
