//! The agent prints the transcript its Python port (examples/python) is
//! held to, from the rules that port loads.

use std::path::Path;
use std::process::Command;

/// The Python example's folder.
fn python_example() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../python"))
}

#[test]
fn the_agent_prints_the_transcript_the_python_port_is_held_to() {
    let printed = Command::new(env!("CARGO_BIN_EXE_agent-guard"))
        .output()
        .expect("the example runs");
    assert!(printed.status.success());
    let expected = std::fs::read_to_string(python_example().join("agent_guard.out"))
        .expect("examples/python/agent_guard.out");
    assert_eq!(String::from_utf8_lossy(&printed.stdout), expected);
}

#[test]
fn the_python_port_loads_these_rules() {
    // trucks.hind is the macro's spec, line for line (indented there), after
    // its own header comment.
    let lib = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/lib.rs"))
        .expect("src/lib.rs");
    let hind = std::fs::read_to_string(python_example().join("trucks.hind"))
        .expect("examples/python/trucks.hind");
    let spec = hind
        .lines()
        .skip_while(|l| l.starts_with("//") || l.is_empty())
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("    {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        lib.contains(&spec),
        "trucks.hind differs from the spec in src/lib.rs"
    );
}
