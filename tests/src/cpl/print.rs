//! Systems, guards and executions written back as the text users write: a
//! `system` block in surface syntax, and JSON Lines traces and verdicts in the
//! formats of language.md section 6 (what a CLI test feeds `hindsight check`
//! and expects back).

use hindsight_compiler::hir::{EnumDef, Expr, ExprKind, System, Ty, Value};

use super::msc::{EventKind, Execution};
use super::reference::guard_table;
use crate::surface::{self, Leaves, ATOM, UNARY};

/// `enum` items for `enums` and the `system` block, or `None` if a guard has a
/// form with no surface syntax of its own (see [`formula_source`]).
pub fn system_source(enums: &[EnumDef], system: &System) -> Option<String> {
    let mut s = String::new();
    for e in enums {
        s += &format!("enum {} {{ {} }}\n", e.name, e.variants.join(", "));
    }
    s += &format!("system {} {{\n", system.name);
    if let Some(time) = &system.time {
        s += &format!("    time {time};\n");
    }
    for l in &system.lifelines {
        // The events' time is every lifeline's last variable, declared by `time`.
        let declared = l.vars.len() - usize::from(system.time.is_some());
        let vars: Vec<String> = l.vars[..declared]
            .iter()
            .map(|v| format!("{}: {}", v.name, type_name(enums, v.ty)))
            .collect();
        s += &format!("    lifeline {} {{ {} }}\n", l.name, vars.join(", "));
    }
    for g in &system.guards {
        let owner = &system.lifelines[g.owner].name;
        let body = formula_source(enums, system, g.owner, &g.formula)?;
        s += &format!("    guard {} at {owner} = {body};\n", g.name);
    }
    Some(s + "}\n")
}

fn type_name(enums: &[EnumDef], ty: Ty) -> String {
    match ty {
        Ty::Enum(k) => enums[k].name.clone(),
        other => other.to_string(),
    }
}

/// `formula`, evaluated on lifeline `here`, in surface syntax with the fewest
/// parentheses the language's precedence table allows; `None` if it contains a
/// [`ExprKind::Count`] (an expanded quantifier, which has no syntax without its group).
pub fn formula_source(
    enums: &[EnumDef],
    system: &System,
    here: usize,
    formula: &Expr,
) -> Option<String> {
    Printer { enums, system }
        .printed(formula, here)
        .map(|(s, _)| s)
}

struct Printer<'a> {
    enums: &'a [EnumDef],
    system: &'a System,
}

impl Printer<'_> {
    fn printed(&self, e: &Expr, here: usize) -> Option<(String, u8)> {
        surface::printed(self, e, here)
    }

    /// A constant; enum variants qualified (`Status::passed`), negative numbers parenthesized.
    fn value(&self, v: Value, ty: Ty) -> String {
        match (v, ty) {
            (Value::Enum(k), Ty::Enum(e)) => {
                let def = &self.enums[e];
                format!("{}::{}", def.name, def.variants[k as usize])
            }
            (Value::Int(c), _) if c < 0 => format!("({c})"),
            (Value::Float(c), _) if c < 0.0 => format!("({c:?})"),
            (Value::Float(c), _) => format!("{c:?}"),
            (Value::Int(c), _) => c.to_string(),
            (Value::Bool(b), _) => b.to_string(),
            (Value::Enum(k), _) => k.to_string(),
        }
    }
}

impl Leaves for Printer<'_> {
    fn leaf(&self, e: &Expr, here: usize) -> Option<(String, u8)> {
        let lifelines = &self.system.lifelines;
        Some(match &e.kind {
            ExprKind::Const(v) => (self.value(*v, e.ty), ATOM),
            ExprKind::Input(var) => (lifelines[here].vars[*var].name.clone(), ATOM),
            ExprKind::Remote { lifeline, var } => {
                let l = &lifelines[*lifeline];
                (format!("{}.{}", l.name, l.vars[*var].name), ATOM)
            }
            ExprKind::At { lifeline, arg } => {
                let arg = surface::wrap(self, arg, *lifeline, UNARY)?;
                (format!("@{} {arg}", lifelines[*lifeline].name), UNARY)
            }
            _ => return None,
        })
    }
}

/// `execution` as a system trace in JSON Lines (language.md section 6), one
/// line per event in linearization order, each ending in a newline. Message
/// `k` is named `"mk"`; `store` lists the event's changes and is omitted when
/// there are none. Non-finite floats have no JSON form and are written `null`.
pub fn trace_lines(enums: &[EnumDef], system: &System, execution: &Execution) -> String {
    let mut out = String::new();
    for event in execution.events() {
        let lifeline = &system.lifelines[event.lifeline];
        let mut fields = vec![format!("\"lifeline\": \"{}\"", lifeline.name)];
        fields.push(match event.kind {
            EventKind::Send { to, msg } => format!(
                "\"kind\": \"send\", \"to\": \"{}\", \"msg\": \"m{msg}\"",
                system.lifelines[to].name
            ),
            EventKind::Recv { msg } => format!("\"kind\": \"recv\", \"msg\": \"m{msg}\""),
            EventKind::Act => "\"kind\": \"act\"".into(),
            EventKind::Choice => "\"kind\": \"choice\"".into(),
        });
        if !event.changes.is_empty() {
            let store: Vec<String> = event
                .changes
                .iter()
                .map(|&(var, value)| {
                    let decl = &lifeline.vars[var];
                    let is_time = system.time.as_deref() == Some(decl.name.as_str());
                    let text = match value {
                        // Times as seconds, exactly (they are whole quarters).
                        Value::Int(micros) if is_time => format!("{}", micros as f64 / 1e6),
                        _ => json_value(enums, value, decl.ty),
                    };
                    format!("\"{}\": {text}", decl.name)
                })
                .collect();
            fields.push(format!("\"store\": {{{}}}", store.join(", ")));
        }
        out += &format!("{{{}}}\n", fields.join(", "));
    }
    out
}

fn json_value(enums: &[EnumDef], v: Value, ty: Ty) -> String {
    match (v, ty) {
        (Value::Enum(k), Ty::Enum(e)) => format!("\"{}\"", enums[e].variants[k as usize]),
        (Value::Float(x), _) if !x.is_finite() => "null".into(),
        (Value::Float(x), _) => format!("{x:?}"),
        (Value::Int(x), _) => x.to_string(),
        (Value::Bool(b), _) => b.to_string(),
        (Value::Enum(k), _) => k.to_string(),
    }
}

/// The verdict lines `hindsight check` must print for `execution` by the
/// reference semantics: one per `choice` event of a lifeline owning guards,
/// `{"event": 7, "lifeline": "Committer", "may_merge": "true"}`, giving that
/// lifeline's guards in declaration order; each line ends in a newline.
pub fn verdict_lines(system: &System, execution: &Execution) -> String {
    let table = guard_table(system, execution);
    let mut out = String::new();
    for (e, event) in execution.events().iter().enumerate() {
        let verdicts: Vec<String> = system
            .guards
            .iter()
            .zip(&table[e])
            .filter_map(|(g, v)| Some(format!("\"{}\": \"{}\"", g.name, (*v)?)))
            .collect();
        if event.kind == EventKind::Choice && !verdicts.is_empty() {
            let name = &system.lifelines[event.lifeline].name;
            out += &format!(
                "{{\"event\": {e}, \"lifeline\": \"{name}\", {}}}\n",
                verdicts.join(", ")
            );
        }
    }
    out
}
