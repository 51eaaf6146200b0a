//! The formula-progression monitor, the baseline of the TRAC paper: the
//! property is a heap-allocated formula tree, rewritten on every event into the
//! obligation the rest of the trace must satisfy (Bacchus and Kabanza's
//! progression), simplified as it goes (constants absorbed, nested conjunctions
//! and disjunctions flattened, duplicate operands dropped). The verdict is
//! `True` or `False` once the obligation simplifies to a constant, `Unknown`
//! otherwise — not anticipatory: `F p && G !p` stays `Unknown` until `p`.

use hindsight_runtime::Verdict;

/// A future-time formula in negation normal form over atoms numbered by the caller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Formula {
    /// `true`
    True,
    /// `false`
    False,
    /// Atom `k` (its value at each event is the caller's).
    Atom(usize),
    /// `!atom`
    NotAtom(usize),
    /// All of the operands.
    And(Vec<Formula>),
    /// Any of the operands.
    Or(Vec<Formula>),
    /// `X φ`
    Next(Box<Formula>),
    /// `F φ`
    Eventually(Box<Formula>),
    /// `G φ`
    Globally(Box<Formula>),
    /// `φ U ψ`
    Until(Box<Formula>, Box<Formula>),
    /// `φ W ψ`
    WeakUntil(Box<Formula>, Box<Formula>),
}

impl Formula {
    /// `φ && ψ`, simplified.
    pub fn and(a: Formula, b: Formula) -> Formula {
        junction(true, vec![a, b])
    }

    /// `φ || ψ`, simplified.
    pub fn or(a: Formula, b: Formula) -> Formula {
        junction(false, vec![a, b])
    }

    /// `φ -> ψ` for an atom `φ`: `!φ || ψ`.
    pub fn implies(atom: usize, b: Formula) -> Formula {
        Formula::or(Formula::NotAtom(atom), b)
    }

    /// `F φ`
    pub fn eventually(a: Formula) -> Formula {
        Formula::Eventually(Box::new(a))
    }

    /// `G φ`
    pub fn globally(a: Formula) -> Formula {
        Formula::Globally(Box::new(a))
    }

    /// `X φ`
    pub fn next(a: Formula) -> Formula {
        Formula::Next(Box::new(a))
    }

    /// `φ W ψ`
    pub fn weak_until(a: Formula, b: Formula) -> Formula {
        Formula::WeakUntil(Box::new(a), Box::new(b))
    }

    /// The obligation on the rest of the trace after an event whose atoms are
    /// `atom(k)`: `φ` holds from here iff the result holds from the next event.
    pub fn progress(&self, atom: &impl Fn(usize) -> bool) -> Formula {
        use Formula::*;
        match self {
            True => True,
            False => False,
            Atom(k) => constant(atom(*k)),
            NotAtom(k) => constant(!atom(*k)),
            And(xs) => junction(true, xs.iter().map(|x| x.progress(atom)).collect()),
            Or(xs) => junction(false, xs.iter().map(|x| x.progress(atom)).collect()),
            Next(a) => (**a).clone(),
            Eventually(a) => Formula::or(a.progress(atom), self.clone()),
            Globally(a) => Formula::and(a.progress(atom), self.clone()),
            Until(a, b) => Formula::or(
                b.progress(atom),
                Formula::and(a.progress(atom), self.clone()),
            ),
            WeakUntil(a, b) => Formula::or(
                b.progress(atom),
                Formula::and(a.progress(atom), self.clone()),
            ),
        }
    }

    /// Whether the obligation holds on the empty rest of a finished trace (LTLf):
    /// `G` and `W` hold vacuously; atoms, `X`, `F` and `U` need a step that
    /// will not come.
    pub fn holds_at_end(&self) -> bool {
        use Formula::*;
        match self {
            True | Globally(_) | WeakUntil(..) => true,
            False | Atom(_) | NotAtom(_) | Next(_) | Eventually(_) | Until(..) => false,
            And(xs) => xs.iter().all(Formula::holds_at_end),
            Or(xs) => xs.iter().any(Formula::holds_at_end),
        }
    }

    /// `True`/`False` once the obligation is a constant, else `Unknown`.
    pub fn verdict(&self) -> Verdict {
        match self {
            Formula::True => Verdict::True,
            Formula::False => Verdict::False,
            _ => Verdict::Unknown,
        }
    }
}

fn constant(b: bool) -> Formula {
    if b {
        Formula::True
    } else {
        Formula::False
    }
}

/// The conjunction (`and`) or disjunction of `operands`, simplified: nested
/// ones of the same kind flattened, the neutral constant and duplicates
/// dropped, the absorbing constant absorbing everything.
fn junction(and: bool, operands: Vec<Formula>) -> Formula {
    let (neutral, absorbing) = if and {
        (Formula::True, Formula::False)
    } else {
        (Formula::False, Formula::True)
    };
    let mut flat: Vec<Formula> = Vec::with_capacity(operands.len());
    let push = |x: Formula, flat: &mut Vec<Formula>| {
        if x != neutral && !flat.contains(&x) {
            flat.push(x);
        }
    };
    for x in operands {
        if x == absorbing {
            return absorbing;
        }
        match x {
            Formula::And(xs) if and => xs.into_iter().for_each(|x| push(x, &mut flat)),
            Formula::Or(xs) if !and => xs.into_iter().for_each(|x| push(x, &mut flat)),
            x => push(x, &mut flat),
        }
    }
    match flat.len() {
        0 => neutral,
        1 => flat.pop().unwrap_or(neutral),
        _ if and => Formula::And(flat),
        _ => Formula::Or(flat),
    }
}

/// A property monitored by progression, restarted after each decided verdict
/// when `reset` (TRAC_R).
#[derive(Clone, Debug)]
pub struct Progression {
    initial: Formula,
    current: Formula,
    reset: bool,
}

impl Progression {
    /// A monitor of `formula`.
    pub fn new(formula: Formula, reset: bool) -> Self {
        Progression {
            current: formula.clone(),
            initial: formula,
            reset,
        }
    }

    /// Progresses over one event; the verdict after it.
    pub fn step(&mut self, atom: &impl Fn(usize) -> bool) -> Verdict {
        self.current = self.current.progress(atom);
        let verdict = self.current.verdict();
        if self.reset && verdict != Verdict::Unknown {
            self.current = self.initial.clone();
        }
        verdict
    }

    /// The finite-trace verdict if the trace ended now (for a run that was
    /// just decided and restarted: the initial formula's, on an empty run).
    pub fn finish(&self) -> Verdict {
        Verdict::from(self.current.holds_at_end())
    }

    /// The current obligation.
    pub fn residual(&self) -> &Formula {
        &self.current
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn response_keeps_one_pending_obligation() {
        // G (0 -> F 1): a request leaves F 1 pending until the grant.
        let mut m = Progression::new(
            Formula::globally(Formula::implies(0, Formula::eventually(Formula::Atom(1)))),
            false,
        );
        let g = m.residual().clone();
        assert_eq!(m.step(&|k| k == 0), Verdict::Unknown);
        let pending = Formula::And(vec![Formula::eventually(Formula::Atom(1)), g.clone()]);
        assert_eq!(m.residual(), &pending);
        assert_eq!(m.step(&|k| k == 0), Verdict::Unknown);
        assert_eq!(m.residual(), &pending, "a second request adds nothing");
        assert_eq!(m.step(&|k| k == 1), Verdict::Unknown);
        assert_eq!(m.residual(), &g);
    }

    #[test]
    fn not_anticipatory_and_reset() {
        // F 0 && G !0 is unsatisfiable, but progression only sees it when 0 occurs.
        let f = Formula::and(
            Formula::eventually(Formula::Atom(0)),
            Formula::globally(Formula::NotAtom(0)),
        );
        let mut m = Progression::new(f.clone(), true);
        assert_eq!(m.step(&|_| false), Verdict::Unknown);
        assert_eq!(m.step(&|_| true), Verdict::False);
        assert_eq!(m.residual(), &f, "restarted");
        // !0 W 1 is decided true by 1, false by 0 first.
        let mut w = Progression::new(
            Formula::weak_until(Formula::NotAtom(0), Formula::Atom(1)),
            false,
        );
        assert_eq!(w.step(&|k| k == 1), Verdict::True);
    }
}
