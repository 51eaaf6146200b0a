//! Duration windows of past operators as lowering keeps them
//! (lower/timed.rs): `[lo,hi]` with `0 < lo` keeps a ring of
//! `2 * ceil(lo / (hi - lo)) + 1` witness times, at most 2,049
//! (docs/language.md section 4d, docs/limits.md); a window needing more is
//! E0415.

use crate::spec_support::compiled;
use hindsight_compiler::compile;
use hindsight_compiler::ir::table::CellKind;

/// A monitor whose one property is `deploy -> FORMULA`.
fn spec(formula: &str) -> String {
    format!(
        "monitor deploys {{\n    time ts from \"/timestamp\";\n    input deploy: bool;\n    \
         input tested: bool;\n    property recent = deploy -> {formula};\n}}\n"
    )
}

/// The three past operators over `window`.
fn operators(window: &str) -> [String; 3] {
    [
        format!("O{window} tested"),
        format!("H{window} tested"),
        format!("deploy S{window} tested"),
    ]
}

/// Worked by hand, in milliseconds (the finest unit): `[1024s,1025s]`
/// needs `2 * ceil(1024000 / 1000) + 1 = 2049` times and `[2048s,2050s]`
/// `2 * 1024 + 1` too, exactly the limit: accepted, the ring sized for
/// 2,049. One millisecond narrower, `[1024s,1024999ms]` needs `2 *
/// ceil(1024000 / 999) + 1 = 2053` and `[2048s,2049999ms]` `2 *
/// ceil(2048000 / 1999) + 1 = 2051`, the least above the limit (a ring's
/// size is odd): E0415. The help's window of whole units at least
/// `1024s / 1024` wide is `[1024s,1025s]` again.
#[test]
fn timed_windows_keep_at_most_2049_witness_times() {
    for window in ["[1024s,1025s]", "[2048s,2050s]"] {
        for formula in operators(window) {
            let table = &compiled(&spec(&formula)).program.monitors[0];
            let rings: Vec<CellKind> = table
                .state
                .iter()
                .map(|c| c.kind)
                .filter(|k| matches!(k, CellKind::Witnesses { .. }))
                .collect();
            assert_eq!(rings, [CellKind::Witnesses { capacity: 2049 }], "{formula}");
        }
    }
    for window in ["[1024s,1024999ms]", "[2048s,2049999ms]"] {
        for formula in operators(window) {
            let Err(diags) = compile(&spec(&formula)) else {
                panic!("{formula} compiled");
            };
            let codes: Vec<Option<&str>> = diags.iter().map(|d| d.code.as_deref()).collect();
            assert_eq!(codes, [Some("E0415")], "{formula}");
            assert_eq!(
                diags[0].message,
                format!("this window `{window}` cannot be kept exactly in bounded state")
            );
        }
    }
    let Err(diags) = compile(&spec("O[1024s,1024999ms] tested")) else {
        panic!("a window too narrow compiled");
    };
    let help = diags[0].notes.iter().find(|n| n.starts_with("help:"));
    assert!(
        help.is_some_and(|h| h.ends_with("e.g. `[1024s,1025s]`")),
        "{help:?}"
    );
}
