//! How a monitor's steps are read from log records: where each input's value
//! lies (a JSON Pointer, or whether one is present), what an absent value
//! means, and which records are steps at all.
//!
//! The types are generic over the string type `S`: a generated monitor's
//! `SCHEMA` holds `&'static str`s, the compiler's tables and the trace
//! readers own `String`s. The readers follow the mapping; the step code of a
//! generated monitor never sees it.

use crate::Value;
use core::fmt;

/// A string written as a JSON string literal, quotes included: `"`, `\\` and
/// every control character (U+0000..U+001F, U+007F) escaped, so the text is
/// valid JSON (and a valid spec string literal) for any string, and no
/// control character reaches a terminal raw.
#[derive(Clone, Copy, Debug)]
pub struct JsonString<'a>(pub &'a str);

impl fmt::Display for JsonString<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"")?;
        for c in self.0.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                c if (c as u32) < 0x20 || c == '\u{7f}' => write!(f, "\\u{:04x}", c as u32)?,
                c => fmt::Write::write_char(f, c)?,
            }
        }
        f.write_str("\"")
    }
}

/// How a monitor reads its steps from JSON lines.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reading<'a> {
    /// One entry per input, in declaration order; empty when every input is
    /// the top-level key of its name and must be given.
    pub fields: &'a [Field<&'a str>],
    /// Which lines are steps, in postfix order; empty when every line is.
    pub steps: &'a [FilterOp<&'a str>],
    /// The input that is the step's time (an `int` of microseconds, read from
    /// a number of seconds or an RFC 3339 string, never decreasing), if any.
    pub time: Option<usize>,
    /// Which lines end their session in a keyed log (`--key`), in postfix
    /// order; empty when none does.
    pub session_end: &'a [FilterOp<&'a str>],
}

impl Reading<'static> {
    /// Every line is a step giving every input under its own name.
    pub const PLAIN: Reading<'static> = Reading {
        fields: &[],
        steps: &[],
        session_end: &[],
        time: None,
    };
}

/// Where one input's value comes from and what its absence means.
#[derive(Clone, Debug, PartialEq)]
pub struct Field<S> {
    /// Where the value lies in a line.
    pub source: Source<S>,
    /// What a line without it gives.
    pub absent: Absent,
}

impl<S> Field<S> {
    /// The input named by its own top-level key, which every step must give.
    pub const KEY: Field<S> = Field {
        source: Source::Key,
        absent: Absent::Error,
    };

    /// The same field with its strings mapped by `f`.
    pub fn map<T>(&self, f: impl Fn(&S) -> T) -> Field<T> {
        Field {
            source: self.source.map(f),
            absent: self.absent,
        }
    }
}

impl<S: Copy> Copy for Field<S> {}

/// Where an input's value lies in a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source<S> {
    /// The top-level key of the input's own name.
    Key,
    /// The value a JSON Pointer (RFC 6901) names.
    Pointer(S),
    /// Whether a JSON Pointer names a value other than `null` (a `bool` input).
    Present(S),
}

impl<S> Source<S> {
    /// The pointer, if the input is read through one.
    pub fn pointer(&self) -> Option<&S> {
        match self {
            Source::Key => None,
            Source::Pointer(p) | Source::Present(p) => Some(p),
        }
    }

    /// The same source with its pointer mapped by `f`.
    pub fn map<T>(&self, f: impl Fn(&S) -> T) -> Source<T> {
        match self {
            Source::Key => Source::Key,
            Source::Pointer(p) => Source::Pointer(f(p)),
            Source::Present(p) => Source::Present(f(p)),
        }
    }
}

/// What a step whose line lacks an input's value (or gives `null`) gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Absent {
    /// The line is an error.
    Error,
    /// This value.
    Default(Value),
    /// The value of the last step that gave one; before that, the initial
    /// value, or an error if there is none.
    Hold(Option<Value>),
}

/// One operation of a step filter in postfix order: atoms push a truth
/// value, connectives pop their operands and push the result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FilterOp<S> {
    /// Whether the pointer names a value equal to the literal.
    Equals(S, Literal<S>),
    /// Whether the pointer names a value other than `null`.
    Present(S),
    /// Negates the top.
    Not,
    /// Pops two, pushes their conjunction.
    And,
    /// Pops two, pushes their disjunction.
    Or,
}

impl<S> FilterOp<S> {
    /// The pointer an atom reads (`None` for a connective).
    pub fn pointer(&self) -> Option<&S> {
        match self {
            FilterOp::Equals(p, _) | FilterOp::Present(p) => Some(p),
            FilterOp::Not | FilterOp::And | FilterOp::Or => None,
        }
    }

    /// The same operation with its strings mapped by `f`.
    pub fn map<T>(&self, f: impl Fn(&S) -> T) -> FilterOp<T> {
        match self {
            FilterOp::Equals(p, literal) => FilterOp::Equals(f(p), literal.map(&f)),
            FilterOp::Present(p) => FilterOp::Present(f(p)),
            FilterOp::Not => FilterOp::Not,
            FilterOp::And => FilterOp::And,
            FilterOp::Or => FilterOp::Or,
        }
    }
}

/// The deepest a step filter's postfix evaluation stack may grow: its
/// truth values fit one `u64`.
pub const MAX_FILTER_DEPTH: usize = 64;

/// A JSON scalar a step filter compares a field with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal<S> {
    /// `true` or `false`.
    Bool(bool),
    /// An integer; equal to any JSON number of the same value.
    Int(i64),
    /// A number; equal to any JSON number of the same value.
    Float(f64),
    /// A string (already unescaped).
    Str(S),
}

impl<S> Literal<S> {
    /// The same literal with its string mapped by `f`.
    pub fn map<T>(&self, f: impl Fn(&S) -> T) -> Literal<T> {
        match self {
            Literal::Bool(b) => Literal::Bool(*b),
            Literal::Int(i) => Literal::Int(*i),
            Literal::Float(x) => Literal::Float(*x),
            Literal::Str(s) => Literal::Str(f(s)),
        }
    }
}

/// Evaluates the postfix filter `ops`, whose `i`-th atom (in order) is
/// `atom(i)`; `None` if `ops` is not a well-formed filter of at most
/// [`MAX_FILTER_DEPTH`] stack entries.
pub fn eval_filter<S>(ops: &[FilterOp<S>], mut atom: impl FnMut(usize) -> bool) -> Option<bool> {
    let mut stack: u64 = 0;
    let mut depth: usize = 0;
    let mut next_atom = 0;
    for op in ops {
        match op {
            FilterOp::Equals(..) | FilterOp::Present(_) => {
                if depth == MAX_FILTER_DEPTH {
                    return None;
                }
                stack = (stack << 1) | u64::from(atom(next_atom));
                depth += 1;
                next_atom += 1;
            }
            FilterOp::Not => {
                if depth == 0 {
                    return None;
                }
                stack ^= 1;
            }
            FilterOp::And | FilterOp::Or => {
                if depth < 2 {
                    return None;
                }
                let (top, next) = (stack & 1, (stack >> 1) & 1);
                let result = if matches!(op, FilterOp::And) {
                    top & next
                } else {
                    top | next
                };
                stack = ((stack >> 2) << 1) | result;
                depth -= 1;
            }
        }
    }
    (depth == 1).then_some(stack & 1 == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The atoms whose bits are set in `bits`.
    fn bits(bits: u64) -> impl FnMut(usize) -> bool {
        move |i| bits.checked_shr(i as u32).unwrap_or(0) & 1 == 1
    }

    #[test]
    fn postfix_filters_evaluate_their_atoms() {
        let a = FilterOp::Present("/a");
        let b = FilterOp::Present("/b");
        // a && !b
        let ops = [a, b, FilterOp::Not, FilterOp::And];
        assert_eq!(eval_filter(&ops, bits(0b01)), Some(true));
        assert_eq!(eval_filter(&ops, bits(0b11)), Some(false));
        assert_eq!(eval_filter(&ops, bits(0b00)), Some(false));
        // a || b
        let ops = [a, b, FilterOp::Or];
        assert_eq!(eval_filter(&ops, bits(0b10)), Some(true));
        assert_eq!(eval_filter(&ops, bits(0b00)), Some(false));
        // Malformed programs are refused, not misread.
        assert_eq!(eval_filter::<&str>(&[FilterOp::And], bits(0)), None);
        assert_eq!(eval_filter(&[a, b], bits(0)), None);
        assert_eq!(eval_filter::<&str>(&[], bits(0)), None);
    }

    #[test]
    fn the_stack_is_bounded() {
        let deep: [FilterOp<&str>; 65] = [FilterOp::Present("/a"); 65];
        assert_eq!(eval_filter(&deep, bits(0)), None);
        let mut ok = [FilterOp::Or; 127];
        for op in ok.iter_mut().take(64) {
            *op = FilterOp::Present("/a");
        }
        assert_eq!(eval_filter(&ok, bits(1 << 63)), Some(true));
        assert_eq!(eval_filter(&ok, bits(0)), Some(false));
    }
}
