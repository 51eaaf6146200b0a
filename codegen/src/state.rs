//! The `Monitor` struct's state fields: one per state cell of the table.
//!
//! | cell | field type | initial value |
//! |---|---|---|
//! | bool | `bool` | the cell's init |
//! | counter, bound `b` | narrowest of `u8 u16 u32 u64` holding `b` | `b` |
//! | delay of `n <= 64` steps | `u64` | `0` or `u64::MAX` |
//! | delay of `n > 64` steps | `[u64; ⌈n/64⌉]` | every word `0` or `u64::MAX` |
//!
//! | time (duration bound) | `i64` | `time::NEVER` |
//! | witness ring of `n` times | `[i64; n + 1]` | all `0` |
//!
//! Monitors with at least one delay also keep one shared `steps: u64`
//! (saturating, as the interpreter's), whose value modulo `n` is each ring's
//! current position; monitors with duration-bounded operators keep a `clock:
//! i64`, the last step's time.

use hindsight_compiler::ir::table::{CellId, CellKind, Table};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

/// One state field of the generated `Monitor`.
pub(super) struct Field {
    /// The field's name (`c` and the cell's index).
    pub name: Ident,
    /// Its Rust type.
    pub ty: TokenStream,
    /// Its value before the first step.
    pub init: TokenStream,
}

/// The field holding state cell `cell`.
pub(super) fn cell_field(cell: CellId) -> Ident {
    Ident::new(&format!("c{cell}"), Span::call_site())
}

/// Whether the monitor needs the shared step counter (it has a delay ring).
pub(super) fn has_rings(table: &Table) -> bool {
    table
        .state
        .iter()
        .any(|c| matches!(c.kind, CellKind::Delay { .. }))
}

/// One field per state cell, in cell order.
pub(super) fn fields(table: &Table) -> Vec<Field> {
    table
        .enumerate_cells()
        .map(|(k, cell)| {
            let (ty, init) = layout(cell.kind);
            Field {
                name: cell_field(k),
                ty,
                init,
            }
        })
        .collect()
}

/// The state part of a generated `Monitor`: the field declarations (one per
/// state cell, in cell order, then the saturating `steps` counter that delay
/// rings need, documented as counting `counted`, e.g. "Steps") and their
/// initial values.
pub(super) fn declarations(table: &Table, counted: &str) -> (TokenStream, TokenStream) {
    let fields = fields(table);
    let names: Vec<_> = fields.iter().map(|f| &f.name).collect();
    let types = fields.iter().map(|f| &f.ty);
    let inits = fields.iter().map(|f| &f.init);
    let (steps_field, steps_init) = if has_rings(table) {
        let doc = format!(" {counted} taken (saturating); modulo a ring's length, its position.");
        (quote!(#[doc = #doc] steps: u64,), quote!(steps: 0,))
    } else {
        (quote!(), quote!())
    };
    let (clock_field, clock_init) = if table.has_clock() {
        (
            quote!(
                /// The time of the last step in microseconds (the largest so far).
                clock: i64,
            ),
            quote!(clock: time::NEVER,),
        )
    } else {
        (quote!(), quote!())
    };
    (
        quote!(#(#names: #types,)* #steps_field #clock_field),
        quote!(#(#names: #inits,)* #steps_init #clock_init),
    )
}

fn layout(kind: CellKind) -> (TokenStream, TokenStream) {
    match kind {
        CellKind::Bool { init } => (quote!(bool), quote!(#init)),
        CellKind::Counter { init } => {
            let ty = counter_type(init);
            let init = Literal::u64_unsuffixed(init);
            (quote!(#ty), quote!(#init))
        }
        CellKind::Delay { bits, init } => {
            let word = if init { quote!(u64::MAX) } else { quote!(0) };
            if single_word_ring(bits) {
                (quote!(u64), word)
            } else {
                let words = Literal::usize_unsuffixed(kind.ring_words());
                (quote!([u64; #words]), quote!([#word; #words]))
            }
        }
        CellKind::Time => (quote!(i64), quote!(time::NEVER)),
        CellKind::Witnesses { .. } => {
            let words = Literal::usize_unsuffixed(kind.ring_words());
            (quote!([i64; #words]), quote!([0; #words]))
        }
    }
}

/// Whether a delay ring of `bits` bits is one `u64` field (else an array of words).
pub(super) fn single_word_ring(bits: u64) -> bool {
    bits <= 64
}

/// The narrowest unsigned integer type that holds every value `0..=bound`.
pub(super) fn counter_type(bound: u64) -> Ident {
    let name = if bound <= u64::from(u8::MAX) {
        "u8"
    } else if bound <= u64::from(u16::MAX) {
        "u16"
    } else if bound <= u64::from(u32::MAX) {
        "u32"
    } else {
        "u64"
    };
    Ident::new(name, Span::call_site())
}

#[cfg(test)]
mod tests {
    use super::counter_type;

    #[test]
    fn narrowest_counter() {
        let name = |b| counter_type(b).to_string();
        assert_eq!(name(1), "u8");
        assert_eq!(name(255), "u8");
        assert_eq!(name(256), "u16");
        assert_eq!(name(65_535), "u16");
        assert_eq!(name(65_536), "u32");
        assert_eq!(name(u64::from(u32::MAX)), "u32");
        assert_eq!(name(u64::from(u32::MAX) + 1), "u64");
    }
}
