//! Reading log records: lines whose inputs lie at JSON Pointers, may be
//! absent, and among which a filter picks the steps.
//!
//! The pointers of the inputs and of the step filter's atoms form one trie
//! over keys. A serde visitor walks each line along it: it decodes a value
//! where an input lies, tests an atom where one lies, and skips everything
//! else with `IgnoredAny` (no tree, no allocation for keys without escapes).
//! Keys no pointer names are ignored: a log record has many fields.
//!
//! With a step filter, a value of the wrong type does not stop the walk: it
//! is reported only if the filter takes the line as a step, and the line is
//! then walked again, stopping at the value, so that the error is placed
//! where serde_json stopped. A repeated key where the monitor reads stops
//! the walk on any line.

use super::error::TraceErrorKind;
use super::schema::{InputSchema, TraceSchema};
use super::visit::{any_seed, fail, forward_scalars, found_instead, value_of, KeyText, Scalar};
use super::InputType;
use crate::audit::coverage::closest_key;
use crate::audit::Unmatched;
use crate::json::Excerpt;
use hindsight_runtime::pointer::Pointer;
use hindsight_runtime::record::{eval_filter, FilterOp, Literal, Source};
use hindsight_runtime::Value;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::collections::HashMap;

/// The most keys kept per node for suggestions.
const MAX_KEYS_KEPT: usize = 64;

/// The most keys a warning lists.
const MAX_KEYS_SHOWN: usize = 12;

/// The longest key kept for suggestions, in bytes.
const MAX_KEPT_KEY_BYTES: usize = 256;

/// A node with more children than this finds them by hashing.
const LINEAR_CHILDREN: usize = 32;

/// Keys are gathered for suggestions over at most this many lines.
const GATHER_LINES: usize = 10_000;

/// What lies at a trie node.
#[derive(Clone, Copy, Debug)]
enum Target {
    /// Input `i`'s value.
    Value(usize),
    /// Whether input `i`'s field is present.
    Present(usize),
    /// The `k`-th atom of the step filter.
    Atom(usize),
}

/// One node of the trie: the path of keys from the root to it.
#[derive(Clone, Debug)]
struct Node {
    /// The key leading here, unescaped (`""` for the root).
    key: String,
    /// The key as an array index, if it is one.
    index: Option<usize>,
    /// The node above (the root is its own parent).
    parent: usize,
    /// The nodes below.
    children: Vec<usize>,
    /// What lies here.
    targets: Vec<Target>,
    /// Whether some line had a key here (its value `null` or not).
    matched: bool,
    /// Whether some line had a value other than `null` here.
    valued: bool,
    /// Keys met in objects here that lead to no child, kept (at most
    /// [`MAX_KEYS_KEPT`], each of at most [`MAX_KEPT_KEY_BYTES`]) while some
    /// child never matched: the candidates for a suggestion.
    met: Vec<String>,
    /// The children by key, for a node with many.
    by_key: HashMap<String, usize>,
    /// The walk that last gave a value here (to refuse a repeated key).
    given_in: u64,
    /// Whether a watched pointer ends here.
    watched: bool,
}

impl Node {
    /// A node for `key` below `parent`.
    fn new(key: String, parent: usize) -> Self {
        let index = hindsight_runtime::pointer::Token(&key).index();
        Node {
            key,
            index,
            parent,
            children: Vec::new(),
            targets: Vec::new(),
            matched: false,
            valued: false,
            met: Vec::new(),
            by_key: HashMap::new(),
            given_in: 0,
            watched: false,
        }
    }
}

/// A pointer of the reading, watched for never matching.
#[derive(Clone, Debug)]
struct Watched {
    /// Whose pointer it is: `input `tool``, `the step filter`.
    owner: String,
    /// The pointer as written.
    pointer: String,
    /// Its node.
    node: usize,
}

/// How a monitor's lines are read when they are log records.
#[derive(Clone, Debug)]
pub(super) struct Records {
    nodes: Vec<Node>,
    /// Per atom of the step filter: the literal it compares with (`None`: a
    /// presence test).
    atoms: Vec<Option<Literal<String>>>,
    /// Per atom: its truth on the current line.
    truth: Vec<bool>,
    /// The pointers, for the warnings at the end.
    watched: Vec<Watched>,
    /// Lines walked so far.
    lines: usize,
    /// Walks so far (a line is walked twice to place a deferred problem).
    walks: u64,
    /// Whether the last time read was written as a string.
    time_as_string: bool,
    /// The input that is the steps' time, if any.
    time: Option<usize>,
    /// The time of the last step, if the steps have one, and whether the
    /// log wrote it as a string.
    last_time: Option<(i64, bool)>,
    /// Where the session end filter's atoms start among the atoms.
    end_atoms: usize,
    /// Whether the last line walked ends its session.
    ends: bool,
    /// Whether some line walked so far ended its session.
    ended_any: bool,
}

impl Records {
    /// The trie of `schema`'s pointers.
    pub(super) fn new(schema: &TraceSchema) -> Self {
        let mut records = Records {
            nodes: vec![Node::new(String::new(), 0)],
            atoms: Vec::new(),
            truth: Vec::new(),
            watched: Vec::new(),
            lines: 0,
            walks: 0,
            time: schema.inputs.iter().position(|i| i.ty == InputType::Time),
            last_time: None,
            time_as_string: false,
            end_atoms: 0,
            ends: false,
            ended_any: false,
        };
        for (i, input) in schema.inputs.iter().enumerate() {
            let (pointer, target) = match &input.field.source {
                Source::Present(p) => (p.clone(), Target::Present(i)),
                _ => (input.pointer(), Target::Value(i)),
            };
            records.add(format!("input `{}`", input.name), pointer, target);
        }
        for (filter, owner) in [
            (&schema.steps, "the step filter"),
            (&schema.session_end, "the session end filter"),
        ] {
            if owner != "the step filter" {
                records.end_atoms = records.atoms.len();
            }
            for op in filter {
                let literal = match op {
                    FilterOp::Equals(_, literal) => Some(literal.clone()),
                    _ => None,
                };
                if let Some(pointer) = op.pointer() {
                    let atom = Target::Atom(records.atoms.len());
                    records.atoms.push(literal);
                    records.add(owner.to_string(), pointer.clone(), atom);
                }
            }
        }
        records.truth = vec![false; records.atoms.len()];
        records
    }

    /// Adds `target` at `pointer` (a string that is no pointer is taken as
    /// one top-level key).
    fn add(&mut self, owner: String, pointer: String, target: Target) {
        let keys: Vec<String> = match Pointer::parse(&pointer) {
            Ok(p) => p.tokens().map(|t| unescape(t.0)).collect(),
            Err(_) => vec![pointer.clone()],
        };
        let mut node = 0;
        for key in keys {
            node = self.child(node, key);
        }
        let Some(n) = self.nodes.get_mut(node) else {
            return;
        };
        n.targets.push(target);
        if !n.watched {
            n.watched = true;
            self.watched.push(Watched {
                owner,
                pointer,
                node,
            });
        }
    }

    /// The child of `parent` for `key`, added if there is none.
    fn child(&mut self, parent: usize, key: String) -> usize {
        let id = self.nodes.len();
        let Some(p) = self.nodes.get_mut(parent) else {
            return 0;
        };
        if let Some(&child) = p.by_key.get(&key) {
            return child;
        }
        p.by_key.insert(key.clone(), id);
        p.children.push(id);
        self.nodes.push(Node::new(key, parent));
        id
    }

    /// Walks `line` along the trie, writing inputs into `out` and marking
    /// them in `seen`, and says whether it is a step (`filter`: the step
    /// filter, empty for every line). A problem is recorded in `problem`
    /// with the serde error that stopped the walk.
    pub(super) fn walk(
        &mut self,
        line: &str,
        schema: &TraceSchema,
        out: &mut [Value],
        seen: &mut [bool],
        problem: &mut Option<TraceErrorKind>,
    ) -> Result<bool, serde_json::Error> {
        let (inputs, filter) = (&schema.inputs, &schema.steps);
        self.lines = self.lines.saturating_add(1);
        self.ends = false;
        let fail_fast = filter.is_empty();
        let deferred = self.walk_once(line, inputs, out, seen, fail_fast, problem)?;
        let end = self.end_atoms;
        self.ends = !schema.session_end.is_empty()
            && eval_filter(&schema.session_end, |i| {
                self.truth.get(end + i).copied().unwrap_or(false)
            })
            .unwrap_or(false);
        self.ended_any |= self.ends;
        let step = filter.is_empty()
            || eval_filter(filter, |i| self.truth.get(i).copied().unwrap_or(false))
                .unwrap_or(false);
        if step && deferred {
            // Walk again, stopping at the problem, to place it.
            self.walk_once(line, inputs, out, seen, true, problem)?;
        }
        if step {
            if let Some(&Value::Int(t)) = self.time.and_then(|i| out.get(i)) {
                self.last_time = Some((t, self.time_as_string));
            }
        }
        Ok(step)
    }

    /// Whether the last line walked ends its session (`sessions end where`).
    pub(super) fn ends(&self) -> bool {
        self.ends
    }

    /// The time of the last step, if the steps have one.
    pub(super) fn last_time(&self) -> Option<(i64, bool)> {
        self.last_time
    }

    /// Swaps the last step's time with `time` (see [`super::ReadState`]).
    pub(super) fn swap_last_time(&mut self, time: &mut Option<(i64, bool)>) {
        std::mem::swap(&mut self.last_time, time);
    }

    /// One walk of `line` (see [`Records::walk`]); whether it went past a
    /// value of the wrong type (only when not `fail_fast`).
    fn walk_once(
        &mut self,
        line: &str,
        inputs: &[InputSchema],
        out: &mut [Value],
        seen: &mut [bool],
        fail_fast: bool,
        problem: &mut Option<TraceErrorKind>,
    ) -> Result<bool, serde_json::Error> {
        seen.fill(false);
        self.truth.fill(false);
        self.walks += 1;
        let mut walk = Walk {
            walk: self.walks,
            nodes: &mut self.nodes,
            atoms: &self.atoms,
            truth: &mut self.truth,
            inputs,
            out,
            seen,
            gather: self.lines <= GATHER_LINES,
            last_time: self.last_time,
            time_as_string: &mut self.time_as_string,
            fail_fast,
            deferred: false,
            problem,
        };
        let mut de = serde_json::Deserializer::from_str(line);
        NodeSeed {
            walk: &mut walk,
            node: 0,
        }
        .deserialize(&mut de)?;
        de.end()?;
        Ok(walk.deferred)
    }

    /// Every pointer no line ever had a value at (`null` is none): whose
    /// pointer it is, and the closest key met where it went astray.
    pub(super) fn unmatched(&self) -> Vec<Unmatched> {
        self.watched
            .iter()
            .filter_map(|w| {
                let node = self.nodes.get(w.node)?;
                let (owner, pointer) = (&w.owner, Excerpt(&w.pointer));
                match (node.matched, node.valued) {
                    (_, true) => None,
                    (true, false) => Some(Unmatched::new(format!(
                        "{owner} reads \"{pointer}\", which was null on every line that had it"
                    ))),
                    (false, false) => Some(
                        Unmatched::new(format!(
                            "{owner} reads \"{pointer}\", which no line had a value at"
                        ))
                        .with_hint(self.suggestion(w.node)),
                    ),
                }
            })
            .collect()
    }

    /// Whether the session end filter held on some line walked so far.
    pub(super) fn ended_any(&self) -> bool {
        self.ended_any
    }

    /// A suggestion for the unmatched `node`: the pointer with the first
    /// unmatched key replaced by the closest key met in its place, else the
    /// keys met there.
    fn suggestion(&self, node: usize) -> Option<String> {
        // The path from the root, then the first node on it that never matched.
        let path = path_to(&self.nodes, node);
        let lost = path
            .iter()
            .position(|&n| self.nodes.get(n).is_some_and(|n| !n.matched))?;
        let parent = match lost.checked_sub(1) {
            None => 0,
            Some(p) => *path.get(p)?,
        };
        let missed = *path.get(lost)?;
        let parent = self.nodes.get(parent)?;
        let missed_key = &self.nodes.get(missed)?.key;
        // Every key met there: those no pointer names, and those that lead on.
        let matched_children = parent
            .children
            .iter()
            .filter_map(|&c| self.nodes.get(c))
            .filter(|c| c.matched)
            .map(|c| c.key.as_str());
        let mut met: Vec<&str> = parent.met.iter().map(String::as_str).collect();
        met.extend(matched_children);
        let closest = closest_key(missed_key, met.iter().copied());
        let (before, after) = (path.get(..lost)?, path.get(lost + 1..)?);
        let before = pointer_text(&self.nodes, before);
        match closest {
            Some(key) => {
                let after = pointer_text(&self.nodes, after);
                let suggested = format!("{before}/{}{after}", escape(key));
                Some(format!("did you mean \"{}\"?", Excerpt(&suggested)))
            }
            None if met.is_empty() => None,
            None => {
                let at = if before.is_empty() {
                    "at the top level".to_string()
                } else {
                    format!("under \"{}\"", Excerpt(&before))
                };
                met.sort_unstable();
                let shown = met.len().min(MAX_KEYS_SHOWN);
                let more = if met.len() > shown { ", ..." } else { "" };
                let listed: Vec<String> = met
                    .iter()
                    .take(shown)
                    .map(|k| Excerpt(k).to_string())
                    .collect();
                Some(format!("keys seen {at}: {}{more}", listed.join(", ")))
            }
        }
    }
}

/// A reference token with `~` and `/` unescaped (RFC 6901, section 4).
pub(super) fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// A key as a reference token: `~` and `/` escaped.
pub(super) fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The nodes from the root's child down to `node` (none for the root).
fn path_to(nodes: &[Node], node: usize) -> Vec<usize> {
    let mut path = Vec::new();
    let mut at = node;
    while let Some(n) = nodes.get(at).filter(|_| at != 0) {
        path.push(at);
        at = n.parent;
    }
    path.reverse();
    path
}

/// The pointer of the keys along `path`, as the spec would write it.
fn pointer_text(nodes: &[Node], path: &[usize]) -> String {
    path.iter()
        .filter_map(|&n| nodes.get(n))
        .map(|n| format!("/{}", escape(&n.key)))
        .collect()
}

/// One line's walk along the trie.
struct Walk<'a> {
    /// This walk's number (see [`Node::given_in`]).
    walk: u64,
    nodes: &'a mut [Node],
    atoms: &'a [Option<Literal<String>>],
    truth: &'a mut [bool],
    inputs: &'a [InputSchema],
    out: &'a mut [Value],
    seen: &'a mut [bool],
    /// Whether to keep the keys met for suggestions.
    gather: bool,
    /// The last step's time, which this one's may not be below.
    last_time: Option<(i64, bool)>,
    /// Whether this line wrote its time as a string.
    time_as_string: &'a mut bool,
    /// Whether a value of the wrong type stops the walk; if not, `deferred`
    /// says the walk went past one.
    fail_fast: bool,
    deferred: bool,
    problem: &'a mut Option<TraceErrorKind>,
}

impl Walk<'_> {
    /// The targets of `node` met a value (`found`, nested values only by kind).
    fn visit<E: de::Error>(&mut self, node: usize, found: &Scalar<'_>) -> Result<(), E> {
        let Some(n) = self.nodes.get_mut(node) else {
            return Ok(());
        };
        n.matched = true;
        if matches!(found, Scalar::Null) {
            // `null` is absent: the input's `default`/`hold` applies.
            return Ok(());
        }
        n.valued = true;
        if n.given_in == self.walk && !n.targets.is_empty() {
            // A repeated key where the monitor reads: the record is malformed
            // whether or not it is a step (the filter may read it, too).
            let pointer = pointer_text(self.nodes, &path_to(self.nodes, node));
            return Err(fail(self.problem, TraceErrorKind::DuplicateAt { pointer }));
        }
        n.given_in = self.walk;
        for k in 0..n.targets.len() {
            let Some(target) = self.nodes.get(node).and_then(|n| n.targets.get(k)).copied() else {
                break;
            };
            match target {
                Target::Value(i) => {
                    if let Some(kind) = self.value(i, found) {
                        self.problem_at(kind)?;
                    }
                }
                Target::Present(i) => {
                    if let (Some(slot), Some(given)) = (self.out.get_mut(i), self.seen.get_mut(i)) {
                        *slot = Value::Bool(true);
                        *given = true;
                    }
                }
                Target::Atom(a) => {
                    let holds = match self.atoms.get(a) {
                        Some(Some(literal)) => equals(literal, found),
                        _ => true,
                    };
                    if let Some(t) = self.truth.get_mut(a) {
                        *t = holds;
                    }
                }
            }
        }
        Ok(())
    }

    /// Decodes input `i`'s value `found`; the problem, if any.
    fn value(&mut self, i: usize, found: &Scalar<'_>) -> Option<TraceErrorKind> {
        let inputs = self.inputs;
        let input = inputs.get(i)?;
        let (slot, given) = (self.out.get_mut(i)?, self.seen.get_mut(i)?);
        match value_of(&input.ty, found) {
            Some(Value::Int(time))
                if input.ty == InputType::Time
                    && self.last_time.is_some_and(|(last, _)| last > time) =>
            {
                Some(TraceErrorKind::TimeGoesBack {
                    input: input.name.clone(),
                    pointer: input.pointer(),
                    time: (time, matches!(found, Scalar::Str(_))),
                    previous: self.last_time.unwrap_or((time, false)),
                })
            }
            Some(value) => {
                if input.ty == InputType::Time {
                    *self.time_as_string = matches!(found, Scalar::Str(_));
                }
                *slot = value;
                *given = true;
                None
            }
            None => Some(TraceErrorKind::WrongTypeAt {
                input: input.name.clone(),
                pointer: input.pointer(),
                mismatch: format!(
                    "expects {}, found {}",
                    input.ty.expectation(),
                    found_instead(&input.ty, found)
                ),
            }),
        }
    }

    /// Stops the walk at `kind`, or notes that it went past one.
    fn problem_at<E: de::Error>(&mut self, kind: TraceErrorKind) -> Result<(), E> {
        if self.fail_fast {
            return Err(fail(self.problem, kind));
        }
        self.deferred = true;
        Ok(())
    }

    /// The child of `node` an object key leads to; without one, keeps the
    /// key as a suggestion candidate while some child never matched.
    fn key_child(&mut self, node: usize, key: &str) -> Option<usize> {
        let n = self.nodes.get(node)?;
        let child = if n.children.len() > LINEAR_CHILDREN {
            n.by_key.get(key).copied()
        } else {
            n.children
                .iter()
                .copied()
                .find(|&c| self.nodes.get(c).is_some_and(|c| c.key == key))
        };
        if child.is_none() && self.gather && key.len() <= MAX_KEPT_KEY_BYTES {
            let wants = n
                .children
                .iter()
                .any(|&c| self.nodes.get(c).is_some_and(|c| !c.matched));
            let n = self.nodes.get_mut(node)?;
            if wants && n.met.len() < MAX_KEYS_KEPT && !n.met.iter().any(|k| k == key) {
                n.met.push(key.to_string());
            }
        }
        child
    }

    /// The child of `node` array element `index` leads to.
    fn index_child(&self, node: usize, index: usize) -> Option<usize> {
        let n = self.nodes.get(node)?;
        n.children
            .iter()
            .copied()
            .find(|&c| self.nodes.get(c).is_some_and(|c| c.index == Some(index)))
    }

    /// Whether `node` has nodes below it.
    fn has_children(&self, node: usize) -> bool {
        self.nodes.get(node).is_some_and(|n| !n.children.is_empty())
    }
}

/// Whether the JSON value `found` equals the filter literal `literal`
/// (numbers by exact value: `3` equals `3.0`, `2^53 + 1` is not `2^53`).
fn equals(literal: &Literal<String>, found: &Scalar<'_>) -> bool {
    match (literal, found) {
        (Literal::Bool(a), Scalar::Bool(b)) => a == b,
        (Literal::Str(a), Scalar::Str(b)) => a == b,
        (Literal::Int(a), Scalar::Int(b)) => a == b,
        (Literal::Int(a), Scalar::UInt(b)) => i128::from(*a) == i128::from(*b),
        (Literal::Int(a), Scalar::Float(b)) => float_is_int(*b, i128::from(*a)),
        (Literal::Float(a), Scalar::Int(b)) => float_is_int(*a, i128::from(*b)),
        (Literal::Float(a), Scalar::UInt(b)) => float_is_int(*a, i128::from(*b)),
        (Literal::Float(a), Scalar::Float(b)) => a == b,
        _ => false,
    }
}

/// Whether the float `x` is exactly the integer `i` (both within i128, as
/// every JSON integer serde_json reads is).
fn float_is_int(x: f64, i: i128) -> bool {
    // 2^100: far beyond any i64 or u64, and below where `as` saturates.
    x.fract() == 0.0 && x.abs() < 1.267_650_600_228_229_4e30 && x as i128 == i
}

/// Walks the value at one trie node.
struct NodeSeed<'w, 'a> {
    walk: &'w mut Walk<'a>,
    node: usize,
}

impl NodeSeed<'_, '_> {
    /// A scalar here (or an array at the root, which must be an object).
    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<(), E> {
        if self.node == 0 {
            let kind = TraceErrorKind::NotRecord {
                found: found.describe(),
            };
            return Err(fail(self.walk.problem, kind));
        }
        self.walk.visit(self.node, &found)
    }
}

any_seed!(NodeSeed<'_, '_>);

impl<'de> Visitor<'de> for NodeSeed<'_, '_> {
    type Value = ();

    forward_scalars!("a JSON value");

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let NodeSeed { walk, node } = self;
        walk.visit(node, &Scalar::Object)?;
        if !walk.has_children(node) {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            return Ok(());
        }
        while let Some(key) = map.next_key::<KeyText<'de>>()? {
            match walk.key_child(node, key.as_str()) {
                Some(child) => map.next_value_seed(NodeSeed {
                    walk: &mut *walk,
                    node: child,
                })?,
                None => map.next_value::<IgnoredAny>().map(|_| ())?,
            }
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        if self.node == 0 {
            return self.scalar(Scalar::Array);
        }
        let NodeSeed { walk, node } = self;
        walk.visit(node, &Scalar::Array)?;
        let mut index = 0;
        loop {
            let more = match walk.index_child(node, index) {
                Some(child) => seq
                    .next_element_seed(NodeSeed {
                        walk: &mut *walk,
                        node: child,
                    })?
                    .is_some(),
                None => seq.next_element::<IgnoredAny>()?.is_some(),
            };
            if !more {
                return Ok(());
            }
            index += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    //! The records reader line by line; expected values, columns and
    //! messages worked out by hand.

    use super::super::{Decode, InputSchema, InputType, LineDecoder, Reader, TraceSchema};
    use hindsight_runtime::record::{Absent, Field, FilterOp, Literal, Source};
    use hindsight_runtime::Value;

    fn at(name: &str, ty: InputType, pointer: &str, absent: Absent) -> InputSchema {
        InputSchema::new(name, ty).with_field(Field {
            source: Source::Pointer(pointer.to_string()),
            absent,
        })
    }

    /// A bool input at `pointer`, false when absent.
    fn optional(name: &str, pointer: &str) -> InputSchema {
        at(
            name,
            InputType::Bool,
            pointer,
            Absent::Default(Value::Bool(false)),
        )
    }

    fn present(name: &str, pointer: &str) -> InputSchema {
        InputSchema::new(name, InputType::Bool).with_field(Field {
            source: Source::Present(pointer.to_string()),
            absent: Absent::Error,
        })
    }

    fn eq(pointer: &str, literal: Literal<String>) -> FilterOp<String> {
        FilterOp::Equals(pointer.to_string(), literal)
    }

    fn str_lit(s: &str) -> Literal<String> {
        Literal::Str(s.to_string())
    }

    /// Each line's decoding: the values of a step, `None` for a skipped line,
    /// or the column and message of the error.
    fn lines(schema: TraceSchema, text: &str) -> Vec<Result<Option<Vec<Value>>, String>> {
        let mut decoder = LineDecoder::new(schema);
        text.lines()
            .map(|line| {
                let mut out = Vec::new();
                match decoder.decode(line, &mut out) {
                    Ok(true) => Ok(Some(out)),
                    Ok(false) => Ok(None),
                    Err(e) => Err(format!("{}: {}", e.column.unwrap_or(0), e.kind)),
                }
            })
            .collect()
    }

    #[test]
    fn values_are_found_at_their_pointers_and_other_keys_ignored() {
        let schema = TraceSchema::new(
            vec![
                at(
                    "tool",
                    InputType::Int,
                    "/attributes/gen_ai.tool",
                    Absent::Error,
                ),
                at("second", InputType::Bool, "/items/1/ok", Absent::Error),
                at("slashed", InputType::Float, "/a~1b/~0c", Absent::Error),
                // Without `from` in a records schema: the top-level key.
                InputSchema::new("plain", InputType::Bool),
            ],
            Vec::new(),
        );
        let line = r#"{"ts": 1, "attributes": {"x": [1, {"y": null}], "gen_ai.tool": 7},
            "items": [{"ok": false}, {"ok": true, "more": {}}, 3], "a/b": {"~c": 2},
            "plain": false, "text": "\"quoted\" \u00e9"}"#
            .replace('\n', " ");
        assert_eq!(
            lines(schema, &line),
            vec![Ok(Some(vec![
                Value::Int(7),
                Value::Bool(true),
                Value::Float(2.0),
                Value::Bool(false)
            ]))]
        );
    }

    #[test]
    fn absent_values_take_their_default_or_hold_and_null_is_absent() {
        let schema = TraceSchema::new(
            vec![
                at("n", InputType::Int, "/n", Absent::Default(Value::Int(-1))),
                at("h", InputType::Int, "/h", Absent::Hold(None)),
                at(
                    "i",
                    InputType::Bool,
                    "/i",
                    Absent::Hold(Some(Value::Bool(true))),
                ),
                present("p", "/p"),
            ],
            Vec::new(),
        );
        let text = [
            r#"{"h": 1}"#,
            r#"{"n": 4, "h": null, "i": false, "p": 0}"#,
            r#"{"p": null}"#,
            r#"{"n": null, "h": 5, "p": {}}"#,
        ]
        .join("\n");
        let step = |n, h, i, p| {
            Ok(Some(vec![
                Value::Int(n),
                Value::Int(h),
                Value::Bool(i),
                Value::Bool(p),
            ]))
        };
        assert_eq!(
            lines(schema, &text),
            vec![
                step(-1, 1, true, false),
                step(4, 1, false, true),
                step(-1, 1, false, false),
                step(-1, 5, false, true),
            ]
        );
    }

    #[test]
    fn a_step_filter_skips_lines_and_their_bad_values() {
        let schema = TraceSchema::new(
            vec![at("n", InputType::Int, "/v/n", Absent::Error)],
            Vec::new(),
        )
        .with_steps(vec![
            eq("/type", str_lit("call")),
            eq("/code", Literal::Int(7)),
            FilterOp::Or,
            FilterOp::Present("/skip".to_string()),
            FilterOp::Not,
            FilterOp::And,
        ]);
        let text = [
            r#"{"type": "call", "v": {"n": 1}}"#,
            r#"{"type": "log", "v": {"n": "bad"}}"#,
            r#"{"code": 7.0, "v": {"n": 2}}"#,
            r#"{"code": 7, "skip": 0, "v": {"n": "bad"}}"#,
            r#"{"code": 7, "skip": null, "v": {"n": 3}}"#,
            r#"{"v": {"n": "bad"}, "type": "call"}"#,
            r#"{"type": "call", "v": {"n": 2, "n": 3}}"#,
            r#"{"type": "call"}"#,
        ]
        .join("\n");
        assert_eq!(
            lines(schema, &text),
            vec![
                Ok(Some(vec![Value::Int(1)])),
                Ok(None),
                Ok(Some(vec![Value::Int(2)])),
                Ok(None),
                Ok(Some(vec![Value::Int(3)])),
                // The filter holds on a line whose value is bad: the error is
                // placed at the value, though the filter's field comes after.
                Err("13: input `n` (at \"/v/n\") expects int, found string \"bad\"".to_string()),
                Err(
                    "32: two values at \"/v/n\": the key is repeated where the monitor reads"
                        .to_string()
                ),
                Err(
                    "16: missing input `n`: no value at \"/v/n\" (declare `default` or `hold` \
                     for an input that steps may lack)"
                        .to_string()
                ),
            ]
        );
    }

    /// An int input `n` at `/n`, 0 when absent, on the lines `atom` holds on.
    fn n_filtered_by(atom: FilterOp<String>) -> TraceSchema {
        let n = at("n", InputType::Int, "/n", Absent::Default(Value::Int(0)));
        TraceSchema::new(vec![n], Vec::new()).with_steps(vec![atom])
    }

    #[test]
    fn a_wrong_value_is_placed_at_the_value() {
        let schema = TraceSchema::new(
            vec![
                at(
                    "i",
                    InputType::Int,
                    "/args/1",
                    Absent::Default(Value::Int(0)),
                ),
                at("t", InputType::Int, "/type", Absent::Default(Value::Int(0))),
                at("e", InputType::Int, "/a~1b", Absent::Default(Value::Int(0))),
            ],
            Vec::new(),
        );
        let text = [
            // An array element, after a string equal to its index.
            r#"{"id": "1", "args": [0, "x \"y\""]}"#,
            // A value equal to its own key.
            r#"{"type": "type"}"#,
            // An escaped key, a literal and an object.
            r#"{"a/b": true}"#,
            r#"{"a/b": {"c": 1}}"#,
        ]
        .join("\n");
        let expect = |column: usize, input: &str, pointer: &str, found: &str| {
            Err(format!(
                "{column}: input `{input}` (at \"{pointer}\") expects int, found {found}"
            ))
        };
        assert_eq!(
            lines(schema, &text),
            vec![
                expect(25, "i", "/args/1", "string \"x \\\"y\\\"\""),
                expect(10, "t", "/type", "string \"type\""),
                expect(9, "e", "/a~1b", "bool true"),
                expect(9, "e", "/a~1b", "an object"),
            ]
        );
    }

    #[test]
    fn repeated_keys_where_the_monitor_reads_are_errors_on_any_line() {
        let schema = n_filtered_by(eq("/type", str_lit("step")));
        let text = [
            // `null` is no value: it may be repeated.
            r#"{"type": "step", "n": null, "n": 4}"#,
            r#"{"type": "step", "n": 5, "n": null}"#,
            // A key no one reads may repeat.
            r#"{"type": "step", "x": 1, "x": 2}"#,
            // The filter's own field twice: which one decides is unclear.
            r#"{"type": "log", "type": "step", "n": 1}"#,
            // An input's key twice on a line that is no step.
            r#"{"type": "log", "n": 1, "n": 2}"#,
        ]
        .join("\n");
        assert_eq!(
            lines(schema, &text),
            vec![
                Ok(Some(vec![Value::Int(4)])),
                Ok(Some(vec![Value::Int(5)])),
                Ok(Some(vec![Value::Int(0)])),
                Err(
                    "17: two values at \"/type\": the key is repeated where the monitor reads"
                        .to_string()
                ),
                Err(
                    "25: two values at \"/n\": the key is repeated where the monitor reads"
                        .to_string()
                ),
            ]
        );
    }

    #[test]
    fn filters_compare_numbers_exactly() {
        let schema = |literal| n_filtered_by(eq("/id", literal));
        let text = [
            r#"{"id": 9007199254740993}"#,
            r#"{"id": 9007199254740992.0}"#,
            r#"{"id": 9007199254740992}"#,
            r#"{"id": 18446744073709551615}"#,
            r#"{"id": -0.0}"#,
        ]
        .join("\n");
        let steps = |literal| -> Vec<bool> {
            lines(schema(literal), &text)
                .into_iter()
                .map(|line| matches!(line, Ok(Some(_))))
                .collect()
        };
        // 2^53 + 1 is no float; 2^53 is, as int and as float; -0.0 is 0;
        // 2^64 - 1 is not the float 2^64.
        let cases = [
            (
                Literal::Int(9_007_199_254_740_993),
                [true, false, false, false, false],
            ),
            (
                Literal::Float(9_007_199_254_740_992.0),
                [false, true, true, false, false],
            ),
            (
                Literal::Int(9_007_199_254_740_992),
                [false, true, true, false, false],
            ),
            (Literal::Int(0), [false, false, false, false, true]),
            (Literal::Float(18_446_744_073_709_551_615.0), [false; 5]),
        ];
        for (literal, expected) in cases {
            assert_eq!(steps(literal.clone()), expected, "{literal:?}");
        }
    }

    #[test]
    fn a_record_is_an_object() {
        let schema = TraceSchema::new(
            vec![at("n", InputType::Int, "/n", Absent::Error)],
            Vec::new(),
        );
        let text = "[1, 2]\n  \"text\"\n{\"n\": 1} x";
        assert_eq!(
            lines(schema, text),
            vec![
                Err(
                    "1: a log record must be a JSON object (this monitor reads its inputs \
                     through pointers); found an array"
                        .to_string()
                ),
                Err(
                    "3: a log record must be a JSON object (this monitor reads its inputs \
                     through pointers); found string \"text\""
                        .to_string()
                ),
                Err("10: malformed JSON: trailing characters".to_string()),
            ]
        );
    }

    /// The warnings after reading `text` with `schema`.
    fn warnings(schema: TraceSchema, text: &str) -> Vec<String> {
        let mut reader = Reader::<_, LineDecoder>::new(text.as_bytes(), schema);
        let mut out = Vec::new();
        while reader.read_next(&mut out).unwrap_or(false) {}
        let unmatched = reader.decoder().unmatched();
        unmatched
            .iter()
            .map(crate::audit::Unmatched::text)
            .collect()
    }

    #[test]
    fn pointers_no_line_matched_are_named_with_the_closest_key() {
        let schema = TraceSchema::new(
            vec![
                optional("tool", "/atributes/tool"),
                optional("name", "/attributes/nmae/x"),
                optional("far", "/attributes/zzzzzz"),
                optional("seen", "/attributes/seen"),
            ],
            Vec::new(),
        )
        .with_steps(vec![eq("/knd", str_lit("x")), FilterOp::Not]);
        let text = r#"{"kind": 1, "attributes": {"name": {"x": true}, "seen": null, "tools": 1}}"#;
        assert_eq!(
            warnings(schema, text),
            vec![
                "input `tool` reads \"/atributes/tool\", which no line had a value at; \
                 did you mean \"/attributes/tool\"?",
                "input `name` reads \"/attributes/nmae/x\", which no line had a value at; \
                 did you mean \"/attributes/name/x\"?",
                "input `far` reads \"/attributes/zzzzzz\", which no line had a value at; \
                 keys seen under \"/attributes\": name, seen, tools",
                // `null` is no value: the input took its default on every step.
                "input `seen` reads \"/attributes/seen\", which was null on every line that \
                 had it",
                "the step filter reads \"/knd\", which no line had a value at; \
                 did you mean \"/kind\"?",
            ]
        );
    }

    #[test]
    fn keys_kept_for_suggestions_are_bounded() {
        let schema = TraceSchema::new(vec![optional("x", "/x")], Vec::new());
        let text: String = (0..200).map(|i| format!("{{\"k{i}\": 1}}\n")).collect();
        let found = warnings(schema, &text);
        let [only] = found.as_slice() else {
            panic!("{found:?}")
        };
        let listed = only.split("top level: ").nth(1).unwrap_or_default();
        assert!(listed.ends_with(", ..."), "{only}");
        assert_eq!(listed.matches(", ").count(), super::MAX_KEYS_SHOWN);
    }
}
