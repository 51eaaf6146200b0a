//! Generates the code of every spec in `specs/`, of the epidemic example's
//! spec and of 100 random population
//! specs (`hindsight_tests::population::gen`) into `OUT_DIR`, plus `cases.rs`:
//! one module per spec with a `Driver` per population (untyped values in, as
//! the interpreter takes them) and `CASES`, the list of every population.

use hindsight_codegen::generate_source;
use hindsight_compiler::compile;
use hindsight_compiler::diag::render;
use hindsight_compiler::hir::Ty;
use hindsight_compiler::ir::Decl;
use hindsight_compiler::ir::PopulationTables;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    let specs = manifest.join("specs");
    println!("cargo:rerun-if-changed={}", specs.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&specs)
        .expect("specs/ exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "hind"))
        .collect();
    files.sort();
    let mut sources: Vec<(String, String, String)> = Vec::new();
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let source = std::fs::read_to_string(path).expect("readable spec");
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        sources.push((format!("spec_{stem}"), path.display().to_string(), source));
    }
    // The epidemic example's spec (a past stratum in bit lanes, then the
    // future quantifiers' stratum).
    let epidemic = manifest.join("../../examples/epidemic/epidemic.hind");
    println!("cargo:rerun-if-changed={}", epidemic.display());
    let source = std::fs::read_to_string(&epidemic).expect("readable epidemic spec");
    sources.push((
        "example_epidemic".to_owned(),
        "examples/epidemic/epidemic.hind".to_owned(),
        source,
    ));
    for (k, source) in random_sources().into_iter().enumerate() {
        sources.push((
            format!("random_{k}"),
            format!("random population spec {k}"),
            source,
        ));
    }
    let mut text = String::new();
    let mut cases = String::new();
    for (module, name, source) in &sources {
        write_spec(&out_dir, module, name, source, &mut text, &mut cases);
    }
    writeln!(
        text,
        "/// Every population of every spec.\npub const CASES: &[Case] = &[\n{cases}];"
    )
    .unwrap();
    std::fs::write(out_dir.join("cases.rs"), text).expect("writable OUT_DIR");
}

/// 100 random population specs of the tests crate's generator (a fixed seed).
fn random_sources() -> Vec<String> {
    println!("cargo:rerun-if-changed=../src/population/gen.rs");
    hindsight_tests::population::gen::seeded_sources(100, 0x9091)
}

fn write_spec(
    out_dir: &Path,
    module: &str,
    name: &str,
    source: &str,
    text: &mut String,
    cases: &mut String,
) {
    let compiled = compile(source).unwrap_or_else(|d| panic!("{}", render(name, source, &d)));
    let code = generate_source(&compiled.program)
        .unwrap_or_else(|d| panic!("{}", render(name, source, &d)));
    let file = out_dir.join(format!("{module}.rs"));
    std::fs::write(&file, code).expect("writable OUT_DIR");
    let mut drivers = String::new();
    for tables in &compiled.program.populations {
        let enums: Vec<String> = compiled
            .program
            .enums
            .iter()
            .map(|e| e.name.clone())
            .collect();
        drivers.push_str(&driver(tables, &enums));
        writeln!(
            cases,
            "    Case {{ spec: {name:?}, source: {source:?}, population: {pop:?}, \
             new: || Box::new({module}::driver_{pop}::Driver::default()) }},",
            pop = tables.name
        )
        .unwrap();
    }
    writeln!(
        text,
        "/// `{name}`.\npub mod {module} {{\n    include!({file:?});\n{drivers}}}",
        file = file.display().to_string()
    )
    .unwrap();
}

/// The expression reading value `i` of `values` as type `ty`.
fn read(ty: Ty, values: &str, i: &str, enums: &[String]) -> String {
    match ty {
        Ty::Bool => format!("crate::bool_at({values}, {i})"),
        Ty::Int => format!("crate::int_at({values}, {i})"),
        Ty::Float => format!("crate::float_at({values}, {i})"),
        Ty::Enum(e) => format!(
            "super::{}::from_index(crate::enum_at({values}, {i})).unwrap_or_default()",
            enums[e]
        ),
    }
}

fn field(name: &str) -> String {
    const KEYWORDS: &[&str] = &[
        "type", "match", "loop", "fn", "in", "for", "mod", "move", "ref", "use", "impl", "where",
        "while", "as", "break", "const", "continue", "crate", "else", "enum", "extern", "if",
        "let", "pub", "return", "static", "struct", "trait", "unsafe", "async", "await", "dyn",
        "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof",
        "unsized", "virtual", "yield", "try", "gen",
    ];
    if KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_owned()
    }
}

/// `name: value` for each of `decls`, the value of declaration `i` read from
/// `values` at index `index(i)`.
fn fields(
    decls: &[Decl],
    values: &str,
    index: impl Fn(usize) -> String,
    enums: &[String],
) -> Vec<String> {
    decls
        .iter()
        .enumerate()
        .map(|(i, Decl { name, ty, .. })| {
            format!("{}: {}", field(name), read(*ty, values, &index(i), enums))
        })
        .collect()
}

/// A module `driver_<population>` with a `Driver` over the generated monitor.
fn driver(tables: &PopulationTables, enums: &[String]) -> String {
    let pop = &tables.name;
    let width = tables.attributes.len();
    let agent = fields(
        &tables.attributes,
        "attributes",
        |i| format!("j * {width} + {i}"),
        enums,
    );
    let globals = fields(&tables.globals, "globals", |i| i.to_string(), enums);
    format!(
        "
    /// The driver of population `{pop}`.
    #[allow(missing_docs, unused, clippy::all)]
    pub mod driver_{pop} {{
        use hindsight_runtime::population::PopulationError;
        use hindsight_runtime::{{ResetCounts, Value, Verdict}};

        /// The generated monitor (boxed: its size grows with the capacity).
        pub struct Driver(pub Box<super::{pop}::Monitor>);

        impl Default for Driver {{
            fn default() -> Self {{
                Driver(Box::new(super::{pop}::Monitor::new()))
            }}
        }}

        impl crate::Driven for Driver {{
            fn step(&mut self, agents: usize, attributes: &[Value], globals: &[Value]) -> Result<Vec<Verdict>, PopulationError> {{
                let typed: Vec<super::{pop}::Agent> = (0..agents)
                    .map(|j| super::{pop}::Agent {{ {agent} }})
                    .collect();
                let globals = super::{pop}::Globals {{ {globals} }};
                self.0.step(&typed, &globals).map(|v| v.to_array().to_vec())
            }}

            fn step_scalar(&mut self, agents: usize, attributes: &[Value], globals: &[Value]) -> Result<Vec<Verdict>, PopulationError> {{
                let typed: Vec<super::{pop}::Agent> = (0..agents)
                    .map(|j| super::{pop}::Agent {{ {agent} }})
                    .collect();
                let globals = super::{pop}::Globals {{ {globals} }};
                self.0.step_scalar(&typed, &globals).map(|v| v.to_array().to_vec())
            }}

            fn lanes(&self) -> &'static [bool] {{
                &super::{pop}::BIT_LANES
            }}

            fn finish(&self) -> Vec<Verdict> {{
                self.0.finish().to_array().to_vec()
            }}

            fn counts(&self) -> Vec<ResetCounts> {{
                self.0.counts().to_array().to_vec()
            }}

            fn reset(&mut self) {{
                self.0.reset();
            }}
        }}
    }}
",
        agent = agent.join(", "),
        globals = globals.join(", "),
    )
}
