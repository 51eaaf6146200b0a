//! The ten IPC-Trucks rules of `examples/trac/ipc_trucks/trucks.hind` over a
//! synthetic plan trace, three ways: the generated LTL3 automata, a hand-written
//! monitor, and formula progression (the TRAC paper's baseline).

use hindsight_runtime::Verdict;

use crate::progression::{Formula, Progression};
use crate::trace::SplitMix64;

hindsight_runtime::include_monitors!("trucks");

/// Rules in declaration order.
pub const RULES: usize = 10;

/// One plan action: `action` 0..4 = drive load unload deliver; `pkg` 1..=3 (0
/// for drive); `area` 0..5 = none a1 a2 a3 a4; `loc` 0..5 = l1..l5.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TruckEvent {
    /// The action.
    pub action: u8,
    /// The package it moves.
    pub pkg: i64,
    /// The truck area loaded into or unloaded from.
    pub area: u8,
    /// The truck's location after the action.
    pub loc: u8,
}

const DRIVE: u8 = 0;
const LOAD: u8 = 1;
const UNLOAD: u8 = 2;
const DELIVER: u8 = 3;
const A1: u8 = 1;
const A2: u8 = 2;
const A4: u8 = 4;
const L1: u8 = 0;
const L2: u8 = 1;

/// `len` random plan actions (splitmix64 from `seed`): drive 30 %, load 25 %,
/// unload 25 %, deliver 20 %; loads and unloads mostly in a1; the truck moves
/// on drives only.
pub fn synthetic_plan(len: usize, seed: u64) -> Vec<TruckEvent> {
    let mut rng = SplitMix64::new(seed);
    let mut loc = 0;
    (0..len)
        .map(|_| {
            let r = rng.next_u64();
            let action = match r % 20 {
                0..6 => DRIVE,
                6..11 => LOAD,
                11..16 => UNLOAD,
                _ => DELIVER,
            };
            let area = match (action, r / 20 % 20) {
                (DRIVE | DELIVER, _) => 0,
                (_, 0..14) => A1,
                (_, 14..17) => A2,
                (_, 17..19) => 3,
                _ => A4,
            };
            if action == DRIVE {
                loc = (r / 400 % 5) as u8;
            }
            let pkg = if action == DRIVE {
                0
            } else {
                (r / 2000 % 3) as i64 + 1
            };
            TruckEvent {
                action,
                pkg,
                area,
                loc,
            }
        })
        .collect()
}

/// A monitor of the ten rules.
pub trait RuleMonitor {
    /// Consumes one event; the verdicts after it, in declaration order.
    fn step(&mut self, e: &TruckEvent) -> [Verdict; RULES];
}

impl RuleMonitor for trucks::Monitor {
    #[inline]
    fn step(&mut self, e: &TruckEvent) -> [Verdict; RULES] {
        let input = trucks::Input {
            action: Action::from_index(u32::from(e.action)).unwrap_or_default(),
            pkg: e.pkg,
            area: Area::from_index(u32::from(e.area)).unwrap_or_default(),
            loc: Location::from_index(u32::from(e.loc)).unwrap_or_default(),
        };
        self.step(&input).to_array()
    }
}

/// The past-time facts the rules read, kept from event to event.
#[derive(Clone, Debug, Default)]
struct History {
    /// `a1_full` at the previous event: a1 loaded, not unloaded since.
    a1_full: bool,
    /// Per package: unloaded at its destination at some event so far.
    unloaded_at_destination: [bool; 3],
}

impl History {
    /// The destination of package `pkg` (1..=3), l1 or l2.
    fn destination(pkg: i64) -> u8 {
        if pkg == 1 {
            L1
        } else {
            L2
        }
    }

    /// Updates the history with `e`; returns the previous `a1_full` (`Y a1_full`).
    fn update(&mut self, e: &TruckEvent) -> bool {
        let before = self.a1_full;
        let in_a1 = e.area == A1;
        self.a1_full =
            (e.action == LOAD && in_a1) | (!(e.action == UNLOAD && in_a1) & self.a1_full);
        if e.action == UNLOAD && (1..=3).contains(&e.pkg) && e.loc == Self::destination(e.pkg) {
            self.unloaded_at_destination[(e.pkg - 1) as usize] = true;
        }
        before
    }

    fn at_destination(e: &TruckEvent) -> bool {
        (1..=3).contains(&e.pkg) && e.loc == Self::destination(e.pkg)
    }
}

/// The hand-written monitor: a flag per fact, the LTL3 verdict of each rule
/// written out (the `G` rules fail at a violating event, the `W` rules are
/// decided by the first delivery of either package, a second load of a package
/// violates rule 6 for good, rule 10 holds once every package was delivered at
/// its destination).
#[derive(Clone, Debug, Default)]
pub struct Hand {
    history: History,
    /// Rules 4, 5, 6, 8, 9, 10 once decided (they have no reset).
    decided: [Option<bool>; RULES],
    loaded: [bool; 3],
    delivered_at_destination: [bool; 3],
}

impl RuleMonitor for Hand {
    #[inline]
    fn step(&mut self, e: &TruckEvent) -> [Verdict; RULES] {
        let y_a1_full = self.history.update(e);
        let (load, deliver) = (e.action == LOAD, e.action == DELIVER);
        let fails = |bad: bool| {
            if bad {
                Verdict::False
            } else {
                Verdict::Unknown
            }
        };
        let pkg = (1..=3).contains(&e.pkg).then(|| (e.pkg - 1) as usize);
        let mut sticky = |rule: usize, decide: Option<bool>| -> Verdict {
            if self.decided[rule].is_none() {
                self.decided[rule] = decide;
            }
            Verdict::from(self.decided[rule])
        };
        let first_delivery = |first: usize, second: usize| -> Option<bool> {
            match pkg {
                Some(k) if deliver && k == second => Some(true),
                Some(k) if deliver && k == first => Some(false),
                _ => None,
            }
        };
        let reloaded = load && pkg.is_some_and(|k| self.loaded[k]);
        let undelivered = deliver && pkg.is_some_and(|k| !self.history.unloaded_at_destination[k]);
        let at_destination = History::at_destination(e);
        if let Some(k) = pkg {
            self.loaded[k] |= load;
            self.delivered_at_destination[k] |= deliver && at_destination;
        }
        let all = self.delivered_at_destination.iter().all(|&d| d);
        [
            fails(load && e.area != A1),
            fails(load && e.area != A1 && e.area != A2),
            fails(load && e.area == A4),
            sticky(3, first_delivery(0, 1)),
            sticky(4, first_delivery(1, 2)),
            sticky(5, reloaded.then_some(false)),
            fails(load && e.area == A1 && y_a1_full),
            sticky(7, undelivered.then_some(false)),
            sticky(8, (deliver && !at_destination).then_some(false)),
            sticky(9, all.then_some(true)),
        ]
    }
}

/// The atoms of the progression formulas, numbered.
mod atom {
    pub(super) const LOADING: usize = 0;
    pub(super) const AREA_A1: usize = 1;
    pub(super) const AREA_A2: usize = 2;
    pub(super) const AREA_A4: usize = 3;
    /// `delivered1..3`: 4, 5, 6.
    pub(super) const DELIVERED: usize = 4;
    /// `loaded1..3`: 7, 8, 9.
    pub(super) const LOADED: usize = 7;
    pub(super) const Y_A1_FULL: usize = 10;
    pub(super) const DELIVERING: usize = 11;
    pub(super) const AT_DESTINATION: usize = 12;
    /// `O (unloading && pkg == k && loc == destination)`: 13, 14, 15.
    pub(super) const UNLOADED_AT_DESTINATION: usize = 13;
    /// `delivered_k && at_destination`: 16, 17, 18.
    pub(super) const DELIVERED_AT_DESTINATION: usize = 16;
    pub(super) const COUNT: usize = 19;
}

/// The ten rules as progression formulas (negation normal form) with their
/// `with reset` flags, in declaration order.
pub fn formulas() -> [(Formula, bool); RULES] {
    use atom::*;
    use Formula as F;
    let g = F::globally;
    let per_package = |f: &dyn Fn(usize) -> Formula| F::And((0..3).map(f).collect());
    [
        (g(F::implies(LOADING, F::Atom(AREA_A1))), true),
        (
            g(F::implies(
                LOADING,
                F::or(F::Atom(AREA_A1), F::Atom(AREA_A2)),
            )),
            true,
        ),
        (g(F::implies(LOADING, F::NotAtom(AREA_A4))), true),
        (
            F::weak_until(F::NotAtom(DELIVERED), F::Atom(DELIVERED + 1)),
            false,
        ),
        (
            F::weak_until(F::NotAtom(DELIVERED + 1), F::Atom(DELIVERED + 2)),
            false,
        ),
        (
            per_package(&|k| g(F::implies(LOADED + k, F::next(g(F::NotAtom(LOADED + k)))))),
            false,
        ),
        (
            g(F::or(
                F::NotAtom(LOADING),
                F::or(F::NotAtom(AREA_A1), F::NotAtom(Y_A1_FULL)),
            )),
            true,
        ),
        (
            g(per_package(&|k| {
                F::implies(DELIVERED + k, F::Atom(UNLOADED_AT_DESTINATION + k))
            })),
            false,
        ),
        (g(F::implies(DELIVERING, F::Atom(AT_DESTINATION))), false),
        (
            per_package(&|k| F::eventually(F::Atom(DELIVERED_AT_DESTINATION + k))),
            false,
        ),
    ]
}

/// The progression monitor: one [`Progression`] per rule, over atoms computed
/// from the event and a `History`.
#[derive(Clone, Debug)]
pub struct Progressed {
    history: History,
    rules: Vec<Progression>,
}

impl Default for Progressed {
    fn default() -> Self {
        Progressed {
            history: History::default(),
            rules: formulas()
                .into_iter()
                .map(|(f, reset)| Progression::new(f, reset))
                .collect(),
        }
    }
}

impl RuleMonitor for Progressed {
    #[inline]
    fn step(&mut self, e: &TruckEvent) -> [Verdict; RULES] {
        use atom::*;
        let y_a1_full = self.history.update(e);
        let mut atoms = [false; COUNT];
        atoms[LOADING] = e.action == LOAD;
        atoms[AREA_A1] = e.area == A1;
        atoms[AREA_A2] = e.area == A2;
        atoms[AREA_A4] = e.area == A4;
        atoms[Y_A1_FULL] = y_a1_full;
        atoms[DELIVERING] = e.action == DELIVER;
        atoms[AT_DESTINATION] = History::at_destination(e);
        for k in 0..3 {
            let this = e.pkg == k as i64 + 1;
            atoms[DELIVERED + k] = atoms[DELIVERING] && this;
            atoms[LOADED + k] = atoms[LOADING] && this;
            atoms[UNLOADED_AT_DESTINATION + k] = self.history.unloaded_at_destination[k];
            atoms[DELIVERED_AT_DESTINATION + k] = atoms[DELIVERED + k] && atoms[AT_DESTINATION];
        }
        let atom = |k: usize| atoms.get(k).copied().unwrap_or(false);
        let mut verdicts = [Verdict::Unknown; RULES];
        for (v, rule) in verdicts.iter_mut().zip(&mut self.rules) {
            *v = rule.step(&atom);
        }
        verdicts
    }
}

/// Steps `monitor` through `plan`: how many verdicts were `False`.
#[inline]
pub fn count_violations<M: RuleMonitor>(monitor: &mut M, plan: &[TruckEvent]) -> usize {
    plan.iter()
        .map(|e| monitor.step(e).iter().filter(|v| v.is_violation()).count())
        .sum()
}
