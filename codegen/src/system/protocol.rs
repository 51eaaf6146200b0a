//! A system's protocols as generated code: the module `protocols` of the
//! system module, one module per protocol with its automaton (the
//! runtime's `protocol::Automaton`, tables as constants), the central
//! `Monitor` and, for automata of at most [`MAX_GROUP_STATES`] states, a
//! `Group` monitor for any group of lifelines; and `Monitors`, every
//! protocol's central monitor, which the system's `Monitors` drive from
//! message events (docs/generated-code.md, "Protocols").
//!
//! The rules are the runtime's (`hindsight_runtime::protocol`), which the
//! interpreter runs too; nothing allocates.

use crate::names::ident;
use hindsight_compiler::ir::protocol::{EventKind, ProtocolTable};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// The most states of an automaton whose groups generated code monitors:
/// a `Group` keeps a bit set of reachable states per state (8 KiB at 256).
pub(crate) const MAX_GROUP_STATES: usize = 256;

/// The `protocols` module of a system with `protocols` (nothing without).
pub(crate) fn generate(protocols: &[ProtocolTable], runtime: &TokenStream) -> TokenStream {
    if protocols.is_empty() {
        return TokenStream::new();
    }
    let modules = protocols.iter().map(|p| protocol(p, runtime));
    let names: Vec<_> = protocols.iter().map(|p| ident(&p.name)).collect();
    let docs = protocols
        .iter()
        .map(|p| format!(" The central monitor of protocol `{}`.", p.name));
    let columns = (0..protocols.len()).map(Literal::usize_unsuffixed);
    let ends = (0..protocols.len()).map(Literal::usize_unsuffixed);
    quote! {
        /// The system's protocols: per protocol its automaton, its central
        /// monitor and a monitor for any group of lifelines.
        pub mod protocols {
            use #runtime::protocol::{Automaton, EventDecl, EventKind};
            use #runtime::Verdict;

            #(#modules)*

            /// Every protocol's central monitor.
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub struct Monitors {
                #(#[doc = #docs] pub #names: #names::Monitor,)*
            }

            impl Monitors {
                /// Every monitor before any event.
                pub const fn new() -> Self {
                    Self { #(#names: #names::Monitor::new(),)* }
                }

                /// A message's send (`send`) or receipt from lifeline `from`
                /// to `to` with `label`: each protocol's verdict after it into
                /// `verdicts`, in declaration order; whether one constrains it.
                pub fn on_message(
                    &mut self,
                    send: bool,
                    from: usize,
                    to: usize,
                    label: &str,
                    verdicts: &mut [Verdict],
                ) -> bool {
                    let mut constrained = false;
                    #(
                        constrained |= self.#names.on_message(send, from, to, label);
                        if let Some(out) = verdicts.get_mut(#columns) {
                            *out = self.#names.verdict();
                        }
                    )*
                    constrained
                }

                /// Each protocol's verdict if the trace ended now.
                pub fn finish(&self, verdicts: &mut [Verdict]) {
                    #(
                        if let Some(out) = verdicts.get_mut(#ends) {
                            *out = self.#names.finish();
                        }
                    )*
                }
            }

            impl Default for Monitors {
                fn default() -> Self {
                    Self::new()
                }
            }
        }
    }
}

/// The module of one protocol.
fn protocol(table: &ProtocolTable, runtime: &TokenStream) -> TokenStream {
    let name = ident(&table.name);
    let doc = format!(
        " protocol `{}` ({}): its automaton and monitors.",
        table.name,
        table.model.as_str()
    );
    let synchronous = table.model == hindsight_compiler::ir::protocol::Communication::Synchronous;
    let events = table.events.iter().map(|e| {
        let kind = match e.kind {
            EventKind::Interaction => quote!(EventKind::Interaction),
            EventKind::Send => quote!(EventKind::Send),
            EventKind::Receive => quote!(EventKind::Receive),
        };
        let (from, to, label) = (
            Literal::usize_unsuffixed(e.from),
            Literal::usize_unsuffixed(e.to),
            &e.label,
        );
        quote!(EventDecl { kind: #kind, from: #from, to: #to, label: #label })
    });
    let arms = table.events.iter().enumerate().map(|(i, e)| {
        let send = e.kind != EventKind::Receive;
        let (from, to, label, index) = (
            Literal::usize_unsuffixed(e.from),
            Literal::usize_unsuffixed(e.to),
            &e.label,
            Literal::usize_unsuffixed(i),
        );
        quote!((#send, #from, #to, #label) => Some(#index),)
    });
    let accepting = table.states.iter().map(|s| s.accepting);
    let transitions = table
        .transitions
        .iter()
        .map(|&t| Literal::u32_unsuffixed(t));
    let initial = Literal::u32_unsuffixed(table.initial);
    let group = if table.states.len() <= MAX_GROUP_STATES {
        group(table, runtime)
    } else {
        TokenStream::new()
    };
    quote! {
        #[doc = #doc]
        pub mod #name {
            use super::{Automaton, EventDecl, EventKind, Verdict};

            /// The protocol's automaton: its event types, which states
            /// accept, the initial state and the transitions.
            pub const AUTOMATON: Automaton = Automaton {
                synchronous: #synchronous,
                events: &[#(#events),*],
                accepting: &[#(#accepting),*],
                initial: #initial,
                transitions: &[#(#transitions),*],
            };

            /// The event type of a message's send (`send`) or receipt, if
            /// the protocol has it: [`Automaton::message`] as one `match`.
            #[inline]
            pub fn event(send: bool, from: usize, to: usize, label: &str) -> Option<usize> {
                match (send, from, to, label) {
                    #(#arms)*
                    _ => None,
                }
            }

            /// The central monitor: the protocol's state after the events seen.
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub struct Monitor {
                state: u32,
            }

            impl Monitor {
                /// The monitor before any event.
                pub const fn new() -> Self {
                    Self { state: AUTOMATON.initial }
                }

                /// A message's send (`send`) or receipt; whether the protocol
                /// constrains it (then its state moves).
                pub fn on_message(&mut self, send: bool, from: usize, to: usize, label: &str) -> bool {
                    match event(send, from, to, label) {
                        Some(event) => {
                            self.state = AUTOMATON.next(self.state, event);
                            true
                        }
                        None => false,
                    }
                }

                /// `false` after a violation, `true` where the trace may end,
                /// `?` where more events are needed.
                pub fn verdict(&self) -> Verdict {
                    AUTOMATON.verdict(self.state)
                }

                /// The verdict if the trace ended now.
                pub fn finish(&self) -> Verdict {
                    AUTOMATON.end_verdict(self.state)
                }

                /// The state (`hindsight_runtime::protocol::VIOLATION` after a violation).
                pub const fn state(&self) -> u32 {
                    self.state
                }

                /// Back to the state before any event.
                pub fn reset(&mut self) {
                    *self = Self::new();
                }
            }

            impl Default for Monitor {
                fn default() -> Self {
                    Self::new()
                }
            }

            #group
        }
    }
}

/// `Group`: the monitor of a group of lifelines, the set of states the
/// protocol may be in given the events involving the group.
fn group(table: &ProtocolTable, runtime: &TokenStream) -> TokenStream {
    let states = table.states.len();
    let words = states.div_ceil(64).max(1);
    let events = table.events.len();
    let (states_lit, words_lit, events_lit) = (
        Literal::usize_unsuffixed(states),
        Literal::usize_unsuffixed(words),
        Literal::usize_unsuffixed(events),
    );
    let reach_len = Literal::usize_unsuffixed(states * words);
    quote! {
        /// The transition table with its size, as the group rules read it.
        const TRANSITIONS: #runtime::protocol::Transitions<'static> = #runtime::protocol::Transitions {
            table: AUTOMATON.transitions,
            events: #events_lit,
            states: #states_lit,
        };

        /// The monitor of a group of lifelines, for decentralized
        /// monitoring: it sees the events that involve one of them and
        /// keeps the set of states the protocol may be in.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Group {
            visible: [bool; #events_lit],
            reach: [u64; #reach_len],
            set: [u64; #words_lit],
            next: [u64; #words_lit],
        }

        impl Group {
            /// The monitor of the lifelines `lifelines` (indices in
            /// declaration order) before any event.
            pub fn new(lifelines: &[usize]) -> Self {
                let mut visible = [false; #events_lit];
                for (seen, event) in visible.iter_mut().zip(AUTOMATON.events) {
                    *seen = lifelines.iter().any(|&l| event.involves(l));
                }
                let mut reach = [0u64; #reach_len];
                let mut stack = [0u32; #states_lit];
                #runtime::protocol::hidden_reach(
                    TRANSITIONS,
                    &|e| visible.get(e).copied().unwrap_or(false),
                    #words_lit,
                    &mut reach,
                    &mut stack,
                );
                let mut set = [0u64; #words_lit];
                #runtime::protocol::group_start(&reach, #words_lit, AUTOMATON.initial, &mut set);
                Self { visible, reach, set, next: [0; #words_lit] }
            }

            /// A message's send (`send`) or receipt; whether the group sees
            /// it (then its set moves).
            pub fn on_message(&mut self, send: bool, from: usize, to: usize, label: &str) -> bool {
                let Some(event) = event(send, from, to, label) else {
                    return false;
                };
                if !self.visible.get(event).copied().unwrap_or(false) {
                    return false;
                }
                #runtime::protocol::group_step(
                    TRANSITIONS,
                    &self.reach,
                    #words_lit,
                    &self.set,
                    event,
                    &mut self.next,
                );
                core::mem::swap(&mut self.set, &mut self.next);
                true
            }

            /// `false` when no state is left, `true` when one accepts, else `?`.
            pub fn verdict(&self) -> Verdict {
                #runtime::protocol::set_verdict(AUTOMATON.accepting, &self.set)
            }

            /// The verdict if the trace ended now.
            pub fn finish(&self) -> Verdict {
                #runtime::protocol::end_of(self.verdict())
            }

            /// Back to the set before any event.
            pub fn reset(&mut self) {
                #runtime::protocol::group_start(&self.reach, #words_lit, AUTOMATON.initial, &mut self.set);
            }
        }
    }
}
