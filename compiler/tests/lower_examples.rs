//! The table of every monitor in every example spec (`examples/**/*.hind`), as an
//! insta snapshot: the tables are reviewed by eye and must stay stable.

use crate::spec_files::hind_files;
use hindsight_compiler::diag::render;
use hindsight_compiler::lower::lower;
use std::path::Path;

#[test]
fn example_tables() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let files = hind_files(&[&root]);
    assert!(
        !files.is_empty(),
        "no example specs under {}",
        root.display()
    );
    for path in files {
        let source = std::fs::read_to_string(&path).unwrap();
        // The path below `examples/`, so same-named specs in different
        // directories get different snapshots.
        let name = path
            .with_extension("")
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace(['/', '\\'], "__");
        let file = hindsight_grammar::parse(&source)
            .unwrap_or_else(|d| panic!("{}", render(&name, &source, &d)));
        let (spec, diags) = hindsight_compiler::check::check(&file);
        let spec = spec.unwrap_or_else(|| panic!("{}", render(&name, &source, &diags)));
        for monitor in &spec.monitors {
            let text = match lower(&spec, monitor, &mut Default::default()) {
                Ok(table) => table.to_string(),
                Err(d) => render(&name, &source, &d),
            };
            insta::assert_snapshot!(format!("{name}__{}", monitor.name), text);
        }
    }
}
