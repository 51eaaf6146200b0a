//! Random population specs in the monitorable fragment, as source text (so the
//! parser and the checker are exercised too), and random population traces.
//!
//! A spec declares 1-3 bool attributes `x y z`, maybe an int attribute `n` and
//! a bool global `g`, 0-2 groups (predicates over bare attribute names and the
//! global, sometimes with past operators; the second may build on the first)
//! and 1-3 properties of three kinds: past-time (quantifiers under past
//! operators, nested quantifiers, count comparisons), future-time without
//! future quantifiers (past quantifiers under future operators), and combined
//! (Boolean combinations of quantifiers over future-time bodies with the other
//! two kinds), some `with reset`. Every future-time formula reads at most three
//! distinct atoms, so the brute-force LTL3 oracle stays fast. Every compound
//! sub-formula is parenthesized.

use hindsight_compiler::hir::Value;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use super::reference::{PopStep, PopTrace};

/// The bool attribute names, in declaration order (the first `bools` are declared).
pub const BOOLS: [&str; 3] = ["x", "y", "z"];

/// A random population spec.
#[derive(Clone, Debug)]
pub struct RandomPopulation {
    /// How many of [`BOOLS`] are declared (1-3).
    pub bools: usize,
    /// Whether the int attribute `n` is declared (after the bools).
    pub int: bool,
    /// Whether the bool global `g` is declared.
    pub global: bool,
    /// Per group `gK`: its base (`agents` or an earlier group) and predicate.
    pub groups: Vec<(String, String)>,
    /// Per property `pK`: its formula and whether it is `with reset`.
    pub properties: Vec<(String, bool)>,
}

impl RandomPopulation {
    /// The spec as the source text of one population block named `random`.
    pub fn source(&self) -> String {
        let mut fields: Vec<String> = BOOLS[..self.bools]
            .iter()
            .map(|b| format!("{b}: bool"))
            .collect();
        if self.int {
            fields.push("n: int".into());
        }
        let mut s = format!(
            "population random {{\n    agent {{ {} }}\n",
            fields.join(", ")
        );
        if self.global {
            s += "    global { g: bool }\n";
        }
        for (k, (base, pred)) in self.groups.iter().enumerate() {
            s += &format!("    group g{k} = {base} where {pred};\n");
        }
        for (k, (formula, reset)) in self.properties.iter().enumerate() {
            let reset = if *reset { " with reset" } else { "" };
            s += &format!("    property p{k} = {formula}{reset};\n");
        }
        s + "}\n"
    }

    /// The number of attributes per agent.
    pub fn attributes(&self) -> usize {
        self.bools + usize::from(self.int)
    }
}

/// What formulas may read: the declared attributes, global and groups.
#[derive(Clone, Copy, Debug)]
struct Ctx {
    bools: usize,
    int: bool,
    global: bool,
    groups: usize,
}

type S = BoxedStrategy<String>;

/// The quantifier variable at nesting depth `d`.
fn var(d: usize) -> &'static str {
    ["a", "b", "c", "d"][d.min(3)]
}

impl Ctx {
    /// A group name: `agents` or a declared group.
    fn group(self) -> S {
        let mut names = vec!["agents".to_string()];
        names.extend((0..self.groups).map(|k| format!("g{k}")));
        prop::sample::select(names).boxed()
    }

    /// An atom of an agent-level formula over `v` (`None`: bare names, as in
    /// group predicates): an attribute, an int comparison, or the global.
    fn agent_atom(self, v: Option<&'static str>) -> S {
        let prefix = v.map_or(String::new(), |v| format!("{v}."));
        let bools: Vec<String> = BOOLS[..self.bools]
            .iter()
            .map(|b| format!("{prefix}{b}"))
            .collect();
        let n = format!("{prefix}n");
        let cmps = vec![
            format!("{n} >= 1"),
            format!("{n} == 2"),
            format!("{n} + 1 > 2"),
            format!("{n} != 0"),
            format!("{n} < 2"),
        ];
        let mut options: Vec<(u32, S)> = vec![(6, prop::sample::select(bools).boxed())];
        if self.int {
            options.push((2, prop::sample::select(cmps).boxed()));
        }
        if self.global {
            options.push((1, Just("g".to_string()).boxed()));
        }
        options.push((1, Just("true".to_string()).boxed()));
        prop::strategy::Union::new_weighted(options).boxed()
    }

    /// A past-time formula over `leaf`, nested at most `depth` operators deep.
    fn past_over(leaf: S, depth: u32) -> S {
        leaf.prop_recursive(depth, 12, 2, |inner| {
            prop_oneof![
                1 => inner.clone().prop_map(|a| format!("!({a})")),
                3 => (
                    prop::sample::select(vec!["&&", "||", "->", "<->"]),
                    inner.clone(),
                    inner.clone()
                )
                    .prop_map(|(op, a, b)| format!("({a}) {op} ({b})")),
                3 => (
                    prop::sample::select(vec!["Y", "Z", "O", "H", "O[1,2]", "H[0,1]", "O[2,inf]"]),
                    inner.clone()
                )
                    .prop_map(|(op, a)| format!("{op} ({a})")),
                2 => (prop::sample::select(vec!["S", "S[0,2]", "S[1,3]"]), inner.clone(), inner)
                    .prop_map(|(op, a, b)| format!("({a}) {op} ({b})")),
            ]
        })
        .boxed()
    }

    /// A past quantifier at nesting depth `d` (its variable is `var(d)`): a
    /// Boolean quantifier or a count comparison, over a past body that may nest
    /// one more quantifier while `d < 1`.
    fn past_quantifier(self, d: usize) -> S {
        let v = var(d);
        let body = self.agent_past(Some(v), d);
        let head = prop_oneof![
            Just("forall".to_string()),
            Just("exists".to_string()),
            (0u64..3).prop_map(|k| format!("atleast {k}")),
            (0u64..3).prop_map(|k| format!("atmost {k}")),
        ];
        let boolean = (head, self.group(), body.clone())
            .prop_map(move |(h, g, b)| format!("({h} {v} in {g}: {b})"));
        let count = (
            self.group(),
            body,
            prop::sample::select(vec![">=", "<=", "==", ">"]),
            0i64..3,
        )
            .prop_map(move |(g, b, op, k)| format!("((count {v} in {g}: {b}) {op} {k})"));
        prop_oneof![3 => boolean, 1 => count].boxed()
    }

    /// An agent-level past formula over variable `v` (bare names for `None`)
    /// at quantifier depth `d`; it may nest a quantifier (over its own variable)
    /// while `d < 1`.
    fn agent_past(self, v: Option<&'static str>, d: usize) -> S {
        let atom = self.agent_atom(v);
        let leaf = if d < 1 && v.is_some() {
            prop_oneof![6 => atom, 1 => self.past_quantifier(d + 1)].boxed()
        } else {
            atom
        };
        Ctx::past_over(leaf, 2)
    }

    /// A population-level past formula: the global and past quantifiers under
    /// past operators and connectives.
    fn population_past(self) -> S {
        let mut leaves: Vec<(u32, S)> = vec![(4, self.past_quantifier(0))];
        if self.global {
            leaves.push((1, Just("g".to_string()).boxed()));
        }
        Ctx::past_over(prop::strategy::Union::new_weighted(leaves).boxed(), 2)
    }

    /// An atom of a population-level future formula: a past quantifier,
    /// maybe under one past operator, or the global.
    fn population_atom(self) -> S {
        let quantifier = self.past_quantifier(0);
        let mut leaves: Vec<(u32, S)> = vec![
            (4, quantifier.clone()),
            (
                1,
                (prop::sample::select(vec!["Y", "O", "H[0,1]"]), quantifier)
                    .prop_map(|(op, q)| format!("{op} {q}"))
                    .boxed(),
            ),
        ];
        if self.global {
            leaves.push((1, Just("g".to_string()).boxed()));
        }
        prop::strategy::Union::new_weighted(leaves).boxed()
    }

    /// An atom of an agent-level future body over `v`: an attribute, an int
    /// comparison, the global, a small past formula or a nested past quantifier.
    fn agent_future_atom(self, v: &'static str) -> S {
        let atom = self.agent_atom(Some(v));
        prop_oneof![
            6 => atom.clone(),
            2 => (prop::sample::select(vec!["Y", "Z", "O", "H", "O[0,1]"]), atom.clone())
                .prop_map(|(op, a)| format!("{op} ({a})")),
            1 => (atom.clone(), atom).prop_map(|(a, b)| format!("({a}) S ({b})")),
            1 => self.past_quantifier(1),
        ]
        .boxed()
    }

    /// A future-time formula over 1-3 atoms drawn from `atom`; always has a
    /// future operator.
    fn future_over(atom: S) -> S {
        prop::collection::vec(atom, 1..=3)
            .prop_flat_map(|pool| {
                let leaf = prop::sample::select(pool);
                let formula = leaf.prop_recursive(3, 10, 2, |inner| {
                    prop_oneof![
                        1 => inner.clone().prop_map(|a| format!("!({a})")),
                        2 => (
                            prop::sample::select(vec!["&&", "||", "->"]),
                            inner.clone(),
                            inner.clone()
                        )
                            .prop_map(|(op, a, b)| format!("({a}) {op} ({b})")),
                        3 => (
                            prop::sample::select(vec!["X", "F", "G", "F[0,2]", "G[1,2]"]),
                            inner.clone()
                        )
                            .prop_map(|(op, a)| format!("{op} ({a})")),
                        2 => (
                            prop::sample::select(vec!["U", "W", "R", "U[0,2]"]),
                            inner.clone(),
                            inner
                        )
                            .prop_map(|(op, a, b)| format!("({a}) {op} ({b})")),
                    ]
                });
                (formula, prop::sample::select(vec!["F", "G", "X"])).prop_map(|(f, top)| {
                    if ["X", "F", "G", "U", "W", "R"]
                        .iter()
                        .any(|op| f.contains(op))
                    {
                        f
                    } else {
                        format!("{top} ({f})")
                    }
                })
            })
            .boxed()
    }

    /// A quantifier over a future-time body (variable `a`).
    fn future_quantifier(self) -> S {
        let head = prop_oneof![
            2 => Just("forall".to_string()),
            2 => Just("exists".to_string()),
            1 => (0u64..3).prop_map(|k| format!("atleast {k}")),
            1 => (0u64..3).prop_map(|k| format!("atmost {k}")),
        ];
        let body = Ctx::future_over(self.agent_future_atom("a"));
        (head, self.group(), body)
            .prop_map(|(h, g, b)| format!("({h} a in {g}: {b})"))
            .boxed()
    }

    /// A property formula of one of the three kinds.
    fn property(self) -> S {
        let past = self.population_past();
        let future = Ctx::future_over(self.population_atom());
        let quantifier = self.future_quantifier();
        let part = prop_oneof![
            4 => quantifier.clone(),
            1 => future.clone(),
            1 => past.clone(),
        ];
        let combined = prop_oneof![
            2 => quantifier,
            1 => part.clone().prop_map(|a| format!("!({a})")),
            3 => (
                prop::sample::select(vec!["&&", "||", "->", "<->"]),
                self.future_quantifier(),
                part
            )
                .prop_map(|(op, a, b)| format!("({a}) {op} ({b})")),
        ];
        prop_oneof![2 => past, 2 => future, 4 => combined].boxed()
    }
}

/// Strategy for [`RandomPopulation`].
pub fn random_population() -> impl Strategy<Value = RandomPopulation> {
    (1usize..=3, any::<bool>(), any::<bool>(), 0usize..=2)
        .prop_flat_map(|(bools, int, global, groups)| {
            let ctx = Ctx {
                bools,
                int,
                global,
                groups,
            };
            // Group k's predicate may only name groups before it as its base.
            let group_defs: Vec<BoxedStrategy<(String, String)>> = (0..groups)
                .map(|k| {
                    let mut bases = vec!["agents".to_string()];
                    bases.extend((0..k).map(|j| format!("g{j}")));
                    (prop::sample::select(bases), ctx.agent_past(None, 1)).boxed()
                })
                .collect();
            let properties =
                prop::collection::vec((ctx.property(), prop::bool::weighted(0.3)), 1..=3);
            (Just(ctx), group_defs, properties)
        })
        .prop_map(|(ctx, groups, properties)| RandomPopulation {
            bools: ctx.bools,
            int: ctx.int,
            global: ctx.global,
            groups,
            properties,
        })
}

/// A random trace for `spec`: 1 to `max_agents` agents, 0 to `max_steps` steps.
pub fn pop_trace(
    spec: &RandomPopulation,
    max_agents: usize,
    max_steps: usize,
) -> impl Strategy<Value = PopTrace> {
    let (bools, int, global) = (spec.bools, spec.int, spec.global);
    (1..=max_agents.max(1)).prop_flat_map(move |agents| {
        let agent =
            (prop::collection::vec(any::<bool>(), bools), 0i64..3).prop_map(move |(b, n)| {
                let mut values: Vec<Value> = b.into_iter().map(Value::Bool).collect();
                if int {
                    values.push(Value::Int(n));
                }
                values
            });
        let step =
            (prop::collection::vec(agent, agents), any::<bool>()).prop_map(move |(rows, g)| {
                PopStep {
                    attributes: rows.concat(),
                    globals: if global { vec![Value::Bool(g)] } else { vec![] },
                }
            });
        prop::collection::vec(step, 0..=max_steps).prop_map(move |steps| PopTrace { agents, steps })
    })
}

/// A random spec and a random trace for it (1-5 agents, 0-8 steps).
pub fn case() -> impl Strategy<Value = (RandomPopulation, PopTrace)> {
    random_population().prop_flat_map(|spec| {
        let trace = pop_trace(&spec, 5, 8);
        (Just(spec), trace)
    })
}

/// `count` random population sources, the same for the same `seed` (for
/// build-time code generation). Each is one population block named `random`.
pub fn seeded_sources(count: usize, seed: u64) -> Vec<String> {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let strategy = random_population();
    (0..count)
        .filter_map(|_| strategy.new_tree(&mut runner).ok())
        .map(|tree| tree.current().source())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_sources_are_deterministic_and_compile() {
        let a = seeded_sources(6, 7);
        assert_eq!(a.len(), 6);
        assert_eq!(a, seeded_sources(6, 7));
        assert_ne!(a, seeded_sources(6, 8));
        for source in &a {
            let compiled = hindsight_compiler::compile(source).unwrap_or_else(|d| {
                panic!("{}", hindsight_compiler::diag::render("s", source, &d))
            });
            assert_eq!(compiled.spec.populations.len(), 1, "{source}");
        }
    }

    #[test]
    fn traces_have_the_declared_shape() {
        let spec = RandomPopulation {
            bools: 2,
            int: true,
            global: true,
            groups: vec![],
            properties: vec![("g".into(), false)],
        };
        let mut runner = TestRunner::deterministic();
        for _ in 0..20 {
            let t = pop_trace(&spec, 5, 8)
                .new_tree(&mut runner)
                .unwrap()
                .current();
            assert!((1..=5).contains(&t.agents) && t.steps.len() <= 8);
            for s in &t.steps {
                assert_eq!(s.attributes.len(), t.agents * 3);
                assert_eq!(s.globals.len(), 1);
                assert!(matches!(s.attributes[2], Value::Int(0..=2)));
            }
        }
    }
}
