//! The step rules of the past-time operators: one function per operator,
//! called by the interpreter and by generated code alike, so both follow the
//! same definition (`hindsight_compiler::ir::table` documents the table they
//! serve).
//!
//! An operator's *cell* is what it keeps from the previous step: for `O H S`
//! its own value then (a [`Bits`]: `bool`, or a `u64` of 64 agents' bits in
//! a population's bit lanes); for a bounded `O[0,b] H[0,b] S[0,b]` a
//! [`Counter`] of the steps since its last witness, saturating at `b`. The
//! value-now rules read the operands and the cell; the `*_next` rules give
//! the counter for the next step (an unbounded operator's next cell is its
//! value now).

use core::ops::{BitAnd, BitOr};

/// A truth value or a word of independent ones (one per bit).
pub trait Bits: Copy + BitAnd<Output = Self> + BitOr<Output = Self> {}

impl Bits for bool {}
impl Bits for u64 {}

/// An unsigned step counter (generated code picks the narrowest one that
/// holds the bound).
pub trait Counter: Copy + Ord {
    /// Zero.
    const ZERO: Self;
    /// One more, but at most `bound`.
    fn bump(self, bound: Self) -> Self;
    /// `if c { a } else { b }`, computed without a branch (the next
    /// counters below depend on inputs that a branch would mispredict, and
    /// LLVM branches on a condition loaded from memory unless told).
    fn pick(c: bool, a: Self, b: Self) -> Self;
}

macro_rules! counter {
    ($($t:ty),*) => {$(
        impl Counter for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn bump(self, bound: Self) -> Self {
                self.saturating_add(1).min(bound)
            }
            #[inline(always)]
            fn pick(c: bool, a: Self, b: Self) -> Self {
                core::hint::select_unpredictable(c, a, b)
            }
        }
    )*};
}
counter!(u8, u16, u32, u64);

/// `O arg`: `arg` now, or at some earlier step.
#[inline(always)]
pub fn once<B: Bits>(arg: B, cell: B) -> B {
    arg | cell
}

/// `H arg`: `arg` now and at every earlier step.
#[inline(always)]
pub fn historically<B: Bits>(arg: B, cell: B) -> B {
    arg & cell
}

/// `lhs S rhs`: `rhs` now, or `lhs` now and `lhs S rhs` at the previous step.
#[inline(always)]
pub fn since<B: Bits>(lhs: B, rhs: B, cell: B) -> B {
    rhs | (lhs & cell)
}

/// `O[0,bound] arg`: `arg` now, or fewer than `bound` steps since it last held.
#[inline(always)]
pub fn once_within<C: Counter>(arg: bool, cell: C, bound: C) -> bool {
    arg | (cell < bound)
}

/// The counter of `O[0,bound] arg` for the next step: steps since `arg` held.
#[inline(always)]
pub fn once_within_next<C: Counter>(arg: bool, cell: C, bound: C) -> C {
    C::pick(arg, C::ZERO, cell.bump(bound))
}

/// `H[0,bound] arg`: `arg` now, and for the `bound` steps before (or since
/// the start).
#[inline(always)]
pub fn historically_within<C: Counter>(arg: bool, cell: C, bound: C) -> bool {
    arg & (cell >= bound)
}

/// The counter of `H[0,bound] arg` for the next step: how long `arg` has held.
#[inline(always)]
pub fn historically_within_next<C: Counter>(arg: bool, cell: C, bound: C) -> C {
    C::pick(arg, cell.bump(bound), C::ZERO)
}

/// `lhs S[0,bound] rhs`: `rhs` now, or `lhs` now and a witness of `rhs`
/// fewer than `bound` steps ago with `lhs` ever since.
#[inline(always)]
pub fn since_within<C: Counter>(lhs: bool, rhs: bool, cell: C, bound: C) -> bool {
    rhs | (lhs & (cell < bound))
}

/// The counter of `lhs S[0,bound] rhs` for the next step: steps since the
/// last witness, or `bound` when `lhs` broke the chain.
#[inline(always)]
pub fn since_within_next<C: Counter>(lhs: bool, rhs: bool, cell: C, bound: C) -> C {
    C::pick(rhs, C::ZERO, C::pick(lhs, cell.bump(bound), bound))
}
