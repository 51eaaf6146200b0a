//! `hindsight fmt`: specs laid out canonically ([`hindsight_grammar::format`]),
//! rewritten in place or, with `--check`, only named.

use std::path::PathBuf;

use hindsight_trace::audit::sources::files_under;

use hindsight_trace::EXIT_ERROR;

use crate::compile::read_spec;
use crate::report;

/// What `hindsight fmt` was asked.
#[derive(Clone, Debug)]
pub struct FmtOptions {
    /// Spec files, and directories searched for `*.hind` files.
    pub paths: Vec<PathBuf>,
    /// Name the files that are not formatted instead of rewriting them.
    pub check: bool,
}

/// Runs `hindsight fmt`: 0 when every spec is (now) formatted, 1 when
/// `--check` found one that is not, 2 when a spec could not be read, parsed
/// or written (the others are still formatted).
pub fn run(options: &FmtOptions) -> u8 {
    let (mut failed, mut unformatted) = (false, false);
    let mut files = Vec::new();
    for path in &options.paths {
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        match files_under(path, "hind") {
            Ok(specs) => files.extend(specs),
            Err(why) => {
                report::error(format_args!("{why}"));
                failed = true;
            }
        }
    }
    for file in files {
        let name = file.display().to_string();
        let Ok(source) = read_spec(&file, &name) else {
            failed = true;
            continue;
        };
        let formatted = match hindsight_grammar::format(&source) {
            Ok(formatted) => formatted,
            Err(diags) => {
                report::diagnostics(&name, &source, &diags);
                failed = true;
                continue;
            }
        };
        if formatted == source {
            continue;
        }
        if options.check {
            println!("{name}");
            unformatted = true;
        } else if let Err(e) = std::fs::write(&file, formatted) {
            report::error(format_args!("cannot write {name}: {e}"));
            failed = true;
        }
    }
    match (failed, unformatted) {
        (true, _) => EXIT_ERROR,
        (false, true) => 1,
        (false, false) => 0,
    }
}
