//! The whole pipeline as one call: source text to checked spec and tables
//! (monitors), lowered systems and lowered populations.

use crate::diag::{has_errors, Code, Diag};
use crate::hir;
use crate::ir::Program;
use crate::ltl3::{Budget, Limits};

/// A spec compiled: the checked spec, the program the back ends run, and the
/// warnings.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The checked spec.
    pub spec: hir::Spec,
    /// Every block lowered to the IR.
    pub program: Program,
    /// Warnings (compilation succeeded despite them).
    pub warnings: Vec<Diag>,
}

/// A spec parsed and checked, not yet lowered.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The checked spec.
    pub spec: hir::Spec,
    /// The checker's warnings.
    pub warnings: Vec<Diag>,
}

impl Checked {
    /// Keeps only the monitor, system or population named `name` (and every
    /// enum), so that lowering builds nothing else: `hindsight check --block`
    /// pays for the automata of its block only. Returns whether a block of
    /// that name was found.
    pub fn retain_block(&mut self, name: &str) -> bool {
        let spec = &mut self.spec;
        spec.monitors.retain(|m| m.name == name);
        spec.systems.retain(|s| s.name == name);
        spec.populations.retain(|p| p.name == name);
        spec.monitors.len() + spec.systems.len() + spec.populations.len() == 1
    }
}

/// Parses, checks and lowers `source`, then analyses the future-time properties
/// of monitors and populations ([`crate::analysis`]); on failure returns every
/// diagnostic (errors and warnings, in source order). Runs on a thread with a
/// large stack, as deep formulas need in unoptimised builds ([`crate::stack`]).
pub fn compile(source: &str) -> Result<Compiled, Vec<Diag>> {
    let checked = check_source(source)?;
    lower_checked(checked, source)
}

/// Everything an editor shows for one version of a file.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Declarations and uses of names, from whatever the parser recovered.
    pub symbols: crate::symbols::Symbols,
    /// The compiled spec, when it compiles.
    pub compiled: Option<Compiled>,
    /// Every diagnostic [`compile`] reports (its warnings when it succeeds),
    /// in source order.
    pub diagnostics: Vec<Diag>,
}

/// Compiles `source` as [`compile`] does and indexes its names from what the
/// parser recovered ([`hindsight_grammar::parse_recovering`]), so that names
/// resolve in the items without syntax errors.
pub fn analyse(source: &str) -> Analysis {
    let (compiled, diagnostics) = match compile(source) {
        Ok(compiled) => {
            let warnings = compiled.warnings.clone();
            (Some(compiled), warnings)
        }
        Err(diags) => (None, diags),
    };
    let symbols = if source.len() > crate::source::MAX_SPEC_BYTES {
        crate::symbols::Symbols::default()
    } else {
        on_large_stack(|| Ok(hindsight_grammar::parse_recovering(source).0))
            .ok()
            .flatten()
            .map_or_else(Default::default, |file| crate::symbols::Symbols::of(&file))
    };
    Analysis {
        symbols,
        compiled,
        diagnostics,
    }
}

/// Parses and checks `source` (the first half of [`compile`]); a source
/// longer than [`crate::source::MAX_SPEC_BYTES`] is refused (E0900).
pub fn check_source(source: &str) -> Result<Checked, Vec<Diag>> {
    if source.len() > crate::source::MAX_SPEC_BYTES {
        return Err(vec![Diag::error()
            .with_code(Code::SizeLimitExceeded)
            .with_message(crate::source::too_large())
            .with_labels(vec![crate::diag::Label::primary((), 0..0)])]);
    }
    on_large_stack(|| {
        let file = hindsight_grammar::parse(source)?;
        let (spec, diags) = crate::check::check_here(&file);
        match spec {
            Some(spec) if !has_errors(&diags) => Ok(Checked {
                spec,
                warnings: diags,
            }),
            _ => Err(diags),
        }
    })
}

/// Lowers and analyses every block of `checked`, the checked form of
/// `source` (the second half of [`compile`]); all automata share one work
/// budget.
pub fn lower_checked(checked: Checked, source: &str) -> Result<Compiled, Vec<Diag>> {
    on_large_stack(|| lower_here(checked.clone(), source))
}

/// Lowers monitor `index` of `spec` with its past-time `let`s as slots
/// ([`crate::lower::lower_with_lets`]): the table a learned model reads its
/// features from. Runs on the compiling thread with a fresh work budget.
pub fn lower_for_learning(spec: &hir::Spec, index: usize) -> Result<crate::ir::Table, Vec<Diag>> {
    on_large_stack(|| {
        let Some(monitor) = spec.monitors.get(index) else {
            return Err(vec![Diag::bug().with_message("no such monitor block")]);
        };
        let mut budget = Budget::new(Limits::default().max_work);
        crate::lower::lower_with_lets(spec, monitor, &mut budget)
    })
}

/// `work` on the compiling thread, a panic reported as an internal error.
fn on_large_stack<T: Send>(work: impl Fn() -> Result<T, Vec<Diag>> + Sync) -> Result<T, Vec<Diag>> {
    crate::stack::with_large_stack("hindsight-compile", work, || {
        let bug = Diag::bug()
            .with_message("internal compiler error: the compiler panicked; please report this");
        Err(vec![bug])
    })
}

fn lower_here(checked: Checked, source: &str) -> Result<Compiled, Vec<Diag>> {
    let Checked {
        spec,
        warnings: mut diags,
    } = checked;
    // One work budget for every automaton of the spec: compiling any spec is
    // bounded in time and memory (the budget's last line of defence).
    let mut budget = Budget::new(Limits::default().max_work);
    let mut tables = Vec::with_capacity(spec.monitors.len());
    for monitor in &spec.monitors {
        match crate::lower::lower(&spec, monitor, &mut budget) {
            Ok(table) => tables.push(table),
            Err(errors) => diags.extend(errors),
        }
    }
    let mut systems = Vec::with_capacity(spec.systems.len());
    for system in &spec.systems {
        match crate::lower::system::lower(&spec, system, &mut budget) {
            Ok(lowered) => systems.push(lowered),
            Err(errors) => diags.extend(errors),
        }
    }
    let mut populations = Vec::with_capacity(spec.populations.len());
    for population in &spec.populations {
        match crate::lower::population::lower(&spec, population, &mut budget) {
            Ok(lowered) => populations.push(lowered),
            Err(errors) => diags.extend(errors),
        }
    }
    if has_errors(&diags) {
        return Err(diags);
    }
    diags.extend(crate::analysis::analyze(&spec, &tables));
    diags.extend(crate::analysis::analyze_populations(
        &spec,
        &populations,
        source,
    ));
    // Checker and analysis warnings together, in source order.
    diags.sort_by_key(|d| d.labels.first().map_or(0, |l| l.range.start));
    let program = Program {
        enums: spec.enums.clone(),
        monitors: tables,
        systems,
        populations,
    };
    Ok(Compiled {
        spec,
        program,
        warnings: diags,
    })
}
