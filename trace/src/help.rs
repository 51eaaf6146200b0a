//! Help text shared by `hindsight check --help` and the `--help` of standalone
//! monitors: the trace and output formats and the exit codes.

/// The TRACE FORMAT, OUTPUT FORMAT and EXIT STATUS sections of `--help`.
pub const FORMATS: &str = "\
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
  twice, a value of the wrong type, an unknown enum variant, malformed JSON or
  a line that is not UTF-8 is an error. Errors go to stderr as
    error: trace.jsonl:7:12: input `pkg` expects int, found string \"x\"
  (file:line:column). Verdict lines of the steps before the bad line have
  already been printed; nothing is printed for the bad line or after it.

OUTPUT FORMAT (stdout, JSON Lines)
  One line per step, properties in declaration order, then one end line with
  the finite-trace verdicts (the trace is taken as complete):
    {\"step\": 0, \"alarm_ok\": \"true\", \"responds\": \"?\"}
    {\"step\": 1, \"alarm_ok\": \"false\", \"responds\": \"?\"}
    {\"end\": true, \"alarm_ok\": \"false\", \"responds\": \"false\"}
  A verdict is \"true\", \"false\" or \"?\" (not decided yet). If stdout is
  closed early (e.g. `| head`), the command stops quietly.

EXIT STATUS
  0  the trace was read to the end (or stdout was closed early)
  1  --fail-on-violation was given and some verdict was \"false\"
  2  usage error, spec error, unreadable or malformed trace, or write error";
