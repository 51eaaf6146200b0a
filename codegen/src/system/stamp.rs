//! A system's `Stamp`: the vector clock and one field per view entry of the
//! [`StampLayout`], with the byte encoding of `hindsight_runtime::stamp`
//! (docs/cpl.md, "The stamp layout").
//!
//! Entry `K` is the private field `eK`: a `bool` for an exported formula, an
//! `Option` for an exported variable (`None` while undefined), floats as their
//! bits so that stamps compare (and hash) bit for bit. The code lives in the
//! system module, where an imported enum may shadow a primitive type, so every
//! type and prelude item is named by its absolute path.

use crate::names::ident;
use crate::Options;
use hindsight_compiler::ir::system::{EntryKind, LifelineId, StampLayout, ViewEntry};
use hindsight_compiler::types::{EnumDef, Ty};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;
use std::ops::Range;

/// The field of view entry `id`.
pub(super) fn entry_field(id: impl std::fmt::Display) -> Ident {
    Ident::new(&format!("e{id}"), Span::call_site())
}

/// An unsealed `Stamp` serializes (with the runtime's `serde` feature) as its
/// checked byte encoding, through `hindsight_runtime::stamp::Encoded`; a
/// sealed one needs the key, so it does not serialize.
fn serde_as_bytes(options: &Options) -> TokenStream {
    if options.sealed_stamps {
        return quote!();
    }
    let runtime = &options.runtime;
    let path = runtime.to_string().replace(' ', "");
    let krate = format!("{path}::__serde");
    let encoded = format!("{path}::stamp::Encoded<Stamp>");
    quote! {
        #[derive(#runtime::derive::Serialize, #runtime::derive::Deserialize)]
        #[serde(crate = #krate, into = #encoded, from = #encoded)]
    }
}

/// The `Stamp` struct, its consts and impl, and the `FINGERPRINT` const.
pub(super) fn generate(layout: &StampLayout, enums: &[EnumDef], options: &Options) -> TokenStream {
    let runtime = &options.runtime;
    let stamp = quote!(#runtime::stamp);
    let n = Literal::usize_unsuffixed(layout.lifelines.len());
    let fingerprint = Literal::u64_suffixed(layout.fingerprint());
    let tag = if options.sealed_stamps {
        hindsight_runtime::stamp::TAG_BYTES
    } else {
        0
    };
    let bytes = Literal::usize_unsuffixed(layout.max_bytes() + tag);
    let names = &layout.lifelines;
    let fields: Vec<Ident> = (0..layout.entries.len()).map(entry_field).collect();
    let declarations = layout.entries.iter().zip(&fields).map(|(entry, field)| {
        let owner = layout
            .lifelines
            .get(entry.owner.index())
            .map_or("?", String::as_str);
        let doc = format!(
            " `{}`, as of the latest visible `{owner}` event.",
            entry.name
        );
        let ty = field_type(entry, enums);
        quote!(#[doc = #doc] #field: #ty)
    });
    let empty = layout
        .entries
        .iter()
        .zip(&fields)
        .map(|(entry, field)| match entry.kind {
            EntryKind::Formula => quote!(#field: false),
            EntryKind::Var { .. } => quote!(#field: ::core::option::Option::None),
        });
    let serde = serde_as_bytes(options);
    let (to_bytes, from_bytes, codec) = if options.sealed_stamps {
        sealed(layout, enums, &stamp)
    } else {
        let codec = quote! {
            impl #stamp::StampCodec for Stamp {
                const BYTES: ::core::primitive::usize = Stamp::BYTES;

                fn encode(
                    &self,
                    out: &mut [::core::primitive::u8],
                ) -> ::core::result::Result<::core::primitive::usize, #stamp::StampError> {
                    self.to_bytes(out)
                }

                fn decode(
                    bytes: &[::core::primitive::u8],
                ) -> ::core::result::Result<Self, #stamp::StampError> {
                    Stamp::from_bytes(bytes)
                }
            }

            impl ::core::convert::From<#stamp::Encoded<Stamp>> for Stamp {
                fn from(encoded: #stamp::Encoded<Stamp>) -> Self {
                    encoded.0
                }
            }
        };
        let public = quote!(pub);
        (
            to_bytes(layout, &stamp, &public, &quote!(to_bytes)),
            from_bytes(layout, enums, &stamp, &public, &quote!(from_bytes)),
            codec,
        )
    };
    let merge = merge(layout);
    quote! {
        /// The spec fingerprint every encoded stamp carries: stamps of two specs
        /// can be exchanged exactly when their stamp layouts are the same.
        pub const FINGERPRINT: ::core::primitive::u64 = #fingerprint;

        /// What every message carries: the sender's vector clock and its view of
        /// the sub-formulas and variables some lifeline reads about another one.
        /// Travels as bytes: [`Stamp::to_bytes`], [`Stamp::from_bytes`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #serde
        pub struct Stamp {
            /// Per lifeline (in declaration order), how many of its events the sender has seen.
            clock: [::core::primitive::u64; #n],
            #(#declarations,)*
        }

        impl Stamp {
            /// The most bytes [`Stamp::to_bytes`] writes.
            pub const BYTES: ::core::primitive::usize = #bytes;

            /// The lifelines' names, in clock order.
            pub const LIFELINES: [&'static ::core::primitive::str; #n] = [#(#names),*];

            /// The stamp of a lifeline before its first event: nothing seen.
            const EMPTY: Self = Self {
                clock: [0; #n],
                #(#empty,)*
            };

            /// Per lifeline (in [`Stamp::LIFELINES`] order), how many of its events
            /// the sender had seen when it sent this stamp.
            pub const fn clock(&self) -> &[::core::primitive::u64; #n] {
                &self.clock
            }

            #to_bytes
            #from_bytes
            #merge
        }

        #codec
    }
}

/// With sealed stamps: `to_bytes` and `from_bytes` take the key and wrap the
/// unsealed encoding (private `encode_unsealed`, `decode_unsealed`), and
/// `SealedStampCodec` stands for `StampCodec`.
fn sealed(
    layout: &StampLayout,
    enums: &[EnumDef],
    stamp: &TokenStream,
) -> (TokenStream, TokenStream, TokenStream) {
    let private = quote!();
    let encode = to_bytes(layout, stamp, &private, &quote!(encode_unsealed));
    let decode = from_bytes(layout, enums, stamp, &private, &quote!(decode_unsealed));
    let to_bytes = quote! {
        #encode

        /// Writes the stamp's sealed encoding into `out`: the encoding, then
        /// its tag under `key`; returns its length (at most [`Stamp::BYTES`]).
        /// Fails only if `out` is too small.
        pub fn to_bytes(
            self,
            key: &#stamp::StampKey,
            out: &mut [::core::primitive::u8],
        ) -> ::core::result::Result<::core::primitive::usize, #stamp::StampError> {
            let len = self.encode_unsealed(out)?;
            #stamp::seal(key, out, len)
        }
    };
    let from_bytes = quote! {
        #decode

        /// Reads a stamp sealed by [`Stamp::to_bytes`] under `key`: the tag is
        /// checked first (`Unauthenticated` if the bytes were altered, forged,
        /// sealed under another key or not sealed), then everything the
        /// unsealed encoding is checked for.
        pub fn from_bytes(
            bytes: &[::core::primitive::u8],
            key: &#stamp::StampKey,
        ) -> ::core::result::Result<Self, #stamp::StampError> {
            Self::decode_unsealed(#stamp::open(key, bytes)?)
        }
    };
    let codec = quote! {
        impl #stamp::SealedStampCodec for Stamp {
            const BYTES: ::core::primitive::usize = Stamp::BYTES;

            fn encode(
                &self,
                key: &#stamp::StampKey,
                out: &mut [::core::primitive::u8],
            ) -> ::core::result::Result<::core::primitive::usize, #stamp::StampError> {
                self.to_bytes(key, out)
            }

            fn decode(
                bytes: &[::core::primitive::u8],
                key: &#stamp::StampKey,
            ) -> ::core::result::Result<Self, #stamp::StampError> {
                Stamp::from_bytes(bytes, key)
            }
        }
    };
    (to_bytes, from_bytes, codec)
}

/// The type of entry `entry`'s field, named from the system module.
fn field_type(entry: &ViewEntry, enums: &[EnumDef]) -> TokenStream {
    let value = match entry.kind {
        EntryKind::Formula => return quote!(::core::primitive::bool),
        EntryKind::Var { ty: Ty::Bool, .. } => quote!(::core::primitive::bool),
        EntryKind::Var { ty: Ty::Int, .. } => quote!(::core::primitive::i64),
        EntryKind::Var { ty: Ty::Float, .. } => quote!(::core::primitive::u64),
        EntryKind::Var {
            ty: Ty::Enum(e), ..
        } => match enums.get(e) {
            Some(def) => {
                let name = ident(&def.name);
                quote!(super::#name)
            }
            // Checked systems never hold an unknown enum; its values are indices.
            None => quote!(::core::primitive::u32),
        },
    };
    quote!(::core::option::Option<#value>)
}

/// The bit of each entry in the bit set: a formula's value, a variable's defined flag.
fn bit_locals(layout: &StampLayout) -> Vec<Ident> {
    (0..layout.entries.len())
        .map(|k| Ident::new(&format!("b{k}"), Span::call_site()))
        .collect()
}

/// The encoder, as `visibility fn name(self, out)`.
fn to_bytes(
    layout: &StampLayout,
    stamp: &TokenStream,
    visibility: &TokenStream,
    name: &TokenStream,
) -> TokenStream {
    let components = (0..layout.lifelines.len()).map(Literal::usize_unsuffixed);
    let bits = layout.entries.iter().enumerate().map(|(k, entry)| {
        let field = entry_field(k);
        match entry.kind {
            EntryKind::Formula => quote!(self.#field),
            EntryKind::Var { .. } => quote!(self.#field.is_some()),
        }
    });
    let bits = (!layout.entries.is_empty()).then(|| quote!(w.bits(&[#(#bits),*])?;));
    let values = layout.entries.iter().enumerate().filter_map(|(k, entry)| {
        let EntryKind::Var {
            ty, value_bytes, ..
        } = entry.kind
        else {
            return None;
        };
        let field = entry_field(k);
        let write = match ty {
            Ty::Bool => quote!(w.bool(v)),
            Ty::Int => quote!(w.u64(v as ::core::primitive::u64)),
            Ty::Float => quote!(w.u64(v)),
            Ty::Enum(_) if value_bytes == 1 => quote!(w.byte(v.index() as ::core::primitive::u8)),
            Ty::Enum(_) => quote!(w.u32(v.index())),
        };
        Some(quote!(if let ::core::option::Option::Some(v) = self.#field { #write?; }))
    });
    quote! {
        /// Writes the stamp's encoding into `out`; returns its length (at most
        /// [`Stamp::BYTES`]). Fails only if `out` is too small.
        #visibility fn #name(
            self,
            out: &mut [::core::primitive::u8],
        ) -> ::core::result::Result<::core::primitive::usize, #stamp::StampError> {
            let mut w = #stamp::Writer::new(out, FINGERPRINT)?;
            #(w.varint(self.clock[#components])?;)*
            #bits
            #(#values)*
            ::core::result::Result::Ok(w.finish())
        }
    }
}

/// The decoder, as `visibility fn name(bytes)`.
fn from_bytes(
    layout: &StampLayout,
    enums: &[EnumDef],
    stamp: &TokenStream,
    visibility: &TokenStream,
    name: &TokenStream,
) -> TokenStream {
    let reads = layout.lifelines.iter().map(|_| quote!(r.clock()?));
    let bits = bit_locals(layout);
    let count = Literal::usize_unsuffixed(bits.len());
    let read_bits = (!bits.is_empty()).then(|| quote!(let [#(#bits),*] = r.bits::<#count>()?;));
    let malformed = quote!(#stamp::StampError::Malformed);
    let values = layout
        .entries
        .iter()
        .zip(&bits)
        .enumerate()
        .map(|(k, (entry, bit))| {
            let field = entry_field(k);
            let EntryKind::Var {
                ty, value_bytes, ..
            } = entry.kind
            else {
                return quote!(let #field = #bit;);
            };
            let read = match ty {
                Ty::Bool => quote!(r.bool()?),
                Ty::Int => quote!(r.u64()? as ::core::primitive::i64),
                Ty::Float => quote!(r.u64()?),
                Ty::Enum(e) => {
                    let index = if value_bytes == 1 {
                        quote!(::core::primitive::u32::from(r.byte()?))
                    } else {
                        quote!(r.u32()?)
                    };
                    match enums.get(e) {
                        Some(def) => {
                            let name = ident(&def.name);
                            quote!(super::#name::from_index(#index).ok_or(#malformed)?)
                        }
                        None => index,
                    }
                }
            };
            quote! {
                let #field = if #bit {
                    ::core::option::Option::Some(#read)
                } else {
                    ::core::option::Option::None
                };
            }
        });
    let unseen = LifelineId::range(layout.lifelines.len()).filter_map(|owner| {
        let Range { start, end } = layout.owned_positions(owner);
        let owned = bits.get(start..end).filter(|b| !b.is_empty())?;
        let owner = Literal::usize_unsuffixed(owner.index());
        let any = match owned {
            [one] => quote!(#one),
            _ => quote!((#(#owned)||*)),
        };
        Some(quote!(clock[#owner] == 0 && #any))
    });
    let unseen: Vec<TokenStream> = unseen.collect();
    let check = (!unseen.is_empty()).then(|| {
        quote! {
            if #(#unseen)||* {
                return ::core::result::Result::Err(#malformed);
            }
        }
    });
    let fields = (0..layout.entries.len()).map(entry_field);
    quote! {
        /// Reads a stamp written by [`Stamp::to_bytes`] of this spec. Rejects
        /// another format version (`WrongVersion`), another spec (`WrongSpec`),
        /// and truncated or trailing bytes, a non-canonical encoding, a clock
        /// component of 2^63 or more, an enum index beyond its variants or a
        /// view entry of a lifeline none of whose events the clock has seen
        /// (`Malformed`).
        #visibility fn #name(
            bytes: &[::core::primitive::u8],
        ) -> ::core::result::Result<Self, #stamp::StampError> {
            let mut r = #stamp::Reader::new(bytes, FINGERPRINT)?;
            let clock = [#(#reads),*];
            #read_bits
            #(#values)*
            r.finish()?;
            #check
            ::core::result::Result::Ok(Self { clock, #(#fields),* })
        }
    }
}

/// `merge`: for every lifeline the other stamp has seen more events of, its
/// clock component and its entries.
fn merge(layout: &StampLayout) -> TokenStream {
    let owners = LifelineId::range(layout.lifelines.len()).map(|owner| {
        let fields = layout.owned_by(owner).map(entry_field);
        let owner = Literal::usize_unsuffixed(owner.index());
        quote! {
            if from.clock[#owner] > self.clock[#owner] {
                self.clock[#owner] = from.clock[#owner];
                #(self.#fields = from.#fields;)*
            }
        }
    });
    quote! {
        /// Takes, from `from`, the clock component and the view entries of every
        /// lifeline it has seen more events of.
        fn merge(&mut self, from: &Self) {
            #(#owners)*
        }
    }
}
