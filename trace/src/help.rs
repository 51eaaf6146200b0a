//! Help text shared by `hindsight check --help` and the `--help` of standalone
//! monitors: the trace and output formats and the exit codes.

/// The TRACE FORMAT and OUTPUT FORMAT sections: traces of a `monitor` block.
macro_rules! monitor_formats {
    () => {
        "\
TRACE FORMAT (JSON Lines, read line by line in constant memory)
  One JSON value per line, one step per line. Blank lines are ignored (but
  counted in line numbers). Each step is either
    an object giving every input of the monitor:
      {\"request\": true, \"pkg\": 3, \"status\": \"passed\"}
      bool  <- true / false
      int   <- a JSON integer that fits in i64
      float <- any JSON number
      enum  <- a string naming a variant: \"passed\" or \"Status::passed\"
    or an array of the bool inputs that are true (all others are false),
    allowed only when every input of the monitor is bool:
      [\"request\", \"alarm\"]
  A missing input, an unknown key (e.g. a typo'd input name), an input given
  twice, a value of the wrong type, an unknown enum variant, malformed JSON, a
  line that is not UTF-8 or longer than --max-line-bytes (16 MiB by default;
  the rest of it is not read) is an error. A UTF-8 byte order mark is skipped
  at the start of the trace and an error at the start of a later line.
  Messages quote at most 80 characters of a value. Errors go to stderr as
    error: trace.jsonl:7:12: input `pkg` expects int, found string \"x\"
  (file:line:column). Verdict lines of the steps before the bad line have
  already been printed; nothing is printed for the bad line or after it.
  An input declared with `default V` or `hold` may be left out (or null).

LOG RECORDS (a monitor whose inputs say `from`, or with `steps where`)
  Each line is a JSON object; an input is read at its JSON Pointer
  (`from \"/attributes/gen_ai.tool.name\"`), other keys are ignored, and only
  the lines the step filter holds on are steps (the others are skipped but
  keep their line numbers). A value of the wrong type is an error naming the
  input and its pointer; a pointer no line had a value at is a warning on
  stderr at the end, with the closest key seen (see VACUOUS RUNS).

OUTPUT FORMAT (stdout, JSON Lines)
  One line per step, properties in declaration order, then one end line that
  audits the run (the trace is taken as complete):
    {\"step\": 0, \"alarm_ok\": \"true\", \"responds\": \"?\"}
    {\"step\": 1, \"alarm_ok\": \"false\", \"responds\": \"?\"}
    {\"end\": true, \"alarm_ok\": \"false\", \"alarm_ok.false_steps\": 1, \"alarm_ok.first_false\": 1, \"responds\": \"false\", \"responds.false_steps\": 0, \"responds.first_false\": null}
  A verdict is \"true\", \"false\" or \"?\" (not decided yet). On the end
  line a past-time property's verdict is whether it held at every step, a
  future-time one's its finite-trace verdict; P.false_steps counts the step
  lines where P was \"false\" and P.first_false is the first (or null). If stdout is
  closed early (e.g. `| head`), the command stops quietly; with
  --fail-on-violation it reads and checks the rest of the trace without
  printing, so the exit status still covers every line."
    };
}

/// The SYSTEM TRACE FORMAT and SYSTEM OUTPUT FORMAT sections: traces of a
/// `system` block.
macro_rules! system_formats {
    () => {
        "\
SYSTEM TRACE FORMAT (for a `system` block)
  One event per line, an object with its keys in any order:
    {\"lifeline\": \"TestRunner\", \"kind\": \"send\", \"to\": \"Committer\", \"msg\": \"m1\"}
    {\"lifeline\": \"Committer\", \"kind\": \"recv\", \"msg\": \"m1\"}
    {\"lifeline\": \"TestRunner\", \"kind\": \"act\", \"store\": {\"status\": \"passed\", \"cand\": 7}}
    {\"lifeline\": \"Committer\", \"kind\": \"choice\"}
  `store` (optional on any kind) gives the lifeline's variables the event
  changes, typed as monitor inputs are; the others keep their values. A send
  needs `to` and `msg`, a receive needs `msg`; other kinds take neither.
  `label` (optional on a send or receive) names the message for the system's
  protocols: {\"lifeline\": \"alice\", \"kind\": \"send\", \"to\": \"dave\",
  \"msg\": \"m1\", \"label\": \"meet\"}; a receive takes its send's label, and
  giving another is an error. A message without a label is no event of any
  protocol.
  Events come in an order consistent with causality: a message is received
  after its send, once, by the lifeline it was sent to. A message id names
  one message in transit; it can be reused once that message is received.
  A receive of a message not in transit (never sent or already received) or
  by another lifeline, a send to an undeclared lifeline, a store with an
  unknown variable, an unknown key and the errors of monitor traces are
  errors, reported the same way. At most --max-in-transit messages (2^18 by
  default, about 450 bytes each) may be in transit at once: one more send is
  an error, so a log whose receives are not recorded cannot exhaust memory.

SYSTEM OUTPUT FORMAT (stdout, JSON Lines)
  One line per choice event of a lifeline that owns guards, giving its guards
  in declaration order; there is no end line:
    {\"event\": 7, \"lifeline\": \"Committer\", \"may_merge\": \"true\"}
  `event` is the 0-based index of the event among the trace's events (blank
  lines are not counted, unlike the line numbers of error messages).
  A system with protocols also prints, at every message event some protocol
  constrains, every protocol's verdict (\"false\" after a violation, \"true\"
  where the protocol may end, \"?\" where it needs more events), and an end
  line with each protocol's verdict at the end of the trace (\"?\" becomes
  \"false\"):
    {\"event\": 2, \"lifeline\": \"carol\", \"aip1\": \"false\"}
    {\"end\": true, \"aip1\": \"false\"}
  With --partition, each group's monitor of each protocol is reported beside
  it as PROTOCOL[a,b] (its lifelines, in the partition's order)."
    };
}

/// The POPULATION TRACE FORMAT section: traces of a `population` block.
macro_rules! population_formats {
    () => {
        "\
POPULATION TRACE FORMAT (for a `population` block)
  One step of the whole population per line, an object with its keys in any
  order:
    {\"agents\": [{\"infected\": false, \"age\": 30}, {\"infected\": true, \"age\": 61}], \"globals\": {\"day\": 1}}
  `agents` lists one object per agent (agent ids are the positions, from 0),
  each giving every attribute, typed as monitor inputs are; `globals` gives
  every global and may be left out only when the population declares none.
  The number of agents is fixed by the first line and is at most the
  population's capacity (1024 unless the block says `capacity N;`). A missing
  or unknown attribute (the message names the agent), a changed number of
  agents, too many agents and the errors of monitor traces are errors,
  reported the same way:
    error: days.jsonl:7:1: 9 agents, but the trace started with 10 (the number of agents is fixed for a trace)
  Verdict lines are those of monitors: one per step, then the end line."
    };
}

/// The EXIT STATUS section.
macro_rules! exit_status {
    () => {
        "\
VACUOUS RUNS
  A run that checked nothing somewhere says so on stderr at the end: a trace
  (or session) that gave no step, and each place of the spec that no line of
  any trace matched (an input's pointer or a plain input absent from every
  step, a filter, the session end clause, a lifeline's variable, a guard
  owner that made no choice, the protocols), with the closest key seen. A
  first line that is an OpenTelemetry export is an error naming --format
  otlp.

EXIT STATUS
  0  the trace was read to the end (or stdout was closed early)
  1  --fail-on-violation was given and some property's or protocol's
     verdict was \"false\" (a system's guards are decisions, not properties:
     a false guard is no violation)
  2  usage error, spec error, unreadable or malformed trace (in a keyed log
     or an export, a bad line ends only its session and the rest is
     checked), or write error
  3  --fail-on-violation was given, no verdict was \"false\", and the run was
     vacuous (see above); --allow-vacuous exits 0 instead"
    };
}

/// The TRACE FORMAT, OUTPUT FORMAT and EXIT STATUS sections of the `--help`
/// of standalone monitors built from a `monitor` block.
pub const FORMATS: &str = concat!(monitor_formats!(), "\n\n", exit_status!());

/// The sections of the `--help` of standalone monitors built from a `system`
/// block: the SYSTEM TRACE FORMAT and SYSTEM OUTPUT FORMAT (which refer to
/// monitor traces for value types and errors, so those come first).
pub const SYSTEM_FORMATS: &str = concat!(
    monitor_formats!(),
    "\n\n",
    system_formats!(),
    "\n\n",
    exit_status!()
);

/// The sections of the `--help` of standalone monitors built from a
/// `population` block.
pub const POPULATION_FORMATS: &str = concat!(
    monitor_formats!(),
    "\n\n",
    population_formats!(),
    "\n\n",
    exit_status!()
);

/// The sections of `hindsight check --help`: every trace form, then EXIT STATUS.
pub const CHECK_FORMATS: &str = concat!(
    monitor_formats!(),
    "\n\n",
    system_formats!(),
    "\n\n",
    population_formats!(),
    "\n\n",
    exit_status!()
);

#[cfg(test)]
mod tests {
    use super::{CHECK_FORMATS, FORMATS, POPULATION_FORMATS, SYSTEM_FORMATS};

    #[test]
    fn check_help_adds_the_system_sections_before_the_exit_status() {
        let at = |section: &str| CHECK_FORMATS.find(&format!("\n{section} ("));
        let order = [
            at("OUTPUT FORMAT"),
            at("SYSTEM TRACE FORMAT"),
            at("SYSTEM OUTPUT FORMAT"),
            at("POPULATION TRACE FORMAT"),
        ];
        assert!(order.iter().all(Option::is_some));
        assert!(order.windows(2).all(|w| w[0] < w[1]));
        assert!(CHECK_FORMATS.starts_with("TRACE FORMAT ("));
        assert!(CHECK_FORMATS.contains("\n\nEXIT STATUS\n"));
        assert!(CHECK_FORMATS.find("\nEXIT STATUS") > order[3]);
        assert!(!FORMATS.contains("SYSTEM") && !FORMATS.contains("POPULATION"));
        assert!(
            SYSTEM_FORMATS.contains("\nSYSTEM OUTPUT FORMAT (")
                && !SYSTEM_FORMATS.contains("POPULATION")
        );
        assert!(
            POPULATION_FORMATS.contains("\nPOPULATION TRACE FORMAT (")
                && !POPULATION_FORMATS.contains("SYSTEM")
        );
    }
}
