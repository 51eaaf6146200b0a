//! Which traces a run reads: the `--trace` arguments, expanded.
//!
//! Each argument is `-` (standard input, at most once), a file, a directory
//! (its `*.jsonl` files, recursively, in path order) or a glob pattern (its
//! matches, in path order; a pattern is only tried when no file or directory
//! has that name). Arguments keep their order; a file named twice is read
//! once, with a warning.

use crate::run::STDIN_PATH;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The extension of the files a directory contributes.
const TRACE_EXTENSION: &str = "jsonl";

/// One trace to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceSource {
    /// The file, or `-` for standard input.
    pub path: PathBuf,
    /// Its name in output lines and messages (`<stdin>` for standard input).
    pub name: String,
}

impl TraceSource {
    /// The trace at `path` (`-`: standard input).
    pub fn new(path: PathBuf) -> Self {
        let name = if path.as_os_str() == STDIN_PATH {
            "<stdin>".to_string()
        } else {
            path.display().to_string()
        };
        TraceSource { path, name }
    }

    /// Whether the trace is standard input.
    pub fn is_stdin(&self) -> bool {
        self.path.as_os_str() == STDIN_PATH
    }

    /// Whether it is a regular file (not standard input, a pipe or a
    /// device): one whose reads never wait for a writer.
    pub fn is_regular_file(&self) -> bool {
        !self.is_stdin() && std::fs::metadata(&self.path).is_ok_and(|m| m.is_file())
    }
}

/// The traces of a run, and whether their lines carry the trace's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sources {
    /// The traces, in the order they are reported.
    pub traces: Vec<TraceSource>,
    /// Whether output lines name their trace: several arguments, or one
    /// directory or pattern (decided by the command line, not by how many
    /// files matched, so a pipeline sees one shape).
    pub named: bool,
    /// Warnings about the arguments (a file named twice).
    pub warnings: Vec<String>,
}

/// The traces `args` name (see the module documentation); an error for an
/// argument that names nothing or `-` given twice.
pub fn expand(args: &[PathBuf]) -> Result<Sources, String> {
    let mut sources = Sources {
        traces: Vec::new(),
        named: args.len() > 1,
        warnings: Vec::new(),
    };
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let mut add = |sources: &mut Sources, path: PathBuf| {
        if seen.insert(path.clone()) {
            sources.traces.push(TraceSource::new(path));
        } else {
            sources.warnings.push(format!(
                "trace `{}` is named more than once; it is read once",
                path.display()
            ));
        }
    };
    let mut stdin = false;
    for arg in args {
        if arg.as_os_str() == STDIN_PATH {
            if std::mem::replace(&mut stdin, true) {
                return Err("--trace - (standard input) is given more than once".to_string());
            }
            add(&mut sources, arg.clone());
        } else if arg.is_dir() {
            sources.named = true;
            let files = directory_traces(arg)?;
            if files.is_empty() {
                return Err(format!(
                    "--trace `{}` is a directory holding no *.{TRACE_EXTENSION} file",
                    arg.display()
                ));
            }
            for file in files {
                add(&mut sources, file);
            }
        } else if arg.exists() || !is_pattern(arg) {
            // A missing file is reported when it is opened, as one trace's error.
            add(&mut sources, arg.clone());
        } else {
            sources.named = true;
            let files = pattern_traces(arg)?;
            if files.is_empty() {
                return Err(format!("--trace `{}` matches no file", arg.display()));
            }
            for file in files {
                add(&mut sources, file);
            }
        }
    }
    Ok(sources)
}

/// Whether `arg` holds glob metacharacters.
fn is_pattern(arg: &Path) -> bool {
    arg.to_string_lossy().contains(['*', '?', '['])
}

/// The `*.jsonl` files under `dir`, recursively, in path order (symbolic
/// links followed, loops refused).
fn directory_traces(dir: &Path) -> Result<Vec<PathBuf>, String> {
    files_under(dir, TRACE_EXTENSION)
}

/// The files named `*.EXTENSION` under `dir`, recursively, in path order
/// (symbolic links followed, loops refused): a directory's traces, or its
/// specs for `hindsight fmt`.
pub fn files_under(dir: &Path, extension: &str) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
    {
        let entry = entry.map_err(|e| format!("cannot read directory `{}`: {e}", dir.display()))?;
        let path = entry.path();
        if entry.file_type().is_file() && path.extension().is_some_and(|e| e == extension) {
            files.push(path.to_path_buf());
        }
    }
    Ok(files)
}

/// The files `pattern` matches, in path order; a matched directory gives
/// its traces as a directory argument does.
fn pattern_traces(pattern: &Path) -> Result<Vec<PathBuf>, String> {
    let text = pattern.to_string_lossy();
    let paths =
        glob::glob(&text).map_err(|e| format!("--trace `{text}` is not a valid pattern: {e}"))?;
    let mut files = Vec::new();
    for path in paths {
        let path = path.map_err(|e| format!("--trace `{text}`: {e}"))?;
        if path.is_dir() {
            files.extend(directory_traces(&path)?);
        } else {
            files.push(path);
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::{expand, TraceSource};
    use std::fs;
    use std::path::PathBuf;

    fn names(args: &[PathBuf]) -> Result<(Vec<String>, bool), String> {
        expand(args).map(|s| (s.traces.into_iter().map(|t| t.name).collect(), s.named))
    }

    #[test]
    fn directories_patterns_and_files_expand_in_path_order() {
        let dir = std::env::temp_dir().join(format!("hindsight-sources-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        for file in ["b.jsonl", "a.jsonl", "sub/c.jsonl", "notes.txt"] {
            let path = dir.join(file);
            fs::create_dir_all(path.parent().unwrap_or(&dir)).ok();
            fs::write(&path, "{}\n").ok();
        }
        let d = |f: &str| dir.join(f).display().to_string();
        assert_eq!(
            names(std::slice::from_ref(&dir)),
            Ok((vec![d("a.jsonl"), d("b.jsonl"), d("sub/c.jsonl")], true))
        );
        assert_eq!(
            names(&[dir.join("*.jsonl")]),
            Ok((vec![d("a.jsonl"), d("b.jsonl")], true))
        );
        // One file: unnamed lines; the same file twice: read once.
        assert_eq!(
            names(&[dir.join("b.jsonl")]),
            Ok((vec![d("b.jsonl")], false))
        );
        let twice = expand(&[dir.join("b.jsonl"), dir.join("b.jsonl")]);
        assert_eq!(twice.as_ref().map(|s| s.traces.len()), Ok(1));
        assert_eq!(twice.map(|s| s.warnings.len()), Ok(1));
        // A pattern matching nothing and an empty directory are errors; a
        // missing plain file is left for opening to report.
        assert!(names(&[dir.join("*.json")]).is_err_and(|e| e.contains("matches no file")));
        fs::create_dir_all(dir.join("empty")).ok();
        assert!(names(&[dir.join("empty")]).is_err_and(|e| e.contains("no *.jsonl")));
        assert_eq!(
            names(&[dir.join("missing.jsonl")]),
            Ok((vec![d("missing.jsonl")], false))
        );
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn standard_input_is_allowed_once() {
        assert_eq!(
            names(&[PathBuf::from("-")]),
            Ok((vec!["<stdin>".to_string()], false))
        );
        assert!(names(&[PathBuf::from("-"), PathBuf::from("-")]).is_err());
        assert!(TraceSource::new(PathBuf::from("-")).is_stdin());
    }
}
