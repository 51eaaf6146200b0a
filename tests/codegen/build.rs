//! Generates the code of every example spec (`examples/**/*.hind`) and of the
//! hand-written specs in `specs/` into `OUT_DIR`, plus `cases.rs`: one module per
//! spec and the list of every monitor for the tests to run; and `systems.rs`:
//! the code of the random systems of `tests/support/seeded_systems.rs`, each
//! with a driver for the differential test `tests/systems_like_interpreter.rs`.

use hindsight_codegen::{generate_source_with, Options};
use hindsight_compiler::diag::render;
use hindsight_compiler::hir::{Spec, Ty};
use hindsight_compiler::{compile, Compiled};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[path = "../../compiler/tests/spec_files.rs"]
mod spec_files;

#[path = "tests/support/seeded_systems.rs"]
mod seeded_systems;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=tests/support/seeded_systems.rs");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    write_specs(&out_dir);
    write_systems(&out_dir);
}

/// `cases.rs` and one file per spec of `examples/` and `specs/`.
fn write_specs(out_dir: &Path) {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let dirs = [manifest.join("../../examples"), manifest.join("specs")];
    for dir in &dirs {
        println!("cargo:rerun-if-changed={}", dir.display());
    }
    let files = spec_files::hind_files(&dirs);
    let mut modules = String::new();
    let mut cases = String::new();
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let source = std::fs::read_to_string(path).expect("readable spec");
        // The path below `examples/` or `specs/`, so specs with the same file
        // name in different directories get different modules.
        let relative = path.with_extension("");
        let relative = dirs
            .iter()
            .find_map(|dir| relative.strip_prefix(dir).ok())
            .unwrap_or(&relative)
            .to_string_lossy()
            .to_string();
        let module: String = relative
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let name = path.display().to_string();
        let (compiled, code) = generate(&name, &source, &Options::default());
        let doc = format!("Spec `{name}`.");
        write_module(out_dir, &mut modules, &doc, &module, code);
        for table in &compiled.program.monitors {
            let monitor = format!("{module}::r#{}", table.name);
            writeln!(
                cases,
                "    Case {{ spec: {name:?}, source: include_str!({name:?}), \
                 schema: &{monitor}::SCHEMA, new: || Box::new({monitor}::Monitor::new()) }},"
            )
            .unwrap();
        }
    }
    // The code-review system once more, with sealed stamps.
    let review = manifest.join("specs/system_review.hind");
    let source = std::fs::read_to_string(&review).expect("readable spec");
    let name = review.display().to_string();
    let sealed = Options {
        sealed_stamps: true,
        ..Options::default()
    };
    let (_, code) = generate(&name, &source, &sealed);
    let doc = format!("Spec `{name}`, with sealed stamps.");
    write_module(out_dir, &mut modules, &doc, "system_review_sealed", code);
    let text = format!(
        "{modules}\n/// Every monitor of every spec.\npub const CASES: &[Case] = &[\n{cases}];\n"
    );
    std::fs::write(out_dir.join("cases.rs"), text).expect("writable OUT_DIR");
}

/// Spec `name` compiled, and its generated code with `options`; panics with
/// the rendered diagnostics if either step fails.
fn generate(name: &str, source: &str, options: &Options) -> (Compiled, String) {
    let compiled = compile(source).unwrap_or_else(|d| panic!("{}", render(name, source, &d)));
    let code = generate_source_with(&compiled.program, options)
        .unwrap_or_else(|d| panic!("{}", render(name, source, &d)));
    (compiled, code)
}

/// Writes `code` to `OUT_DIR/<module>.rs` and declares it in `modules` as
/// `pub mod <module>` with the doc comment `doc`.
fn write_module(out_dir: &Path, modules: &mut String, doc: &str, module: &str, code: String) {
    let file = out_dir.join(format!("{module}.rs"));
    std::fs::write(&file, code).expect("writable OUT_DIR");
    writeln!(
        modules,
        "/// {doc}\npub mod {module} {{ include!({file:?}); }}",
        file = file.display().to_string()
    )
    .unwrap();
}

/// `systems.rs`: per random system a module `sys_K` with its generated code
/// and a `Driver` that runs it from untyped events (stamps carried through
/// their byte encoding), and `SYSTEMS`, a fresh driver of each.
fn write_systems(out_dir: &Path) {
    let mut file = String::new();
    let systems = seeded_systems::systems();
    for (k, (spec, source)) in systems.iter().enumerate() {
        let (_, code) = generate(&format!("random system {k}"), source, &Options::default());
        writeln!(
            file,
            "/// Random system {k}.\npub mod sys_{k} {{\n{code}\n{}}}",
            driver(spec)
        )
        .unwrap();
    }
    let news: Vec<String> = (0..systems.len())
        .map(|k| format!("|| Box::new(sys_{k}::Driver::default())"))
        .collect();
    writeln!(
        file,
        "/// A fresh driver of every random system, in seed order.\n\
         pub const SYSTEMS: [fn() -> Box<dyn Generated>; {}] = [{}];",
        news.len(),
        news.join(", ")
    )
    .unwrap();
    std::fs::write(out_dir.join("systems.rs"), file).expect("writable OUT_DIR");
}

/// The `Driver` of a random system (module `random`, enum `Status`).
fn driver(spec: &Spec) -> String {
    let system = &spec.systems[0];
    let mut fields = String::new();
    let mut arms = String::new();
    for (l, lifeline) in system.lifelines.iter().enumerate() {
        let module = format!("random::{}", lifeline.name);
        writeln!(fields, "    m{l}: {module}::Monitor,").unwrap();
        let changes: Vec<String> = lifeline
            .vars
            .iter()
            .enumerate()
            .map(|(x, v)| {
                let read = match v.ty {
                    Ty::Bool => format!("super::bool_change(changes, {x})"),
                    Ty::Int => format!("super::int_change(changes, {x})"),
                    _ => format!("super::enum_change(changes, {x}).and_then(Status::from_index)"),
                };
                format!("{}: {read}", v.name)
            })
            .collect();
        writeln!(
            arms,
            "            {l} => {{
                let changes = {module}::Changes {{ {} }};
                match *kind {{
                    EventKind::Send {{ msg, .. }} => {{
                        let stamp = self.m{l}.on_send(&changes)?;
                        let mut bytes = [0u8; random::Stamp::BYTES];
                        let len = stamp.to_bytes(&mut bytes)?;
                        assert_eq!(random::Stamp::from_bytes(&bytes[..len]), Ok(stamp));
                        self.in_flight.insert(msg, stamp);
                    }}
                    EventKind::Recv {{ msg }} => {{
                        let stamp = self.in_flight.remove(&msg).expect(\"a message in flight\");
                        self.m{l}.on_recv(&stamp, &changes)?;
                    }}
                    EventKind::Act => self.m{l}.on_act(&changes),
                    EventKind::Choice => {{
                        self.m{l}.on_choice(&changes);
                    }}
                }}
                Ok(self.m{l}.guards().to_array().to_vec())
            }}",
            changes.join(", ")
        )
        .unwrap();
    }
    format!(
        "use super::{{EventKind, MsgId, StampError, Value, Verdict}};

/// The generated monitors of every lifeline and the stamps in flight.
#[derive(Default)]
pub struct Driver {{
{fields}    in_flight: std::collections::HashMap<MsgId, random::Stamp>,
}}

impl super::Generated for Driver {{
    fn event(
        &mut self,
        lifeline: usize,
        kind: &EventKind,
        changes: &[(usize, Value)],
    ) -> Result<Vec<Verdict>, StampError> {{
        match lifeline {{
{arms}            _ => Ok(Vec::new()),
        }}
    }}
}}
"
    )
}
