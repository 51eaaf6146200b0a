//! Homes and exports (docs/cpl.md): every guard is rewritten into a formula of
//! its owner's table, and every `@M φ` / `M.x` read off `M` into an input that
//! reads a view entry, which `M` exports.
//!
//! The rewrite also makes undefinedness explicit, so that tables stay total:
//! every variable (a store variable or an exported one) comes with a *defined*
//! flag, an atom (comparison) is guarded by the flags of the variables its
//! terms read, arithmetic passes its operands' flags on, and a bool variable
//! used as a formula holds when it is defined and true. An undefined
//! variable's value input is never observed.

use super::display;
use crate::hir::{BoolOp, EnumDef, Expr, ExprKind, Input, System, Ty};
use crate::ir::system::{EntryKind, InputSource};
use crate::walk::{map_children, without_spans};

/// A view entry as it is discovered (ids are later sorted into the layout order).
pub(super) struct Draft {
    /// The lifeline exporting it.
    pub owner: usize,
    /// A formula or a variable.
    pub kind: EntryKind,
    /// Its surface syntax.
    pub name: String,
    /// For a formula entry: `φ` without spans (to find repeated uses) and `φ`
    /// rewritten on its owner (computed by the owner's table).
    pub formula: Option<(Expr, Expr)>,
}

/// Index of a view entry in [`Homes::drafts`] (discovery order).
pub(super) type DraftId = crate::ir::Id<Draft>;

/// Where an input comes from, naming view entries by draft id.
pub(super) type DraftSource = InputSource<DraftId>;

/// The result of the rewrite.
pub(super) struct Homes {
    /// The view entries in order of discovery; [`DraftId`]s index this list.
    pub drafts: Vec<Draft>,
    /// Per lifeline: its table's inputs and where each comes from.
    pub inputs: Vec<Vec<(Input, DraftSource)>>,
    /// Per guard: its formula rewritten on its owner.
    pub guards: Vec<Expr>,
}

/// Rewrites every guard of `system` (whose indices must be in range).
pub(super) fn rewrite(system: &System, enums: &[EnumDef]) -> Homes {
    let inputs = system
        .lifelines
        .iter()
        .map(|l| {
            let vars = l.vars.iter().enumerate();
            vars.map(|(x, v)| (v.clone(), InputSource::Var(x)))
                .collect()
        })
        .collect();
    let mut r = Rewriter {
        system,
        enums,
        homes: Homes {
            drafts: Vec::new(),
            inputs,
            guards: Vec::new(),
        },
    };
    for guard in &system.guards {
        let formula = r.formula(&guard.formula, guard.owner);
        r.homes.guards.push(formula);
    }
    r.homes
}

struct Rewriter<'a> {
    system: &'a System,
    enums: &'a [EnumDef],
    homes: Homes,
}

impl Rewriter<'_> {
    /// A formula on `home`: its truth value (never undefined).
    fn formula(&mut self, e: &Expr, home: usize) -> Expr {
        match &e.kind {
            ExprKind::Input(_) | ExprKind::Remote { .. } => {
                let (value, defined) = self.term(e, home);
                guarded(defined, value)
            }
            ExprKind::Cmp(op, a, b) => {
                let (a, da) = self.term(a, home);
                let (b, db) = self.term(b, home);
                let atom = node(e, ExprKind::Cmp(*op, Box::new(a), Box::new(b)));
                guarded(conjunction(da, db), atom)
            }
            ExprKind::At { lifeline, arg } if *lifeline == home => self.formula(arg, home),
            ExprKind::At { lifeline, arg } => {
                let entry = self.formula_entry(*lifeline, arg);
                self.input(home, InputSource::Entry(entry), e)
            }
            ExprKind::Const(_)
            | ExprKind::Not(_)
            | ExprKind::Bool(..)
            | ExprKind::Unary(..)
            | ExprKind::Binary(..) => map_children(e, &mut |c| self.formula(c, home)),
            // Not formulas (int or float terms); a checked guard has none here.
            ExprKind::Count(_) | ExprKind::Neg(_) | ExprKind::Arith(..) => self.term(e, home).0,
            // Population-only; the checker never puts them in a system.
            ExprKind::Attribute(_) | ExprKind::Quant { .. } => e.clone(),
        }
    }

    /// A term on `home`: its value and its defined flag (`None`: always defined).
    fn term(&mut self, e: &Expr, home: usize) -> (Expr, Option<Expr>) {
        match &e.kind {
            ExprKind::Input(var) => self.local_var(home, *var, e),
            ExprKind::Remote { lifeline, var } if *lifeline == home => {
                self.local_var(home, *var, e)
            }
            ExprKind::Remote { lifeline, var } => {
                let entry = self.var_entry(*lifeline, *var);
                let value = self.input(home, InputSource::Entry(entry), e);
                let defined = self.input(home, InputSource::EntryDefined(entry), e);
                (value, Some(defined))
            }
            ExprKind::Neg(a) => {
                let (a, defined) = self.term(a, home);
                (node(e, ExprKind::Neg(Box::new(a))), defined)
            }
            ExprKind::Arith(op, a, b) => {
                let (a, da) = self.term(a, home);
                let (b, db) = self.term(b, home);
                let value = node(e, ExprKind::Arith(*op, Box::new(a), Box::new(b)));
                (value, conjunction(da, db))
            }
            ExprKind::Count(items) => {
                let items = items.iter().map(|i| self.formula(i, home)).collect();
                (node(e, ExprKind::Count(items)), None)
            }
            // Constants and formulas used as bool terms are always defined.
            _ => (self.formula(e, home), None),
        }
    }

    /// Store variable `var` of `home`, read by `e`.
    fn local_var(&mut self, home: usize, var: usize, e: &Expr) -> (Expr, Option<Expr>) {
        let value = self.input(home, InputSource::Var(var), e);
        let defined = self.input(home, InputSource::Defined(var), e);
        (value, Some(defined))
    }

    /// The entry exporting `φ` (on `owner`), created on first use.
    fn formula_entry(&mut self, owner: usize, arg: &Expr) -> DraftId {
        let key = without_spans(arg);
        let drafts = &self.homes.drafts;
        let found = drafts
            .iter()
            .position(|d| d.owner == owner && d.formula.as_ref().is_some_and(|(k, _)| *k == key));
        if let Some(id) = found {
            return DraftId::new(id);
        }
        let on_owner = self.formula(arg, owner);
        self.homes.drafts.push(Draft {
            owner,
            kind: EntryKind::Formula,
            name: display::at_text(self.system, self.enums, owner, arg),
            formula: Some((key, on_owner)),
        });
        DraftId::new(self.homes.drafts.len() - 1)
    }

    /// The entry exporting variable `var` of `owner`, created on first use.
    fn var_entry(&mut self, owner: usize, var: usize) -> DraftId {
        let found = self.homes.drafts.iter().position(|d| {
            d.owner == owner && matches!(d.kind, EntryKind::Var { var: v, .. } if v == var)
        });
        if let Some(id) = found {
            return DraftId::new(id);
        }
        let ty = self.system.lifelines[owner].vars[var].ty;
        self.homes.drafts.push(Draft {
            owner,
            kind: EntryKind::Var {
                var,
                ty,
                value_bytes: value_bytes(ty, self.enums),
            },
            name: display::remote_text(self.system, owner, var),
            formula: None,
        });
        DraftId::new(self.homes.drafts.len() - 1)
    }

    /// The input of `home`'s table reading `source` (added on first use), as
    /// an expression at `at`'s place.
    fn input(&mut self, home: usize, source: DraftSource, at: &Expr) -> Expr {
        let (name, ty) = self.describe(home, source);
        let inputs = &mut self.homes.inputs[home];
        let k = match inputs.iter().position(|(_, s)| *s == source) {
            Some(k) => k,
            None => {
                let input = Input {
                    name,
                    ty,
                    span: at.span,
                };
                inputs.push((input, source));
                inputs.len() - 1
            }
        };
        Expr {
            kind: ExprKind::Input(k),
            ty,
            span: at.span,
        }
    }

    /// The name and type of the input reading `source` on `home`.
    fn describe(&self, home: usize, source: DraftSource) -> (String, Ty) {
        let var = |x: usize| &self.system.lifelines[home].vars[x];
        let entry = |id: DraftId| &self.homes.drafts[id];
        match source {
            InputSource::Var(x) => (var(x).name.clone(), var(x).ty),
            InputSource::Defined(x) => (format!("defined({})", var(x).name), Ty::Bool),
            InputSource::Entry(id) => match entry(id).kind {
                EntryKind::Formula => (entry(id).name.clone(), Ty::Bool),
                EntryKind::Var { ty, .. } => (entry(id).name.clone(), ty),
            },
            InputSource::EntryDefined(id) => (format!("defined({})", entry(id).name), Ty::Bool),
        }
    }
}

/// Bytes of an encoded value of type `ty` (see [`EntryKind::Var`]).
fn value_bytes(ty: Ty, enums: &[EnumDef]) -> usize {
    match ty {
        Ty::Bool => 1,
        Ty::Int | Ty::Float => 8,
        Ty::Enum(e) if enums.get(e).is_some_and(|d| d.variants.len() > 256) => 4,
        Ty::Enum(_) => 1,
    }
}

/// A node of kind `kind` at `at`'s place and of its type.
fn node(at: &Expr, kind: ExprKind) -> Expr {
    Expr {
        kind,
        ty: at.ty,
        span: at.span,
    }
}

/// `a && b`.
fn and(a: Expr, b: Expr) -> Expr {
    let span = b.span;
    Expr {
        kind: ExprKind::Bool(BoolOp::And, Box::new(a), Box::new(b)),
        ty: Ty::Bool,
        span,
    }
}

/// Both flags (`None`: no condition).
fn conjunction(a: Option<Expr>, b: Option<Expr>) -> Option<Expr> {
    match (a, b) {
        (Some(a), Some(b)) => Some(and(a, b)),
        (a, b) => a.or(b),
    }
}

/// `value` where `defined` holds, false elsewhere.
fn guarded(defined: Option<Expr>, value: Expr) -> Expr {
    match defined {
        Some(defined) => and(defined, value),
        None => value,
    }
}
