//! `Serialize` and `Deserialize` derives that accept serde's syntax (the
//! `#[serde(...)]` helper attribute included) and emit nothing.
//!
//! Generated Hindsight types always derive `hindsight_runtime::Serialize` and
//! `hindsight_runtime::Deserialize`: with the runtime's `serde` feature those
//! are serde's own derives, without it these. So the types implement serde's
//! traits exactly when the runtime's feature is on, and generated code needs
//! no feature of its own. No dependencies: it costs a second to build.

use proc_macro::TokenStream;

/// Implements nothing: serde's `Serialize` derive when the runtime's `serde`
/// feature is off.
#[proc_macro_derive(Serialize, attributes(serde))]
pub fn serialize(_item: TokenStream) -> TokenStream {
    TokenStream::new()
}

/// Implements nothing: serde's `Deserialize` derive when the runtime's
/// `serde` feature is off.
#[proc_macro_derive(Deserialize, attributes(serde))]
pub fn deserialize(_item: TokenStream) -> TokenStream {
    TokenStream::new()
}
