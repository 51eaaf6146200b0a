//! The input language of the LTL3 construction: future-time LTL over abstract atoms,
//! and its rendering in the surface syntax of the specification language.

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

/// Binding strength of a rendered operator, weakest first (language.md section 2).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    Iff,
    Implies,
    Or,
    And,
    Binary,
    Unary,
    Atomic,
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
    /// to right.
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
            And(a, b) => {
                let a = go(a);
                And(a, go(b))
            }
            Or(a, b) => {
                let a = go(a);
                Or(a, go(b))
            }
            Implies(a, b) => {
                let a = go(a);
                Implies(a, go(b))
            }
            Iff(a, b) => {
                let a = go(a);
                Iff(a, go(b))
            }
            Until(a, b) => {
                let a = go(a);
                Until(a, go(b))
            }
            Release(a, b) => {
                let a = go(a);
                Release(a, go(b))
            }
            WeakUntil(a, b) => {
                let a = go(a);
                WeakUntil(a, go(b))
            }
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
            } => {
                let left = go(left);
                UntilIn {
                    lo: *lo,
                    hi: *hi,
                    left,
                    right: go(right),
                }
            }
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

    /// The formula in surface syntax, atom `i` written as `name(i)`, with the fewest
    /// parentheses the precedence rules of the language allow.
    pub fn render(&self, name: &dyn Fn(u32) -> String) -> String {
        let mut out = String::new();
        self.write(name, &mut out);
        out
    }

    fn prec(&self) -> Prec {
        use Formula::*;
        match self {
            True | False | Atom(_) => Prec::Atomic,
            Not(_)
            | Next(_)
            | Eventually(_)
            | Always(_)
            | EventuallyIn { .. }
            | AlwaysIn { .. } => Prec::Unary,
            Until(..) | Release(..) | WeakUntil(..) | UntilIn { .. } => Prec::Binary,
            And(..) => Prec::And,
            Or(..) => Prec::Or,
            Implies(..) => Prec::Implies,
            Iff(..) => Prec::Iff,
        }
    }

    fn write(&self, name: &dyn Fn(u32) -> String, out: &mut String) {
        use Formula::*;
        let unary = |op: String, body: &Formula, out: &mut String| {
            out.push_str(&op);
            body.write_at(Prec::Unary, name, out);
        };
        let binary = |op: &str, l: &Formula, r: &Formula, min: (Prec, Prec), out: &mut String| {
            l.write_at(min.0, name, out);
            out.push_str(op);
            r.write_at(min.1, name, out);
        };
        match self {
            True => out.push_str("true"),
            False => out.push_str("false"),
            Atom(a) => out.push_str(&name(*a)),
            Not(a) => unary("!".into(), a, out),
            Next(a) => unary("X ".into(), a, out),
            Eventually(a) => unary("F ".into(), a, out),
            Always(a) => unary("G ".into(), a, out),
            EventuallyIn { lo, hi, body } => unary(format!("F[{lo},{hi}] "), body, out),
            AlwaysIn { lo, hi, body } => unary(format!("G[{lo},{hi}] "), body, out),
            Until(l, r) => binary(" U ", l, r, (Prec::Unary, Prec::Binary), out),
            Release(l, r) => binary(" R ", l, r, (Prec::Unary, Prec::Binary), out),
            WeakUntil(l, r) => binary(" W ", l, r, (Prec::Unary, Prec::Binary), out),
            UntilIn {
                lo,
                hi,
                left,
                right,
            } => binary(
                &format!(" U[{lo},{hi}] "),
                left,
                right,
                (Prec::Unary, Prec::Binary),
                out,
            ),
            And(l, r) => binary(" && ", l, r, (Prec::And, Prec::And), out),
            Or(l, r) => binary(" || ", l, r, (Prec::Or, Prec::Or), out),
            Implies(l, r) => binary(" -> ", l, r, (Prec::Or, Prec::Implies), out),
            Iff(l, r) => binary(" <-> ", l, r, (Prec::Implies, Prec::Implies), out),
        }
    }

    /// Writes the formula, parenthesized if it binds less tightly than `min`.
    fn write_at(&self, min: Prec, name: &dyn Fn(u32) -> String, out: &mut String) {
        if self.prec() < min {
            out.push('(');
            self.write(name, out);
            out.push(')');
        } else {
            self.write(name, out);
        }
    }
}

/// Renders with atoms named `p0`, `p1`, ….
impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&|a| format!("p{a}")))
    }
}
