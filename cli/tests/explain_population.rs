//! `hindsight explain` on population blocks: the report of the epidemic
//! example and of the language reference's example (snapshots, with the
//! state sizes and quantifier texts worked out by hand below), and block
//! selection through the binary on `tests/fixtures/population/mixed.hind`.

use crate::common::{assert_has_lines, fixtures, root, run_in, Input, Run};
use hindsight_cli::compile::Block;
use hindsight_cli::explain::render_blocks;
use std::time::Duration;

/// The report on every population of `source` (named `name`), with a fixed
/// compile time.
fn report(name: &str, source: &str) -> String {
    let compiled = hindsight_compiler::compile(source).expect("the spec compiles");
    assert!(compiled.warnings.is_empty(), "{:?}", compiled.warnings);
    let all: Vec<Block> = (0..compiled.program.populations.len())
        .map(Block::Population)
        .collect();
    render_blocks(name, &compiled, source, &all, Duration::from_micros(1250))
}

/// The first code block of section 4c of docs/language.md.
fn language_example() -> String {
    let doc = std::fs::read_to_string(root().join("docs/language.md")).expect("language.md");
    let section = doc
        .split("## 4c.")
        .nth(1)
        .expect("language.md has section 4c");
    let block = section.split("```").nth(1).expect("a code block");
    block.to_string()
}

/// The language.md example: `females_recover` (f0, forall over females) and
/// `three_stay_healthy` (f1, atleast 3 over females) have future bodies;
/// `outbreak_bounded` is an ordinary future property of the top table over
/// `q0`, the `infected_now` count (a `let`, so written as its name).
/// Sizes by hand: the bodies read no past operator (0 bytes of cells), each
/// has a 3-state automaton (1 byte each), and each future quantifier keeps a
/// membership byte: 0 + 2 + 2 = 4 bytes per agent, 40000 at capacity 10000;
/// the top table has no cells and one 3-state automaton: 1 byte.
#[test]
fn the_language_reference_example() {
    let r = report("language.md", &language_example());
    assert_has_lines(
        &r,
        &[
        "language.md: 0 monitors, 0 properties (0 past-time, 0 future-time), 1 population (3 properties), compiled in 1.250 ms",
        "population epidemic: capacity 10000, 2 strata, 1 signal, 2 future quantifiers",
        "strata in bit lanes (64 agents per u64 word, 0 bits per agent): 0; one agent at a time: 1",
        "  q0  infected_now",
        "  f0  forall a in females: G (a.health == infected -> F a.health == recovered)",
        "  f1  atleast 3 a in females: G a.health == susceptible",
        "state per agent: 4 bytes = 0 (stratum state cells) + 2 (body automata) + 2 (memberships of future quantifiers, fixed at the run's first step)",
        "state of 10000 agents (the capacity): 40000 bytes",
        "top table: 1 byte = 0 (state cells) + 1 (automata)",
        ],
    );
    insta::assert_snapshot!("language_example", r);
}

/// The bundled epidemic example: its 4 signals are `infected_now`, the
/// `forall` of `no_reinfection` and the two `count`s over `elderly` (in the
/// order the properties read them); every future quantifier is listed with
/// its text. Stratum 0 (the signals) runs as bit lanes, stratum 1 (the future
/// quantifiers) one agent at a time. The state per agent: `no_reinfection`'s
/// `O recovered` and `elderly_shielded`'s `O infected` are one-bit cells of
/// the lane stratum (2 bits: 1 byte), plus one byte of automaton state and
/// one membership byte per future quantifier.
#[test]
fn the_epidemic_example() {
    let source = std::fs::read_to_string(root().join("examples/epidemic/epidemic.hind"))
        .expect("the example is readable");
    let r = report("epidemic.hind", &source);
    let compiled = hindsight_compiler::compile(&source).expect("compiles");
    let futures = compiled.program.populations[0].future_quantifiers.len();
    let expected = format!(
        "state per agent: {} bytes = 1 (stratum state cells) + {futures} (body automata) + {futures} (memberships of future quantifiers, fixed at the run's first step)",
        1 + 2 * futures
    );
    assert_has_lines(
        &r,
        &[
        expected.as_str(),
        "strata in bit lanes (64 agents per u64 word, 2 bits per agent): 0; one agent at a time: 1",
        "  q0  infected_now",
        "  q1  forall a in agents: a.health == infected -> !O a.health == recovered",
        "  q2  count a in elderly: O a.health == infected",
        "  q3  count a in elderly: true",
        "  f0  forall a in females: G (a.health == infected -> F a.health == recovered)",
        "  three_healthy_per_group  combined (three-valued): (f2 && f3)",
        ],
    );
    insta::assert_snapshot!("epidemic", r);
}

/// Runs the binary in `tests/fixtures/population` with an empty stdin.
fn run(args: &[&str]) -> Run {
    run_in(&fixtures().join("population"), args, Input::Null)
}

/// `--block crowd` reports the population alone, `--block door` the monitor
/// alone, no `--block` both; an unknown name is a usage error.
#[test]
fn blocks_are_selected_by_name() {
    let crowd = run(&["explain", "mixed.hind", "--block", "crowd"]);
    assert_eq!(crowd.code, Some(0), "{}", crowd.stderr);
    assert!(crowd.stdout.contains("population crowd: capacity 1024"));
    assert!(!crowd.stdout.contains("monitor door"));
    // all_ok is past-time (a top output); some_ok_forever is combined over f0.
    assert!(crowd
        .stdout
        .contains("  some_ok_forever  combined (three-valued): f0\n"));
    assert!(crowd.stdout.contains("  f0  exists a in agents: G a.ok\n"));

    let door = run(&["explain", "mixed.hind", "--block", "door"]);
    assert_eq!(door.code, Some(0), "{}", door.stderr);
    assert!(door.stdout.contains("monitor door"));
    assert!(!door.stdout.contains("population crowd"));

    let both = run(&["explain", "mixed.hind"]);
    assert_eq!(both.code, Some(0), "{}", both.stderr);
    assert!(both.stdout.contains("monitor door") && both.stdout.contains("population crowd"));
    assert!(both.stdout.contains("1 population (2 properties)"));

    let none = run(&["explain", "mixed.hind", "--block", "nope"]);
    assert_eq!(none.code, Some(2));
    assert!(none.stdout.is_empty());
    assert!(
        none.stderr.contains(
            "no monitor, system or population block named `nope` \
                       (monitor blocks: `door`; population blocks: `crowd`)"
        ),
        "{}",
        none.stderr
    );
}
