//! Lowering of a system's protocols: each trace expression becomes a
//! deterministic automaton ([`ProtocolTable`]) by derivatives.
//!
//! A state is a trace expression in a normal form (choices flattened,
//! sorted and without duplicates, `skip` and the empty language folded
//! away, concatenation associated to the right), so equal residuals are
//! one state; the derivative by an event type is the paper's transition
//! relation δ taken over every rule that applies (a union where the
//! paper's expressions would be nondeterministic), and a state accepts
//! when the residual may end (`may_halt`). States from which no
//! continuation conforms — none reaches an accepting state or a cycle —
//! are dropped, so a violation is reported at the first event that makes
//! one inevitable.
//!
//! Recursion is unfolded lazily (a name's body is derived when an event
//! reaches it); the checker made every recursion guarded, so derivation
//! terminates. Shuffles and intersections of recursive protocols can need
//! unboundedly many states: exploration stops at [`MAX_PROTOCOL_STATES`]
//! states or residuals nested [`MAX_RESIDUAL_DEPTH`] deep, and spends the
//! spec's work budget, with a diagnostic (E0416) naming the bound.

use crate::diag::{Code, Diag, Label};
use crate::hir::{nullable_protocols, ProtoExpr, ProtoKind, Protocol, System};
use crate::ir::protocol::{EventType, ProtocolState, ProtocolTable, VIOLATION};
use crate::ltl3::Budget;
use std::collections::{BTreeSet, HashMap};

/// The most states one protocol's automaton may have.
pub const MAX_PROTOCOL_STATES: usize = 4096;

/// The deepest a residual may nest (a shuffle of a recursion grows one
/// level per event it keeps pending).
pub const MAX_RESIDUAL_DEPTH: u32 = 512;

/// The most characters of a residual shown (in `--explain` and reports).
const MAX_RESIDUAL_TEXT: usize = 240;

/// Lowers every protocol of `system`, spending `budget`.
pub fn lower(system: &System, budget: &mut Budget) -> Result<Vec<ProtocolTable>, Vec<Diag>> {
    let nullable = nullable_protocols(&system.protocols);
    let names: Vec<String> = system.lifelines.iter().map(|l| l.name.clone()).collect();
    let mut tables = Vec::new();
    let mut diags = Vec::new();
    for k in 0..system.protocols.len() {
        match lower_one(system, k, &nullable, &names, budget) {
            Ok(table) => tables.push(table),
            Err(d) => diags.push(d),
        }
    }
    if diags.is_empty() {
        Ok(tables)
    } else {
        Err(diags)
    }
}

/// The event types `e` names (its filters' included), into `out`; the
/// protocols it refers to, into `refs`.
fn collect_events(e: &ProtoExpr, out: &mut BTreeSet<EventType>, refs: &mut Vec<usize>) {
    match &e.kind {
        ProtoKind::Event(t) => {
            out.insert(t.clone());
        }
        ProtoKind::Ref(k) => refs.push(*k),
        ProtoKind::Filter(types, _) => out.extend(types.iter().cloned()),
        _ => {}
    }
    for child in e.children() {
        collect_events(child, out, refs);
    }
}

/// The alphabet of protocol `k`: the event types of its body and of every
/// protocol it reaches by name.
fn alphabet(protocols: &[Protocol], k: usize) -> Vec<EventType> {
    let mut events = BTreeSet::new();
    let mut seen = vec![false; protocols.len()];
    let mut pending = vec![k];
    while let Some(p) = pending.pop() {
        if std::mem::replace(&mut seen[p], true) {
            continue;
        }
        let mut refs = Vec::new();
        collect_events(&protocols[p].body, &mut events, &mut refs);
        pending.extend(refs.into_iter().filter(|&r| r < protocols.len()));
    }
    events.into_iter().collect()
}

/// A residual's id in the [`Terms`] arena.
type TermId = u32;

/// The empty language.
const FAIL: TermId = 0;
/// The empty trace.
const EMPTY: TermId = 1;

/// A residual in normal form (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Term {
    Fail,
    Empty,
    /// One event: a letter of the alphabet.
    Event(u32),
    /// A protocol by name, unfolded when derived.
    Ref(u32),
    /// Concatenation; the left side is never a `Seq`, `skip` or `Fail`.
    Seq(TermId, TermId),
    /// A choice of two or more residuals, sorted, none a choice or `Fail`.
    Choice(Vec<TermId>),
    /// Intersection, operands sorted.
    Inter(TermId, TermId),
    /// Shuffle, operands sorted, neither `skip`.
    Shuffle(TermId, TermId),
    /// A filter: the letters of filter set `k` follow the residual.
    Filter(u32, TermId),
}

/// The residuals built so far, hash-consed, with their nullability and
/// depth; derivatives memoized.
struct Terms<'a> {
    terms: Vec<Term>,
    ids: HashMap<Term, TermId>,
    nullable: Vec<bool>,
    depth: Vec<u32>,
    /// Per protocol: its body, built on first use.
    bodies: Vec<Option<TermId>>,
    protocols: &'a [Protocol],
    protocol_nullable: &'a [bool],
    alphabet: &'a [EventType],
    /// Filter sets, each a sorted list of letters.
    filters: Vec<Vec<u32>>,
    derived: HashMap<(TermId, u32), TermId>,
}

/// Why exploration stopped.
enum Stop {
    TooDeep,
    OutOfBudget,
}

impl<'a> Terms<'a> {
    fn new(
        protocols: &'a [Protocol],
        protocol_nullable: &'a [bool],
        alphabet: &'a [EventType],
    ) -> Self {
        let mut terms = Terms {
            terms: Vec::new(),
            ids: HashMap::new(),
            nullable: Vec::new(),
            depth: Vec::new(),
            bodies: vec![None; protocols.len()],
            protocols,
            protocol_nullable,
            alphabet,
            filters: Vec::new(),
            derived: HashMap::new(),
        };
        terms.intern(Term::Fail, false, 1);
        terms.intern(Term::Empty, true, 1);
        terms
    }

    fn intern(&mut self, term: Term, nullable: bool, depth: u32) -> TermId {
        if let Some(&id) = self.ids.get(&term) {
            return id;
        }
        let id = self.terms.len() as TermId;
        self.terms.push(term.clone());
        self.nullable.push(nullable);
        self.depth.push(depth);
        self.ids.insert(term, id);
        id
    }

    fn term(&self, id: TermId) -> &Term {
        &self.terms[id as usize]
    }

    fn is_nullable(&self, id: TermId) -> bool {
        self.nullable[id as usize]
    }

    fn depth_of(&self, id: TermId) -> u32 {
        self.depth[id as usize]
    }

    /// A node over `children` one level deeper than the deepest, or
    /// `TooDeep`.
    fn deeper(&self, children: &[TermId]) -> Result<u32, Stop> {
        let depth = children
            .iter()
            .map(|&c| self.depth_of(c))
            .max()
            .unwrap_or(0)
            + 1;
        if depth > MAX_RESIDUAL_DEPTH {
            return Err(Stop::TooDeep);
        }
        Ok(depth)
    }

    fn event(&mut self, letter: u32) -> TermId {
        self.intern(Term::Event(letter), false, 1)
    }

    fn reference(&mut self, k: u32) -> TermId {
        let nullable = self
            .protocol_nullable
            .get(k as usize)
            .copied()
            .unwrap_or(false);
        self.intern(Term::Ref(k), nullable, 1)
    }

    fn seq(&mut self, a: TermId, b: TermId) -> Result<TermId, Stop> {
        if a == FAIL || b == FAIL {
            return Ok(FAIL);
        }
        if a == EMPTY {
            return Ok(b);
        }
        if b == EMPTY {
            return Ok(a);
        }
        if let Term::Seq(x, y) = *self.term(a) {
            let rest = self.seq(y, b)?;
            return self.seq(x, rest);
        }
        let depth = self.deeper(&[a, b])?;
        let nullable = self.is_nullable(a) && self.is_nullable(b);
        Ok(self.intern(Term::Seq(a, b), nullable, depth))
    }

    fn choice(&mut self, items: &[TermId]) -> Result<TermId, Stop> {
        let mut flat = Vec::with_capacity(items.len());
        for &item in items {
            match self.term(item) {
                Term::Fail => {}
                Term::Choice(inner) => flat.extend(inner.iter().copied()),
                _ => flat.push(item),
            }
        }
        flat.sort_unstable();
        flat.dedup();
        match flat.as_slice() {
            [] => Ok(FAIL),
            [one] => Ok(*one),
            _ => {
                let depth = self.deeper(&flat)?;
                let nullable = flat.iter().any(|&t| self.is_nullable(t));
                Ok(self.intern(Term::Choice(flat), nullable, depth))
            }
        }
    }

    fn inter(&mut self, a: TermId, b: TermId) -> Result<TermId, Stop> {
        if a == FAIL || b == FAIL {
            return Ok(FAIL);
        }
        if a == b {
            return Ok(a);
        }
        let (a, b) = (a.min(b), a.max(b));
        let depth = self.deeper(&[a, b])?;
        let nullable = self.is_nullable(a) && self.is_nullable(b);
        Ok(self.intern(Term::Inter(a, b), nullable, depth))
    }

    fn shuffle(&mut self, a: TermId, b: TermId) -> Result<TermId, Stop> {
        if a == FAIL || b == FAIL {
            return Ok(FAIL);
        }
        if a == EMPTY {
            return Ok(b);
        }
        if b == EMPTY {
            return Ok(a);
        }
        let (a, b) = (a.min(b), a.max(b));
        let depth = self.deeper(&[a, b])?;
        let nullable = self.is_nullable(a) && self.is_nullable(b);
        Ok(self.intern(Term::Shuffle(a, b), nullable, depth))
    }

    fn filter(&mut self, set: u32, body: TermId) -> Result<TermId, Stop> {
        if body == FAIL {
            return Ok(FAIL);
        }
        let depth = self.deeper(&[body])?;
        let nullable = self.is_nullable(body);
        Ok(self.intern(Term::Filter(set, body), nullable, depth))
    }

    /// The letter of `t` in the alphabet.
    fn letter(&self, t: &EventType) -> u32 {
        self.alphabet.binary_search(t).unwrap_or(0) as u32
    }

    /// The term of a checked trace expression (names stay names).
    fn build(&mut self, e: &ProtoExpr) -> Result<TermId, Stop> {
        Ok(match &e.kind {
            ProtoKind::Empty => EMPTY,
            ProtoKind::Event(t) => {
                let letter = self.letter(t);
                self.event(letter)
            }
            ProtoKind::Ref(k) => self.reference(*k as u32),
            ProtoKind::Seq(a, b) => {
                let (a, b) = (self.build(a)?, self.build(b)?);
                self.seq(a, b)?
            }
            ProtoKind::Choice(a, b) => {
                let (a, b) = (self.build(a)?, self.build(b)?);
                self.choice(&[a, b])?
            }
            ProtoKind::Inter(a, b) => {
                let (a, b) = (self.build(a)?, self.build(b)?);
                self.inter(a, b)?
            }
            ProtoKind::Shuffle(a, b) => {
                let (a, b) = (self.build(a)?, self.build(b)?);
                self.shuffle(a, b)?
            }
            ProtoKind::Filter(types, body) => {
                let mut set: Vec<u32> = types.iter().map(|t| self.letter(t)).collect();
                set.sort_unstable();
                set.dedup();
                let k = match self.filters.iter().position(|f| *f == set) {
                    Some(k) => k,
                    None => {
                        self.filters.push(set);
                        self.filters.len() - 1
                    }
                };
                let body = self.build(body)?;
                self.filter(k as u32, body)?
            }
        })
    }

    /// The body of protocol `k`.
    fn body(&mut self, k: u32) -> Result<TermId, Stop> {
        if let Some(Some(body)) = self.bodies.get(k as usize) {
            return Ok(*body);
        }
        let protocols = self.protocols;
        let Some(p) = protocols.get(k as usize) else {
            return Ok(FAIL);
        };
        let body = self.build(&p.body)?;
        if let Some(slot) = self.bodies.get_mut(k as usize) {
            *slot = Some(body);
        }
        Ok(body)
    }

    /// The residual of `t` after an event of letter `e` (δ), spending
    /// `budget`.
    fn derive(&mut self, t: TermId, e: u32, budget: &mut Budget) -> Result<TermId, Stop> {
        if let Some(&d) = self.derived.get(&(t, e)) {
            return Ok(d);
        }
        budget.spend(1).map_err(|_| Stop::OutOfBudget)?;
        let d = match self.term(t).clone() {
            Term::Fail | Term::Empty => FAIL,
            Term::Event(letter) => {
                if letter == e {
                    EMPTY
                } else {
                    FAIL
                }
            }
            Term::Ref(k) => {
                let body = self.body(k)?;
                self.derive(body, e, budget)?
            }
            Term::Seq(a, b) => {
                let da = self.derive(a, e, budget)?;
                let left = self.seq(da, b)?;
                if self.is_nullable(a) {
                    let db = self.derive(b, e, budget)?;
                    self.choice(&[left, db])?
                } else {
                    left
                }
            }
            Term::Choice(items) => {
                let mut derived = Vec::with_capacity(items.len());
                for item in items {
                    derived.push(self.derive(item, e, budget)?);
                }
                self.choice(&derived)?
            }
            Term::Inter(a, b) => {
                let da = self.derive(a, e, budget)?;
                let db = self.derive(b, e, budget)?;
                self.inter(da, db)?
            }
            Term::Shuffle(a, b) => {
                let da = self.derive(a, e, budget)?;
                let db = self.derive(b, e, budget)?;
                let left = self.shuffle(da, b)?;
                let right = self.shuffle(a, db)?;
                self.choice(&[left, right])?
            }
            Term::Filter(set, body) => {
                let listed = self
                    .filters
                    .get(set as usize)
                    .is_some_and(|s| s.binary_search(&e).is_ok());
                if listed {
                    let d = self.derive(body, e, budget)?;
                    self.filter(set, d)?
                } else {
                    t
                }
            }
        };
        self.derived.insert((t, e), d);
        Ok(d)
    }

    /// `t` as a trace expression, lifelines and protocols named, at most
    /// about [`MAX_RESIDUAL_TEXT`] characters.
    fn text(&self, t: TermId, lifelines: &[String]) -> String {
        let mut out = String::new();
        self.write(t, lifelines, 0, &mut out);
        if out.len() > MAX_RESIDUAL_TEXT {
            let mut cut = MAX_RESIDUAL_TEXT;
            while !out.is_char_boundary(cut) {
                cut -= 1;
            }
            out.truncate(cut);
            out.push_str(" …");
        }
        out
    }

    /// Writes `t` at binding level `level` (0 `|||`, 1 `+`, 2 `&`, 3 `.`,
    /// 4 a unit), parenthesized when it binds more loosely.
    fn write(&self, t: TermId, lifelines: &[String], level: u8, out: &mut String) {
        if out.len() > MAX_RESIDUAL_TEXT {
            return;
        }
        let (own, parts, op): (u8, Vec<TermId>, &str) = match self.term(t) {
            Term::Fail => {
                out.push_str("{} >> fail");
                return;
            }
            Term::Empty => {
                out.push_str("skip");
                return;
            }
            Term::Event(letter) => {
                let text = self
                    .alphabet
                    .get(*letter as usize)
                    .map_or_else(String::new, |e| e.text(lifelines));
                out.push_str(&text);
                return;
            }
            Term::Ref(k) => {
                let name = self.protocols.get(*k as usize).map_or("?", |p| &p.name);
                out.push_str(name);
                return;
            }
            Term::Filter(set, body) => {
                let types: Vec<String> = self
                    .filters
                    .get(*set as usize)
                    .map(|s| {
                        s.iter()
                            .filter_map(|&l| self.alphabet.get(l as usize))
                            .map(|e| e.text(lifelines))
                            .collect()
                    })
                    .unwrap_or_default();
                out.push('{');
                out.push_str(&types.join(", "));
                out.push_str("} >> ");
                self.write(*body, lifelines, 4, out);
                return;
            }
            Term::Shuffle(a, b) => (0, vec![*a, *b], " ||| "),
            Term::Choice(items) => (1, items.clone(), " + "),
            Term::Inter(a, b) => (2, vec![*a, *b], " & "),
            Term::Seq(a, b) => (3, vec![*a, *b], " . "),
        };
        let paren = own < level;
        if paren {
            out.push('(');
        }
        for (k, &part) in parts.iter().enumerate() {
            if k > 0 {
                out.push_str(op);
            }
            // Left-associative levels keep their left operand at their own
            // level; `.` is right-associative.
            let inner = match (own, k) {
                (3, 0) => 4,
                (3, _) => 3,
                (_, 0) => own,
                _ => own + 1,
            };
            self.write(part, lifelines, inner, out);
        }
        if paren {
            out.push(')');
        }
    }
}

/// Protocol `k` of `system` as an automaton.
fn lower_one(
    system: &System,
    k: usize,
    nullable: &[bool],
    lifelines: &[String],
    budget: &mut Budget,
) -> Result<ProtocolTable, Diag> {
    let protocol = &system.protocols[k];
    let alphabet = alphabet(&system.protocols, k);
    let mut terms = Terms::new(&system.protocols, nullable, &alphabet);
    let unbounded = |stop: Stop| unbounded(protocol, stop, budget_limit_text());
    let initial = terms.body(k as u32).map_err(unbounded)?;
    // Breadth-first over the residuals reachable from the body.
    let mut states: Vec<TermId> = vec![initial];
    let mut index: HashMap<TermId, u32> = HashMap::from([(initial, 0)]);
    let letters = alphabet.len() as u32;
    let mut transitions: Vec<u32> = Vec::new();
    let mut at = 0;
    while at < states.len() {
        let state = states[at];
        for e in 0..letters {
            let next = terms.derive(state, e, budget).map_err(unbounded)?;
            let target = if next == FAIL {
                VIOLATION
            } else if let Some(&i) = index.get(&next) {
                i
            } else {
                if states.len() >= MAX_PROTOCOL_STATES {
                    return Err(too_many_states(protocol));
                }
                let i = states.len() as u32;
                states.push(next);
                index.insert(next, i);
                i
            };
            transitions.push(target);
        }
        at += 1;
    }
    let accepting: Vec<bool> = states.iter().map(|&t| terms.is_nullable(t)).collect();
    let live = live_states(&accepting, &transitions, alphabet.len());
    // Renumber the live states in order; dead ones become violations.
    let mut renumber = vec![VIOLATION; states.len()];
    let mut kept = 0u32;
    for (s, &alive) in live.iter().enumerate() {
        if alive {
            renumber[s] = kept;
            kept += 1;
        }
    }
    let mut table_states = Vec::with_capacity(kept as usize);
    let mut table_transitions = Vec::with_capacity(kept as usize * alphabet.len());
    for (s, &term) in states.iter().enumerate() {
        if !live[s] {
            continue;
        }
        table_states.push(ProtocolState {
            accepting: accepting[s],
            residual: terms.text(term, lifelines),
        });
        let row = &transitions[s * alphabet.len()..(s + 1) * alphabet.len()];
        table_transitions.extend(row.iter().map(|&t| {
            if t == VIOLATION {
                VIOLATION
            } else {
                renumber[t as usize]
            }
        }));
    }
    Ok(ProtocolTable {
        name: protocol.name.clone(),
        span: protocol.span,
        model: protocol.model,
        events: alphabet,
        states: table_states,
        initial: renumber[0],
        transitions: table_transitions,
    })
}

/// Per state: whether some continuation conforms — it accepts, or has a
/// transition to a state that can continue (then an accepting state or a
/// cycle is reachable). The greatest such set: states are dropped until
/// none is left without a way on.
fn live_states(accepting: &[bool], transitions: &[u32], letters: usize) -> Vec<bool> {
    let mut live = vec![true; accepting.len()];
    loop {
        let mut changed = false;
        for s in 0..accepting.len() {
            if !live[s] || accepting[s] {
                continue;
            }
            let row = &transitions[s * letters..(s + 1) * letters];
            let continues = row.iter().any(|&t| t != VIOLATION && live[t as usize]);
            if !continues {
                live[s] = false;
                changed = true;
            }
        }
        if !changed {
            return live;
        }
    }
}

/// The work budget's size, for the diagnostic.
fn budget_limit_text() -> u64 {
    crate::ltl3::Limits::default().max_work
}

/// E0416: exploring the protocol's residuals did not end.
fn unbounded(protocol: &Protocol, stop: Stop, limit: u64) -> Diag {
    let why = match stop {
        Stop::TooDeep => format!("its residuals nest more than {MAX_RESIDUAL_DEPTH} levels deep"),
        Stop::OutOfBudget => format!("building it takes more than {limit} work units"),
    };
    refusal(protocol, why)
}

/// E0416: more states than a protocol monitor keeps.
fn too_many_states(protocol: &Protocol) -> Diag {
    refusal(
        protocol,
        format!("its monitor needs more than {MAX_PROTOCOL_STATES} states"),
    )
}

fn refusal(protocol: &Protocol, why: String) -> Diag {
    Diag::error()
        .with_code(Code::UnboundedProtocol)
        .with_message(format!(
            "protocol `{}` cannot be monitored in bounded memory: {why}",
            protocol.name
        ))
        .with_labels(vec![Label::primary((), protocol.span.range())
            .with_message("the residuals of this protocol grow without bound")])
        .with_notes(vec![
            "note: a shuffle (`|||`) or intersection (`&`) of a recursive protocol can keep \
             unboundedly many events pending (`p = a . (p ||| b) + skip` counts the `a`s)"
                .to_string(),
            "help: bound the recursion (unfold it a fixed number of times) or move the \
             shuffle out of the recursion"
                .to_string(),
        ])
}
