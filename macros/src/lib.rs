//! Declare Hindsight monitors inline in Rust code.
//!
//! ```
//! use hindsight_runtime::Verdict;
//!
//! #[hindsight_macros::monitor(
//!     enum Action { drive, load, unload, deliver }
//!     enum Area { depot, a1, a2 }
//!     monitor trucks {
//!         input action: Action;
//!         input area: Area;
//!         property may_deliver = action == deliver -> O (action == unload && area == a2);
//!     }
//! )]
//! pub mod rules {}
//!
//! let mut guard = rules::Monitor::new();
//! let next = rules::Input { action: rules::Action::deliver, area: rules::Area::a2 };
//! // Nothing was unloaded yet: delivering now would break the rule, so refuse.
//! assert_eq!(guard.peek(&next).may_deliver, Verdict::False);
//! ```
//!
//! The crate is a thin shell over `hindsight-compiler`: it compiles the spec,
//! runs the code generator and places the generated items in the module. The
//! generated code names the runtime as `::hindsight_runtime`, so a crate using
//! the macro depends on both `hindsight-macros` and `hindsight-runtime`.
//! See `docs/usage.md` for the three ways to give the spec and why the macro
//! sits on a module.

mod args;
mod expand;
mod report;
mod token_text;

use proc_macro::TokenStream;

/// Fills an inline module with the monitors of a Hindsight spec.
///
/// The argument is the spec, written as Rust tokens (`#[monitor(monitor m { ... })]`),
/// as a string literal (`#[monitor("monitor m { ... }")]`) or as a file relative
/// to the crate's manifest directory (`#[monitor(file = "specs/m.hind")]`).
/// The module receives the spec's enums and one submodule per monitor with
/// `Input`, `Verdicts`, `Monitor` and `SCHEMA` (see `docs/generated-code.md`);
/// when the spec has exactly one monitor, its items are also re-exported in the
/// module itself. Spec errors are compile errors with the CLI's code and message.
///
/// `#[monitor(sealed_stamps, file = "specs/review.hind")]` (the flag before any
/// form of the spec) makes systems' stamps travel sealed: `Stamp::to_bytes` and
/// `Stamp::from_bytes` take a `hindsight_runtime::stamp::StampKey`.
#[proc_macro_attribute]
pub fn monitor(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::expand(args.into(), item.into()).into()
}
