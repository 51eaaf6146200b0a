//! End-to-end tests of `hindsight check` on `population` blocks: the binary
//! is run on the fixtures in `tests/fixtures/population/` (from the fixtures
//! directory, so paths in messages are short). Expected verdicts are worked
//! out by hand in the comments; every error kind has a snapshot of the whole
//! run (exit status, stdout, stderr).

use crate::common::{fixtures, run};
use std::path::Path;

const TOWN: &str = "population/town.hind";
const MIXED: &str = "population/mixed.hind";
/// What `check` and `build` say of mixed.hind without `--block`.
const MIXED_NEEDS_A_BLOCK: &str = "error: population/mixed.hind: several monitor, system or \
     population blocks; choose one with `--block NAME` (monitor blocks: `door`; population \
     blocks: `crowd`)\n";

/// The verdict lines of `town.jsonl`, worked out by hand.
///
/// Agents: 0 (female, 30), 1 (male, 70), 2 (female, 65); health per step
/// (days 1..4): agent 0 well, sick, immune, immune; agent 1 well, well,
/// well, sick; agent 2 well, well, sick, sick. `females` = {0, 2}, `old` =
/// {1, 2} (attributes are constant here).
///
/// - someone_sick (exists, past): nobody sick at step 0, someone at 1..3.
/// - few_sick (count <= 1): 0, 1, 1 sick, then 2 at step 3 → false.
/// - old_well (forall over old, past): agent 2 is sick from step 2 → false.
/// - females_fall_ill (forall females: F sick): agent 0 is sick at step 1
///   (true), agent 2 at step 2 → all members true at step 2.
/// - stays_well (atleast 2 of 3: G !sick): agent 0 fails at 1 (one false
///   allowed), agent 2 at 2 → 2 false > 3 - 2 → false from step 2.
/// - next_sick (exists: F sick, with reset): true at step 1 (agent 0),
///   restarts at 2; true at 2 (agent 2), restarts at 3; true at 3 (agents 1,
///   2); the run restarted at the last step, so the end verdict is the one
///   that ended it: true, 3 satisfactions.
/// - all_immune (forall females: F immune, with reset): agent 0 is immune
///   from step 2, agent 2 never → `?` throughout; at the end agent 2's
///   `F immune` fails → false, counted as 1 violation (the unfinished run).
/// - late (F day >= 3, with reset): `?` on days 1, 2; true on day 3 (restart),
///   true on day 4 → 2 satisfactions, end true.
/// - the end line audits the steps: the past-time someone_sick (false at 0),
///   few_sick (at 3) and old_well (at 2, 3) did not hold at every step, so
///   end false; stays_well was false at steps 2 and 3.
const TOWN_LINES: [&str; 5] = [
    r#"{"step": 0, "someone_sick": "false", "few_sick": "true", "old_well": "true", "females_fall_ill": "?", "stays_well": "?", "next_sick": "?", "all_immune": "?", "late": "?"}"#,
    r#"{"step": 1, "someone_sick": "true", "few_sick": "true", "old_well": "true", "females_fall_ill": "?", "stays_well": "?", "next_sick": "true", "all_immune": "?", "late": "?"}"#,
    r#"{"step": 2, "someone_sick": "true", "few_sick": "true", "old_well": "false", "females_fall_ill": "true", "stays_well": "false", "next_sick": "true", "all_immune": "?", "late": "true"}"#,
    r#"{"step": 3, "someone_sick": "true", "few_sick": "false", "old_well": "false", "females_fall_ill": "true", "stays_well": "false", "next_sick": "true", "all_immune": "?", "late": "true"}"#,
    r#"{"end": true, "someone_sick": "false", "someone_sick.false_steps": 1, "someone_sick.first_false": 0, "few_sick": "false", "few_sick.false_steps": 1, "few_sick.first_false": 3, "old_well": "false", "old_well.false_steps": 2, "old_well.first_false": 2, "females_fall_ill": "true", "females_fall_ill.false_steps": 0, "females_fall_ill.first_false": null, "stays_well": "false", "stays_well.false_steps": 2, "stays_well.first_false": 2, "next_sick": "true", "next_sick.satisfactions": 3, "next_sick.violations": 0, "next_sick.false_steps": 0, "next_sick.first_false": null, "all_immune": "false", "all_immune.satisfactions": 0, "all_immune.violations": 1, "all_immune.false_steps": 0, "all_immune.first_false": null, "late": "true", "late.satisfactions": 2, "late.violations": 0, "late.false_steps": 0, "late.first_false": null}"#,
];

#[test]
fn the_town_trace_gives_the_hand_worked_verdicts() {
    // The trace has a blank line (line 3) and a line with keys out of order
    // and a qualified enum value: neither changes the steps.
    let r = run(&["check", TOWN, "--trace", "population/town.jsonl"], "");
    assert_eq!(r.stderr, "");
    assert_eq!(r.code, Some(0));
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines, TOWN_LINES);
}

#[test]
fn fail_on_violation_exits_1_on_a_false_verdict() {
    let r = run(
        &[
            "check",
            TOWN,
            "--trace",
            "population/town.jsonl",
            "--fail-on-violation",
        ],
        "",
    );
    assert_eq!(r.code, Some(1));
    assert_eq!(r.stdout.lines().count(), TOWN_LINES.len());
    // crowd_bad: agent 0 is not ok at step 1 → all_ok false there.
    let flags = ["--block", "crowd", "--fail-on-violation"];
    let bad = run(
        &[
            &["check", MIXED, "--trace", "population/crowd_bad.jsonl"][..],
            &flags[..],
        ]
        .concat(),
        "",
    );
    assert_eq!(bad.code, Some(1));
    assert_eq!(
        bad.stdout.lines().nth(1),
        Some(r#"{"step": 1, "all_ok": "false", "some_ok_forever": "?"}"#)
    );
    // crowd_ok: everyone ok at both steps → all_ok true; some_ok_forever is
    // `?` at every step (G is never decided on a prefix) and true at the end.
    let ok = run(
        &[
            &["check", MIXED, "--trace", "population/crowd_ok.jsonl"][..],
            &flags[..],
        ]
        .concat(),
        "",
    );
    assert_eq!(ok.stderr, "");
    assert_eq!(ok.code, Some(0));
    assert_eq!(
        ok.stdout,
        "{\"step\": 0, \"all_ok\": \"true\", \"some_ok_forever\": \"?\"}\n\
         {\"step\": 1, \"all_ok\": \"true\", \"some_ok_forever\": \"?\"}\n\
         {\"end\": true, \"all_ok\": \"true\", \"all_ok.false_steps\": 0, \"all_ok.first_false\": null, \
         \"some_ok_forever\": \"true\", \"some_ok_forever.false_steps\": 0, \"some_ok_forever.first_false\": null}\n"
    );
}

/// The verdict lines of block `block` of mixed.hind over `trace` (given on
/// stdin); the run must succeed.
fn mixed_verdicts(block: &str, trace: &str) -> String {
    let r = run(&["check", MIXED, "--block", block, "--trace", "-"], trace);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    r.stdout
}

#[test]
fn block_chooses_between_a_monitor_and_a_population() {
    // The population, from stdin.
    assert_eq!(
        mixed_verdicts("crowd", "{\"agents\": [{\"ok\": false}]}\n"),
        "{\"step\": 0, \"all_ok\": \"false\", \"some_ok_forever\": \"false\"}\n\
         {\"end\": true, \"all_ok\": \"false\", \"all_ok.false_steps\": 1, \"all_ok.first_false\": 0, \
         \"some_ok_forever\": \"false\", \"some_ok_forever.false_steps\": 1, \"some_ok_forever.first_false\": 0}\n"
    );
    // The monitor of the same file reads monitor traces.
    assert_eq!(
        mixed_verdicts("door", "{\"open\": true}\n"),
        "{\"step\": 0, \"shut\": \"false\"}\n\
         {\"end\": true, \"shut\": \"false\", \"shut.false_steps\": 1, \"shut.first_false\": 0}\n"
    );
    // Without --block, or with an unknown name, the blocks of both kinds are listed.
    let r = run(&["check", MIXED, "--trace", "-"], "");
    assert_eq!(r.code, Some(2));
    assert_eq!(r.stderr, MIXED_NEEDS_A_BLOCK);
    let r = run(&["check", MIXED, "--block", "crow", "--trace", "-"], "");
    assert_eq!(r.code, Some(2));
    assert_eq!(
        r.stderr,
        "error: population/mixed.hind: no monitor, system or population block named `crow` \
         (monitor blocks: `door`; population blocks: `crowd`)\n"
    );
    assert_eq!(r.stdout, "");
}

/// `--explain` on a population names, per changed verdict, the agents that
/// decided each quantifier the property reads. Worked out by hand from
/// town.jsonl: agent 0 falls sick at step 1 and is immune from step 2; agent
/// 2 (old, female) is sick from step 2; agent 1 (old) from step 3.
#[test]
fn explain_names_the_agents_that_decided() {
    let r = run(
        &[
            "check",
            TOWN,
            "--explain",
            "--trace",
            "population/town.jsonl",
        ],
        "",
    );
    assert_eq!((r.stderr.as_str(), r.code), ("", Some(0)));
    let explained: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("{\"explain\""))
        .collect();
    let expected = [
        r#"{"explain": "someone_sick", "step": 0, "verdict": "false", "why": "exists a in agents: a.health == sick: 0 of 3 members hold, 3 do not (agents 0, 1, 2)"}"#,
        r#"{"explain": "few_sick", "step": 0, "verdict": "true", "why": "(count a in agents: a.health == sick): 0 of 3 members hold, 3 do not (agents 0, 1, 2)"}"#,
        r#"{"explain": "old_well", "step": 0, "verdict": "true", "why": "forall a in old: a.health != sick: 2 of 2 members hold (agents 1, 2), 0 do not"}"#,
        r#"{"explain": "someone_sick", "step": 1, "verdict": "true", "why": "exists a in agents: a.health == sick: 1 of 3 members hold (agent 0), 2 do not (agents 1, 2)"}"#,
        r#"{"explain": "next_sick", "step": 1, "verdict": "true", "why": "(exists a in agents: F a.health == sick): of 3 members, 1 decided true (agent 0), 0 decided false, 2 undecided"}"#,
        r#"{"explain": "old_well", "step": 2, "verdict": "false", "why": "forall a in old: a.health != sick: 1 of 2 members hold (agent 1), 1 does not (agent 2)"}"#,
        r#"{"explain": "females_fall_ill", "step": 2, "verdict": "true", "why": "forall a in females: F a.health == sick: of 2 members, 2 decided true (agents 0, 2), 0 decided false, 0 undecided"}"#,
        r#"{"explain": "stays_well", "step": 2, "verdict": "false", "why": "atleast 2 a in agents: G a.health != sick: of 3 members, 0 decided true, 2 decided false (agents 0, 2), 1 undecided"}"#,
        r#"{"explain": "next_sick", "step": 2, "verdict": "true", "why": "(exists a in agents: F a.health == sick): of 3 members, 1 decided true (agent 2), 0 decided false, 2 undecided"}"#,
    ];
    assert_eq!(
        explained.get(..expected.len()),
        Some(&expected[..]),
        "{}",
        r.stdout
    );
    // Step 3: two sick agents break few_sick; at the end, the females' run of
    // all_immune still waits on agent 2, which the end of the trace decides false.
    // A future-time property over globals is explained as a monitor's is.
    assert!(explained.contains(&r#"{"explain": "late", "step": 2, "verdict": "true", "why": "required F !(day < 3); at this step day < 3 = false"}"#));
    assert!(explained.contains(&r#"{"explain": "few_sick", "step": 3, "verdict": "false", "why": "(count a in agents: a.health == sick): 2 of 3 members hold (agents 1, 2), 1 does not (agent 0)"}"#));
    assert_eq!(
        explained.last().copied(),
        Some(
            r#"{"explain": "all_immune", "end": true, "verdict": "false", "why": "at the last step: (forall a in females: F a.health == immune): of 2 members, 1 decided true (agent 0), 0 decided false, 1 undecided"}"#
        )
    );
}

/// `hindsight build` of a spec with several blocks needs `--block` and lists
/// the population among the blocks (building one is in build.rs).
#[test]
fn build_of_a_mixed_spec_needs_a_block() {
    let r = run(&["build", MIXED, "-o", "never-written"], "");
    assert_eq!(r.code, Some(2));
    assert_eq!(r.stderr, MIXED_NEEDS_A_BLOCK);
    assert!(!fixtures().join("never-written").exists());
}

/// Every command that takes `--block` lists the population blocks with the
/// others when the name is unknown, and says when the name is an enum's.
#[test]
fn block_errors_list_population_blocks() {
    for command in [
        &["check", MIXED, "--trace", "-", "--block", "nope"][..],
        &["explain", MIXED, "--block", "nope"][..],
        &["build", MIXED, "-o", "never-written", "--block", "nope"][..],
    ] {
        let r = run(command, "");
        assert_eq!((r.stdout.as_str(), r.code), ("", Some(2)), "{command:?}");
        assert_eq!(
            r.stderr,
            "error: population/mixed.hind: no monitor, system or population block named \
             `nope` (monitor blocks: `door`; population blocks: `crowd`)\n",
            "{command:?}"
        );
    }
    let r = run(&["check", TOWN, "--trace", "-", "--block", "Health"], "");
    assert_eq!(r.code, Some(2));
    assert_eq!(
        r.stderr,
        "error: population/town.hind: `Health` is an enum, but only monitor, system and \
         population blocks can be run (population blocks: `town`)\n"
    );
    assert!(!fixtures().join("never-written").exists());
}

#[test]
fn a_long_trace_streams_in_constant_memory() {
    // 100,000 lines of 3 agents: agent 0 always ok, agent 1 not ok at step
    // 50,000 only, agent 2 ok at even steps. all_ok is true exactly at even
    // steps other than 50,000; some_ok_forever stays `?` (agent 0's `G ok` is
    // never decided on a prefix, so `exists` is neither true nor false) and
    // is true at the end (agent 0's G ok held over the whole trace). all_ok
    // was false at the 50,000 odd steps and at step 50,000: 50,001, from 1.
    const STEPS: usize = 100_000;
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("population_long.jsonl");
    let mut trace = String::with_capacity(STEPS * 60);
    for i in 0..STEPS {
        trace.push_str(&format!(
            "{{\"agents\": [{{\"ok\": true}}, {{\"ok\": {}}}, {{\"ok\": {}}}]}}\n",
            i != 50_000,
            i % 2 == 0
        ));
    }
    std::fs::write(&path, trace).expect("the trace is written");
    let path = path.display().to_string();
    let r = run(&["check", MIXED, "--block", "crowd", "--trace", &path], "");
    assert_eq!(r.stderr, "");
    assert_eq!(r.code, Some(0));
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), STEPS + 1);
    let line = |step: usize, all_ok: &str| {
        format!("{{\"step\": {step}, \"all_ok\": \"{all_ok}\", \"some_ok_forever\": \"?\"}}")
    };
    assert_eq!(lines[49_998], line(49_998, "true"));
    assert_eq!(lines[49_999], line(49_999, "false"));
    assert_eq!(lines[50_000], line(50_000, "false"));
    assert_eq!(lines[50_002], line(50_002, "true"));
    assert_eq!(lines[STEPS - 1], line(STEPS - 1, "false"));
    assert_eq!(
        lines[STEPS],
        r#"{"end": true, "all_ok": "false", "all_ok.false_steps": 50001, "all_ok.first_false": 1, "some_ok_forever": "true", "some_ok_forever.false_steps": 0, "some_ok_forever.first_false": null}"#
    );
}

/// The first line of the town, good (its verdicts are printed before any error).
const GOOD: &str = r#"{"agents": [{"health": "well", "female": true, "age": 30}, {"health": "well", "female": false, "age": 70}], "globals": {"day": 1}}"#;

/// Runs the town on `GOOD` then `bad` from stdin; the run stops at line 2.
fn town_error(bad: &str) -> String {
    let r = run(
        &["check", TOWN, "--trace", "-"],
        &format!("{GOOD}\n{bad}\n{GOOD}\n"),
    );
    assert_eq!(r.code, Some(2), "{}", r.transcript());
    assert_eq!(r.stdout.lines().count(), 1, "{}", r.transcript());
    r.transcript()
}

#[test]
fn error_not_an_object() {
    insta::assert_snapshot!("not_an_object", town_error(r#"["agents"]"#));
}

#[test]
fn error_unknown_key() {
    insta::assert_snapshot!(
        "unknown_key",
        town_error(r#"{"agents": [], "globals": {"day": 2}, "agent": []}"#)
    );
}

#[test]
fn error_missing_agents() {
    insta::assert_snapshot!("missing_agents", town_error(r#"{"globals": {"day": 2}}"#));
}

#[test]
fn error_agents_not_an_array() {
    insta::assert_snapshot!(
        "agents_not_an_array",
        town_error(r#"{"agents": {"health": "well"}, "globals": {"day": 2}}"#)
    );
}

#[test]
fn error_agent_not_an_object() {
    insta::assert_snapshot!(
        "agent_not_an_object",
        town_error(
            r#"{"agents": [{"health": "well", "female": true, "age": 30}, "sick"], "globals": {"day": 2}}"#
        )
    );
}

#[test]
fn error_missing_attribute() {
    insta::assert_snapshot!(
        "missing_attribute",
        town_error(
            r#"{"agents": [{"health": "well", "female": true, "age": 30}, {"health": "well", "female": false}], "globals": {"day": 2}}"#
        )
    );
}

#[test]
fn error_unknown_attribute() {
    insta::assert_snapshot!(
        "unknown_attribute",
        town_error(
            r#"{"agents": [{"health": "well", "female": true, "age": 30, "name": "Ann"}], "globals": {"day": 2}}"#
        )
    );
}

#[test]
fn error_duplicate_attribute() {
    insta::assert_snapshot!(
        "duplicate_attribute",
        town_error(
            r#"{"agents": [{"health": "well", "female": true, "age": 30, "age": 31}], "globals": {"day": 2}}"#
        )
    );
}

#[test]
fn error_wrong_type() {
    insta::assert_snapshot!(
        "wrong_type",
        town_error(
            r#"{"agents": [{"health": "well", "female": true, "age": 30}, {"health": "well", "female": "no", "age": 70}], "globals": {"day": 2}}"#
        )
    );
}

#[test]
fn error_unknown_variant() {
    insta::assert_snapshot!(
        "unknown_variant",
        town_error(
            r#"{"agents": [{"health": "dead", "female": true, "age": 30}], "globals": {"day": 2}}"#
        )
    );
}

#[test]
fn error_missing_globals() {
    insta::assert_snapshot!(
        "missing_globals",
        town_error(r#"{"agents": [{"health": "well", "female": true, "age": 30}]}"#)
    );
}

#[test]
fn error_missing_global() {
    insta::assert_snapshot!(
        "missing_global",
        town_error(r#"{"agents": [{"health": "well", "female": true, "age": 30}], "globals": {}}"#)
    );
}

#[test]
fn error_unknown_global() {
    insta::assert_snapshot!(
        "unknown_global",
        town_error(
            r#"{"agents": [{"health": "well", "female": true, "age": 30}], "globals": {"day": 2, "week": 1}}"#
        )
    );
}

#[test]
fn error_global_wrong_type() {
    insta::assert_snapshot!(
        "global_wrong_type",
        town_error(
            r#"{"agents": [{"health": "well", "female": true, "age": 30}], "globals": {"day": "Monday"}}"#
        )
    );
}

#[test]
fn error_malformed_json() {
    insta::assert_snapshot!(
        "malformed_json",
        town_error(
            r#"{"agents": [{"health": "well", "female": true, "age": 30},], "globals": {"day": 2}}"#
        )
    );
}

#[test]
fn error_over_capacity() {
    // The town holds 4 agents (`capacity 4;`); this line lists 5.
    let agent = r#"{"health": "well", "female": true, "age": 30}"#;
    let line = format!(
        r#"{{"agents": [{agent}, {agent}, {agent}, {agent}, {agent}], "globals": {{"day": 2}}}}"#
    );
    insta::assert_snapshot!("over_capacity", town_error(&line));
}

#[test]
fn error_agent_count_changed() {
    // Lines 1-6 list 10 agents, line 7 lists 9: six verdict lines, then the error.
    let r = run(
        &[
            "check",
            MIXED,
            "--block",
            "crowd",
            "--trace",
            "population/count_changed.jsonl",
        ],
        "",
    );
    assert_eq!(r.stdout.lines().count(), 6);
    insta::assert_snapshot!("agent_count_changed", r.transcript());
}

/// `select` indexes populations in declaration order, after the monitors and
/// systems, the same order as `Compiled::populations`.
#[test]
fn select_indexes_populations_in_declaration_order() {
    use hindsight_cli::compile::{select, Block};
    let source = "monitor m { input x: bool; property p = x; }\n\
                  population a { agent { ok: bool } property all = forall i in agents: i.ok; }\n\
                  population b { agent { ok: bool } property any = exists i in agents: i.ok; }\n";
    let compiled = hindsight_compiler::compile(source).expect("the spec compiles");
    let parse = || hindsight_grammar::parse(source).ok();
    assert_eq!(
        select(&compiled.spec, Some("m"), parse),
        Ok(Block::Monitor(0))
    );
    assert_eq!(
        select(&compiled.spec, Some("a"), parse),
        Ok(Block::Population(0))
    );
    assert_eq!(
        select(&compiled.spec, Some("b"), parse),
        Ok(Block::Population(1))
    );
    assert_eq!(compiled.program.populations[1].name, "b");
    assert_eq!(
        select(&compiled.spec, None, parse),
        Err(
            "several monitor, system or population blocks; choose one with `--block NAME` \
             (monitor blocks: `m`; population blocks: `a`, `b`)"
                .to_string()
        )
    );
}
