//! A monitor table as one Cranelift function, a loop whose every turn does
//! exactly what the interpreter's `Engine::step` does for the tables it takes.
//!
//! The function is
//! `run(state: *mut u64, inputs: *const Value, verdicts: *mut u8, steps: u64)`,
//! a loop over `steps` steps:
//! - `state` holds one word per state cell (a bit as 0/1, a counter; a
//!   delay's ring of bits in as many words as it needs), then one word per
//!   automaton (its state index), then three per `with reset` property (its
//!   run's steps, satisfactions and violations: the code keeps a future's,
//!   the caller a deadline's), then the number of steps taken;
//! - `inputs` holds one [`Value`] per input per step, read where it lies
//!   (its fixed layout: a tag byte, the field after it); a value of another
//!   type, or an enum index beyond the variants, reads as the type's default
//!   (`false`, `0`, `0.0`, the first variant), as the interpreter reads it;
//! - `verdicts` receives one byte per output per step: 0 false, 1 unknown,
//!   2 true (so that Kleene `&&` is the minimum and `||` the maximum); for an
//!   output monitored by a deadline, the bits of its operands instead, which
//!   the caller steps the deadline with (`hindsight_runtime::time::Deadline`).
//!
//! The state's scalar words live in registers for the whole loop (loaded
//! before it, stored after it); delay rings stay in memory. Like the
//! interpreter, each step computes every slot in order from the state the
//! previous step left, then the cells' next contents, then steps the
//! automata of each future-time output and combines their verdicts.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, AbiParam, InstBuilder, MemFlags, Type, Value as Reg};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{Linkage, Module};
use hindsight_compiler::ir::table::{Automaton, CellKind, Op, Source, Table, Temporal};
use hindsight_compiler::ltl3::Combination;
use hindsight_compiler::types::{ArithOp, BoolOp, CmpOp, Ty};
use hindsight_compiler::{Value, Verdict};

use crate::code::{Code, Tables};
use crate::Unsupported;

/// The verdict byte of `v`.
pub(crate) fn verdict_byte(v: Verdict) -> u8 {
    match v {
        Verdict::False => 0,
        Verdict::Unknown => 1,
        Verdict::True => 2,
    }
}

/// Where each part of the state lies in the state buffer, in words.
pub(crate) struct Layout {
    /// Per state cell: its first word.
    pub(crate) cells: Vec<usize>,
    /// The first automaton's word.
    pub(crate) automata: usize,
    /// Per output: for a `with reset` future or deadline, the first of its
    /// three words (steps in the current run, satisfactions, violations).
    pub(crate) runs: Vec<Option<usize>>,
    /// The word counting steps taken.
    pub(crate) steps: usize,
    /// Words in all.
    pub(crate) words: usize,
}

impl Layout {
    /// The layout of `table`'s state.
    pub(crate) fn new(table: &Table) -> Layout {
        let mut cells = Vec::with_capacity(table.state.len());
        let mut words = 0usize;
        for cell in &table.state {
            cells.push(words);
            words = words.saturating_add(match cell.kind {
                CellKind::Delay { .. } => cell.kind.ring_words(),
                _ => 1,
            });
        }
        let automata = words;
        words = words.saturating_add(table.automata.len());
        let runs = table
            .outputs
            .iter()
            .map(|o| {
                (o.reset && !o.is_past()).then(|| {
                    words = words.saturating_add(3);
                    words - 3
                })
            })
            .collect();
        let steps = words;
        Layout {
            cells,
            automata,
            runs,
            steps,
            words: steps.saturating_add(1),
        }
    }

    /// The state before the first step.
    pub(crate) fn initial(&self, table: &Table) -> Vec<u64> {
        let mut state = vec![0; self.words];
        for (cell, &at) in table.state.iter().zip(&self.cells) {
            match cell.kind {
                CellKind::Bool { init } => state[at] = u64::from(init),
                CellKind::Counter { init } => state[at] = init,
                CellKind::Delay { init: true, .. } => {
                    state[at..at + cell.kind.ring_words()].fill(u64::MAX);
                }
                _ => {}
            }
        }
        state
    }
}

/// The bytes of one [`Value`], and where its fields lie after its tag
/// byte (`hindsight_runtime::Value`'s fixed layout; a `bool` right after
/// the tag).
const VALUE_BYTES: usize = std::mem::size_of::<Value>();
const ENUM_AT: i32 = 4;
const NUMBER_AT: i32 = 8;

/// The tag byte of `Value`'s variant holding type `ty`.
fn value_tag(ty: Ty) -> i64 {
    match ty {
        Ty::Bool => 0,
        Ty::Int => 1,
        Ty::Float => 2,
        Ty::Enum(_) => 3,
    }
}

/// Whether automaton `a` is stepped by a shift rather than a table lookup:
/// at most 8 states, so that the loop can keep 8 times its state and each
/// letter's successors fit one word ([`successor_words`]); the only work a
/// step's state then waits for from the previous one is a shift (as in
/// generated code).
fn shifted(a: &Automaton) -> bool {
    a.states.len() <= 8
}

/// Per letter of `a`: 8 times the successor of state `s` in byte `s`.
fn successor_words(a: &Automaton) -> Box<[u64]> {
    (0..1usize << a.atoms.len())
        .map(|letter| {
            (0..a.states.len()).fold(0u64, |word, s| {
                let next = a.transitions.get(s << a.atoms.len() | letter).copied();
                word | u64::from(8 * next.unwrap_or(0)) << (8 * s)
            })
        })
        .collect()
}

/// Steps per turn of the unrolled loop, for tables of at most
/// `SMALL_TABLE` slots (where a turn's bookkeeping is a large share).
const UNROLLED: usize = 4;
const SMALL_TABLE: usize = 32;

/// The largest byte offset the function addresses by a constant.
const MAX_OFFSET: usize = i32::MAX as usize;

/// Whether the function can do all that the interpreter does for `table`,
/// and only touch memory it owns: no duration-bounded past operator; every
/// operation on operands of its own type; every temporal
/// slot owning the cell it reads, of the kind it needs (a delay ring as
/// long as the delay); automata whose transitions stay among their states;
/// buffers whose offsets fit the code's 32-bit displacements. Tables the
/// checker lowers always pass the consistency checks; hand-built ones may not.
pub(crate) fn supported(table: &Table, layout: &Layout) -> Result<(), Unsupported> {
    let refuse = |why: &str| Err(Unsupported(why.to_owned()));
    if [(layout.words, 8), (table.inputs.len(), VALUE_BYTES)]
        .iter()
        .any(|&(n, size)| n.checked_mul(size).is_none_or(|bytes| bytes > MAX_OFFSET))
        || table.outputs.len() > MAX_OFFSET
    {
        return refuse("a state too large for machine code");
    }
    for (k, slot) in table.slots.iter().enumerate() {
        if let Op::Temporal(Temporal::TimedOnce { .. } | Temporal::TimedSince { .. }, _) = slot.op {
            return refuse("a duration-bounded past operator");
        }
        let ty = |s: hindsight_compiler::ir::table::SlotId| {
            (s.index() < k).then(|| table.slots[s.index()].ty)
        };
        let ok = match slot.op {
            Op::Const(v) => matches!(
                (v, slot.ty),
                (Value::Bool(_), Ty::Bool)
                    | (Value::Int(_), Ty::Int)
                    | (Value::Float(_), Ty::Float)
                    | (Value::Enum(_), Ty::Enum(_))
            ),
            Op::Input(i) => table.inputs.get(i).is_some_and(|d| d.ty == slot.ty),
            Op::Not(a) => ty(a) == Some(Ty::Bool) && slot.ty == Ty::Bool,
            Op::Bool(_, a, b) => {
                ty(a) == Some(Ty::Bool) && ty(b) == Some(Ty::Bool) && slot.ty == Ty::Bool
            }
            Op::Cmp(_, a, b) => ty(a).is_some() && ty(a) == ty(b) && slot.ty == Ty::Bool,
            Op::Arith(_, a, b) => {
                matches!(ty(a), Some(Ty::Int | Ty::Float))
                    && ty(a) == ty(b)
                    && ty(a) == Some(slot.ty)
            }
            Op::Neg(a) => matches!(ty(a), Some(Ty::Int | Ty::Float)) && ty(a) == Some(slot.ty),
            Op::BoolToInt(a) => ty(a) == Some(Ty::Bool) && slot.ty == Ty::Int,
            Op::Temporal(t, c) => {
                slot.ty == Ty::Bool
                    && table
                        .state
                        .get(c.index())
                        .is_some_and(|cell| cell.owner.index() == k && cell_fits(t, cell.kind))
                    && {
                        let (a, b) = t.operands();
                        ty(a) == Some(Ty::Bool) && b.is_none_or(|b| ty(b) == Some(Ty::Bool))
                    }
            }
        };
        if !ok {
            return refuse("an operation the checker never produces");
        }
    }
    for automaton in &table.automata {
        let states = automaton.states.len();
        let bits = automaton.atoms.len();
        if bits > 16
            || states == 0
            || automaton.transitions.len() != states << bits
            || automaton.transitions.iter().any(|&t| t as usize >= states)
            || automaton
                .atoms
                .iter()
                .any(|a| table.slots.get(a.index()).is_none_or(|s| s.ty != Ty::Bool))
        {
            return refuse("an automaton outside its own states");
        }
    }
    for out in &table.outputs {
        let ok = match out.source {
            Source::Slot(s) => table.slots.get(s.index()).is_some_and(|s| s.ty == Ty::Bool),
            Source::Future(f) => f.get(&table.futures).is_some_and(|f| {
                f.automata.iter().all(|a| a.index() < table.automata.len())
                    && f.combination
                        .parts()
                        .iter()
                        .all(|&p| p < table.automata.len())
            }),
            Source::Timed(t) => t.get(&table.timed).is_some_and(|timed| {
                [timed.trigger, timed.lhs, Some(timed.target)]
                    .into_iter()
                    .flatten()
                    .all(|s| table.slots.get(s.index()).is_some_and(|s| s.ty == Ty::Bool))
            }),
        };
        if !ok {
            return refuse("an output outside its table");
        }
    }
    Ok(())
}

/// Whether a cell of `kind` is what operator `t` keeps.
fn cell_fits(t: Temporal, kind: CellKind) -> bool {
    match t {
        Temporal::Prev { .. } | Temporal::Once(_) | Temporal::Hist(_) | Temporal::Since(..) => {
            matches!(kind, CellKind::Bool { .. })
        }
        Temporal::OnceWithin { .. }
        | Temporal::HistWithin { .. }
        | Temporal::SinceWithin { .. } => {
            matches!(kind, CellKind::Counter { .. })
        }
        Temporal::Delay { steps, .. } => {
            steps > 0 && matches!(kind, CellKind::Delay { bits, .. } if bits == steps)
        }
        Temporal::TimedOnce { .. } | Temporal::TimedSince { .. } => false,
    }
}

/// Compiles `table` (which [`supported`] accepted) for the host, its state
/// laid out by `layout`.
pub(crate) fn compile(table: &Table, layout: &Layout) -> Result<Code, Unsupported> {
    let failed = |e: &dyn std::fmt::Display| Unsupported(format!("code generation failed: {e}"));
    let mut flags = settings::builder();
    for (name, value) in [("opt_level", "speed"), ("is_pic", "false")] {
        flags.set(name, value).map_err(|e| failed(&e))?;
    }
    let isa = cranelift_native::builder()
        .map_err(|e| Unsupported(format!("no code generator for this processor: {e}")))?
        .finish(settings::Flags::new(flags))
        .map_err(|e| failed(&e))?;
    let mut module = JITModule::new(JITBuilder::with_isa(
        isa,
        cranelift_module::default_libcall_names(),
    ));
    let pointer = module.target_config().pointer_type();
    let mut context = module.make_context();
    for ty in [pointer, pointer, pointer, types::I64] {
        context.func.signature.params.push(AbiParam::new(ty));
    }
    let mut builder_context = FunctionBuilderContext::new();
    let tables = {
        let mut b = FunctionBuilder::new(&mut context.func, &mut builder_context);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        b.seal_block(entry);
        let params = b.block_params(entry).to_vec();
        let mut emit = Emit {
            b,
            table,
            pointer,
            state: params[0],
            inputs: params[1],
            verdicts: params[2],
            slots: Vec::with_capacity(table.slots.len()),
            cells: vec![None; table.state.len()],
            rings: vec![None; table.state.len()],
            words: vec![None; layout.words],
            layout,
            step: None,
            automata: Vec::with_capacity(table.automata.len()),
            tables: Tables::default(),
        };
        emit.function(params[3]);
        emit.b.finalize();
        emit.tables
    };
    let id = module
        .declare_function("run", Linkage::Export, &context.func.signature)
        .map_err(|e| failed(&e))?;
    module
        .define_function(id, &mut context)
        .map_err(|e| failed(&e))?;
    module.clear_context(&mut context);
    module.finalize_definitions().map_err(|e| failed(&e))?;
    let entry = module.get_finalized_function(id);
    Ok(Code::new(
        module,
        entry,
        tables,
        (layout.words, table.inputs.len(), table.outputs.len()),
        !table
            .outputs
            .iter()
            .any(|o| matches!(o.source, Source::Timed(_))),
    ))
}

/// The function being built.
struct Emit<'a, 't, 'l> {
    b: FunctionBuilder<'a>,
    table: &'t Table,
    pointer: Type,
    state: Reg,
    /// This step's first input value and first verdict byte.
    inputs: Reg,
    verdicts: Reg,
    /// Per state word: the variable holding it during the loop (`None`
    /// for the words of delay rings, which stay in memory).
    words: Vec<Option<Variable>>,
    /// Each slot's value, once computed.
    slots: Vec<Reg>,
    /// Each cell's content at the start of the step, once loaded.
    cells: Vec<Option<Reg>>,
    /// Each delay ring's word holding this step's position, once loaded: its
    /// address, the bit's index, the word.
    rings: Vec<Option<(Reg, Reg, Reg)>>,
    /// Where the state lies.
    layout: &'l Layout,
    /// The number of steps taken before this one, once loaded.
    step: Option<Reg>,
    /// Per automaton: its transition and verdict tables (addresses or
    /// words, made before the loop).
    automata: Vec<(Reg, Reg)>,
    /// The constant tables the code addresses.
    tables: Tables,
}

/// Loads and stores of the step's own buffers: aligned, never trapping.
fn flags() -> MemFlags {
    MemFlags::trusted()
}

/// The byte offset of word `k`.
/// (`supported` refuses tables whose offsets would not fit.)
fn word(k: usize) -> i32 {
    i32::try_from(k.saturating_mul(8)).unwrap_or(i32::MAX)
}

impl Emit<'_, '_, '_> {
    /// The loop over `steps` steps, with the state's scalar words in
    /// variables around it.
    fn function(&mut self, steps: Reg) {
        let table = self.table;
        let layout = self.layout;
        let mut rings = vec![false; layout.words];
        for (cell, &at) in table.state.iter().zip(&layout.cells) {
            if let CellKind::Delay { .. } = cell.kind {
                rings[at..at + cell.kind.ring_words()].fill(true);
            }
        }
        // A shifted automaton's word holds 8 times its state in the loop.
        let mut scaled = vec![false; layout.words];
        for (j, automaton) in table.automata.iter().enumerate() {
            scaled[layout.automata + j] = shifted(automaton);
        }
        for (w, ring) in rings.into_iter().enumerate() {
            if !ring {
                let var = self.b.declare_var(types::I64);
                let mut value = self.b.ins().load(types::I64, flags(), self.state, word(w));
                if scaled[w] {
                    value = self.b.ins().ishl_imm(value, 3);
                }
                self.b.def_var(var, value);
                self.words[w] = Some(var);
            }
        }
        let [inputs, verdicts, left] =
            [self.pointer, self.pointer, types::I64].map(|ty| self.b.declare_var(ty));
        self.b.def_var(inputs, self.inputs);
        self.b.def_var(verdicts, self.verdicts);
        self.b.def_var(left, steps);
        self.automaton_tables();
        // A loop taking `UNROLLED` steps per turn while that many are left
        // (small tables only), then one taking one step per turn.
        let unrolled = if table.slots.len() <= SMALL_TABLE {
            UNROLLED
        } else {
            1
        };
        let [head_n, body_n, head_1, body_1, exit] = [(); 5].map(|()| self.b.create_block());
        let loops = [
            (head_n, body_n, head_1, unrolled),
            (head_1, body_1, exit, 1),
        ];
        let loops = &loops[usize::from(unrolled == 1)..];
        self.b.ins().jump(loops[0].0, &[]);
        for &(head, body, next, per_turn) in loops {
            self.b.switch_to_block(head);
            let more = self.b.use_var(left);
            let enough =
                self.b
                    .ins()
                    .icmp_imm(IntCC::UnsignedGreaterThanOrEqual, more, per_turn as i64);
            self.b.ins().brif(enough, body, &[], next, &[]);
            self.b.switch_to_block(body);
            self.b.seal_block(body);
            for _ in 0..per_turn {
                self.one_step(inputs, verdicts);
            }
            let more = self.b.use_var(left);
            let fewer = self.b.ins().iadd_imm(more, -(per_turn as i64));
            self.b.def_var(left, fewer);
            self.b.ins().jump(head, &[]);
            self.b.seal_block(head);
        }

        self.b.switch_to_block(exit);
        self.b.seal_block(exit);
        for (w, var) in self.words.clone().into_iter().enumerate() {
            if let Some(var) = var {
                let mut value = self.b.use_var(var);
                if scaled[w] {
                    value = self.b.ins().ushr_imm(value, 3);
                }
                self.b.ins().store(flags(), value, self.state, word(w));
            }
        }
        self.b.ins().return_(&[]);
    }

    /// One step: its slots, cells and outputs from the values at `inputs`,
    /// its verdicts to `verdicts`; both then moved on by a step.
    fn one_step(&mut self, inputs: Variable, verdicts: Variable) {
        let table = self.table;
        self.inputs = self.b.use_var(inputs);
        self.verdicts = self.b.use_var(verdicts);
        self.slots.clear();
        self.cells.fill(None);
        self.rings.fill(None);
        self.step = None;
        for slot in &table.slots {
            let v = self.slot(slot.op, slot.ty);
            self.slots.push(v);
        }
        self.update_cells();
        self.outputs();
        let row = table.inputs.len().saturating_mul(VALUE_BYTES) as i64;
        let next = self.b.ins().iadd_imm(self.inputs, row);
        self.b.def_var(inputs, next);
        let outputs = table.outputs.len() as i64;
        let next = self.b.ins().iadd_imm(self.verdicts, outputs);
        self.b.def_var(verdicts, next);
    }

    /// State word `w` now: its variable (memory for a ring's word).
    fn get(&mut self, w: usize) -> Reg {
        match self.words.get(w).copied().flatten() {
            Some(var) => self.b.use_var(var),
            None => self.b.ins().load(types::I64, flags(), self.state, word(w)),
        }
    }

    /// Sets state word `w` for the next step.
    fn set(&mut self, w: usize, value: Reg) {
        match self.words.get(w).copied().flatten() {
            Some(var) => self.b.def_var(var, value),
            None => {
                self.b.ins().store(flags(), value, self.state, word(w));
            }
        }
    }

    fn slot_reg(&self, s: hindsight_compiler::ir::table::SlotId) -> Reg {
        self.slots[s.index()]
    }

    fn ty(&self, s: hindsight_compiler::ir::table::SlotId) -> Ty {
        self.table.slots[s.index()].ty
    }

    fn bool_const(&mut self, b: bool) -> Reg {
        self.b.ins().iconst(types::I8, i64::from(b))
    }

    /// One slot's value.
    fn slot(&mut self, op: Op, ty: Ty) -> Reg {
        match op {
            Op::Const(v) => match v {
                Value::Bool(b) => self.bool_const(b),
                Value::Int(i) => self.b.ins().iconst(types::I64, i),
                Value::Float(x) => self.b.ins().f64const(x),
                Value::Enum(e) => self.b.ins().iconst(types::I64, i64::from(e)),
            },
            Op::Input(i) => self.input(i, ty),
            Op::Not(a) => {
                let a = self.slot_reg(a);
                self.b.ins().bxor_imm(a, 1)
            }
            Op::Bool(op, a, b) => {
                let (a, b) = (self.slot_reg(a), self.slot_reg(b));
                match op {
                    BoolOp::And => self.b.ins().band(a, b),
                    BoolOp::Or => self.b.ins().bor(a, b),
                    BoolOp::Implies => {
                        let not_a = self.b.ins().bxor_imm(a, 1);
                        self.b.ins().bor(not_a, b)
                    }
                    BoolOp::Iff => self.b.ins().icmp(IntCC::Equal, a, b),
                }
            }
            Op::Cmp(op, a, b) => {
                let float = self.ty(a) == Ty::Float;
                let signed = self.ty(a) == Ty::Int;
                let (a, b) = (self.slot_reg(a), self.slot_reg(b));
                if float {
                    // IEEE: only `!=` holds when either side is NaN.
                    let cc = match op {
                        CmpOp::Eq => FloatCC::Equal,
                        CmpOp::Ne => FloatCC::NotEqual,
                        CmpOp::Lt => FloatCC::LessThan,
                        CmpOp::Le => FloatCC::LessThanOrEqual,
                        CmpOp::Gt => FloatCC::GreaterThan,
                        CmpOp::Ge => FloatCC::GreaterThanOrEqual,
                    };
                    self.b.ins().fcmp(cc, a, b)
                } else {
                    let cc = match (op, signed) {
                        (CmpOp::Eq, _) => IntCC::Equal,
                        (CmpOp::Ne, _) => IntCC::NotEqual,
                        (CmpOp::Lt, true) => IntCC::SignedLessThan,
                        (CmpOp::Le, true) => IntCC::SignedLessThanOrEqual,
                        (CmpOp::Gt, true) => IntCC::SignedGreaterThan,
                        (CmpOp::Ge, true) => IntCC::SignedGreaterThanOrEqual,
                        (CmpOp::Lt, false) => IntCC::UnsignedLessThan,
                        (CmpOp::Le, false) => IntCC::UnsignedLessThanOrEqual,
                        (CmpOp::Gt, false) => IntCC::UnsignedGreaterThan,
                        (CmpOp::Ge, false) => IntCC::UnsignedGreaterThanOrEqual,
                    };
                    self.b.ins().icmp(cc, a, b)
                }
            }
            Op::Arith(op, a, b) => {
                let float = self.ty(a) == Ty::Float;
                let (a, b) = (self.slot_reg(a), self.slot_reg(b));
                let ins = self.b.ins();
                match (op, float) {
                    (ArithOp::Add, false) => ins.iadd(a, b),
                    (ArithOp::Sub, false) => ins.isub(a, b),
                    (ArithOp::Mul, false) => ins.imul(a, b),
                    (ArithOp::Add, true) => ins.fadd(a, b),
                    (ArithOp::Sub, true) => ins.fsub(a, b),
                    (ArithOp::Mul, true) => ins.fmul(a, b),
                }
            }
            Op::Neg(a) => {
                let float = self.ty(a) == Ty::Float;
                let a = self.slot_reg(a);
                if float {
                    self.b.ins().fneg(a)
                } else {
                    self.b.ins().ineg(a)
                }
            }
            Op::BoolToInt(a) => {
                let a = self.slot_reg(a);
                self.b.ins().uextend(types::I64, a)
            }
            Op::Temporal(t, c) => self.temporal(t, c.index()),
        }
    }

    /// Input `i` of type `ty`, read from its [`Value`]: the field if the
    /// tag is `ty`'s (and an enum index below the variants), else the
    /// type's default. The field is loaded whatever the tag says (bytes of
    /// the value, perhaps padding) and kept only if the tag matches.
    fn input(&mut self, i: usize, ty: Ty) -> Reg {
        let at = i32::try_from(i.saturating_mul(VALUE_BYTES)).unwrap_or(i32::MAX);
        let field = |at_field: i32| at.saturating_add(at_field);
        let (load, zero) = match ty {
            Ty::Bool => {
                // True only for the two bytes of `Value::Bool(true)`: its
                // tag, then 1.
                let bytes = self.b.ins().load(types::I16, flags(), self.inputs, at);
                let true_bytes = u16::from_ne_bytes([value_tag(ty) as u8, 1]);
                return self
                    .b
                    .ins()
                    .icmp_imm(IntCC::Equal, bytes, i64::from(true_bytes));
            }
            Ty::Float => (types::F64, self.b.ins().f64const(0.0)),
            Ty::Int | Ty::Enum(_) => (types::I64, self.b.ins().iconst(types::I64, 0)),
        };
        let tag = self.b.ins().load(types::I8, flags(), self.inputs, at);
        let tagged = self.b.ins().icmp_imm(IntCC::Equal, tag, value_tag(ty));
        let (value, valid) = match ty {
            Ty::Enum(e) => {
                let variants = self
                    .table
                    .enums
                    .get(e)
                    .map_or(0, |d| d.variants.len() as i64);
                let index = self.b.ins().uload32(flags(), self.inputs, field(ENUM_AT));
                let known = self
                    .b
                    .ins()
                    .icmp_imm(IntCC::UnsignedLessThan, index, variants);
                (index, self.b.ins().band(tagged, known))
            }
            _ => {
                let value = self
                    .b
                    .ins()
                    .load(load, flags(), self.inputs, field(NUMBER_AT));
                (value, tagged)
            }
        };
        self.b.ins().select(valid, value, zero)
    }

    /// Cell `k`'s content at the start of the step.
    fn cell(&mut self, k: usize) -> Reg {
        if let Some(Some(v)) = self.cells.get(k) {
            return *v;
        }
        let v = self.get(self.layout.cells[k]);
        self.cells[k] = Some(v);
        v
    }

    /// Whether cell `k` holds a true bit.
    fn cell_bit(&mut self, k: usize) -> Reg {
        let c = self.cell(k);
        self.b.ins().icmp_imm(IntCC::NotEqual, c, 0)
    }

    /// Whether counter `k` is below `bound`.
    fn below(&mut self, k: usize, bound: u64) -> Reg {
        let c = self.cell(k);
        let bound = self.b.ins().iconst(types::I64, bound as i64);
        self.b.ins().icmp(IntCC::UnsignedLessThan, c, bound)
    }

    /// The value of a temporal operator now (`hindsight_runtime::rules`).
    fn temporal(&mut self, t: Temporal, k: usize) -> Reg {
        match t {
            Temporal::Prev { .. } => self.cell_bit(k),
            Temporal::Once(a) => {
                let c = self.cell_bit(k);
                self.b.ins().bor(self.slots[a.index()], c)
            }
            Temporal::Hist(a) => {
                let c = self.cell_bit(k);
                self.b.ins().band(self.slots[a.index()], c)
            }
            Temporal::Since(l, r) => {
                let c = self.cell_bit(k);
                let chain = self.b.ins().band(self.slots[l.index()], c);
                self.b.ins().bor(self.slots[r.index()], chain)
            }
            Temporal::OnceWithin { arg, bound } => {
                let recent = self.below(k, bound);
                self.b.ins().bor(self.slots[arg.index()], recent)
            }
            Temporal::HistWithin { arg, bound } => {
                let recent = self.below(k, bound);
                let long = self.b.ins().bxor_imm(recent, 1);
                self.b.ins().band(self.slots[arg.index()], long)
            }
            Temporal::SinceWithin { lhs, rhs, bound } => {
                let recent = self.below(k, bound);
                let chain = self.b.ins().band(self.slots[lhs.index()], recent);
                self.b.ins().bor(self.slots[rhs.index()], chain)
            }
            Temporal::Delay { steps, .. } => {
                let (_, bit, w) = self.ring(k, steps);
                let w = self.b.ins().ushr(w, bit);
                let w = self.b.ins().band_imm(w, 1);
                self.b.ins().ireduce(types::I8, w)
            }
            // Refused by `supported`.
            Temporal::TimedOnce { .. } | Temporal::TimedSince { .. } => self.bool_const(false),
        }
    }

    /// The number of steps before this one.
    fn step_count(&mut self) -> Reg {
        if let Some(v) = self.step {
            return v;
        }
        let v = self.get(self.layout.steps);
        self.step = Some(v);
        v
    }

    /// The word of delay ring `k` (of `steps` bits) that holds this step's
    /// position at the start of the step: its address, the bit's index in
    /// it, the word (computed once, for the read and the write).
    fn ring(&mut self, k: usize, steps: u64) -> (Reg, Reg, Reg) {
        if let Some(Some(ring)) = self.rings.get(k) {
            return *ring;
        }
        let step = self.step_count();
        let pos = self.b.ins().urem_imm(step, steps as i64);
        let index = self.b.ins().ushr_imm(pos, 6);
        let bit = self.b.ins().band_imm(pos, 63);
        let offset = self.b.ins().ishl_imm(index, 3);
        let base = self
            .b
            .ins()
            .iadd_imm(self.state, word(self.layout.cells[k]) as i64);
        let address = self.b.ins().iadd(base, offset);
        let w = self.b.ins().load(types::I64, flags(), address, 0);
        self.rings[k] = Some((address, bit, w));
        (address, bit, w)
    }

    /// `v + 1`, saturating at `u64::MAX` (as every counter of the
    /// interpreter counts).
    fn saturating_increment(&mut self, v: Reg) -> Reg {
        let saturated = self.b.ins().icmp_imm(IntCC::Equal, v, -1);
        let more = self.b.ins().iadd_imm(v, 1);
        self.b.ins().select(saturated, v, more)
    }

    /// For bounded counter `k`: zero, `bound`, and the counter one step
    /// older, at most `bound` (`rules::Counter::bump`).
    fn counter_next(&mut self, k: usize, bound: u64) -> (Reg, Reg, Reg) {
        let zero = self.b.ins().iconst(types::I64, 0);
        let bound = self.b.ins().iconst(types::I64, bound as i64);
        let c = self.cell(k);
        let more = self.saturating_increment(c);
        (zero, bound, self.b.ins().umin(more, bound))
    }

    /// Stores every cell's content for the next step.
    fn update_cells(&mut self) {
        let table = self.table;
        for (k, cell) in table.state.iter().enumerate() {
            let Some(Op::Temporal(t, _)) = table.slots.get(cell.owner.index()).map(|s| s.op) else {
                continue;
            };
            let value = self.slots[cell.owner.index()];
            let next = match t {
                Temporal::Prev { arg, .. } => {
                    self.b.ins().uextend(types::I64, self.slots[arg.index()])
                }
                Temporal::OnceWithin { arg, bound } => {
                    let (zero, _, bumped) = self.counter_next(k, bound);
                    self.b.ins().select(self.slots[arg.index()], zero, bumped)
                }
                Temporal::HistWithin { arg, bound } => {
                    let (zero, _, bumped) = self.counter_next(k, bound);
                    self.b.ins().select(self.slots[arg.index()], bumped, zero)
                }
                Temporal::SinceWithin { lhs, rhs, bound } => {
                    let (zero, bound, bumped) = self.counter_next(k, bound);
                    let chained = self.b.ins().select(self.slots[lhs.index()], bumped, bound);
                    self.b.ins().select(self.slots[rhs.index()], zero, chained)
                }
                Temporal::Delay { arg, steps, .. } => {
                    let (address, bit, w) = self.ring(k, steps);
                    let one = self.b.ins().iconst(types::I64, 1);
                    let mask = self.b.ins().ishl(one, bit);
                    let cleared = self.b.ins().band_not(w, mask);
                    let arg = self.b.ins().uextend(types::I64, self.slots[arg.index()]);
                    let set = self.b.ins().ishl(arg, bit);
                    let w = self.b.ins().bor(cleared, set);
                    self.b.ins().store(flags(), w, address, 0);
                    continue;
                }
                _ => self.b.ins().uextend(types::I64, value),
            };
            self.set(self.layout.cells[k], next);
        }
    }

    /// The address of a new constant table holding `words`.
    fn constant_table(&mut self, words: Box<[u32]>) -> Reg {
        let address = words.as_ptr() as i64;
        self.tables.narrow.push(words);
        self.b.ins().iconst(self.pointer, address)
    }

    /// The address of a new constant table holding `words`.
    fn constant_words(&mut self, words: Box<[u64]>) -> Reg {
        let address = words.as_ptr() as i64;
        self.tables.wide.push(words);
        self.b.ins().iconst(self.pointer, address)
    }

    /// Each automaton's constant tables, made once before the loop: its
    /// transitions (a shifted one's successor words by letter) and its
    /// verdicts (a shifted one's in one word, byte `s` state `s`'s).
    fn automaton_tables(&mut self) {
        for automaton in &self.table.automata {
            let tables = if shifted(automaton) {
                let successors = successor_words(automaton);
                let verdicts = automaton
                    .states
                    .iter()
                    .enumerate()
                    .fold(0u64, |word, (s, state)| {
                        word | u64::from(verdict_byte(state.verdict)) << (8 * s)
                    });
                (
                    self.constant_words(successors),
                    self.b.ins().iconst(types::I64, verdicts as i64),
                )
            } else {
                let transitions =
                    self.constant_table(automaton.transitions.clone().into_boxed_slice());
                let verdicts: Box<[u32]> = automaton
                    .states
                    .iter()
                    .map(|s| u32::from(verdict_byte(s.verdict)))
                    .collect();
                (transitions, self.constant_table(verdicts))
            };
            self.automata.push(tables);
        }
    }

    /// Byte `index` of `word` (both i64).
    fn byte_of(&mut self, word: Reg, index8: Reg) -> Reg {
        let shifted = self.b.ins().ushr(word, index8);
        self.b.ins().band_imm(shifted, 0xff)
    }

    /// `base[index]` of a table of u32, as an i64.
    fn lookup(&mut self, base: Reg, index: Reg) -> Reg {
        let offset = self.b.ins().ishl_imm(index, 2);
        let address = self.b.ins().iadd(base, offset);
        self.b.ins().uload32(flags(), address, 0)
    }

    /// Steps the automata of each future-time output, as the interpreter
    /// does (in output order), and writes every output's verdict byte.
    fn outputs(&mut self) {
        let table = self.table;
        let first = self.layout.automata;
        // Per automaton: its tables and its state now (8 times it, shifted).
        let mut automata = Vec::with_capacity(table.automata.len());
        for j in 0..table.automata.len() {
            let (transitions, verdicts) = self.automata[j];
            let state = self.get(first + j);
            automata.push((transitions, verdicts, state));
        }
        for (k, out) in table.outputs.iter().enumerate() {
            let byte = match out.source {
                Source::Slot(s) => {
                    let v = self.b.ins().uextend(types::I64, self.slots[s.index()]);
                    self.b.ins().ishl_imm(v, 1)
                }
                Source::Future(f) => {
                    let Some(future) = f.get(&table.futures) else {
                        continue;
                    };
                    for &a in &future.automata {
                        let automaton = &table.automata[a.index()];
                        let mut letter = self.b.ins().iconst(types::I64, 0);
                        for (i, atom) in automaton.atoms.iter().enumerate() {
                            let bit = self.b.ins().uextend(types::I64, self.slots[atom.index()]);
                            let bit = self.b.ins().ishl_imm(bit, i as i64);
                            letter = self.b.ins().bor(letter, bit);
                        }
                        let (transitions, _, state) = automata[a.index()];
                        let next = if shifted(automaton) {
                            let offset = self.b.ins().ishl_imm(letter, 3);
                            let address = self.b.ins().iadd(transitions, offset);
                            let successors = self.b.ins().load(types::I64, flags(), address, 0);
                            self.byte_of(successors, state)
                        } else {
                            let row = self.b.ins().ishl_imm(state, automaton.atoms.len() as i64);
                            let index = self.b.ins().bor(row, letter);
                            self.lookup(transitions, index)
                        };
                        automata[a.index()].2 = next;
                    }
                    let verdict = self.combine(&future.combination, &automata);
                    if let Some(run) = self.layout.runs.get(k).copied().flatten() {
                        self.restart(run, verdict, &future.automata, &mut automata);
                    }
                    verdict
                }
                // The deadline itself is stepped by the caller (`Compiled::after_code`)
                // from its operands now: bit 0 the trigger, 1 the left
                // operand of `U`, 2 the target (an absent operand holds).
                Source::Timed(t) => {
                    let Some(timed) = t.get(&table.timed) else {
                        continue;
                    };
                    let mut bits = self.b.ins().iconst(types::I64, 0);
                    for (i, slot) in [timed.trigger, timed.lhs, Some(timed.target)]
                        .into_iter()
                        .enumerate()
                    {
                        let bit = match slot {
                            Some(s) => self.b.ins().uextend(types::I64, self.slots[s.index()]),
                            None => self.b.ins().iconst(types::I64, 1),
                        };
                        let bit = self.b.ins().ishl_imm(bit, i as i64);
                        bits = self.b.ins().bor(bits, bit);
                    }
                    bits
                }
            };
            self.b.ins().istore8(
                flags(),
                byte,
                self.verdicts,
                i32::try_from(k).unwrap_or(i32::MAX),
            );
        }
        for (j, &(_, _, state)) in automata.iter().enumerate() {
            self.set(first + j, state);
        }
        if let Some(step) = self.step {
            let next = self.saturating_increment(step);
            self.set(self.layout.steps, next);
        }
    }

    /// A `with reset` property's bookkeeping after `verdict` (a byte): a
    /// decided verdict is counted, ends the run and puts the automata back
    /// in their initial state.
    fn restart(
        &mut self,
        run: usize,
        verdict: Reg,
        reads: &[hindsight_compiler::ir::table::AutomatonId],
        automata: &mut [(Reg, Reg, Reg)],
    ) {
        let decided = self.b.ins().icmp_imm(IntCC::NotEqual, verdict, 1);
        let zero = self.b.ins().iconst(types::I64, 0);
        let steps = self.get(run);
        let steps = self.saturating_increment(steps);
        let steps = self.b.ins().select(decided, zero, steps);
        self.set(run, steps);
        for (offset, byte) in [(1, 2), (2, 0)] {
            let hit = self.b.ins().icmp_imm(IntCC::Equal, verdict, byte);
            let count = self.get(run + offset);
            let more = self.saturating_increment(count);
            let count = self.b.ins().select(hit, more, count);
            self.set(run + offset, count);
        }
        for &a in reads {
            let state = automata[a.index()].2;
            automata[a.index()].2 = self.b.ins().select(decided, zero, state);
        }
    }

    /// The Kleene combination of the automata's verdict bytes, as an i64.
    fn combine(&mut self, c: &Combination, automata: &[(Reg, Reg, Reg)]) -> Reg {
        match c {
            Combination::Part(p) => {
                let (_, verdicts, state) = automata[*p];
                let automaton = self.table.automata.get(*p);
                // An automaton whose states all give one verdict (the `?`
                // of `G (p -> F q)`) gives it whatever its state.
                let states = automaton.map(|a| &a.states[..]).unwrap_or_default();
                if let [first, rest @ ..] = states {
                    if rest.iter().all(|s| s.verdict == first.verdict) {
                        return self
                            .b
                            .ins()
                            .iconst(types::I64, i64::from(verdict_byte(first.verdict)));
                    }
                }
                match automaton.is_some_and(shifted) {
                    true => self.byte_of(verdicts, state),
                    false => self.lookup(verdicts, state),
                }
            }
            Combination::Not(c) => {
                let v = self.combine(c, automata);
                let two = self.b.ins().iconst(types::I64, 2);
                self.b.ins().isub(two, v)
            }
            Combination::And(cs) | Combination::Or(cs) => {
                let and = matches!(c, Combination::And(_));
                let mut acc = self.b.ins().iconst(types::I64, if and { 2 } else { 0 });
                for c in cs {
                    let v = self.combine(c, automata);
                    acc = if and {
                        self.b.ins().umin(acc, v)
                    } else {
                        self.b.ins().umax(acc, v)
                    };
                }
                acc
            }
        }
    }
}
