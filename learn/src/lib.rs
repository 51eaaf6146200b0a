//! Learned behaviour models of monitored runs (TriCEGAR, `shared/seeds/003`):
//! from the logs a monitor block reads, a predicate tree over the concrete
//! state (the block's inputs, past-time properties, `let`s and goals) grown
//! by information gain on the next action; an MDP over its leaves; sound
//! bounds on the probability of reaching each goal; and the run-likelihood
//! statistics that flag anomalous runs.
//!
//! Stage by stage: [`features`] (what a step's concrete state is), [`tree`]
//! (the abstraction), [`mdp`] and [`trie`] (the abstract model and the
//! abstract runs), [`bounds`] (interval iteration), [`likelihood`]
//! (anomalies), [`model`] (learning and the model file), [`online`] (a
//! model following a run), [`predict`] (the chance a future property ends
//! false, on the product with its automata), [`refine`]
//! (counterexample-guided refinement), [`text`] (the
//! model in words and in PRISM's explicit format). `hindsight learn` and
//! `hindsight explain --model` are thin shells over these.

pub mod bounds;
pub mod features;
pub mod likelihood;
pub mod mdp;
pub mod model;
pub mod online;
pub mod predict;
pub mod refine;
pub mod text;
pub mod tree;
pub mod trie;

pub use features::{Collector, Features, Recording, Run};
pub use model::{learn, Model, Options};
