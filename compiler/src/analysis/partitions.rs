//! Monitoring-safe partitions of a system's lifelines for a protocol: the
//! DecAMon algorithm (Ferrando, Ancona, Mascardi et al., "Decentralizing
//! MAS Monitoring with DecAMon"; docs/language.md, section 4e).
//!
//! A protocol is monitored decentralized by one monitor per group of a
//! partition of the lifelines, each checking the events that involve its
//! group. Sequence and mutual exclusion between two events that no one
//! group sees both of are lost: for every *critical point* — two event
//! types with disjoint involved lifelines that are the first events of two
//! branches of a choice (unique point of choice), or the last events of
//! one side of a concatenation and the first of the other (connectedness
//! for sequence) — some group must hold a lifeline involved in each. A
//! partition is monitoring safe when every critical point of every
//! sub-expression is so satisfied, and minimal when splitting any group
//! breaks one.
//!
//! The search is the paper's DecOne with its backtracking made explicit:
//! critical points are taken in order; one a partial partition already
//! satisfies adds nothing, otherwise each way of joining a lifeline of each
//! side is tried (a union of two groups). Every minimal safe partition is
//! reached this way (choosing, at each point, a pair inside its own
//! groups rebuilds it), so the results, filtered for minimality as the
//! paper's post-processing does, are exactly the minimal ones.
//!
//! Where the paper leaves a gap:
//! - Its conditions are necessary but not sufficient. In `(c -> d: m + c ->
//!   a: m) . a -> b: n` the one point is (`c -> d`, `a -> b`), which
//!   `{a}, {b, d}, {c}` satisfies; yet `a -> b` first is a violation no
//!   group sees: `{a}` takes it for the `c -> d` branch it cannot see,
//!   `{b, d}` for the `c -> a` one. In `(b -> c . c -> d + skip) . a -> b`
//!   repeated, groups can pair different repetitions of one event type. So
//!   each partition the constraints give is then *verified*: the central
//!   automaton and every group's projection run side by side over every
//!   reachable combination of their states ([`verify`]); a partition with a
//!   violation the central monitor reports and no group does is coarsened
//!   (two groups joined, every way, finest first) until it verifies, and
//!   the minimal verified partitions are the answer, each join with the
//!   trace that forced it. The property test (tests/tests/
//!   protocol_differential.rs) found both traces above.
//! - `last(τ1 · τ2)` is `last(τ2)` in the paper even when τ2 accepts the
//!   empty trace; here it is `last(τ2) ∪ last(τ1)` then, or `(a . (b +
//!   skip)) . c` would lose the point between `a` and `c`.
//! - Filters (`{...} >> τ`) and intersections, shuffles generate no points
//!   of their own (as in the paper for `∧` and `|`); their operands do.
//! - Recursion: `first` and `last` of a name are least fixpoints over the
//!   protocols (the paper stops at a name met before, giving `{}`), and
//!   every protocol reachable by name is analysed once.

use crate::diag::{Code, Diag, Label};
use crate::hir::{nullable_protocols, ProtoExpr, ProtoKind, System};
use crate::ir::protocol::{EventType, Projection, ProtocolTable, VIOLATION};
use crate::Verdict;
use hindsight_grammar::ast::Span;
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap, HashSet};

/// The most minimal partitions the search collects (and the most partial
/// partitions it visits is [`MAX_VISITS`]).
pub const MAX_PARTITIONS: usize = 100_000;

/// The most partial partitions the search visits.
pub const MAX_VISITS: usize = 2_000_000;

/// Which coherence condition a critical point is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Condition {
    /// The first events of two branches of a choice: both must not happen.
    UniqueChoice,
    /// The last events of a concatenation's left side and the first of its
    /// right side: the second must not come before the first.
    Sequence,
}

impl Condition {
    /// The condition's name as the paper and `--why` say it.
    pub fn as_str(self) -> &'static str {
        match self {
            Condition::UniqueChoice => "unique point of choice",
            Condition::Sequence => "connectedness for sequence",
        }
    }
}

/// Event types one group of lifelines must see together (one lifeline of
/// the group involved in each) for the decentralized monitors to check a
/// choice or a concatenation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CriticalPoint {
    /// The event types: a choice's first events, one of each branch, or a
    /// concatenation's last event of the left side and first of the right.
    pub events: Vec<EventType>,
    /// The condition it is about.
    pub condition: Condition,
    /// The sub-expression that generates it (a choice or a concatenation).
    pub span: Span,
}

impl CriticalPoint {
    /// Whether some group holds a lifeline involved in each event
    /// (`group_of`: per lifeline, its group).
    fn satisfied_by(&self, group_of: &[usize]) -> bool {
        let Some(first) = self.events.first() else {
            return true;
        };
        first.involved().any(|a| {
            let group = group_of.get(a);
            group.is_some()
                && self.events[1..]
                    .iter()
                    .all(|e| e.involved().any(|b| group_of.get(b) == group))
        })
    }

    /// Whether every group satisfies it whatever the partition: one
    /// lifeline is involved in every event.
    fn trivial(&self) -> bool {
        let Some(first) = self.events.first() else {
            return true;
        };
        first
            .involved()
            .any(|a| self.events[1..].iter().all(|e| e.involves(a)))
    }
}

/// Every critical point of protocol `k` of `system` (and of the protocols
/// it reaches by name), each generating sub-expression's in source order,
/// without repeats.
pub fn critical_points(system: &System, k: usize) -> Vec<CriticalPoint> {
    let protocols = &system.protocols;
    let nullable = nullable_protocols(protocols);
    let (firsts, lasts) = first_last(system, &nullable);
    let sets = Sets {
        nullable: &nullable,
        firsts: &firsts,
        lasts: &lasts,
    };
    let mut points = Vec::new();
    let mut seen = HashSet::new();
    let mut done = vec![false; protocols.len()];
    let mut pending = vec![k];
    while let Some(p) = pending.pop() {
        if p >= protocols.len() || std::mem::replace(&mut done[p], true) {
            continue;
        }
        walk(&protocols[p].body, &sets, &mut |point| {
            let mut key = point.events.clone();
            key[1..].sort();
            if seen.insert((key, point.condition)) {
                points.push(point);
            }
        });
        let mut refs = Vec::new();
        references(&protocols[p].body, &mut refs);
        pending.extend(refs);
    }
    points
}

/// What a walk needs to know of the protocols.
struct Sets<'a> {
    nullable: &'a [bool],
    firsts: &'a [BTreeSet<EventType>],
    lasts: &'a [BTreeSet<EventType>],
}

/// Calls `found` for every critical point `e` and its sub-expressions
/// generate: at a choice, each first event of one branch with each of the
/// other; at a concatenation, each last event of the left side with each
/// first event of the right side. Points some lifeline is involved in both
/// events of are left out: its group checks them whatever the partition.
fn walk(e: &ProtoExpr, sets: &Sets<'_>, found: &mut dyn FnMut(CriticalPoint)) {
    let mut emit = |events: Vec<EventType>, condition| {
        let point = CriticalPoint {
            events,
            condition,
            span: e.span,
        };
        if !point.trivial() {
            found(point);
        }
    };
    match &e.kind {
        ProtoKind::Choice(a, b) => {
            let right = first(b, sets);
            for x in first(a, sets) {
                for y in &right {
                    emit(vec![x.clone(), y.clone()], Condition::UniqueChoice);
                }
            }
        }
        ProtoKind::Seq(a, b) => {
            let right = first(b, sets);
            for x in last(a, sets) {
                for y in &right {
                    emit(vec![x.clone(), y.clone()], Condition::Sequence);
                }
            }
        }
        _ => {}
    }
    for child in e.children() {
        walk(child, sets, found);
    }
}

/// The protocols `e` names.
fn references(e: &ProtoExpr, out: &mut Vec<usize>) {
    if let ProtoKind::Ref(k) = e.kind {
        out.push(k);
    }
    for child in e.children() {
        references(child, out);
    }
}

/// Per protocol, its first and last event types (least fixpoints).
fn first_last(
    system: &System,
    nullable: &[bool],
) -> (Vec<BTreeSet<EventType>>, Vec<BTreeSet<EventType>>) {
    let n = system.protocols.len();
    let mut firsts = vec![BTreeSet::new(); n];
    let mut lasts = vec![BTreeSet::new(); n];
    loop {
        let sets = Sets {
            nullable,
            firsts: &firsts,
            lasts: &lasts,
        };
        let next_firsts: Vec<_> = system
            .protocols
            .iter()
            .map(|p| first(&p.body, &sets))
            .collect();
        let next_lasts: Vec<_> = system
            .protocols
            .iter()
            .map(|p| last(&p.body, &sets))
            .collect();
        if next_firsts == firsts && next_lasts == lasts {
            return (firsts, lasts);
        }
        firsts = next_firsts;
        lasts = next_lasts;
    }
}

/// The event types a trace of `e` can begin with (the paper's `first`).
fn first(e: &ProtoExpr, sets: &Sets<'_>) -> BTreeSet<EventType> {
    match &e.kind {
        ProtoKind::Empty => BTreeSet::new(),
        ProtoKind::Event(t) => BTreeSet::from([t.clone()]),
        ProtoKind::Ref(k) => sets.firsts.get(*k).cloned().unwrap_or_default(),
        ProtoKind::Seq(a, b) => {
            let mut out = first(a, sets);
            if a.nullable(sets.nullable) {
                out.extend(first(b, sets));
            }
            out
        }
        ProtoKind::Choice(a, b) | ProtoKind::Inter(a, b) | ProtoKind::Shuffle(a, b) => {
            let mut out = first(a, sets);
            out.extend(first(b, sets));
            out
        }
        ProtoKind::Filter(_, body) => first(body, sets),
    }
}

/// The event types a trace of `e` can end with (the paper's `last`, with
/// a nullable right side of `.` counted: see the module documentation).
fn last(e: &ProtoExpr, sets: &Sets<'_>) -> BTreeSet<EventType> {
    match &e.kind {
        ProtoKind::Empty => BTreeSet::new(),
        ProtoKind::Event(t) => BTreeSet::from([t.clone()]),
        ProtoKind::Ref(k) => sets.lasts.get(*k).cloned().unwrap_or_default(),
        ProtoKind::Seq(a, b) => {
            let mut out = last(b, sets);
            if b.nullable(sets.nullable) {
                out.extend(last(a, sets));
            }
            out
        }
        ProtoKind::Choice(a, b) | ProtoKind::Inter(a, b) | ProtoKind::Shuffle(a, b) => {
            let mut out = last(a, sets);
            out.extend(last(b, sets));
            out
        }
        ProtoKind::Filter(_, body) => last(body, sets),
    }
}

/// A partition of a system's lifelines: groups of lifeline indices, each
/// sorted, sorted by their first member.
pub type Partition = Vec<Vec<usize>>;

/// Every minimal monitoring-safe partition of `lifelines` lifelines for
/// the critical points `points`, each group and the list sorted by the
/// lifelines' names (`names`). E0416's bound refuses a search past
/// [`MAX_VISITS`] partial partitions or [`MAX_PARTITIONS`] results.
pub fn minimal_partitions(
    points: &[CriticalPoint],
    names: &[String],
    span: Span,
) -> Result<Vec<Partition>, Diag> {
    let lifelines = names.len();
    let start: Vec<usize> = (0..lifelines).collect();
    let mut search = Search {
        points,
        visited: HashSet::new(),
        found: BTreeSet::new(),
        visits: 0,
    };
    if !search.run(0, start) {
        return Err(Diag::error()
            .with_code(Code::UnboundedProtocol)
            .with_message(format!(
                "the protocol has too many monitoring-safe partitions to list (more than \
                 {MAX_PARTITIONS}, or more than {MAX_VISITS} partial partitions searched)"
            ))
            .with_labels(vec![Label::primary((), span.range())])
            .with_notes(vec![format!(
                "note: its {} critical points each offer a choice of lifelines to join",
                points.len()
            )]));
    }
    let mut minimal: Vec<Partition> = search
        .found
        .into_iter()
        .filter(|group_of| is_minimal(group_of, points))
        .map(|group_of| groups(&group_of))
        .collect();
    // By the lifelines' names: each group, then the list.
    let named = |p: &Partition| -> Vec<Vec<String>> {
        p.iter()
            .map(|g| g.iter().map(|&l| names[l].clone()).collect())
            .collect()
    };
    for p in &mut minimal {
        for g in p.iter_mut() {
            g.sort_by(|a, b| names[*a].cmp(&names[*b]));
        }
        p.sort_by(|a, b| names[a[0]].cmp(&names[b[0]]));
    }
    minimal.sort_by_key(|p| named(p));
    Ok(minimal)
}

/// The backtracking search of [`minimal_partitions`]. A partial partition
/// is `group_of`: per lifeline, the smallest lifeline of its group.
struct Search<'a> {
    points: &'a [CriticalPoint],
    visited: HashSet<(usize, Vec<usize>)>,
    found: BTreeSet<Vec<usize>>,
    visits: usize,
}

impl Search<'_> {
    /// Explores the choices from critical point `at` on; `false` when a
    /// bound is passed.
    fn run(&mut self, at: usize, group_of: Vec<usize>) -> bool {
        self.visits += 1;
        if self.visits > MAX_VISITS || self.found.len() > MAX_PARTITIONS {
            return false;
        }
        let Some(point) = self.points.get(at) else {
            self.found.insert(group_of);
            return true;
        };
        if !self.visited.insert((at, group_of.clone())) {
            return true;
        }
        if point.satisfied_by(&group_of) {
            return self.run(at + 1, group_of);
        }
        // Every way to pick a lifeline involved in each event, joined.
        let choices: Vec<Vec<usize>> = point
            .events
            .iter()
            .map(|e| e.involved().collect())
            .collect();
        let mut pick = vec![0usize; choices.len()];
        loop {
            let mut joined_all = group_of.clone();
            for (k, options) in choices.iter().enumerate().skip(1) {
                joined_all = joined(&joined_all, choices[0][pick[0]], options[pick[k]]);
            }
            if !self.run(at + 1, joined_all) {
                return false;
            }
            // The next pick, odometer-wise.
            let mut k = 0;
            loop {
                let Some(slot) = pick.get_mut(k) else {
                    return true;
                };
                *slot += 1;
                if *slot < choices[k].len() {
                    break;
                }
                *slot = 0;
                k += 1;
            }
        }
    }
}

/// `group_of` with the groups of `a` and `b` joined.
fn joined(group_of: &[usize], a: usize, b: usize) -> Vec<usize> {
    let (ga, gb) = (group_of[a], group_of[b]);
    let (keep, drop) = (ga.min(gb), ga.max(gb));
    group_of
        .iter()
        .map(|&g| if g == drop { keep } else { g })
        .collect()
}

/// The groups of `group_of`, by their smallest lifeline.
fn groups(group_of: &[usize]) -> Partition {
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (l, &g) in group_of.iter().enumerate() {
        match out.iter_mut().find(|group| group[0] == g) {
            Some(group) => group.push(l),
            None => out.push(vec![l]),
        }
    }
    out
}

/// Whether no split of one group of `group_of` into two still satisfies
/// every point (then no finer partition does: see the module
/// documentation). Groups of more than 20 lifelines are taken as they are
/// (2^19 splits each would be too many to try).
fn is_minimal(group_of: &[usize], points: &[CriticalPoint]) -> bool {
    for group in groups(group_of) {
        if group.len() < 2 || group.len() > 20 {
            continue;
        }
        let rest = &group[1..];
        // Every split: the first member stays, a non-empty subset of the
        // others leaves (not all of them, or nothing splits... all of them
        // leaving is the split {first} | rest).
        for mask in 1u32..(1u32 << rest.len()) {
            let mut split = group_of.to_vec();
            let new_id = rest
                .iter()
                .enumerate()
                .filter(|(i, _)| mask >> i & 1 == 1)
                .map(|(_, &l)| l)
                .min()
                .unwrap_or(group[0]);
            for (i, &l) in rest.iter().enumerate() {
                if mask >> i & 1 == 1 {
                    split[l] = new_id;
                }
            }
            if points.iter().all(|p| p.satisfied_by(&split)) {
                return false;
            }
        }
    }
    true
}

/// Why lifelines share a group in `partition`: per critical point, the
/// group that satisfies it and the lifelines of that group involved in
/// its events (one per event, in the point's order).
pub fn reasons<'p>(
    partition: &Partition,
    points: &'p [CriticalPoint],
) -> Vec<(Vec<usize>, &'p CriticalPoint)> {
    let mut group_of = vec![usize::MAX; partition.iter().map(Vec::len).sum()];
    for (g, group) in partition.iter().enumerate() {
        for &l in group {
            if let Some(slot) = group_of.get_mut(l) {
                *slot = g;
            }
        }
    }
    let mut out = Vec::new();
    for point in points {
        let Some(first) = point.events.first() else {
            continue;
        };
        let witnesses = first.involved().find_map(|a| {
            let group = group_of.get(a)?;
            let mut lifelines = vec![a];
            for e in &point.events[1..] {
                lifelines.push(e.involved().find(|&b| group_of.get(b) == Some(group))?);
            }
            Some(lifelines)
        });
        if let Some(lifelines) = witnesses {
            out.push((lifelines, point));
        }
    }
    out
}

/// The most combinations of central and group states [`verify`] explores
/// for one partition.
pub const MAX_VERIFY_STATES: usize = 200_000;

/// Up to this many lifelines [`safe_partitions`] searches from the
/// partition of singletons (at most 877 partitions of 7 lifelines), which
/// makes its answer exactly the minimal safe partitions.
pub const EXHAUSTIVE_LIFELINES: usize = 7;

/// The most partitions [`safe_partitions`] verifies.
pub const MAX_VERIFIED: usize = 20_000;

/// What [`verify`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verification {
    /// On every trace, some group reports a violation exactly when the
    /// central monitor does.
    Safe,
    /// A trace (event indices of the table) the central monitor finds a
    /// violation in and no group does (or, were the projections wrong, the
    /// other way round).
    Unsafe(Vec<usize>),
    /// More than [`MAX_VERIFY_STATES`] combinations of states.
    TooCostly,
}

/// Runs the central automaton of `table` and the projections on the groups
/// of `partition` side by side over every reachable combination of their
/// states, breadth first (so a counterexample is a shortest one).
pub fn verify(table: &ProtocolTable, partition: &Partition) -> Verification {
    let projections: Vec<Projection> = partition
        .iter()
        .map(|g| Projection::new(table, g))
        .collect();
    if table.initial == VIOLATION {
        // No trace conforms, and every group's set starts empty.
        return Verification::Safe;
    }
    // A joint state: the central state, then every group's set.
    type Joint = (u32, Vec<Vec<u64>>);
    let start: Vec<Vec<u64>> = projections
        .iter()
        .map(|p| {
            let mut set = vec![0; p.words()];
            p.start(table, &mut set);
            set
        })
        .collect();
    let mut states: Vec<Joint> = vec![(table.initial, start)];
    let mut parent: Vec<(usize, usize)> = vec![(usize::MAX, 0)];
    let mut index: HashMap<Joint, usize> = HashMap::from([(states[0].clone(), 0)]);
    let trace_to = |at: usize, parent: &[(usize, usize)], last: usize| {
        let mut trace = vec![last];
        let mut k = at;
        while let Some(&(p, e)) = parent.get(k) {
            if p == usize::MAX {
                break;
            }
            trace.push(e);
            k = p;
        }
        trace.reverse();
        trace
    };
    let mut at = 0;
    while at < states.len() {
        for e in 0..table.events.len() {
            let (central, sets) = &states[at];
            let next_central = table.next(*central, e);
            let next_sets: Vec<Vec<u64>> = projections
                .iter()
                .zip(sets)
                .map(|(p, set)| {
                    if p.sees(e) {
                        let mut out = vec![0; p.words()];
                        p.step(table, set, e, &mut out);
                        out
                    } else {
                        set.clone()
                    }
                })
                .collect();
            let group_violates = projections
                .iter()
                .zip(&next_sets)
                .any(|(p, set)| p.verdict(table, set) == Verdict::False);
            let central_violates = next_central == VIOLATION;
            if central_violates != group_violates {
                return Verification::Unsafe(trace_to(at, &parent, e));
            }
            if central_violates {
                continue;
            }
            let joint = (next_central, next_sets);
            if !index.contains_key(&joint) {
                if states.len() >= MAX_VERIFY_STATES {
                    return Verification::TooCostly;
                }
                index.insert(joint.clone(), states.len());
                states.push(joint);
                parent.push((at, e));
            }
        }
        at += 1;
    }
    Verification::Safe
}

/// A minimal monitoring-safe partition, with the groups it joined beyond
/// the paper's critical points and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SafePartition {
    /// The groups (see [`minimal_partitions`] for the order).
    pub groups: Partition,
    /// Each join beyond the critical points: the two groups joined and the
    /// trace (event indices of the table) the finer partition misses a
    /// violation in.
    pub joins: Vec<(Vec<usize>, Vec<usize>, Vec<usize>)>,
}

/// The minimal monitoring-safe partitions of protocol `k` of `system`
/// (compiled to `table`): candidates — every lifeline alone for up to
/// [`EXHAUSTIVE_LIFELINES`] lifelines, else the paper's
/// ([`minimal_partitions`] of its [`critical_points`]) — each verified
/// ([`verify`]) and, if it misses a violation, coarsened (finest first)
/// until it does not, then refined while a split still verifies (see the
/// module documentation). The lifelines are `names`, in declaration order.
pub fn safe_partitions(
    system: &System,
    k: usize,
    table: &ProtocolTable,
    names: &[String],
) -> Result<Vec<SafePartition>, Diag> {
    let span = system.protocols.get(k).map_or(system.span, |p| p.span);
    // Few lifelines: from every lifeline on its own, so the search meets
    // every partition finer than a safe one (exactly the minimal safe
    // partitions). More: from the paper's candidates.
    let candidates = if names.len() <= EXHAUSTIVE_LIFELINES {
        vec![(0..names.len()).map(|l| vec![l]).collect()]
    } else {
        minimal_partitions(&critical_points(system, k), names, span)?
    };
    // Finest first: more groups before fewer.
    let mut queue: BinaryHeap<(usize, Reverse<Partition>, Joins)> = candidates
        .into_iter()
        .map(|p| (p.len(), Reverse(p), Vec::new()))
        .collect();
    let mut found: Vec<SafePartition> = Vec::new();
    let mut seen: HashSet<Partition> = HashSet::new();
    let mut verified = 0;
    while let Some((_, Reverse(partition), joins)) = queue.pop() {
        if !seen.insert(partition.clone()) || found.iter().any(|f| coarsens(&partition, &f.groups))
        {
            continue;
        }
        verified += 1;
        if verified > MAX_VERIFIED {
            return Err(too_costly(span, "partitions to verify"));
        }
        match verify(table, &partition) {
            Verification::Safe => {
                // The paper's points may ask more than safety needs: split
                // while a split still verifies (safety is kept by joining
                // groups, so a safe partition no single split of which is
                // safe has no safe refinement).
                let groups = refined(table, partition, names, &mut verified, span)?;
                found.retain(|f| !coarsens(&f.groups, &groups));
                if !found.iter().any(|f| coarsens(&groups, &f.groups)) {
                    found.push(SafePartition { groups, joins });
                }
            }
            Verification::TooCostly => {
                return Err(too_costly(span, "combinations of states to verify"));
            }
            Verification::Unsafe(trace) => {
                for i in 0..partition.len() {
                    for j in i + 1..partition.len() {
                        let (a, b) = (partition[i].clone(), partition[j].clone());
                        let mut coarser: Partition = partition
                            .iter()
                            .enumerate()
                            .filter(|&(g, _)| g != i && g != j)
                            .map(|(_, group)| group.clone())
                            .collect();
                        let mut joined: Vec<usize> = a.iter().chain(&b).copied().collect();
                        joined.sort_by(|x, y| names[*x].cmp(&names[*y]));
                        coarser.push(joined);
                        coarser.sort_by(|x, y| names[x[0]].cmp(&names[y[0]]));
                        let mut more = joins.clone();
                        more.push((a, b, trace.clone()));
                        queue.push((coarser.len(), Reverse(coarser), more));
                    }
                }
            }
        }
    }
    for f in &mut found {
        for group in f.groups.iter_mut() {
            group.sort_by(|x, y| names[*x].cmp(&names[*y]));
        }
        f.groups.sort_by(|x, y| names[x[0]].cmp(&names[y[0]]));
    }
    found.sort_by(|a, b| {
        let named = |p: &Partition| -> Vec<Vec<String>> {
            p.iter()
                .map(|g| g.iter().map(|&l| names[l].clone()).collect())
                .collect()
        };
        named(&a.groups).cmp(&named(&b.groups))
    });
    Ok(found)
}

/// `partition` (safe) split, one group into two at a time, while a split
/// still verifies safe; counting verifications in `verified`.
fn refined(
    table: &ProtocolTable,
    mut partition: Partition,
    names: &[String],
    verified: &mut usize,
    span: Span,
) -> Result<Partition, Diag> {
    'split: loop {
        for (g, group) in partition.iter().enumerate() {
            if group.len() < 2 || group.len() > 20 {
                continue;
            }
            let rest = &group[1..];
            for mask in 1u32..(1u32 << rest.len()) {
                let leaving: Vec<usize> = rest
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask >> i & 1 == 1)
                    .map(|(_, &l)| l)
                    .collect();
                let staying: Vec<usize> = group
                    .iter()
                    .copied()
                    .filter(|l| !leaving.contains(l))
                    .collect();
                let mut split: Partition = partition
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| k != g)
                    .map(|(_, other)| other.clone())
                    .collect();
                split.push(staying);
                split.push(leaving);
                for group in &mut split {
                    group.sort_by(|x, y| names[*x].cmp(&names[*y]));
                }
                split.sort_by(|x, y| names[x[0]].cmp(&names[y[0]]));
                *verified += 1;
                if *verified > MAX_VERIFIED {
                    return Err(too_costly(span, "partitions to verify"));
                }
                match verify(table, &split) {
                    Verification::Safe => {
                        partition = split;
                        continue 'split;
                    }
                    Verification::TooCostly => {
                        return Err(too_costly(span, "combinations of states to verify"));
                    }
                    Verification::Unsafe(_) => {}
                }
            }
        }
        return Ok(partition);
    }
}

/// The joins behind a partition (see [`SafePartition::joins`]).
type Joins = Vec<(Vec<usize>, Vec<usize>, Vec<usize>)>;

/// Whether `coarse` joins groups of `fine` (each group of `fine` inside
/// one of `coarse`).
fn coarsens(coarse: &Partition, fine: &Partition) -> bool {
    fine.iter()
        .all(|g| coarse.iter().any(|c| g.iter().all(|l| c.contains(l))))
}

fn too_costly(span: Span, what: &str) -> Diag {
    Diag::error()
        .with_code(Code::UnboundedProtocol)
        .with_message(format!(
            "verifying the protocol's partitions takes too many {what}"
        ))
        .with_labels(vec![Label::primary((), span.range())])
}
