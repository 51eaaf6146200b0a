//! The generated form of table ops that no surface formula isolates.

use hindsight_codegen::generate_source;
use hindsight_compiler::ast::Span;
use hindsight_compiler::compile;
use hindsight_compiler::interp::Interpreter;
use hindsight_compiler::ir::table::{Op, Output, Slot, SlotId, Source, Table};
use hindsight_compiler::ir::Decl;
use hindsight_compiler::types::{ArithOp, CmpOp, Ty, Value};

#[test]
fn bool_to_int_generates_a_conversion() {
    let slot = |op, ty| Slot { op, ty };
    let input = |name: &str| Decl {
        name: name.into(),
        ty: Ty::Bool,
        span: Span::default(),
    };
    let table = Table {
        name: "m".into(),
        span: Span::default(),
        inputs: vec![input("p"), input("q")],
        slots: vec![
            slot(Op::Input(0), Ty::Bool),
            slot(Op::Input(1), Ty::Bool),
            slot(Op::BoolToInt(SlotId::new(0)), Ty::Int),
            slot(Op::BoolToInt(SlotId::new(1)), Ty::Int),
            slot(
                Op::Arith(ArithOp::Add, SlotId::new(2), SlotId::new(3)),
                Ty::Int,
            ),
            slot(Op::Const(Value::Int(1)), Ty::Int),
            slot(Op::Cmp(CmpOp::Ge, SlotId::new(4), SlotId::new(5)), Ty::Bool),
        ],
        state: Vec::new(),
        outputs: vec![Output {
            name: "some".into(),
            span: Span::default(),
            source: Source::Slot(SlotId::new(6)),
            reset: false,
            parts: Vec::new(),
        }],
        enums: Vec::new(),
        automata: Vec::new(),
        futures: Vec::new(),
        reading: Default::default(),
        timed: Vec::new(),
        goals: Vec::new(),
        lets: Vec::new(),
    };
    let mut compiled = compile("monitor m { input p: bool; input q: bool; property some = p; }")
        .expect("compiles");
    compiled.program.monitors = vec![table.clone()];
    let source = generate_source(&compiled.program).expect("generates");
    let compute: Vec<&str> = source
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("let s"))
        .collect();
    insta::assert_snapshot!("bool_to_int_codegen", compute.join("\n"));
    // The interpreter agrees: some = p + q >= 1.
    let mut interp = Interpreter::new(&table);
    for (p, q) in [(false, false), (true, false), (false, true), (true, true)] {
        let verdict = interp.step(&[Value::Bool(p), Value::Bool(q)])[0];
        assert_eq!(verdict.decided(), Some(p || q));
    }
}
