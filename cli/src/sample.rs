//! `hindsight sample SPEC [--block NAME]`: a log skeleton from a spec — lines
//! a trace of the block could hold, with placeholder values, so a user can
//! shape their log to the spec in one step.
//!
//! - A monitor: one step line. Each input sits where its mapping reads it
//!   (its own key, or the place its JSON Pointer names, nested objects
//!   built on the way; a `present(...)` input gets a value there), the
//!   step's time is an RFC 3339 string, and a `steps where` filter is
//!   satisfied: the first assignment of its atoms that makes it true and
//!   can be written (consistent literals, a place for every pointer, no
//!   input forced to be absent that must be given) decides what its
//!   pointers hold.
//! - A system: one line per kind of event: an `act` of the first lifeline,
//!   a `send` from it to the second and that `recv`, a `choice` of the
//!   first guard's owner; each lifeline's first event gives its whole store.
//! - A population: one step with two agents.
//!
//! Placeholders: `false`, `0`, `0.0`, an enum's first variant, a time of
//! `2026-01-01T00:00:00Z`. Every line is one `hindsight check` accepts (the
//! tests run each example spec's sample through it).

use crate::compile::{check_block, Block};
use crate::report;
use hindsight_compiler::hir::{self, Input, Spec, Ty};
use hindsight_compiler::types::EnumDef;
use hindsight_runtime::record::{eval_filter, Absent, FilterOp, JsonString, Literal, Source};
use hindsight_trace::{EXIT_ERROR, EXIT_OK};
use std::io::{self, Write};
use std::path::PathBuf;

/// What `hindsight sample` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampleOptions {
    /// The spec file.
    pub spec: PathBuf,
    /// The block to sample; the only block when `None`.
    pub block: Option<String>,
}

/// The placeholder time of every sampled line.
pub const SAMPLE_TIME: &str = "2026-01-01T00:00:00Z";

/// The most atoms of a step filter whose truth assignments are tried (the
/// others stay false): 2^16 assignments at most.
const MAX_TRIED_ATOMS: usize = 16;

/// Runs the command; returns the process exit status.
pub fn run(options: &SampleOptions) -> u8 {
    let spec_name = options.spec.display().to_string();
    let Ok((spec, block)) = check_block(&options.spec, &spec_name, options.block.as_deref()) else {
        return EXIT_ERROR;
    };
    let sampled = match block {
        Block::Monitor(k) => spec.monitors.get(k).map(|m| monitor_line(&spec, m)),
        Block::System(k) => spec.systems.get(k).map(|s| Ok(system_lines(&spec, s))),
        Block::Population(k) => spec
            .populations
            .get(k)
            .map(|p| Ok(population_line(&spec, p))),
    };
    let text = match sampled {
        Some(Ok(text)) => text,
        Some(Err(Unsatisfied(text))) => {
            report::warning(format_args!(
                "{spec_name}: no line this sample can write satisfies the block's `steps where` \
                 filter (its first {MAX_TRIED_ATOMS} atoms were tried); the line below shows \
                 where the inputs lie, but is not a step"
            ));
            text
        }
        None => return EXIT_ERROR,
    };
    match io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => EXIT_OK,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            report::error(format_args!("cannot write the sample: {e}"));
            EXIT_ERROR
        }
    }
}

/// A sampled line that the step filter does not accept.
struct Unsatisfied(String);

/// A JSON value under construction: a scalar's text, or an object whose
/// keys keep the order they were first set in.
#[derive(Clone, Debug)]
enum Json {
    Scalar(String),
    Object(Vec<(String, Json)>),
}

impl Json {
    fn object() -> Json {
        Json::Object(Vec::new())
    }

    /// Sets the value at `path` (object keys) to `value`, creating objects
    /// on the way; `false` when the path runs through a scalar or ends at an
    /// object (two pointers of which one is a prefix of the other).
    fn set(&mut self, path: &[String], value: Json) -> bool {
        let Json::Object(members) = self else {
            return false;
        };
        let Some((key, rest)) = path.split_first() else {
            return false;
        };
        let at = match members.iter().position(|(k, _)| k == key) {
            Some(at) => at,
            None => {
                let fresh = if rest.is_empty() {
                    value.clone()
                } else {
                    Json::object()
                };
                members.push((key.clone(), fresh));
                members.len() - 1
            }
        };
        let Some((_, slot)) = members.get_mut(at) else {
            return false;
        };
        if rest.is_empty() {
            return match (&*slot, &value) {
                (Json::Scalar(old), Json::Scalar(new)) => old == new,
                (Json::Object(old), Json::Object(new)) => old.is_empty() && new.is_empty(),
                _ => false,
            };
        }
        slot.set(rest, value)
    }

    /// The JSON text, with `hindsight check`'s spacing.
    fn render(&self, out: &mut String) {
        match self {
            Json::Scalar(text) => out.push_str(text),
            Json::Object(members) => {
                out.push('{');
                for (k, (key, value)) in members.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&format!("{}: ", JsonString(key)));
                    value.render(out);
                }
                out.push('}');
            }
        }
    }

    /// The line: the rendered value and a newline.
    fn line(&self) -> String {
        let mut out = String::new();
        self.render(&mut out);
        out.push('\n');
        out
    }
}

/// The object keys a JSON Pointer names, unescaped (`~1` is `/`, `~0` is `~`).
fn pointer_path(pointer: &str) -> Vec<String> {
    match pointer.strip_prefix('/') {
        Some(rest) => rest
            .split('/')
            .map(|token| token.replace("~1", "/").replace("~0", "~"))
            .collect(),
        None => Vec::new(),
    }
}

/// The placeholder of a value of type `ty`.
fn placeholder(enums: &[EnumDef], ty: Ty) -> Json {
    Json::Scalar(match ty {
        Ty::Bool => "false".to_string(),
        Ty::Int => "0".to_string(),
        Ty::Float => "0.0".to_string(),
        Ty::Enum(e) => {
            let first = enums.get(e).and_then(|d| d.variants.first());
            JsonString(first.map_or("", String::as_str)).to_string()
        }
    })
}

/// The placeholder time, as a JSON string.
fn time_value() -> Json {
    Json::Scalar(JsonString(SAMPLE_TIME).to_string())
}

/// A literal of a step filter as JSON text.
fn literal_json(literal: &Literal<String>) -> String {
    match literal {
        Literal::Bool(b) => b.to_string(),
        Literal::Int(i) => i.to_string(),
        Literal::Float(x) => format!("{x:?}"),
        Literal::Str(s) => JsonString(s).to_string(),
    }
}

/// Whether `literal` is a value an input of type `ty` reads.
fn literal_fits(enums: &[EnumDef], ty: Ty, literal: &Literal<String>) -> bool {
    match (ty, literal) {
        (Ty::Bool, Literal::Bool(_)) => true,
        (Ty::Int, Literal::Int(_)) => true,
        (Ty::Float, Literal::Int(_) | Literal::Float(_)) => true,
        (Ty::Enum(e), Literal::Str(s)) => enums.get(e).is_some_and(|d| d.variants.contains(s)),
        _ => false,
    }
}

/// What one truth assignment of a step filter's atoms asks of a pointer.
#[derive(Default)]
struct Wanted<'a> {
    /// The literal it must equal.
    equal: Option<&'a Literal<String>>,
    /// Literals it must not equal.
    unequal: Vec<&'a Literal<String>>,
    /// Whether it must hold a value (`Some(true)`) or none (`Some(false)`).
    present: Option<bool>,
}

/// The step line of `monitor`, or the line with its inputs when no line
/// this sample can write satisfies the filter.
fn monitor_line(spec: &Spec, monitor: &hir::Monitor) -> Result<String, Unsatisfied> {
    let steps = &monitor.reading.steps;
    let atoms = steps.iter().filter(|op| op.pointer().is_some()).count();
    let tried = atoms.min(MAX_TRIED_ATOMS);
    for assignment in 0..1u64 << tried {
        let holds = |i: usize| i < tried && assignment >> i & 1 == 1;
        if steps.is_empty() || eval_filter(steps, holds) == Some(true) {
            if let Some(line) = monitor_record(spec, monitor, Some(&holds)) {
                return Ok(line.line());
            }
        }
    }
    let inputs_only = monitor_record(spec, monitor, None);
    Err(Unsatisfied(
        inputs_only.map_or_else(String::new, |j| j.line()),
    ))
}

/// The record of `monitor` for one truth assignment of its filter's atoms
/// (`holds(i)`: atom `i` in order; the filter is left out without one), or
/// `None` if it cannot be written.
fn monitor_record(
    spec: &Spec,
    monitor: &hir::Monitor,
    holds: Option<&dyn Fn(usize) -> bool>,
) -> Option<Json> {
    let enums = &spec.enums;
    // What the assignment asks of each pointer, in order of first mention.
    let mut wanted: Vec<(&str, Wanted<'_>)> = Vec::new();
    let filter = if holds.is_some() {
        monitor.reading.steps.as_slice()
    } else {
        &[]
    };
    let holds = |i: usize| holds.is_some_and(|h| h(i));
    let atoms = filter.iter().filter_map(|op| match op {
        FilterOp::Equals(p, literal) => Some((p.as_str(), Some(literal))),
        FilterOp::Present(p) => Some((p.as_str(), None)),
        FilterOp::Not | FilterOp::And | FilterOp::Or => None,
    });
    for (i, (pointer, literal)) in atoms.enumerate() {
        let at = match wanted.iter().position(|(p, _)| *p == pointer) {
            Some(at) => at,
            None => {
                wanted.push((pointer, Wanted::default()));
                wanted.len() - 1
            }
        };
        let w = &mut wanted.get_mut(at)?.1;
        match (literal, holds(i)) {
            (Some(literal), true) => {
                if w.equal.is_some_and(|l| l != literal) {
                    return None;
                }
                w.equal = Some(literal);
            }
            (Some(literal), false) => w.unequal.push(literal),
            (None, present) => {
                if w.present.is_some_and(|p| p != present) {
                    return None;
                }
                w.present = Some(present);
            }
        }
    }
    let mut record = Json::object();
    let mut placed: Vec<&str> = Vec::new();
    // The inputs, where their mapping reads them.
    for (k, input) in monitor.inputs.iter().enumerate() {
        let field = monitor.reading.fields.get(k);
        let source: Source<&str> = match field.map(|f| &f.source) {
            Some(Source::Pointer(p)) => Source::Pointer(p),
            Some(Source::Present(p)) => Source::Present(p),
            Some(Source::Key) | None => Source::Key,
        };
        let is_time = monitor.reading.time == Some(k);
        let (path, pointer) = match source {
            Source::Key => (vec![input.name.clone()], None),
            Source::Pointer(p) | Source::Present(p) => (pointer_path(p), Some(p)),
        };
        let asked = pointer.and_then(|p| wanted.iter().find(|(w, _)| *w == p).map(|(_, w)| w));
        let value = match (asked, source) {
            // The filter says there is nothing there.
            (Some(w), _) if w.present == Some(false) => {
                let optional = field.is_some_and(|f| f.absent != Absent::Error);
                if w.equal.is_some() || !(optional || matches!(source, Source::Present(_))) {
                    return None;
                }
                continue;
            }
            (
                Some(Wanted {
                    equal: Some(literal),
                    ..
                }),
                Source::Pointer(_),
            ) => {
                if !is_time && !literal_fits(enums, input.ty, literal) {
                    return None;
                }
                Json::Scalar(literal_json(literal))
            }
            (
                Some(Wanted {
                    equal: Some(literal),
                    ..
                }),
                Source::Present(_),
            ) => Json::Scalar(literal_json(literal)),
            (_, Source::Present(_)) => Json::Scalar(JsonString("any value").to_string()),
            _ if is_time => time_value(),
            (asked, _) => {
                let value = placeholder(enums, input.ty);
                let clashes = asked.is_some_and(|w| {
                    w.unequal
                        .iter()
                        .any(|l| matches!(&value, Json::Scalar(t) if *t == literal_json(l)))
                });
                if clashes {
                    return None;
                }
                value
            }
        };
        if !record.set(&path, value) {
            return None;
        }
        placed.extend(pointer);
    }
    // The filter's pointers no input reads.
    for (pointer, w) in &wanted {
        if placed.contains(pointer) || w.present == Some(false) {
            continue;
        }
        let value = match (w.equal, w.present) {
            (Some(literal), _) => literal_json(literal),
            (None, Some(true)) => {
                let candidates = ["\"any value\"", "\"other value\"", "0", "true"];
                let free = candidates
                    .iter()
                    .find(|c| !w.unequal.iter().any(|l| literal_json(l) == **c))?;
                (*free).to_string()
            }
            (None, _) => continue,
        };
        if !record.set(&pointer_path(pointer), Json::Scalar(value)) {
            return None;
        }
    }
    Some(record)
}

/// A lifeline's whole store: every variable with its placeholder (the time
/// variable with the placeholder time).
fn store(spec: &Spec, system: &hir::System, vars: &[Input]) -> Json {
    let members = vars
        .iter()
        .map(|var| {
            let value = if system.time.as_deref() == Some(var.name.as_str()) {
                time_value()
            } else {
                placeholder(&spec.enums, var.ty)
            };
            (var.name.clone(), value)
        })
        .collect();
    Json::Object(members)
}

/// One event line: `lifeline`, `kind`, then `extra` members.
fn event(lifeline: &str, kind: &str, extra: Vec<(String, Json)>) -> String {
    let text = |s: &str| Json::Scalar(JsonString(s).to_string());
    let mut members = vec![
        ("lifeline".to_string(), text(lifeline)),
        ("kind".to_string(), text(kind)),
    ];
    members.extend(extra);
    Json::Object(members).line()
}

/// One line per kind of event of `system` (see the module documentation).
fn system_lines(spec: &Spec, system: &hir::System) -> String {
    let Some(first) = system.lifelines.first() else {
        return String::new();
    };
    let text = |s: &str| Json::Scalar(JsonString(s).to_string());
    let with_store = |vars: &[Input]| vec![("store".to_string(), store(spec, system, vars))];
    let mut out = event(&first.name, "act", with_store(&first.vars));
    let mut started = vec![0];
    // The message: the first event type of the first protocol, labelled,
    // else from the first lifeline to the second.
    let message = system
        .protocols
        .first()
        .and_then(|p| first_event(&p.body))
        .map(|e| (e.from, e.to, Some(e.label.as_str())))
        .or_else(|| (system.lifelines.len() > 1).then_some((0, 1, None)));
    if let Some((from, to, label)) = message {
        let (Some(sender), Some(receiver)) = (system.lifelines.get(from), system.lifelines.get(to))
        else {
            return out;
        };
        if from != 0 {
            out += &event(&sender.name, "act", with_store(&sender.vars));
            started.push(from);
        }
        let labelled = |mut members: Vec<(String, Json)>| {
            members.extend(label.map(|l| ("label".to_string(), text(l))));
            members
        };
        out += &event(
            &sender.name,
            "send",
            labelled(vec![
                ("to".to_string(), text(&receiver.name)),
                ("msg".to_string(), text("m0")),
            ]),
        );
        let mut recv = vec![("msg".to_string(), text("m0"))];
        if !started.contains(&to) {
            recv.extend(with_store(&receiver.vars));
            started.push(to);
        }
        out += &event(&receiver.name, "recv", recv);
    }
    let owner = system.guards.first().map_or(0, |g| g.owner);
    if let Some(chooser) = system.lifelines.get(owner) {
        let extra = if started.contains(&owner) {
            Vec::new()
        } else {
            with_store(&chooser.vars)
        };
        out += &event(&chooser.name, "choice", extra);
    }
    out
}

/// The first event type a trace of `e` can begin with, if one can.
fn first_event(e: &hir::ProtoExpr) -> Option<&hindsight_compiler::ir::protocol::EventType> {
    match &e.kind {
        hir::ProtoKind::Event(t) => Some(t),
        hir::ProtoKind::Filter(_, body) => first_event(body),
        _ => e.children().into_iter().find_map(first_event),
    }
}

/// One step of `population` with two agents.
fn population_line(spec: &Spec, population: &hir::Population) -> String {
    let agent = Json::Object(
        population
            .attributes
            .iter()
            .map(|a| (a.name.clone(), placeholder(&spec.enums, a.ty)))
            .collect(),
    );
    let globals = population
        .globals
        .iter()
        .enumerate()
        .map(|(k, g)| {
            let value = if population.time == Some(k) {
                time_value()
            } else {
                placeholder(&spec.enums, g.ty)
            };
            (g.name.clone(), value)
        })
        .collect();
    let mut agents = String::from("[");
    agent.render(&mut agents);
    agents.push_str(", ");
    agent.render(&mut agents);
    agents.push(']');
    Json::Object(vec![
        ("agents".to_string(), Json::Scalar(agents)),
        ("globals".to_string(), Json::Object(globals)),
    ])
    .line()
}
