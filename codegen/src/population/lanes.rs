//! Bit-parallel lanes: each "lane-able" stratum of a population
//! ([`PopulationTables::lane_strata`]) keeps its state cells as bit arrays
//! (one bit per agent) and is evaluated 64 agents at a time with `u64`
//! bitwise operations; the population's other strata keep per-agent monitors,
//! in the same `step` (strata communicate only through per-step signals).
//!
//! A stratum table is lane-able when it has no automaton and every state cell
//! is one bit (`Y Z O H S`), and each slot falls in one of these kinds
//! ([`hindsight_compiler::ir::population::LaneKind`]):
//!
//! | kind | what | computed |
//! |---|---|---|
//! | uniform | reads only constants, globals and lower strata's signals | once per step, as a scalar (`uK`); a bool one is broadcast to all-ones/zeros (`bK`) |
//! | agent | a non-bool value of one agent (`a.age`, `a.age + day`) | per agent while packing (`aK`) |
//! | packed | a bool attribute, or a comparison of agent/uniform values (`a.age >= 65`) | per agent while packing, one bit per agent (`xK`) |
//! | lane | a Boolean op, a bool comparison or a 1-bit temporal op over the above | word by word (`lK`) |
//!
//! Lane state lives in `laneS: [[u8; N]; G]` (`G = ⌈cells/8⌉`): the word of
//! cell `c` for agents `64w..64w+63` is at bytes `64w + 8(c % 8)..` of group
//! `c / 8`, little-endian; the last, partial block of a capacity that is not a
//! multiple of 64 lives in `tailS: [u64; cells]`. A cell whose initial value is
//! `true` is stored complemented, so every array starts (and resets to) zero.
//! Bits of agents `>= n` keep their initial value (the stores mask them), so
//! the lane and the per-agent (`step_scalar`) paths leave identical state.

use super::{indexed, Gen};
use crate::literal;
use crate::step::rule_call;
use hindsight_compiler::ir::population::{lane_kinds, LaneKind as Kind};
use hindsight_compiler::ir::population::{PopulationTables, Quantified};
use hindsight_compiler::ir::table::{CellKind, Op, SlotId, Source, Table, Temporal};
use hindsight_compiler::types::{ArithOp, BoolOp, CmpOp, Ty};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

/// The lane plan of one stratum: the kind of each slot.
pub(super) struct Plan {
    kinds: Vec<Kind>,
}

/// Per stratum, its lane plan when it is lane-able
/// ([`PopulationTables::lane_strata`]).
pub(super) fn plan(tables: &PopulationTables) -> Vec<Option<Plan>> {
    tables
        .strata
        .iter()
        .map(|s| lane_kinds(&s.table, tables.attributes.len()).map(|kinds| Plan { kinds }))
        .collect()
}

/// The module-level helpers the lane code calls (once per population).
pub(super) fn helpers() -> TokenStream {
    quote! {
        /// Block `w`'s state words of one stratum (cell `c` at byte
        /// `64 w + 8 (c % 8)` of group `c / 8`; the partial last block in
        /// `tail`), each XORed with `flip` (complemented cells start `true`).
        #[inline(always)]
        fn load<const N: usize, const G: usize, const C: usize>(
            area: &[[u8; N]; G],
            tail: &[u64; C],
            w: usize,
            flip: &[u64; C],
        ) -> [u64; C] {
            let mut words = *tail;
            if w < N / 64 {
                for (c, word) in words.iter_mut().enumerate() {
                    let at = w * 64 + (c % 8) * 8;
                    *word = area
                        .get(c / 8)
                        .and_then(|g| g.get(at..at + 8))
                        .and_then(|b| <[u8; 8]>::try_from(b).ok())
                        .map_or(0, u64::from_le_bytes);
                }
            }
            for (word, f) in words.iter_mut().zip(flip) {
                *word ^= f;
            }
            words
        }

        /// Stores block `w`'s state words (the inverse of `load`).
        #[inline(always)]
        fn store<const N: usize, const G: usize, const C: usize>(
            area: &mut [[u8; N]; G],
            tail: &mut [u64; C],
            w: usize,
            flip: &[u64; C],
            words: [u64; C],
        ) {
            for (c, (word, f)) in words.iter().zip(flip).enumerate() {
                let raw = word ^ f;
                if w < N / 64 {
                    let at = w * 64 + (c % 8) * 8;
                    if let Some(b) = area.get_mut(c / 8).and_then(|g| g.get_mut(at..at + 8)) {
                        b.copy_from_slice(&raw.to_le_bytes());
                    }
                } else if let Some(t) = tail.get_mut(c) {
                    *t = raw;
                }
            }
        }
    }
}

/// The number of byte groups of `cells` lane cells.
fn groups(cells: usize) -> usize {
    cells.div_ceil(8)
}

/// `Monitor` fields, initialisers and resets of stratum `s` in lane mode.
pub(super) fn fields(
    s: usize,
    table: &Table,
    fields: &mut Vec<TokenStream>,
    inits: &mut Vec<TokenStream>,
    resets: &mut Vec<TokenStream>,
) {
    let cells = table.state.len();
    if cells == 0 {
        return;
    }
    let (lane, tail) = (indexed("lane", s), indexed("tail", s));
    let g = Literal::usize_unsuffixed(groups(cells));
    let c = Literal::usize_unsuffixed(cells);
    let doc = format!(
        " Stratum {s}'s {cells} state cells as bit lanes, block-major (one bit per agent)."
    );
    fields.push(quote!(#[doc = #doc] #lane: [[u8; N]; #g]));
    fields.push(quote!(
        /// The lanes' words of a last, partial block of 64 agents.
        #tail: [u64; #c]
    ));
    inits.push(quote!(#lane: [[0; N]; #g]));
    inits.push(quote!(#tail: [0; #c]));
    resets.push(quote! {
        for g in self.#lane.iter_mut() { g.fill(0); }
        self.#tail = [0; #c];
    });
}

/// Which code is generated: 64 agents per word, or one agent at a time over
/// the same bit state.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Width {
    Lanes,
    Scalar,
}

impl Gen<'_> {
    /// One pass of lane stratum `s` (its signals as locals `signalK` afterwards).
    pub(super) fn lane_pass(
        &self,
        s: usize,
        table: &Table,
        plan: &Plan,
        width: Width,
    ) -> TokenStream {
        let kinds = &plan.kinds;
        let kind = |k: SlotId| kinds.get(k).copied().unwrap_or(Kind::Uniform);
        let enums = &table.enums;
        // The scalar value of a uniform/agent slot, or of a packed one for one agent.
        let value = |k: SlotId| -> TokenStream {
            let Some(slot) = table.slots.get(k) else {
                return quote!(false);
            };
            let operand = |a: SlotId| match kind(a) {
                Kind::Agent => indexed("a", a),
                _ => indexed("u", a),
            };
            match slot.op {
                Op::Const(v) => literal::value(v, slot.ty, enums),
                Op::Input(i) => {
                    if i < table.inputs.len() {
                        self.stratum_input(i)
                    } else {
                        quote!(false)
                    }
                }
                Op::Not(a) => {
                    let a = operand(a);
                    quote!(!#a)
                }
                Op::Bool(op, a, b) => bool_op(op, &operand(a), &operand(b)),
                Op::Cmp(op, a, b) => {
                    let (a, b) = (operand(a), operand(b));
                    match op {
                        CmpOp::Eq => quote!(#a == #b),
                        CmpOp::Ne => quote!(#a != #b),
                        CmpOp::Lt => quote!(#a < #b),
                        CmpOp::Le => quote!(#a <= #b),
                        CmpOp::Gt => quote!(#a > #b),
                        CmpOp::Ge => quote!(#a >= #b),
                    }
                }
                Op::Arith(op, a, b) => {
                    let (a, b) = (operand(a), operand(b));
                    match (slot.ty, op) {
                        (Ty::Int, ArithOp::Add) => quote!(#a.wrapping_add(#b)),
                        (Ty::Int, ArithOp::Sub) => quote!(#a.wrapping_sub(#b)),
                        (Ty::Int, ArithOp::Mul) => quote!(#a.wrapping_mul(#b)),
                        (_, ArithOp::Add) => quote!(#a + #b),
                        (_, ArithOp::Sub) => quote!(#a - #b),
                        (_, ArithOp::Mul) => quote!(#a * #b),
                    }
                }
                Op::Neg(a) => {
                    let a = operand(a);
                    match slot.ty {
                        Ty::Int => quote!(#a.wrapping_neg()),
                        _ => quote!(-#a),
                    }
                }
                Op::BoolToInt(a) => {
                    let a = operand(a);
                    quote!(i64::from(#a))
                }
                Op::Temporal(..) => quote!(false),
            }
        };
        // A bool slot as a lane word (or, scalar, as a bool).
        let bit = |k: SlotId| match (kind(k), width) {
            (Kind::Uniform, Width::Lanes) => indexed("b", k),
            (Kind::Uniform, Width::Scalar) => indexed("u", k),
            (Kind::Packed, _) => indexed("x", k),
            _ => indexed("l", k),
        };
        let cell_now = |c: usize| match width {
            Width::Lanes => indexed("c", c),
            Width::Scalar => indexed("d", c),
        };
        let mut uniform = Vec::new();
        let mut packing = Vec::new();
        let mut lanes = Vec::new();
        for (k, slot) in table.slots.iter().enumerate() {
            match kind(k) {
                Kind::Uniform => {
                    let (u, v) = (indexed("u", k), value(k));
                    uniform.push(quote!(let #u = #v;));
                    if slot.ty == Ty::Bool && width == Width::Lanes {
                        let b = indexed("b", k);
                        uniform.push(quote!(let #b = 0u64.wrapping_sub(u64::from(#u));));
                    }
                }
                Kind::Agent => {
                    let (a, v) = (indexed("a", k), value(k));
                    packing.push(quote!(let #a = #v;));
                }
                Kind::Packed => {
                    let (x, v) = (indexed("x", k), value(k));
                    packing.push(match width {
                        Width::Lanes => quote!(#x |= u64::from(#v) << b;),
                        Width::Scalar => quote!(let #x = #v;),
                    });
                }
                Kind::Lane => {
                    let l = indexed("l", k);
                    let v = match slot.op {
                        Op::Not(a) => {
                            let a = bit(a);
                            quote!(!#a)
                        }
                        Op::Bool(op, a, b) => bool_op(op, &bit(a), &bit(b)),
                        Op::Cmp(op, a, b) => {
                            let (a, b) = (bit(a), bit(b));
                            match op {
                                CmpOp::Eq => quote!(!(#a ^ #b)),
                                CmpOp::Ne => quote!(#a ^ #b),
                                CmpOp::Lt => quote!(!#a & #b),
                                CmpOp::Le => quote!(!#a | #b),
                                CmpOp::Gt => quote!(#a & !#b),
                                CmpOp::Ge => quote!(#a | !#b),
                            }
                        }
                        // The monitors' rule, on 64 agents' bits at once
                        // (`Y Z`: the cell holds the value).
                        Op::Temporal(t, c) => match t.rule() {
                            Some(rule) => {
                                let (a, b) = t.operands();
                                let operands = [Some(a), b].into_iter().flatten().map(&bit);
                                rule_call(rule, t, operands, cell_now(c))
                            }
                            None => {
                                let c = cell_now(c);
                                quote!(#c)
                            }
                        },
                        _ => quote!(false),
                    };
                    lanes.push(quote!(let #l = #v;));
                }
            }
        }
        // Each cell's new content.
        let cells = table.state.len();
        let next: Vec<TokenStream> = table
            .state
            .iter()
            .map(|cell| match table.slots.get(cell.owner).map(|s| s.op) {
                Some(Op::Temporal(Temporal::Prev { arg, .. }, _)) => {
                    let a = bit(arg);
                    quote!(#a)
                }
                _ => {
                    let o = bit(cell.owner);
                    quote!(#o)
                }
            })
            .collect();
        let flip: Vec<TokenStream> = table
            .state
            .iter()
            .map(|cell| match cell.kind {
                CellKind::Bool { init: true } => quote!(u64::MAX),
                _ => quote!(0),
            })
            .collect();
        let output = |o: usize| match table.outputs.get(o).map(|o| o.source) {
            Some(Source::Slot(k)) => {
                let b = bit(k);
                quote!(#b)
            }
            _ => quote!(false),
        };
        // The stratum's signals: counts, then values.
        let signals: Vec<(usize, Quantified)> = self
            .tables
            .signals
            .iter()
            .enumerate()
            .filter(|(_, g)| g.of.stratum == s)
            .map(|(g, sig)| (g, sig.of))
            .collect();
        let mut before = Vec::new();
        let mut counting = Vec::new();
        let mut after = Vec::new();
        for &(g, of) in &signals {
            let (members, trues) = (indexed("smembers", g), indexed("strues", g));
            let body = output(of.body);
            before.push(quote!(let mut #trues = 0u64;));
            let forall = super::counts_members(of);
            match (of.member, width) {
                (Some(m), Width::Lanes) => {
                    let m = output(m);
                    if forall {
                        before.push(quote!(let mut #members = 0u64;));
                        counting.push(quote!(#members += u64::from((#m & valid).count_ones());));
                    }
                    counting.push(quote!(#trues += u64::from((#m & #body & valid).count_ones());));
                }
                (Some(m), Width::Scalar) => {
                    let m = output(m);
                    if forall {
                        before.push(quote!(let mut #members = 0u64;));
                        counting.push(quote!(#members += u64::from(#m);));
                    }
                    counting.push(quote!(#trues += u64::from(#m & #body);));
                }
                (None, w) => {
                    if forall {
                        before.push(quote!(let #members = count;));
                    }
                    counting.push(match w {
                        Width::Lanes => quote!(#trues += u64::from((#body & valid).count_ones());),
                        Width::Scalar => quote!(#trues += u64::from(#body);),
                    });
                }
            }
            let signal = indexed("signal", g);
            let value = super::signal_value(of, &trues, &members, self.runtime);
            after.push(quote!(let #signal = #value;));
        }
        let (lane, tail) = (indexed("lane", s), indexed("tail", s));
        let words: Vec<_> = (0..cells).map(|c| indexed("c", c)).collect();
        let load = (cells > 0).then(|| {
            quote! {
                let [#(#words),*] = load(&self.#lane, &self.#tail, w, &FLIP);
            }
        });
        let flip_const = (cells > 0).then(|| {
            let c = Literal::usize_unsuffixed(cells);
            quote!(const FLIP: [u64; #c] = [#(#flip),*];)
        });
        let packed_locals = kinds
            .iter()
            .enumerate()
            .filter(|(k, kind)| **kind == Kind::Packed && table.slots.get(*k).is_some())
            .map(|(k, _)| {
                let x = indexed("x", k);
                quote!(let mut #x = 0u64;)
            });
        let block = match width {
            Width::Lanes => {
                let store = (cells > 0).then(|| {
                    let masked = words
                        .iter()
                        .zip(&next)
                        .map(|(c, n)| quote!((#n & valid) | (#c & !valid)));
                    quote!(store(&mut self.#lane, &mut self.#tail, w, &FLIP, [#(#masked),*]);)
                });
                let packed_locals: Vec<_> = packed_locals.collect();
                quote! {
                    let valid = u64::MAX
                        .checked_shr(64u32.saturating_sub(chunk.len() as u32))
                        .unwrap_or(0);
                    #load
                    #(#packed_locals)*
                    for (b, agent) in chunk.iter().enumerate() {
                        #(#packing)*
                    }
                    #(#lanes)*
                    #store
                    #(#counting)*
                }
            }
            Width::Scalar => {
                let news: Vec<_> = (0..cells).map(|c| indexed("m", c)).collect();
                let bits = (0..cells).map(|c| {
                    let (d, c) = (indexed("d", c), indexed("c", c));
                    quote!(let #d = ((#c >> b) & 1) != 0;)
                });
                let sets = news
                    .iter()
                    .zip(&next)
                    .map(|(m, n)| quote!(#m = (#m & !(1u64 << b)) | (u64::from(#n) << b);));
                let store = (cells > 0).then(
                    || quote!(store(&mut self.#lane, &mut self.#tail, w, &FLIP, [#(#news),*]);),
                );
                quote! {
                    #load
                    #(let mut #news = #words;)*
                    for (b, agent) in chunk.iter().enumerate() {
                        #(#bits)*
                        #(#packing)*
                        #(#lanes)*
                        #(#sets)*
                        #(#counting)*
                    }
                    #store
                }
            }
        };
        quote! {
            #(#before)*
            {
                #flip_const
                #(#uniform)*
                for (w, chunk) in agents.chunks(64).enumerate() {
                    #block
                }
            }
            #(#after)*
        }
    }
}

/// `a op b` for bools or lane words alike.
fn bool_op(op: BoolOp, a: &Ident, b: &Ident) -> TokenStream {
    match op {
        BoolOp::And => quote!(#a & #b),
        BoolOp::Or => quote!(#a | #b),
        BoolOp::Implies => quote!(!#a | #b),
        BoolOp::Iff => quote!(!(#a ^ #b)),
    }
}
