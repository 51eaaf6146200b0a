//! Front end of the Hindsight specification language: a logos lexer, a lalrpop
//! parser and the span-carrying AST. Parsing never panics; every problem becomes a
//! [`diag::Diag`] with a stable error code.

pub mod ast;
pub mod diag;
