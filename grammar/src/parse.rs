//! The entry point tying lexer, parser and diagnostics together.

use std::convert::Infallible;

use crate::ast::File;
use crate::builder::Ctx;
use crate::diag::{Code, Diag, Label};
use crate::grammar::FileParser;
use crate::lexer;

/// Parses a whole spec file. See the crate documentation.
pub(crate) fn parse_file(source: &str) -> Result<File, Vec<Diag>> {
    match parse_recovering(source) {
        (Some(file), diags) if diags.is_empty() => Ok(file),
        (_, mut diags) => {
            if diags.is_empty() {
                // Unreachable in practice: a failed parse always records an error.
                diags.push(
                    Diag::error()
                        .with_code(Code::UnexpectedToken)
                        .with_message("the file could not be parsed")
                        .with_labels(vec![Label::primary((), 0..0)]),
                );
            }
            Err(diags)
        }
    }
}

/// Parses a whole spec file, keeping what the parser recovered: the items
/// and members it could read (those with errors left out), if it reached
/// the end, and every diagnostic sorted by position.
pub(crate) fn parse_recovering(source: &str) -> (Option<File>, Vec<Diag>) {
    let lexed = lexer::lex(source);
    let token_ends = lexed.tokens.iter().map(|&(_, _, end)| end).collect();
    let mut ctx = Ctx::new(source, token_ends);
    let tokens = lexed.tokens.into_iter().map(Ok::<_, Infallible>);
    let result = FileParser::new().parse(&mut ctx, tokens);
    let file = match result {
        Ok(file) => Some(file),
        Err(error) => {
            ctx.error(error);
            None
        }
    };
    let mut diags = lexed.diags;
    // A missing `;` points before the token the parser stopped at, which is
    // its second label: any label at a resume point makes a consequence.
    let consequence_of_lexing = |d: &Diag| {
        let is_eof = d.code.as_deref() == Some(Code::UnexpectedEof.as_str());
        d.labels
            .iter()
            .any(|l| lexed.resume_points.binary_search(&l.range.start).is_ok())
            || (is_eof && lexed.unterminated_comment)
    };
    diags.extend(
        ctx.into_diags()
            .into_iter()
            .filter(|d| !consequence_of_lexing(d)),
    );
    diags.sort_by_key(|d| d.labels.first().map_or(usize::MAX, |l| l.range.start));
    (file, diags)
}
