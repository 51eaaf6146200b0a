//! `hindsight fmt`: rewrites in place, `--check` names what would change,
//! a spec that does not parse is reported and left alone.

use std::process::Command;

fn fmt(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hindsight"))
        .arg("fmt")
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("hindsight runs")
}

#[test]
fn fmt_rewrites_checks_and_refuses_with_the_clis_diagnostics() {
    let scratch = crate::common::scratch("fmt");
    let dir = scratch.path();
    let nested = dir.join("nested");
    std::fs::create_dir_all(&nested).unwrap();
    let messy = nested.join("messy.hind");
    let tidy = dir.join("tidy.hind");
    let broken = dir.join("broken.txt");
    std::fs::write(
        &messy,
        "monitor m{input a:bool;property p=G(a->F[0,2]!a);}\n",
    )
    .unwrap();
    std::fs::write(&tidy, "monitor t {\n    input a: bool;\n}\n").unwrap();
    std::fs::write(&broken, "monitor b { input a: bool }\n").unwrap();
    let dir_arg = dir.to_str().unwrap();

    // --check over the directory: the messy file is named, nothing written.
    let check = fmt(&["--check", dir_arg]);
    assert_eq!(check.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&check.stdout),
        format!("{}\n", messy.display())
    );
    assert!(std::fs::read_to_string(&messy)
        .unwrap()
        .starts_with("monitor m{"));

    // Formatting writes the canonical layout (worked by hand).
    assert_eq!(fmt(&[dir_arg]).status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(&messy).unwrap(),
        "monitor m {\n    input a: bool;\n    property p = G (a -> F[0,2] !a);\n}\n"
    );
    assert_eq!(fmt(&["--check", dir_arg]).status.code(), Some(0));

    // A spec that does not parse: its errors as `check` prints them, exit 2.
    let refused = fmt(&[broken.to_str().unwrap(), tidy.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("error[E0100]"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&broken).unwrap(),
        "monitor b { input a: bool }\n"
    );
}
