//! The registry of diagnostic codes: every code any stage emits, with the stage
//! and meaning docs/errors.md gives it (a test checks the two agree, row by row).

use std::fmt;

/// A stable diagnostic code of docs/errors.md. `Display` writes it as in the
/// docs (`E0200`), so `Diagnostic::with_code(Code::UnknownName)` works as is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// E0001: unexpected character.
    UnexpectedCharacter,
    /// E0002: unterminated block comment.
    UnterminatedComment,
    /// E0003: number literal out of range or malformed.
    MalformedNumber,
    /// E0004: string literal unterminated or malformed.
    MalformedString,
    /// E0100: unexpected token.
    UnexpectedToken,
    /// E0101: unexpected end of file.
    UnexpectedEof,
    /// E0200: unknown name.
    UnknownName,
    /// E0201: duplicate definition.
    DuplicateDefinition,
    /// E0202: unknown enum variant.
    UnknownVariant,
    /// E0203: unknown type.
    UnknownType,
    /// E0204: recursive `let`.
    RecursiveLet,
    /// E0205: ambiguous bare variant.
    AmbiguousVariant,
    /// E0206: a name used in the wrong role.
    WrongRole,
    /// E0207: an `enum` without variants.
    EmptyEnum,
    /// E0300: comparison of different types.
    TypeMismatch,
    /// E0301: non-bool expression used as a formula.
    NotAFormula,
    /// E0302: non-numeric operand of arithmetic or ordering comparison.
    NotNumeric,
    /// E0303: reserved, never emitted (bool operands are E0302 or formulas).
    BoolOperand,
    /// E0400: bound with lower end above upper end.
    BadBound,
    /// E0401: future operator inside a past operator.
    FutureInPast,
    /// E0402: `inf` upper bound on a future operator.
    InfiniteFutureBound,
    /// E0403: construct not allowed in this kind of block.
    WrongBlock,
    /// E0404: bound too large for a fixed-size monitor.
    BoundTooLarge,
    /// E0405: name cannot be used in generated Rust code.
    UnusableName,
    /// E0406: no longer emitted (an enum without variants is E0207).
    CodegenEmptyEnum,
    /// E0407: a future-time property's automaton is too large or too costly.
    AutomatonTooLarge,
    /// E0408: a future-time property reads too many distinct atoms.
    TooManyAtoms,
    /// E0409: future-time operator in a guard, a system's `let` or a group's predicate.
    FutureInGuard,
    /// E0410: a future-time quantifier outside the monitorable fragment.
    MisplacedFutureQuantifier,
    /// E0411: a nested quantifier's body reads an enclosing quantifier's agent.
    OuterAgentAttribute,
    /// E0412: `capacity N;` out of range.
    CapacityOutOfRange,
    /// E0413: a field mapping or step filter trace readers cannot follow.
    BadMapping,
    /// E0414: a duration bound in a block without step times.
    MissingTime,
    /// E0415: a metric operator whose exact state cannot be bounded.
    MetricFragment,
    /// E0416: a protocol whose monitor cannot be bounded.
    UnboundedProtocol,
    /// E0417: a protocol that refers to itself before any event.
    UnguardedRecursion,
    /// E0418: an event type against its protocol's communication model.
    WrongCommunication,
    /// E0900: beyond a size limit.
    SizeLimitExceeded,
    /// W0100: `with reset` on a past-time property.
    UselessReset,
    /// W0101: a future-time property can never be satisfied.
    Unsatisfiable,
    /// W0102: a future-time property holds on every trace.
    Valid,
    /// W0103: a future-time property can reach a state no continuation decides.
    NotMonitorable,
    /// W0104 (a note): no finite prefix decides a future-time property.
    DecidedAtEnd,
}

impl Code {
    /// Every code, in the order of docs/errors.md's table (sorted by code).
    pub const ALL: [Code; ROWS.len()] = {
        let mut all = [Code::UnexpectedCharacter; ROWS.len()];
        let mut k = 0;
        while k < ROWS.len() {
            all[k] = ROWS[k].0;
            k += 1;
        }
        all
    };

    /// The code as diagnostics and docs write it, e.g. `"E0200"`.
    pub const fn as_str(self) -> &'static str {
        self.row().0
    }

    /// The stage column of docs/errors.md, e.g. `"names"`.
    pub const fn stage(self) -> &'static str {
        self.row().1
    }

    /// The meaning column of docs/errors.md, verbatim except that the table's
    /// escaped pipes (`\|`) are plain `|`.
    pub const fn meaning(self) -> &'static str {
        self.row().2
    }

    /// The code's long explanation (`hindsight explain E0200`): what it
    /// means, an example of the mistake and its fix, as Markdown with the
    /// examples in `hind` code blocks (grammar/explain/CODE.md; a test
    /// checks that each mistake gets the code and each fix compiles).
    pub const fn explanation(self) -> &'static str {
        EXPLANATIONS[self as usize].1
    }

    /// The code written `text` (`"E0200"`), if there is one.
    pub fn parse(text: &str) -> Option<Code> {
        Code::ALL.into_iter().find(|code| code.as_str() == text)
    }

    /// Code, stage and meaning: one row of docs/errors.md.
    const fn row(self) -> (&'static str, &'static str, &'static str) {
        let (_, code, stage, meaning) = ROWS[self as usize];
        (code, stage, meaning)
    }
}

impl fmt::Display for Code {
    /// Writes the code as [`Code::as_str`] does.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Each code's long explanation, in the enum's declaration order.
macro_rules! explanations {
    ($($code:literal),* $(,)?) => {
        [$(($code, include_str!(concat!("../explain/", $code, ".md")))),*]
    };
}

/// Every code with its long explanation (grammar/explain/CODE.md), in the
/// enum's declaration order, so that `EXPLANATIONS[code as usize]` is the code's.
const EXPLANATIONS: [(&str, &str); ROWS.len()] = explanations![
    "E0001", "E0002", "E0003", "E0004", "E0100", "E0101", "E0200", "E0201", "E0202", "E0203",
    "E0204", "E0205", "E0206", "E0207", "E0300", "E0301", "E0302", "E0303", "E0400", "E0401",
    "E0402", "E0403", "E0404", "E0405", "E0406", "E0407", "E0408", "E0409", "E0410", "E0411",
    "E0412", "E0413", "E0414", "E0415", "E0416", "E0417", "E0418", "E0900", "W0100", "W0101",
    "W0102", "W0103", "W0104",
];

// Each explanation is the one of its row's code: checked as the crate builds.
const _: () = {
    let mut k = 0;
    while k < ROWS.len() {
        assert!(
            same(EXPLANATIONS[k].0, ROWS[k].1),
            "explanations out of order"
        );
        k += 1;
    }
};

/// Whether `a` and `b` are the same string (`==` is not `const` on `str`).
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut k = 0;
    while k < a.len() {
        if a[k] != b[k] {
            return false;
        }
        k += 1;
    }
    true
}

/// Every code with its docs/errors.md row, in the enum's declaration order
/// (which is the table's), so that `ROWS[code as usize]` is the code's row.
const ROWS: [(Code, &str, &str, &str); 43] = [
    (
        Code::UnexpectedCharacter,
        "E0001",
        "lexer",
        "unexpected character",
    ),
    (
        Code::UnterminatedComment,
        "E0002",
        "lexer",
        "unterminated block comment",
    ),
    (
        Code::MalformedNumber,
        "E0003",
        "lexer",
        "number literal out of range or malformed",
    ),
    (
        Code::MalformedString,
        "E0004",
        "lexer",
        "string literal unterminated, or with an escape JSON does not have, a control character or a lone surrogate",
    ),
    (
        Code::UnexpectedToken,
        "E0100",
        "parser",
        "unexpected token (lists what was expected)",
    ),
    (
        Code::UnexpectedEof,
        "E0101",
        "parser",
        "unexpected end of file (lists what was expected)",
    ),
    (
        Code::UnknownName,
        "E0200",
        "names",
        "unknown name (in a system also: unknown lifeline, group or lifeline variable; \
                 a bare variable that is not one of the lifeline the formula is evaluated on, \
                 with a `L.x` suggestion; a bare variable in a system's `let` outside `@L`); \
                 in a population: unknown group or attribute, a quantifier variable not in \
                 scope, a bare attribute outside a group's predicate (read it as `a.x`), a \
                 group whose base is not `agents` or an earlier group)",
    ),
    (
        Code::DuplicateDefinition,
        "E0201",
        "names",
        "duplicate definition (item, input, let, property, variant, field, lifeline, \
                 group; in a population also attribute, global, a second `agent`/`global` \
                 block or `capacity`, a group named `agents`)",
    ),
    (
        Code::UnknownVariant,
        "E0202",
        "names",
        "unknown enum variant",
    ),
    (Code::UnknownType, "E0203", "names", "unknown type"),
    (Code::RecursiveLet, "E0204", "names", "recursive `let`"),
    (
        Code::AmbiguousVariant,
        "E0205",
        "names",
        "ambiguous bare variant (declared by several enums; write `Enum::variant`)",
    ),
    (
        Code::WrongRole,
        "E0206",
        "names",
        "a name used in the wrong role (e.g. an enum used as a value; a group where a \
                 lifeline is expected; a lifeline or quantifier variable used as a value)",
    ),
    (
        Code::EmptyEnum,
        "E0207",
        "names",
        "an `enum` without variants (no value of it could ever exist)",
    ),
    (
        Code::TypeMismatch,
        "E0300",
        "types",
        "comparison of different types (e.g. an enum with an int)",
    ),
    (
        Code::NotAFormula,
        "E0301",
        "types",
        "non-bool expression used as a formula",
    ),
    (
        Code::NotNumeric,
        "E0302",
        "types",
        "non-numeric operand of arithmetic or ordering comparison",
    ),
    (
        Code::BoolOperand,
        "E0303",
        "types",
        "reserved, not emitted: a bool operand of arithmetic or of an ordering \
                 comparison is E0302, and `==`/`!=` on bools are formulas (`<->`)",
    ),
    (
        Code::BadBound,
        "E0400",
        "temporal",
        "bound with lower end above upper end (`[5,2]`)",
    ),
    (
        Code::FutureInPast,
        "E0401",
        "temporal",
        "future operator inside a past operator",
    ),
    (
        Code::InfiniteFutureBound,
        "E0402",
        "temporal",
        "`inf` upper bound on a future operator",
    ),
    (
        Code::WrongBlock,
        "E0403",
        "temporal",
        "construct not allowed in this kind of block (`@L`, `L.x` or a quantifier in \
                 a monitor; a quantifier over `agents` in a system; `@L` in a population; a \
                 quantifier in a population group's predicate, directly or through a `let`)",
    ),
    (
        Code::BoundTooLarge,
        "E0404",
        "temporal",
        "bound too large for a fixed-size monitor",
    ),
    (
        Code::UnusableName,
        "E0405",
        "codegen",
        "name cannot be used in generated Rust code (`self`, `Self`, `super`, \
                 `crate`, `_`; other Rust keywords become raw identifiers), or a lifeline \
                 name that would collide with the generated `Stamp` or with an enum the \
                 system uses",
    ),
    (
        Code::CodegenEmptyEnum,
        "E0406",
        "codegen",
        "no longer emitted: an enum without variants is refused by the checker (E0207)",
    ),
    (
        Code::AutomatonTooLarge,
        "E0407",
        "lowering",
        "the LTL3 automaton of a future-time property exceeds the state limit \
                 (10,000 residuals) or the table limit (2^20 transitions), or building it \
                 takes more than the compile work budget (70 million units, shared by every \
                 automaton of the spec: at most about 2 s in a release build); names the \
                 sub-formula responsible; for a property with step windows, also names the \
                 shapes whose windows are counters of any length",
    ),
    (
        Code::TooManyAtoms,
        "E0408",
        "lowering",
        "a future-time property reads more distinct atoms than one automaton \
                 supports (12); parts of a property joined by `&&`, `||`, `->` or `!` that \
                 share no atom are separate automata, each with its own 12",
    ),
    (
        Code::FutureInGuard,
        "E0409",
        "temporal",
        "future-time operator (`X F G U W R`) in a guard, or in a `let` of a system \
                 (only guards use them): a guard decides at a choice point from what is \
                 causally visible there; or in a population group's predicate (directly or \
                 through a `let`): membership is evaluated at the step where a quantifier \
                 over the group is evaluated; or in a monitor's goal: a goal labels the \
                 state after each step",
    ),
    (
        Code::MisplacedFutureQuantifier,
        "E0410",
        "temporal",
        "a quantifier over a future-time body outside the monitorable fragment (such \
                 a quantifier may appear only at the top of a property, under \
                 `! && || -> <->`): (a) under a future operator (`X F G U W R`, bounded or \
                 not), where it would be evaluated again at every later step with new \
                 members — with the equivalent form when there is one, e.g. \
                 `forall a in agents: G φ` for `G forall a in agents: φ`, \
                 `forall a in agents: G (p -> φ)` for `G forall a in H: φ` with \
                 `group H = agents where p`; (b) inside another quantifier's body; (c) as \
                 `count` (a number per step cannot wait for the future); also as an operand \
                 of a comparison",
    ),
    (
        Code::OuterAgentAttribute,
        "E0411",
        "names",
        "a nested quantifier's body reads `a.x` of an enclosing quantifier's agent \
                 `a` (per-pair state would be n² instances): move the parts that read `a` \
                 outside the inner quantifier",
    ),
    (
        Code::CapacityOutOfRange,
        "E0412",
        "names",
        "`capacity N;` out of range (1 ≤ N ≤ 1,000,000)",
    ),
    (
        Code::BadMapping,
        "E0413",
        "names",
        "a field mapping or step filter trace readers cannot follow: a `from` string that is not a JSON Pointer naming a field (RFC 6901: empty, no leading `/`, `~` not followed by `0` or `1`), `present(...)` on an input that is not `bool`, `default`/`hold` on a presence input, a `default` or `initially` value of another type than the input's, a step filter comparing with an enum variant",
    ),
    (Code::MissingTime, "E0414", "temporal", "a duration bound (`O[0,30s]`) in a block whose steps have no time: a monitor needs `time ts [from \"/pointer\"];`, a population or a system `time ts;`"),
    (Code::MetricFragment, "E0415", "lowering", "a metric operator whose exact state cannot be bounded: a future one outside the supported fragment (`F G U` with a duration bound, alone or as `G (α -> ...)` with `α` and the operands past-time and, under `G`, a lower end of 0; one per property or quantifier body), or a past window with a lower end above 0 and a width of 0 or below 1/1024 of its lower end"),
    (
        Code::UnboundedProtocol,
        "E0416",
        "lowering",
        "a protocol whose monitor cannot be bounded: its residuals need more than 4096 states, nest more than 512 levels deep or exhaust the work budget (a shuffle or intersection of a recursive protocol); or whose monitoring-safe partitions take too much search or verification to list",
    ),
    (
        Code::UnguardedRecursion,
        "E0417",
        "names",
        "a protocol that reaches itself by name before any event (a cycle of names not under the right side of a `.` whose left side needs an event)",
    ),
    (
        Code::WrongCommunication,
        "E0418",
        "names",
        "an event type against its protocol's communication model: `send`/`receive` in a synchronous protocol, a bare interaction in an asynchronous one, or a direction other than `send` and `receive`; or a model other than `sync` and `async`",
    ),
    (
        Code::SizeLimitExceeded,
        "E0900",
        "any",
        "beyond a size limit (a spec over 1 MiB, nesting, formula size; in a \
                 population also groups built on groups more than 512 deep)",
    ),
    (
        Code::UselessReset,
        "W0100",
        "warning",
        "`with reset` on a past-time property (no effect)",
    ),
    (
        Code::Unsatisfiable,
        "W0101",
        "analysis",
        "a future-time property can never be satisfied (its verdict is \"false\" from \
                 the first step); in a population, also a quantifier whose future-time body \
                 no member can satisfy (the note says what that makes of the quantifier, \
                 e.g. `forall` is \"false\" as soon as the group has a member)",
    ),
    (
        Code::Valid,
        "W0102",
        "analysis",
        "a future-time property holds on every trace (its verdict is \"true\" from \
                 the first step): it checks nothing; in a population, also a quantifier \
                 whose future-time body every member satisfies (e.g. `exists` then only \
                 checks that the group has a member)",
    ),
    (
        Code::NotMonitorable,
        "W0103",
        "analysis",
        "a future-time property can reach a state that no continuation decides, \
                 while other prefixes do decide it; shows a shortest such prefix as atom \
                 valuations, e.g. `after [p, !q]`",
    ),
    (
        Code::DecidedAtEnd,
        "W0104",
        "analysis (note)",
        "no finite prefix decides a future-time property: its verdict is \"?\" at \
                 every step and only the end line decides it",
    ),
];
