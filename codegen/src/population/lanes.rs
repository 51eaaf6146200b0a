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

use super::{indexed, Gen, StateFields};
use crate::literal;
use crate::step::{bool_op, pure, rule_call};
use hindsight_compiler::ir::population::PopulationTables;
use hindsight_compiler::ir::population::{lane_kinds, LaneKind as Kind};
use hindsight_compiler::ir::table::{
    CellId, CellKind, Op, OutputId, SlotId, Source, Table, Temporal,
};
use hindsight_compiler::types::{CmpOp, Ty};
use proc_macro2::{Literal, TokenStream};
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
pub(super) fn fields(s: usize, table: &Table, state: &mut StateFields) {
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
    state.add(
        quote!(#[doc = #doc] #lane: [[u8; N]; #g]),
        quote!(#lane: [[0; N]; #g]),
        quote!(for g in self.#lane.iter_mut() { g.fill(0); }),
    );
    state.add(
        quote!(
            /// The lanes' words of a last, partial block of 64 agents.
            #tail: [u64; #c]
        ),
        quote!(#tail: [0; #c]),
        quote!(self.#tail = [0; #c];),
    );
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
        let pass = Pass {
            gen: self,
            s,
            table,
            kinds: &plan.kinds,
            width,
        };
        let slots = pass.slots();
        let signals = pass.signals();
        let cells = table.state.len();
        let flip_const = (cells > 0).then(|| {
            let flip = table.state.iter().map(|cell| match cell.kind {
                CellKind::Bool { init: true } => quote!(u64::MAX),
                _ => quote!(0),
            });
            let c = Literal::usize_unsuffixed(cells);
            quote!(const FLIP: [u64; #c] = [#(#flip),*];)
        });
        let block = pass.block(&slots, &signals.counting);
        let (before, uniform, after) = (&signals.before, &slots.uniform, &signals.after);
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

/// One lane stratum's pass being generated.
struct Pass<'p, 'g> {
    gen: &'p Gen<'g>,
    /// The stratum.
    s: usize,
    table: &'p Table,
    /// Per slot, how it is evaluated.
    kinds: &'p [Kind],
    width: Width,
}

/// The per-slot statements of a pass: once per step, per agent while
/// packing a word, and per word.
struct SlotCode {
    uniform: Vec<TokenStream>,
    packing: Vec<TokenStream>,
    lanes: Vec<TokenStream>,
}

/// The signal statements of a pass: before the agents, per word (or agent),
/// and after.
struct SignalCode {
    before: Vec<TokenStream>,
    counting: Vec<TokenStream>,
    after: Vec<TokenStream>,
}

impl Pass<'_, '_> {
    fn kind(&self, k: SlotId) -> Kind {
        self.kinds.get(k.index()).copied().unwrap_or(Kind::Uniform)
    }

    /// The scalar value of a uniform/agent slot, or of a packed one for one agent.
    fn value(&self, k: SlotId) -> TokenStream {
        let Some(slot) = k.get(&self.table.slots) else {
            return quote!(false);
        };
        let operand = |a: SlotId| {
            let local = match self.kind(a) {
                Kind::Agent => indexed("a", a),
                _ => indexed("u", a),
            };
            quote!(#local)
        };
        match slot.op {
            Op::Const(v) => literal::value(v, slot.ty, &self.table.enums),
            Op::Input(i) if i < self.table.inputs.len() => self.gen.stratum_input(i),
            _ => pure(slot.op, slot.ty, &operand).unwrap_or_else(|| quote!(false)),
        }
    }

    /// A bool slot as a lane word (or, scalar, as a bool).
    fn bit(&self, k: SlotId) -> TokenStream {
        let local = match (self.kind(k), self.width) {
            (Kind::Uniform, Width::Lanes) => indexed("b", k),
            (Kind::Uniform, Width::Scalar) => indexed("u", k),
            (Kind::Packed, _) => indexed("x", k),
            _ => indexed("l", k),
        };
        quote!(#local)
    }

    /// Cell `c` as the previous step left it (a word, or one agent's bool).
    fn cell_now(&self, c: CellId) -> TokenStream {
        let local = match self.width {
            Width::Lanes => indexed("c", c),
            Width::Scalar => indexed("d", c),
        };
        quote!(#local)
    }

    /// The statements of every slot, by where they run.
    fn slots(&self) -> SlotCode {
        let mut code = SlotCode {
            uniform: Vec::new(),
            packing: Vec::new(),
            lanes: Vec::new(),
        };
        for (k, slot) in self.table.enumerate_slots() {
            match self.kind(k) {
                Kind::Uniform => {
                    let (u, v) = (indexed("u", k), self.value(k));
                    code.uniform.push(quote!(let #u = #v;));
                    if slot.ty == Ty::Bool && self.width == Width::Lanes {
                        let b = indexed("b", k);
                        code.uniform
                            .push(quote!(let #b = 0u64.wrapping_sub(u64::from(#u));));
                    }
                }
                Kind::Agent => {
                    let (a, v) = (indexed("a", k), self.value(k));
                    code.packing.push(quote!(let #a = #v;));
                }
                Kind::Packed => {
                    let (x, v) = (indexed("x", k), self.value(k));
                    code.packing.push(match self.width {
                        Width::Lanes => quote!(#x |= u64::from(#v) << b;),
                        Width::Scalar => quote!(let #x = #v;),
                    });
                }
                Kind::Lane => {
                    let (l, v) = (indexed("l", k), self.lane(slot.op));
                    code.lanes.push(quote!(let #l = #v;));
                }
            }
        }
        code
    }

    /// A lane slot's word: its operation on its operands' words.
    fn lane(&self, op: Op) -> TokenStream {
        match op {
            Op::Not(a) => {
                let a = self.bit(a);
                quote!(!#a)
            }
            Op::Bool(op, a, b) => bool_op(op, &self.bit(a), &self.bit(b)),
            Op::Cmp(op, a, b) => {
                let (a, b) = (self.bit(a), self.bit(b));
                match op {
                    CmpOp::Eq => quote!(!(#a ^ #b)),
                    CmpOp::Ne => quote!(#a ^ #b),
                    CmpOp::Lt => quote!(!#a & #b),
                    CmpOp::Le => quote!(!#a | #b),
                    CmpOp::Gt => quote!(#a & !#b),
                    CmpOp::Ge => quote!(#a | !#b),
                }
            }
            // The monitors' rule, on 64 agents' bits at once (`Y Z`: the cell
            // holds the value).
            Op::Temporal(t, c) => match t.rule() {
                Some(rule) => {
                    let (a, b) = t.operands();
                    let operands = [Some(a), b].into_iter().flatten().map(|k| self.bit(k));
                    rule_call(rule, t, operands, self.cell_now(c))
                }
                None => self.cell_now(c),
            },
            _ => quote!(false),
        }
    }

    /// Each cell's new content.
    fn next(&self) -> Vec<TokenStream> {
        let table = self.table;
        table
            .state
            .iter()
            .map(|cell| match cell.owner.get(&table.slots).map(|s| s.op) {
                Some(Op::Temporal(Temporal::Prev { arg, .. }, _)) => self.bit(arg),
                _ => self.bit(cell.owner),
            })
            .collect()
    }

    /// Output `o` of the stratum table as a word (or bool).
    fn output(&self, o: OutputId) -> TokenStream {
        match o.get(&self.table.outputs).map(|o| o.source) {
            Some(Source::Slot(k)) => self.bit(k),
            _ => quote!(false),
        }
    }

    /// The stratum's signals: counts, then values.
    fn signals(&self) -> SignalCode {
        let mut code = SignalCode {
            before: Vec::new(),
            counting: Vec::new(),
            after: Vec::new(),
        };
        let signals = self.gen.tables.signals.iter().enumerate();
        for (g, of) in signals
            .filter(|(_, g)| g.of.stratum.index() == self.s)
            .map(|(g, sig)| (g, sig.of))
        {
            let (members, trues) = (indexed("smembers", g), indexed("strues", g));
            let body = self.output(of.body);
            code.before.push(quote!(let mut #trues = 0u64;));
            let forall = super::counts_members(of);
            match (of.member, self.width) {
                (Some(m), Width::Lanes) => {
                    let m = self.output(m);
                    if forall {
                        code.before.push(quote!(let mut #members = 0u64;));
                        code.counting
                            .push(quote!(#members += u64::from((#m & valid).count_ones());));
                    }
                    code.counting
                        .push(quote!(#trues += u64::from((#m & #body & valid).count_ones());));
                }
                (Some(m), Width::Scalar) => {
                    let m = self.output(m);
                    if forall {
                        code.before.push(quote!(let mut #members = 0u64;));
                        code.counting.push(quote!(#members += u64::from(#m);));
                    }
                    code.counting.push(quote!(#trues += u64::from(#m & #body);));
                }
                (None, w) => {
                    if forall {
                        code.before.push(quote!(let #members = count;));
                    }
                    code.counting.push(match w {
                        Width::Lanes => quote!(#trues += u64::from((#body & valid).count_ones());),
                        Width::Scalar => quote!(#trues += u64::from(#body);),
                    });
                }
            }
            let signal = indexed("signal", g);
            let value = super::signal_value(of, &trues, &members, self.gen.runtime);
            code.after.push(quote!(let #signal = #value;));
        }
        code
    }

    /// The body of the loop over 64-agent chunks: load the cells, evaluate,
    /// store the cells, count the signals.
    fn block(&self, slots: &SlotCode, counting: &[TokenStream]) -> TokenStream {
        let cells = self.table.state.len();
        let next = self.next();
        let (lane, tail) = (indexed("lane", self.s), indexed("tail", self.s));
        let words: Vec<_> = (0..cells).map(|c| indexed("c", c)).collect();
        let load = (cells > 0).then(|| {
            quote! {
                let [#(#words),*] = load(&self.#lane, &self.#tail, w, &FLIP);
            }
        });
        let (packing, lanes) = (&slots.packing, &slots.lanes);
        match self.width {
            Width::Lanes => {
                let store = (cells > 0).then(|| {
                    let masked = words
                        .iter()
                        .zip(&next)
                        .map(|(c, n)| quote!((#n & valid) | (#c & !valid)));
                    quote!(store(&mut self.#lane, &mut self.#tail, w, &FLIP, [#(#masked),*]);)
                });
                let packed_locals = SlotId::range(self.kinds.len())
                    .filter(|&k| self.kind(k) == Kind::Packed && k.get(&self.table.slots).is_some())
                    .map(|k| {
                        let x = indexed("x", k);
                        quote!(let mut #x = 0u64;)
                    });
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
        }
    }
}
