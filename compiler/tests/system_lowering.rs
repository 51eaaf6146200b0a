//! The lowering of `system` blocks: per-lifeline tables, exports and the stamp
//! layout of the CPL paper's code-review system, checked by hand; `count`
//! lowering.

use crate::spec_support::REVIEW;
use hindsight_compiler::compile;
use hindsight_compiler::ir::system::{
    EntryId, EntryKind, GuardId, InputSource, LifelineId, SystemTables,
};

fn lowered(src: &str) -> SystemTables {
    let compiled = compile(src).unwrap_or_else(|d| panic!("{d:?}"));
    compiled
        .program
        .systems
        .into_iter()
        .next()
        .expect("one system")
}

/// Every table and the layout, as one text.
fn describe(system: &SystemTables) -> String {
    let mut out = system.layout.to_string();
    for lt in &system.lifelines {
        out.push_str(&format!(
            "\nlifeline {}: guards {:?}, exports {:?}, inputs {:?}\n{}",
            lt.name, lt.guards, lt.exports, lt.inputs, lt.table
        ));
    }
    out
}

#[test]
fn code_review_layout_has_only_what_the_committer_reads() {
    let review = lowered(REVIEW);
    let layout = &review.layout;
    let names: Vec<(&str, usize)> = layout
        .entries
        .iter()
        .map(|e| (e.name.as_str(), e.owner.index()))
        .collect();
    // By owner (TestRunner = 1, Security = 2), formulas before variables.
    assert_eq!(
        names,
        [
            ("@TestRunner (status != failed S status == passed)", 1),
            ("TestRunner.cand", 1),
            ("@Security (status != critical S status == cleared)", 2),
            ("Security.cand", 2),
        ]
    );
    assert_eq!(layout.owned_positions(LifelineId::new(0)), 0..0);
    assert_eq!(layout.owned_positions(LifelineId::new(2)), 2..4);
    assert_eq!(layout.owned_positions(LifelineId::new(3)), 4..4);
    let owned: Vec<EntryId> = layout.owned_by(LifelineId::new(2)).collect();
    assert_eq!(owned, [EntryId::new(2), EntryId::new(3)]);
    // 9 header + 4 clocks of at most 9 bytes + 1 byte of 4 bits + two ints of 8 bytes.
    assert_eq!(layout.max_bytes(), 9 + 36 + 1 + 16);
    assert!(matches!(
        layout.entries[1].kind,
        EntryKind::Var { var: 0, .. }
    ));
    // The Orchestrator evaluates nothing; the TestRunner exports one formula.
    assert!(review.lifelines[0].table.slots.is_empty());
    assert_eq!(review.lifelines[1].exports, [EntryId::new(0)]);
    assert_eq!(review.lifelines[2].exports, [EntryId::new(2)]);
    assert_eq!(review.lifelines[3].guards, [GuardId::new(0)]);
    // The Committer reads its store and the four entries, with defined flags.
    let committer = &review.lifelines[3].inputs;
    for source in [
        InputSource::Var(0),
        InputSource::Defined(0),
        InputSource::Entry(EntryId::new(0)),
        InputSource::Entry(EntryId::new(1)),
        InputSource::EntryDefined(EntryId::new(1)),
        InputSource::Entry(EntryId::new(2)),
        InputSource::Entry(EntryId::new(3)),
        InputSource::EntryDefined(EntryId::new(3)),
    ] {
        assert!(committer.contains(&source), "{source:?}");
    }
    assert_eq!(committer.len(), 8);
}

#[test]
fn code_review_tables_snapshot() {
    insta::assert_snapshot!("code_review", describe(&lowered(REVIEW)));
}

#[test]
fn fingerprint_changes_with_the_entries() {
    let a = lowered(REVIEW).layout;
    let b = lowered(&REVIEW.replace("status == passed", "status == cleared")).layout;
    assert_eq!(a.fingerprint(), lowered(REVIEW).layout.fingerprint());
    assert_ne!(a.fingerprint(), b.fingerprint());
}

/// A stamp carries `Worker.status` as a variant index, so everything that
/// gives the index its meaning is in the fingerprint.
#[test]
fn fingerprint_covers_the_enums_of_variable_entries() {
    let spec = |status: &str, kind: &str| {
        format!(
            "{status}\nenum Kind {{ {kind} }}\nsystem s {{\n    lifeline Worker {{ status: Status }}\n    \
             lifeline Boss {{ ok: bool }}\n    guard go at Boss = Worker.status == done;\n}}\n"
        )
    };
    let base = spec("enum Status { busy, done }", "a, b");
    let fingerprint = |src: &str| lowered(src).layout.fingerprint();
    let f = fingerprint(&base);
    assert_eq!(f, fingerprint(&base));
    for changed in [
        spec("enum Status { done, busy }", "a, b"),
        spec("enum Status { busy, done, idle }", "a, b"),
        spec("enum Status { busy2, done }", "a, b"),
        base.replace("Status", "State"),
        base.replace("lifeline Boss", "lifeline Chief")
            .replace("at Boss", "at Chief"),
    ] {
        assert_ne!(f, fingerprint(&changed), "{changed}");
    }
    // An enum no entry uses does not matter.
    assert_eq!(f, fingerprint(&spec("enum Status { busy, done }", "b, a")));
}

#[test]
fn at_own_lifeline_and_own_variables_stay_local() {
    let src = "\
system s {
    lifeline A { x: int }
    lifeline B { y: int }
    guard g at A = @A (A.x == 1) && Y (x == 1);
}
";
    let system = lowered(src);
    assert!(system.layout.entries.is_empty());
    // x == 1 is computed once (hash-consed): guarded by defined(x).
    let table = &system.lifelines[0].table;
    let cmps = table
        .slots
        .iter()
        .filter(|s| matches!(s.op, hindsight_compiler::ir::table::Op::Cmp(..)))
        .count();
    assert_eq!(cmps, 1, "{table}");
}

#[test]
fn shared_exports_are_one_entry() {
    let src = "\
system s {
    lifeline A { x: int }
    lifeline B { y: int }
    lifeline C { z: int }
    guard g at B = @A (x > 0) && A.x < 5;
    guard h at C = @A (x > 0) || A.x == 2;
}
";
    let system = lowered(src);
    let names: Vec<&str> = system
        .layout
        .entries
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(names, ["@A (x > 0)", "A.x"]);
}

#[test]
fn counts_lower_to_sums() {
    let src = "\
system s {
    lifeline A { ok: bool }
    lifeline B { ok: bool }
    lifeline C { ok: bool }
    group All = { A, B, C };
    guard two at C = atleast 2 m in All: @m (O !ok);
}
";
    insta::assert_snapshot!("count", describe(&lowered(src)));
}

/// A guard near the checker's depth limit lowers (the rewrite, the entry names
/// and the table are all recursive). Like a monitor formula of that depth, it
/// needs more than a default 2 MiB test thread in unoptimised builds.
#[test]
fn deep_guards_lower_without_overflow() {
    std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(lower_deep_guard)
        .expect("thread")
        .join()
        .expect("no overflow");
}

fn lower_deep_guard() {
    // The parser nests at most 256 levels; two `let`s inline to 500.
    let nots = "!".repeat(250);
    let src = format!(
        "system s {{ lifeline A {{ x: int }} lifeline B {{ y: int }}
         let l0 = {nots}(B.y > 0);
         let l1 = {nots}l0;
         guard g at A = @B l1; }}"
    );
    let system = lowered(&src);
    assert_eq!(system.layout.entries.len(), 1);
    assert_eq!(system.lifelines[1].exports, [EntryId::new(0)]);
}
