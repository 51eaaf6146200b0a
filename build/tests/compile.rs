//! `Config::compile` on real files in a scratch directory.

use hindsight_build::{Config, Error};
use std::path::{Path, PathBuf};

/// A fresh directory for one test under cargo's per-target scratch space.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("hindsight-build")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("spec written");
    path
}

const DOOR: &str = "monitor door { input request: bool; input grant: bool; \
                    property answered = grant -> Y O request; }";
const LAMP: &str = "enum Mode { on, off } monitor lamp { input mode: Mode; \
                    property on_now = mode == on; }";

#[test]
fn each_spec_becomes_a_formatted_rust_file_named_after_it() {
    let dir = scratch("ok");
    let specs = [
        write(&dir, "door.hind", DOOR),
        write(&dir, "lamp.hind", LAMP),
    ];
    let out = dir.join("out");
    std::fs::create_dir(&out).expect("out directory");
    Config::new()
        .out_dir(&out)
        .compile(&specs)
        .expect("both specs compile");

    let door = std::fs::read_to_string(out.join("door.rs")).expect("door.rs written");
    assert!(door.starts_with(hindsight_codegen::HEADER));
    assert!(door.contains("pub mod door {"), "{door}");
    assert!(
        door.contains("\n    pub struct Input {\n"),
        "formatted: {door}"
    );
    let lamp = std::fs::read_to_string(out.join("lamp.rs")).expect("lamp.rs written");
    assert!(lamp.contains("pub enum Mode {") && lamp.contains("pub mod lamp {"));
}

#[test]
fn sealed_stamps_make_the_codec_take_a_key() {
    let dir = scratch("sealed");
    let spec = write(
        &dir,
        "pair.hind",
        "system pair { lifeline A { x: int } lifeline B { y: int } guard g at B = A.x == 1; }",
    );
    let out = dir.join("out");
    std::fs::create_dir(&out).expect("out directory");
    Config::new()
        .out_dir(&out)
        .sealed_stamps(true)
        .compile(&[spec])
        .expect("compiles");
    let code = std::fs::read_to_string(out.join("pair.rs")).expect("pair.rs written");
    assert!(
        code.contains("key: &::hindsight_runtime::stamp::StampKey"),
        "{code}"
    );
    assert!(code.contains("impl ::hindsight_runtime::stamp::SealedStampCodec for Stamp"));
    assert!(!code.contains("impl ::hindsight_runtime::stamp::StampCodec for Stamp"));
}

#[test]
fn a_spec_with_errors_fails_and_counts_them() {
    let dir = scratch("errors");
    let bad = write(
        &dir,
        "bad.hind",
        "monitor m { input a: bool; property p = b; property q = a && c; }",
    );
    let error = Config::new().out_dir(&dir).compile(&[&bad]).unwrap_err();
    assert!(matches!(error, Error::Spec { errors: 2, .. }), "{error}");
    assert_eq!(
        error.to_string(),
        format!("{} has 2 errors (diagnostics above)", bad.display())
    );
    assert!(!dir.join("bad.rs").exists());
}

#[test]
fn unreadable_specs_and_clashing_names_are_errors() {
    let dir = scratch("io");
    let missing = dir.join("missing.hind");
    let error = Config::new()
        .out_dir(&dir)
        .compile(&[&missing])
        .unwrap_err();
    assert!(
        matches!(&error, Error::Io { path, .. } if *path == missing),
        "{error}"
    );

    std::fs::create_dir(dir.join("other")).expect("subdirectory");
    let specs = [
        write(&dir, "door.hind", DOOR),
        write(&dir, "other/door.hind", DOOR),
    ];
    let error = Config::new().out_dir(&dir).compile(&specs).unwrap_err();
    assert!(
        matches!(&error, Error::SameStem(stem) if stem == "door"),
        "{error}"
    );
}
