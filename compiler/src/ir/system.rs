//! A system lowered (docs/cpl.md): one [`Table`] per lifeline, evaluated at
//! each of its events, and the stamp layout, what every message carries.
//!
//! # The stamp layout
//!
//! A stamp is the sender's vector clock (one component per lifeline) plus its
//! value for every *view entry*: a sub-formula or variable that some lifeline
//! reads about another one (`@M φ` or `M.x` evaluated off `M`). Entries are
//! ordered by owner lifeline, and within one owner the exported sub-formulas
//! before the exported variables, each group in order of first use, so the
//! entries of one owner are contiguous ([`StampLayout::owned_by`]).

use super::table::Table;
use super::Decl;
use crate::types::{EnumDef, Ty};
use hindsight_grammar::ast::Span;
use hindsight_runtime::stamp::{HEADER_BYTES, MAX_CLOCK_BYTES};
use std::fmt;
use std::ops::Range;

/// A system compiled to tables: what its lifelines' monitors execute.
#[derive(Clone, Debug, PartialEq)]
pub struct SystemTables {
    /// The system's name.
    pub name: String,
    /// The whole block.
    pub span: Span,
    /// One table per lifeline, in declaration order.
    pub lifelines: Vec<LifelineTable>,
    /// The guards in declaration order.
    pub guards: Vec<Guard>,
    /// What every message carries.
    pub layout: StampLayout,
    /// The store variable that is the events' time (the last of every
    /// lifeline), if the system declares one.
    pub time: Option<String>,
    /// The system's protocols, in declaration order.
    pub protocols: Vec<crate::ir::protocol::ProtocolTable>,
}

/// One lifeline: its store and the table it evaluates at each of its events.
#[derive(Clone, Debug, PartialEq)]
pub struct LifelineTable {
    /// The lifeline's name.
    pub name: String,
    /// The declaration.
    pub span: Span,
    /// Its store variables in declaration order.
    pub vars: Vec<Decl>,
    /// Named after the lifeline; its outputs are the guards in [`Self::guards`]
    /// followed by the formula entries in [`Self::exports`].
    pub table: Table,
    /// Where each table input comes from, parallel to `table.inputs`.
    pub inputs: Vec<InputSource>,
    /// The guards this lifeline owns, in order.
    pub guards: Vec<GuardId>,
    /// The formula entries this lifeline exports (layout ids), in layout order.
    pub exports: Vec<EntryId>,
}

/// `guard NAME at OWNER`: its formula is an output of the owner's table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    /// Its name.
    pub name: String,
    /// The lifeline owning it.
    pub owner: LifelineId,
    /// The declaration.
    pub span: Span,
}

/// Index of a lifeline in [`SystemTables::lifelines`] (and of its clock
/// component in [`StampLayout::lifelines`]).
pub type LifelineId = super::Id<LifelineTable>;
/// Index of a guard in [`SystemTables::guards`].
pub type GuardId = super::Id<Guard>;

/// Where a lifeline table's input comes from at each event. `E` names view
/// entries: layout ids in the IR (lowering first numbers them in order of
/// discovery, with its own id type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputSource<E = EntryId> {
    /// The lifeline's store variable (its value, unobserved while undefined).
    Var(usize),
    /// Whether the store variable was ever assigned.
    Defined(usize),
    /// The lifeline's view of an entry of another lifeline: a formula entry's
    /// truth value (false while no owner event is visible), or a variable's value.
    Entry(E),
    /// Whether a variable entry is defined (an owner event is visible and had
    /// the variable assigned).
    EntryDefined(E),
}

impl SystemTables {
    /// The enums (indices) some variable has as its type, ascending and each once.
    pub fn enums_used(&self) -> Vec<usize> {
        let mut used: Vec<usize> = self
            .lifelines
            .iter()
            .flat_map(|l| &l.vars)
            .filter_map(|v| match v.ty {
                Ty::Enum(e) => Some(e),
                _ => None,
            })
            .collect();
        used.sort_unstable();
        used.dedup();
        used
    }
}

/// Index of a view entry in [`StampLayout::entries`].
pub type EntryId = super::Id<ViewEntry>;

/// What a system's monitors exchange: clock components and view entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StampLayout {
    /// The system's name.
    pub system: String,
    /// The lifeline names: one clock component each, in declaration order.
    pub lifelines: Vec<String>,
    /// The view entries, grouped by owner (ascending).
    pub entries: Vec<ViewEntry>,
    /// The spec's enums, which the [`Ty::Enum`] of variable entries index:
    /// their names and variants (in order) are part of what a stamp means.
    pub enums: Vec<EnumDef>,
}

/// One value a stamp carries about one lifeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewEntry {
    /// The lifeline whose state it describes.
    pub owner: LifelineId,
    /// What it is.
    pub kind: EntryKind,
    /// Its surface syntax: `@M φ` or `M.x`.
    pub name: String,
}

/// The two kinds of view entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// An exported sub-formula: `φ` of an `@M φ` read off `M` (one bit; false
    /// while no `M`-event is visible).
    Formula,
    /// An exported variable: `x` of an `M.x` read off `M` (a defined bit and the value).
    Var {
        /// The variable (index in the owner's variables).
        var: usize,
        /// Its type.
        ty: Ty,
        /// Bytes of its encoded value: 1 for bool and enums of at most 256
        /// variants, 4 for larger enums, 8 for int and float.
        value_bytes: usize,
    },
}

impl StampLayout {
    /// The entries owned by `lifeline`, ascending (none for an unknown one).
    pub fn owned_by(
        &self,
        lifeline: LifelineId,
    ) -> impl DoubleEndedIterator<Item = EntryId> + ExactSizeIterator {
        self.owned_positions(lifeline).map(EntryId::new)
    }

    /// Where the entries owned by `lifeline` lie in [`Self::entries`] (and in
    /// a stamp's entries): they are contiguous.
    pub fn owned_positions(&self, lifeline: LifelineId) -> Range<usize> {
        let start = self.entries.partition_point(|e| e.owner < lifeline);
        let end = self.entries.partition_point(|e| e.owner <= lifeline);
        start..end
    }

    /// Bits of the bit set: one per exported formula and one defined bit per
    /// exported variable.
    pub fn bits(&self) -> usize {
        self.entries.len()
    }

    /// The most bytes a stamp of this layout encodes to (docs/cpl.md, "The
    /// stamp layout"): the header, a full-width varint per clock component,
    /// the bit set (bool-valued variables keep their value byte) and the value
    /// of every exported variable; a sealed stamp adds its tag
    /// ([`hindsight_runtime::stamp::TAG_BYTES`]).
    pub fn max_bytes(&self) -> usize {
        let values: usize = self
            .entries
            .iter()
            .map(|e| match e.kind {
                EntryKind::Formula => 0,
                EntryKind::Var { value_bytes, .. } => value_bytes,
            })
            .sum();
        HEADER_BYTES + MAX_CLOCK_BYTES * self.lifelines.len() + self.bits().div_ceil(8) + values
    }

    /// A stable 64-bit fingerprint (FNV-1a of [`StampLayout::canonical_bytes`]):
    /// stamps of two specs can be exchanged exactly when everything that
    /// gives a stamp's bytes their meaning is the same. It guards against
    /// mixing specs by accident, not against an adversary (sealed stamps do).
    pub fn fingerprint(&self) -> u64 {
        const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
        const PRIME: u64 = 0x0000_0100_0000_01b3;
        self.canonical_bytes()
            .into_iter()
            .fold(OFFSET, |h, b| (h ^ u64::from(b)).wrapping_mul(PRIME))
    }

    /// Everything a stamp's meaning depends on, unambiguously encoded (strings
    /// and lists length-prefixed, integers little-endian): a domain tag, the
    /// runtime's stamp format version, the system's and lifelines' names in
    /// clock order, and per entry its owner, kind, text, and for a variable its
    /// index, type and value width, an enum by its name and its variants in
    /// declaration order (a variant's index is what the stamp carries).
    pub fn canonical_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let text = |out: &mut Vec<u8>, s: &str| {
            out.extend_from_slice(&(s.len() as u64).to_le_bytes());
            out.extend_from_slice(s.as_bytes());
        };
        let number = |out: &mut Vec<u8>, n: usize| out.extend_from_slice(&(n as u64).to_le_bytes());
        text(&mut out, "hindsight stamp layout");
        out.push(hindsight_runtime::stamp::VERSION);
        text(&mut out, &self.system);
        number(&mut out, self.lifelines.len());
        for lifeline in &self.lifelines {
            text(&mut out, lifeline);
        }
        number(&mut out, self.entries.len());
        for entry in &self.entries {
            number(&mut out, entry.owner.index());
            text(&mut out, &entry.name);
            match entry.kind {
                EntryKind::Formula => out.push(0),
                EntryKind::Var {
                    var,
                    ty,
                    value_bytes,
                } => {
                    out.push(1);
                    number(&mut out, var);
                    number(&mut out, value_bytes);
                    match ty {
                        Ty::Bool => out.push(0),
                        Ty::Int => out.push(1),
                        Ty::Float => out.push(2),
                        Ty::Enum(e) => {
                            out.push(3);
                            let def = self.enums.get(e);
                            text(&mut out, def.map_or("", |d| d.name.as_str()));
                            let variants = def.map_or(&[][..], |d| d.variants.as_slice());
                            number(&mut out, variants.len());
                            for v in variants {
                                text(&mut out, v);
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

impl fmt::Display for StampLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "stamp of system {}: {} clock components, {} view entries, at most {} bytes",
            self.system,
            self.lifelines.len(),
            self.entries.len(),
            self.max_bytes()
        )?;
        writeln!(f, "  clock: {}", self.lifelines.join(", "))?;
        for (k, entry) in self.entries.iter().enumerate() {
            let owner = self
                .lifelines
                .get(entry.owner.index())
                .map_or("?", String::as_str);
            let kind = match entry.kind {
                EntryKind::Formula => "formula, 1 bit".to_owned(),
                EntryKind::Var {
                    ty, value_bytes, ..
                } => format!("{} var, 1 bit + {value_bytes} bytes", self.ty_name(ty)),
            };
            writeln!(f, "  e{k:<3} {owner:<12} {kind:<28} {}", entry.name)?;
        }
        Ok(())
    }
}

impl StampLayout {
    /// A type as the layout prints it: `bool`, `int`, `float`, `enum Status`.
    fn ty_name(&self, ty: Ty) -> String {
        match ty {
            Ty::Enum(e) => match self.enums.get(e) {
                Some(def) => format!("enum {}", def.name),
                None => "enum".to_owned(),
            },
            other => other.to_string(),
        }
    }
}
