//! The enums of a file: their variants, variant lookup (bare and qualified),
//! and resolution of written types.

use super::report;
use super::similar;
use crate::hir::{self, Ty};
use hindsight_grammar::ast::{EnumDecl, Ident, TypeExpr};
use hindsight_grammar::diag::{Code, Diag};
use std::collections::HashMap;

/// The registered enums; `Ty::Enum(i)` indexes [`EnumTable::decls`].
pub(super) struct EnumTable<'a> {
    decls: Vec<&'a EnumDecl>,
    by_name: HashMap<&'a str, usize>,
    /// Per bare variant name, every `(enum, variant index, declaration)` declaring it.
    bare: HashMap<&'a str, Vec<VariantRef<'a>>>,
}

/// One enum's variant.
#[derive(Clone, Copy)]
pub(super) struct VariantRef<'a> {
    /// The enum's index.
    pub enum_index: usize,
    /// The variant's index in the enum.
    pub variant_index: u32,
    /// Where the variant is declared.
    pub decl: &'a Ident,
}

impl<'a> EnumTable<'a> {
    /// Registers the given enums (each the first item of its name), reporting
    /// duplicate variants (E0201); a duplicate keeps the first one's index.
    pub(super) fn build(
        decls: impl IntoIterator<Item = &'a EnumDecl>,
        diags: &mut Vec<Diag>,
    ) -> Self {
        let mut table = EnumTable {
            decls: Vec::new(),
            by_name: HashMap::new(),
            bare: HashMap::new(),
        };
        for decl in decls {
            if decl.variants.is_empty() {
                diags.push(empty_enum(decl));
            }
            let enum_index = table.decls.len();
            table.decls.push(decl);
            table.by_name.insert(&decl.name.name, enum_index);
            let mut seen: HashMap<&str, &Ident> = HashMap::new();
            for (variant_index, variant) in (0u32..).zip(&decl.variants) {
                if let Some(first) = seen.get(variant.name.as_str()) {
                    diags.push(duplicate_variant(decl, variant, first));
                    continue;
                }
                seen.insert(&variant.name, variant);
                table
                    .bare
                    .entry(&variant.name)
                    .or_default()
                    .push(VariantRef {
                        enum_index,
                        variant_index,
                        decl: variant,
                    });
            }
        }
        table
    }

    /// The enum named `name`.
    pub(super) fn lookup(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// Every enum declaring a variant called `name`.
    pub(super) fn bare_variant(&self, name: &str) -> &[VariantRef<'a>] {
        self.bare.get(name).map_or(&[], Vec::as_slice)
    }

    /// The variant `name` of enum `enum_index`, if it has one.
    pub(super) fn variant(&self, enum_index: usize, name: &str) -> Option<VariantRef<'a>> {
        self.bare_variant(name)
            .iter()
            .find(|v| v.enum_index == enum_index)
            .copied()
    }

    /// The declaration of enum `enum_index`.
    pub(super) fn decl(&self, enum_index: usize) -> Option<&'a EnumDecl> {
        self.decls.get(enum_index).copied()
    }

    /// The names of every enum.
    pub(super) fn names(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.decls.iter().map(|d| d.name.name.as_str())
    }

    /// Every bare variant name.
    pub(super) fn variant_names(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.bare.keys().copied()
    }

    /// A type's name as users wrote it: `bool`, `int`, `float` or the enum's name.
    pub(super) fn type_name(&self, ty: Ty) -> String {
        match ty {
            Ty::Bool => "bool".to_string(),
            Ty::Int => "int".to_string(),
            Ty::Float => "float".to_string(),
            Ty::Enum(i) => self
                .decl(i)
                .map_or_else(|| format!("enum#{i}"), |d| d.name.name.clone()),
        }
    }

    /// The type a [`TypeExpr`] denotes; an unknown name is reported (E0203).
    pub(super) fn resolve_type(&self, ty: &TypeExpr, diags: &mut Vec<Diag>) -> Option<Ty> {
        match ty {
            TypeExpr::Bool(_) => Some(Ty::Bool),
            TypeExpr::Int(_) => Some(Ty::Int),
            TypeExpr::Float(_) => Some(Ty::Float),
            TypeExpr::Named(name) => match self.lookup(&name.name) {
                Some(i) => Some(Ty::Enum(i)),
                None => {
                    diags.push(self.unknown_type(name));
                    None
                }
            },
        }
    }

    /// E0203 for a name that is not a type (an unknown enum); a type name
    /// of another language gets the language's own.
    pub(super) fn unknown_type(&self, name: &Ident) -> Diag {
        let mut notes = Vec::new();
        if let Some(help) = foreign_type(&name.name) {
            notes.push(help);
        } else if let Some(help) = similar::did_you_mean(&name.name, self.names()) {
            notes.push(help);
        }
        notes.push("note: the types are `bool`, `int`, `float` and the declared enums".to_string());
        report::error(Code::UnknownType, format_args!("unknown type `{name}`"))
            .with_labels(vec![report::primary(name.span, "no enum has this name")])
            .with_notes(notes)
    }

    /// The checked enums, in declaration order.
    pub(super) fn to_hir(&self) -> Vec<hir::EnumDef> {
        self.decls
            .iter()
            .map(|d| hir::EnumDef {
                name: d.name.name.clone(),
                variants: d.variants.iter().map(|v| v.name.clone()).collect(),
                span: d.span,
            })
            .collect()
    }
}

/// E0207: no value of an enum without variants exists, so no input, variable
/// or attribute could ever have its type.
fn empty_enum(decl: &EnumDecl) -> Diag {
    report::error(
        Code::EmptyEnum,
        format_args!("enum `{}` has no variants", decl.name),
    )
    .with_labels(vec![report::primary(
        decl.name.span,
        "an enum needs at least one variant",
    )])
    .with_notes(vec![format!(
        "help: list its values, e.g. `enum {} {{ a, b }}`",
        decl.name
    )])
}

fn duplicate_variant(decl: &EnumDecl, variant: &Ident, first: &Ident) -> Diag {
    report::error(
        Code::DuplicateDefinition,
        format_args!(
            "variant `{variant}` is declared more than once in enum `{}`",
            decl.name
        ),
    )
    .with_labels(vec![
        report::primary(variant.span, format_args!("`{variant}` redeclared here")),
        report::secondary(first.span, "first declared here"),
    ])
}

/// The help for `name` when it is a type of another language (`boolean`,
/// `integer`, `i64`, `f64`, `string`, ...): the language's own type, or
/// for strings, that a fixed set of strings is an enum.
fn foreign_type(name: &str) -> Option<String> {
    let ours = match name.to_ascii_lowercase().as_str() {
        "boolean" | "bool" => "bool",
        "integer" | "int" | "long" | "short" | "i8" | "i16" | "i32" | "i64" | "i128" | "u8"
        | "u16" | "u32" | "u64" | "isize" | "usize" | "int32" | "int64" => "int",
        "float" | "double" | "real" | "f32" | "f64" | "float32" | "float64" | "decimal" => "float",
        "string" | "str" | "text" | "char" => {
            return Some(
                "help: there is no string type: a value from a fixed set of strings is an \
                 enum, e.g. `enum Tool { search, edit }`, read from the log's strings"
                    .to_string(),
            )
        }
        _ => return None,
    };
    Some(format!("help: did you mean `{ours}`?"))
}
