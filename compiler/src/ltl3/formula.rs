//! The input language of the LTL3 construction: future-time LTL over abstract atoms,
//! and its rendering in the surface syntax of the specification language.

use hindsight_grammar::ast::{
    BinOp, BinaryTemporal, Bound, Expr, ExprKind, Ident, Span, UnaryTemporal,
};
use std::fmt;

/// A future-time LTL formula whose atoms are abstract letters `Atom(i)`: bit `i` of a
/// letter (a valuation of the atoms) says whether atom `i` holds at that step.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Formula {
    /// The constant `true`.
    True,
    /// The constant `false`.
    False,
    /// Atom `i`: bit `i` of the current letter.
    Atom(u32),
    /// `!φ`.
    Not(Box<Formula>),
    /// `φ && ψ`.
    And(Box<Formula>, Box<Formula>),
    /// `φ || ψ`.
    Or(Box<Formula>, Box<Formula>),
    /// `φ -> ψ`.
    Implies(Box<Formula>, Box<Formula>),
    /// `φ <-> ψ`.
    Iff(Box<Formula>, Box<Formula>),
    /// `X φ`: φ at the next step (strong: false at the last step of a finite trace).
    Next(Box<Formula>),
    /// `φ U ψ`: ψ eventually holds and φ holds at every step before.
    Until(Box<Formula>, Box<Formula>),
    /// `φ R ψ`: ψ holds up to and including the first step where φ holds, or forever.
    Release(Box<Formula>, Box<Formula>),
    /// `φ W ψ`: `φ U ψ` or `G φ`.
    WeakUntil(Box<Formula>, Box<Formula>),
    /// `F φ`: φ holds at some step from now on.
    Eventually(Box<Formula>),
    /// `G φ`: φ holds at every step from now on.
    Always(Box<Formula>),
    /// `F[lo,hi] φ`: φ holds at some step now+lo ..= now+hi.
    EventuallyIn {
        /// First step of the window, relative to now.
        lo: u32,
        /// Last step of the window, relative to now (`lo <= hi`).
        hi: u32,
        /// The formula that must hold somewhere in the window.
        body: Box<Formula>,
    },
    /// `G[lo,hi] φ`: φ holds at every step now+lo ..= now+hi.
    AlwaysIn {
        /// First step of the window, relative to now.
        lo: u32,
        /// Last step of the window, relative to now (`lo <= hi`).
        hi: u32,
        /// The formula that must hold throughout the window.
        body: Box<Formula>,
    },
    /// `φ U[lo,hi] ψ`: ψ holds at some step k in now+lo ..= now+hi and φ at every step before k.
    UntilIn {
        /// First step of the window, relative to now.
        lo: u32,
        /// Last step of the window, relative to now (`lo <= hi`).
        hi: u32,
        /// φ, which must hold until the witness.
        left: Box<Formula>,
        /// ψ, the witness.
        right: Box<Formula>,
    },
}

impl Formula {
    /// The largest atom index used, if any atom is used.
    pub fn max_atom(&self) -> Option<u32> {
        let mut max = None;
        self.visit(&mut |f| {
            if let Formula::Atom(a) = f {
                max = max.max(Some(*a));
            }
        });
        max
    }

    /// The number of nodes.
    pub fn size(&self) -> usize {
        let mut n = 0;
        self.visit(&mut |_| n += 1);
        n
    }

    /// Calls `f` on this formula and every sub-formula (pre-order, left to right).
    pub(crate) fn visit(&self, f: &mut dyn FnMut(&Formula)) {
        f(self);
        for child in self.children() {
            child.visit(f);
        }
    }

    /// The formula with every atom `a` replaced by `f(a)`, atoms visited left
    /// to right (operands are evaluated in order).
    pub fn map_atoms(&self, f: &mut dyn FnMut(u32) -> u32) -> Formula {
        use Formula::*;
        let mut go = |x: &Formula| Box::new(x.map_atoms(f));
        match self {
            True => True,
            False => False,
            Atom(a) => Atom(f(*a)),
            Not(a) => Not(go(a)),
            Next(a) => Next(go(a)),
            Eventually(a) => Eventually(go(a)),
            Always(a) => Always(go(a)),
            And(a, b) => And(go(a), go(b)),
            Or(a, b) => Or(go(a), go(b)),
            Implies(a, b) => Implies(go(a), go(b)),
            Iff(a, b) => Iff(go(a), go(b)),
            Until(a, b) => Until(go(a), go(b)),
            Release(a, b) => Release(go(a), go(b)),
            WeakUntil(a, b) => WeakUntil(go(a), go(b)),
            EventuallyIn { lo, hi, body } => EventuallyIn {
                lo: *lo,
                hi: *hi,
                body: go(body),
            },
            AlwaysIn { lo, hi, body } => AlwaysIn {
                lo: *lo,
                hi: *hi,
                body: go(body),
            },
            UntilIn {
                lo,
                hi,
                left,
                right,
            } => UntilIn {
                lo: *lo,
                hi: *hi,
                left: go(left),
                right: go(right),
            },
        }
    }

    /// The direct sub-formulas.
    pub fn children(&self) -> Vec<&Formula> {
        use Formula::*;
        match self {
            True | False | Atom(_) => vec![],
            Not(a) | Next(a) | Eventually(a) | Always(a) => vec![a],
            EventuallyIn { body, .. } | AlwaysIn { body, .. } => vec![body],
            And(a, b)
            | Or(a, b)
            | Implies(a, b)
            | Iff(a, b)
            | Until(a, b)
            | Release(a, b)
            | WeakUntil(a, b) => vec![a, b],
            UntilIn { left, right, .. } => vec![left, right],
        }
    }

    /// The formula in surface syntax, atom `i` written as `name(i)`, printed
    /// by the language's one printer.
    pub fn render(&self, name: &dyn Fn(u32) -> String) -> String {
        self.to_source(name).to_string()
    }

    /// The formula as a source expression, atom `i` a name reading `name(i)`.
    fn to_source(&self, name: &dyn Fn(u32) -> String) -> Expr {
        use Formula::*;
        let go = |f: &Formula| Box::new(f.to_source(name));
        let unary = |op, lo_hi: Option<(u32, u32)>, arg: &Formula| ExprKind::Unary {
            op,
            op_span: Span::default(),
            bound: lo_hi.map(window),
            arg: go(arg),
        };
        let temporal =
            |op, lo_hi: Option<(u32, u32)>, l: &Formula, r: &Formula| ExprKind::Temporal {
                op,
                op_span: Span::default(),
                bound: lo_hi.map(window),
                lhs: go(l),
                rhs: go(r),
            };
        let binary = |op, l: &Formula, r: &Formula| ExprKind::Binary {
            op,
            op_span: Span::default(),
            lhs: go(l),
            rhs: go(r),
        };
        Expr::synthetic(match self {
            True => ExprKind::Bool(true),
            False => ExprKind::Bool(false),
            Atom(a) => ExprKind::Name(Ident {
                name: name(*a),
                span: Span::default(),
            }),
            Not(a) => ExprKind::Not(go(a)),
            Next(a) => unary(UnaryTemporal::Next, None, a),
            Eventually(a) => unary(UnaryTemporal::Eventually, None, a),
            Always(a) => unary(UnaryTemporal::Globally, None, a),
            EventuallyIn { lo, hi, body } => {
                unary(UnaryTemporal::Eventually, Some((*lo, *hi)), body)
            }
            AlwaysIn { lo, hi, body } => unary(UnaryTemporal::Globally, Some((*lo, *hi)), body),
            Until(l, r) => temporal(BinaryTemporal::Until, None, l, r),
            Release(l, r) => temporal(BinaryTemporal::Release, None, l, r),
            WeakUntil(l, r) => temporal(BinaryTemporal::WeakUntil, None, l, r),
            UntilIn {
                lo,
                hi,
                left,
                right,
            } => temporal(BinaryTemporal::Until, Some((*lo, *hi)), left, right),
            And(l, r) => binary(BinOp::And, l, r),
            Or(l, r) => binary(BinOp::Or, l, r),
            Implies(l, r) => binary(BinOp::Implies, l, r),
            Iff(l, r) => binary(BinOp::Iff, l, r),
        })
    }
}

/// The bound `[lo,hi]` of a window.
fn window((lo, hi): (u32, u32)) -> Bound {
    Bound {
        lo: u64::from(lo),
        hi: Some(u64::from(hi)),
        unit: hindsight_grammar::ast::BoundUnit::Steps,
        span: Span::default(),
    }
}

/// Renders with atoms named `p0`, `p1`, ….
impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&|a| format!("p{a}")))
    }
}
