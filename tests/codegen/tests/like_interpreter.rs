//! Every generated monitor (example specs and `specs/`) gives the interpreter's
//! verdicts at every step and at the end, on pseudo-random traces that include
//! NaN and infinities, wrapping arithmetic, missing and mistyped values, and a
//! reset in the middle.

use hindsight_codegen_tests::{Case, CASES};
use hindsight_compiler::hir::Ty;
use hindsight_compiler::interp::Interpreter;
use hindsight_compiler::ir::table::Table;
use hindsight_runtime::{InputType, StepMonitor, Value, Verdict};

/// splitmix64: a small deterministic generator, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

const FLOATS: [f64; 10] = [
    0.0,
    -0.0,
    0.5,
    1.0,
    2.5,
    -3.0,
    1e300,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
];
const INTS: [i64; 9] = [0, 1, 2, 3, -1, 7, 100, i64::MAX, i64::MIN];

/// A value of the declared type, now and then one of another kind (mistyped).
fn value(rng: &mut Rng, ty: InputType) -> Value {
    let kind = if rng.below(16) == 0 { rng.below(4) } else { 4 };
    match (kind, ty) {
        (0, _) => Value::Bool(rng.below(2) == 0),
        (1, _) => Value::Int(rng.pick(&INTS)),
        (2, _) => Value::Float(rng.pick(&FLOATS)),
        (3, _) => Value::Enum(rng.below(2) as u32),
        (_, InputType::Bool) => Value::Bool(rng.below(3) != 0),
        (_, InputType::Int) => Value::Int(rng.pick(&INTS)),
        (_, InputType::Float) => Value::Float(rng.pick(&FLOATS)),
        (_, InputType::Enum { variants, .. }) => {
            Value::Enum(rng.below(variants.len() as u64) as u32)
        }
    }
}

fn table<'c>(case: &Case, compiled: &'c hindsight_compiler::Compiled) -> &'c Table {
    compiled
        .program
        .monitor(case.schema.monitor)
        .unwrap_or_else(|| panic!("{}: no monitor {}", case.spec, case.schema.monitor))
}

/// The schema says what the table says: names, types, variants, properties.
fn assert_schema(case: &Case, table: &Table) {
    let inputs: Vec<(&str, String)> = case
        .schema
        .inputs
        .iter()
        .map(|i| {
            let ty = match i.ty {
                InputType::Bool => "bool".to_owned(),
                InputType::Int => "int".to_owned(),
                InputType::Float => "float".to_owned(),
                InputType::Enum { name, variants } => format!("{name}{variants:?}"),
            };
            (i.name, ty)
        })
        .collect();
    let expected: Vec<(&str, String)> = table
        .inputs
        .iter()
        .map(|hindsight_compiler::ir::Decl { name, ty, .. }| {
            let ty = match *ty {
                Ty::Enum(e) => format!("{}{:?}", table.enums[e].name, table.enums[e].variants),
                other => other.to_string(),
            };
            (name.as_str(), ty)
        })
        .collect();
    assert_eq!(inputs, expected, "{}", case.spec);
    let properties: Vec<(&str, bool)> = table
        .outputs
        .iter()
        .map(|o| (o.name.as_str(), o.reset))
        .collect();
    let declared: Vec<(&str, bool)> = case
        .schema
        .properties
        .iter()
        .map(|p| (p.name, p.reset))
        .collect();
    assert_eq!(declared, properties, "{}", case.spec);
}

/// Asserts that every end verdict of `monitor` (of `case`) is unknown at this
/// point (`when`: before any step, after a reset).
fn assert_all_unknown(monitor: &dyn StepMonitor, case: &Case, when: &str) {
    let mut verdicts = vec![Verdict::True; case.schema.properties.len()];
    monitor.finish_values(&mut verdicts);
    let unknown = vec![Verdict::Unknown; verdicts.len()];
    assert_eq!(verdicts, unknown, "{}: {when}", case.spec);
}

#[test]
fn generated_monitors_match_the_interpreter() {
    assert!(
        CASES.len() >= 4,
        "expected the examples and the hand-written specs"
    );
    for (k, case) in CASES.iter().enumerate() {
        let compiled = hindsight_compiler::compile(case.source).expect("spec compiles");
        let table = table(case, &compiled);
        assert_schema(case, table);
        let mut interp = Interpreter::new(table);
        let mut generated = (case.new)();
        let n = table.outputs.len();
        let (mut want, mut got) = (vec![Verdict::True; n], vec![Verdict::True; n]);
        assert_all_unknown(&*generated, case, "finish before any step");
        let mut rng = Rng(k as u64);
        for run in 0..3 {
            for step in 0..400 {
                let mut inputs: Vec<Value> = case
                    .schema
                    .inputs
                    .iter()
                    .map(|i| value(&mut rng, i.ty))
                    .collect();
                if rng.below(32) == 0 {
                    inputs.truncate(rng.below(inputs.len() as u64 + 1) as usize);
                }
                want.copy_from_slice(interp.step(&inputs));
                generated.step_values(&inputs, &mut got);
                assert_eq!(
                    got, want,
                    "{}: run {run} step {step} inputs {inputs:?}",
                    case.spec
                );
            }
            generated.finish_values(&mut got);
            assert_eq!(got, interp.finish(), "{}: finish of run {run}", case.spec);
            generated.reset();
            interp.reset();
            assert_all_unknown(&*generated, case, "finish after reset");
        }
    }
}
