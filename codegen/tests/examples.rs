//! The generated Rust of every example spec (`examples/**/*.hind`) and of the
//! hand-written specs of the codegen test crate (`tests/codegen/specs/`, which
//! cover every table op), as insta snapshots: the code is reviewed by eye and
//! must stay stable. `tests/codegen` compiles and runs the same code.

use crate::spec_files::hind_files;
use hindsight_codegen::generate_source;
use hindsight_compiler::diag::render;
use std::path::Path;

#[test]
fn example_code() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let files = hind_files(&[root.join("examples"), root.join("tests/codegen/specs")]);
    let names: Vec<_> = files.iter().filter_map(|f| f.file_stem()).collect();
    for expected in ["trucks", "ops", "keywords"] {
        assert!(
            names.iter().any(|n| *n == expected),
            "no {expected}.hind under {}",
            root.display()
        );
    }
    for path in files {
        let source = std::fs::read_to_string(&path).unwrap();
        // `examples/trucks/trucks.hind` -> `examples__trucks__trucks`: unique per file.
        let relative = path.strip_prefix(&root).unwrap().with_extension("");
        let name = relative.to_string_lossy().replace(['/', '\\'], "__");
        let compiled = hindsight_compiler::compile(&source)
            .unwrap_or_else(|d| panic!("{}", render(&name, &source, &d)));
        let code = generate_source(&compiled.program)
            .unwrap_or_else(|d| panic!("{}", render(&name, &source, &d)));
        insta::assert_snapshot!(name, code);
    }
}
