//! The inputs a trace line must give, taken from a checked monitor.

use hindsight_compiler::hir::{self, Ty};

/// The type of one input, as trace lines must give it.
#[derive(Clone, Debug, PartialEq)]
pub enum InputType {
    /// A JSON `true`/`false`.
    Bool,
    /// A JSON integer in the i64 range.
    Int,
    /// Any JSON number.
    Float,
    /// A JSON string naming a variant.
    Enum {
        /// The enum's name (accepted as the `Name::` prefix of a variant).
        name: String,
        /// The variants in declaration order; [`Value::Enum`] indexes this list.
        variants: Vec<String>,
    },
}

impl InputType {
    /// What a trace must give for this type, as error messages say it.
    pub(super) fn expectation(&self) -> String {
        match self {
            InputType::Bool => "bool".to_string(),
            InputType::Int => "int".to_string(),
            InputType::Float => "float".to_string(),
            InputType::Enum { name, variants } => {
                format!(
                    "a variant of enum `{name}` (one of: {})",
                    variants.join(", ")
                )
            }
        }
    }

    /// The type's name as written in a spec.
    pub(super) fn name(&self) -> &str {
        match self {
            InputType::Bool => "bool",
            InputType::Int => "int",
            InputType::Float => "float",
            InputType::Enum { name, .. } => name,
        }
    }
}

/// One input a trace line gives.
#[derive(Clone, Debug, PartialEq)]
pub struct InputSchema {
    /// The input's name (the JSON key).
    pub name: String,
    /// Its type.
    pub ty: InputType,
}

/// The inputs every trace line must give, in the monitor's declaration order.
#[derive(Clone, Debug)]
pub struct TraceSchema {
    /// The inputs in declaration order.
    pub(super) inputs: Vec<InputSchema>,
    /// Input indices sorted by name, for binary search.
    by_name: Vec<usize>,
    /// The first input that is not bool (the array form is invalid if there is one).
    pub(super) first_non_bool: Option<usize>,
}

impl TraceSchema {
    /// A schema for `inputs`; a [`Value`] vector is indexed like this list.
    pub fn new(inputs: Vec<InputSchema>) -> Self {
        let mut by_name: Vec<usize> = (0..inputs.len()).collect();
        by_name.sort_by(|&a, &b| inputs[a].name.cmp(&inputs[b].name));
        let first_non_bool = inputs.iter().position(|i| i.ty != InputType::Bool);
        TraceSchema {
            inputs,
            by_name,
            first_non_bool,
        }
    }

    /// The schema of a checked monitor's inputs; `enums` are the spec's enums.
    pub fn for_monitor(enums: &[hir::EnumDef], monitor: &hir::Monitor) -> Self {
        let inputs = monitor
            .inputs
            .iter()
            .map(|input| InputSchema {
                name: input.name.clone(),
                ty: match input.ty {
                    Ty::Bool => InputType::Bool,
                    Ty::Int => InputType::Int,
                    Ty::Float => InputType::Float,
                    Ty::Enum(e) => match enums.get(e) {
                        Some(def) => InputType::Enum {
                            name: def.name.clone(),
                            variants: def.variants.clone(),
                        },
                        // The checker never produces a dangling index; an enum with
                        // no variants rejects every value rather than panicking.
                        None => InputType::Enum {
                            name: format!("enum#{e}"),
                            variants: Vec::new(),
                        },
                    },
                },
            })
            .collect();
        TraceSchema::new(inputs)
    }

    /// The inputs in declaration order.
    pub fn inputs(&self) -> &[InputSchema] {
        &self.inputs
    }

    /// The index of the input called `name`, trying `hint` first and updating
    /// it on a miss (lines usually list their keys in the same order).
    pub(super) fn lookup_hinted(&self, name: &str, hint: Option<&mut usize>) -> Option<usize> {
        match hint {
            Some(hint) => {
                if self.inputs.get(*hint).is_some_and(|i| i.name == name) {
                    return Some(*hint);
                }
                let found = self.lookup(name)?;
                *hint = found;
                Some(found)
            }
            None => self.lookup(name),
        }
    }

    /// The index of the input called `name`.
    fn lookup(&self, name: &str) -> Option<usize> {
        self.by_name
            .binary_search_by(|&i| self.inputs[i].name.as_str().cmp(name))
            .ok()
            .and_then(|at| self.by_name.get(at).copied())
    }

    /// The names of the inputs (all of them, or only the bool ones), comma-separated.
    pub(super) fn names(&self, only_bool: bool) -> String {
        let names: Vec<&str> = self
            .inputs
            .iter()
            .filter(|i| !only_bool || i.ty == InputType::Bool)
            .map(|i| i.name.as_str())
            .collect();
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    }
}
