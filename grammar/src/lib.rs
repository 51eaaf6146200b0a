//! Front end of the Hindsight specification language: a logos lexer, a lalrpop
//! parser and the span-carrying AST. Parsing never panics; every problem becomes a
//! [`diag::Diag`] with a stable error code.

pub mod ast;
pub mod diag;
pub mod ops;
pub mod print;

mod builder;
mod format;
pub use builder::MAX_FILTER_DEPTH;
pub use format::format;
mod code;
mod lexer;
mod parse;
mod syntax_error;

/// The parser lalrpop generates from `grammar.lalrpop`, committed (see
/// `tests/parser.rs`), with the attributes `lalrpop_mod!` would give it.
#[rustfmt::skip]
#[allow(
    clippy::all,
    clippy::pedantic,
    clippy::extra_unused_lifetimes,
    clippy::needless_lifetimes,
    clippy::let_unit_value,
    clippy::just_underscores_and_digits,
    unused_imports,
    unused_qualifications,
    unused_parens,
    unreachable_pub,
    missing_docs
)]
mod grammar {
    include!("generated/grammar.rs");
}

/// Parses a whole `.hind` file into its AST.
///
/// Returns every lexical error and every syntax error the parser could recover
/// from (at least the first one in each item), sorted by position. Never panics:
/// expressions nested more than 256 levels deep (operators and parentheses both
/// count) are rejected with E0100.
///
/// Choices beyond language.md: block comments nest; the letters
/// `Y Z O H X F G S U W R` are operators, never names; `reset` is a keyword only
/// after `with`; `<->` is left associative; comparisons do not chain; a quantifier
/// may be the right operand of any Boolean or temporal operator and the operand of
/// any prefix operator (`p && forall a in g: q || r` is
/// `p && (forall a in g: (q || r))`), but needs parentheses elsewhere, e.g.
/// `(count a in g: p) <= 3`. Lexical rules are listed in the `lexer` module.
pub fn parse(source: &str) -> Result<ast::File, Vec<diag::Diag>> {
    parse::parse_file(source)
}

/// Parses a whole `.hind` file as [`parse()`] does, but keeps what the parser
/// recovered when there are errors: every item and member it could read (the
/// ones with errors left out), or `None` if it could not reach the end of the
/// file. An editor uses this to name what it can while the user types.
pub fn parse_recovering(source: &str) -> (Option<ast::File>, Vec<diag::Diag>) {
    parse::parse_recovering(source)
}
