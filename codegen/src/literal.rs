//! Constants of the spec as Rust expressions.

use super::names::ident;
use hindsight_compiler::types::{EnumDef, Ty, Value};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// The Rust expression for a constant of type `ty`; enum variants as
/// `super::Enum::variant` (the code lives in a monitor module).
pub(super) fn value(v: Value, ty: Ty, enums: &[EnumDef]) -> TokenStream {
    match v {
        Value::Bool(b) => quote!(#b),
        Value::Int(i) => int(i),
        Value::Float(x) => float(x),
        Value::Enum(index) => enum_variant(ty, index, enums),
    }
}

/// The path of variant `index` of enum type `ty`, as seen from a monitor module.
pub(super) fn enum_variant(ty: Ty, index: u32, enums: &[EnumDef]) -> TokenStream {
    let def = match ty {
        Ty::Enum(e) => enums.get(e),
        _ => None,
    };
    let variant = def.and_then(|d| d.variants.get(usize::try_from(index).ok()?));
    match (def, variant) {
        (Some(def), Some(variant)) => {
            let (name, variant) = (ident(&def.name), ident(variant));
            quote!(super::#name::#variant)
        }
        // Checked code never holds an out-of-range variant; the first one is
        // what the interpreter reads for anything it cannot use.
        (Some(def), None) => {
            let name = ident(&def.name);
            quote!(<super::#name as ::core::default::Default>::default())
        }
        (None, _) => int(i64::from(index)),
    }
}

/// The runtime `Value` `v` as a constant expression (a default in a schema).
pub(super) fn runtime_value(v: Value, runtime: &TokenStream) -> TokenStream {
    match v {
        Value::Bool(b) => quote!(#runtime::Value::Bool(#b)),
        Value::Int(i) => {
            let i = int_arg(i);
            quote!(#runtime::Value::Int(#i))
        }
        Value::Float(x) => {
            let x = float_arg(x);
            quote!(#runtime::Value::Float(#x))
        }
        Value::Enum(index) => {
            let index = Literal::u32_suffixed(index);
            quote!(#runtime::Value::Enum(#index))
        }
    }
}

/// An `i64` constant expression, parenthesized when negative (it may be an
/// operand).
fn int(i: i64) -> TokenStream {
    parenthesized_if(i < 0 && i != i64::MIN, int_arg(i))
}

/// An `i64` constant as a whole argument: a negative one unparenthesized.
pub(super) fn int_arg(i: i64) -> TokenStream {
    if i == i64::MIN {
        quote!(i64::MIN)
    } else if i < 0 {
        let abs = Literal::i64_suffixed(-i);
        quote!(-#abs)
    } else {
        let lit = Literal::i64_suffixed(i);
        quote!(#lit)
    }
}

/// `expr` in parentheses if `wrap`.
fn parenthesized_if(wrap: bool, expr: TokenStream) -> TokenStream {
    if wrap {
        quote!((#expr))
    } else {
        expr
    }
}

/// An `f64` constant expression (`f64::NAN` and the infinities by name),
/// parenthesized when negative (it may be an operand).
fn float(x: f64) -> TokenStream {
    parenthesized_if(x.is_finite() && x.is_sign_negative(), float_arg(x))
}

/// An `f64` constant as a whole argument: a negative one unparenthesized.
pub(super) fn float_arg(x: f64) -> TokenStream {
    if x.is_nan() {
        quote!(f64::NAN)
    } else if x.is_infinite() {
        if x > 0.0 {
            quote!(f64::INFINITY)
        } else {
            quote!(f64::NEG_INFINITY)
        }
    } else if x.is_sign_negative() {
        let abs = float_literal(-x);
        quote!(-#abs)
    } else {
        let lit = float_literal(x);
        quote!(#lit)
    }
}

/// A finite non-negative float in the shortest text that reads back exactly,
/// with exponent for very large or small values (`1e300f64`, not 301 digits).
fn float_literal(x: f64) -> Literal {
    format!("{x:?}f64")
        .parse()
        .unwrap_or_else(|_| Literal::f64_suffixed(x))
}

#[cfg(test)]
mod tests {
    use super::value;
    use hindsight_compiler::types::{Ty, Value};

    fn text(v: Value, ty: Ty) -> String {
        value(v, ty, &[]).to_string()
    }

    #[test]
    fn numbers() {
        assert_eq!(text(Value::Int(7), Ty::Int), "7i64");
        assert_eq!(text(Value::Int(-7), Ty::Int), "(- 7i64)");
        assert_eq!(text(Value::Int(i64::MIN), Ty::Int), "i64 :: MIN");
        assert_eq!(text(Value::Float(2.5), Ty::Float), "2.5f64");
        assert_eq!(text(Value::Float(-0.0), Ty::Float), "(- 0.0f64)");
        assert_eq!(text(Value::Float(1e300), Ty::Float), "1e300f64");
        assert_eq!(text(Value::Float(1.5e-7), Ty::Float), "1.5e-7f64");
        assert_eq!(
            text(Value::Float(f64::INFINITY), Ty::Float),
            "f64 :: INFINITY"
        );
        assert_eq!(text(Value::Float(f64::NAN), Ty::Float), "f64 :: NAN");
        assert_eq!(text(Value::Bool(true), Ty::Bool), "true");
    }
}
