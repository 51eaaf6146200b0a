//! The compiler's diagnostics and names in the protocol's terms.

use hindsight_compiler::diag::{Diag, LabelStyle, Severity};
use hindsight_compiler::symbols::{Kind, SymbolId};
use lsp_types::{DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString};

use crate::lines::Encoding;
use crate::Document;

/// `diag` as the CLI prints it: code, message, the primary label's range;
/// the primary label's text and the notes after the message; secondary
/// labels as related information.
pub(crate) fn diagnostic(
    diag: &Diag,
    document: &Document,
    encoding: Encoding,
) -> lsp_types::Diagnostic {
    let range_of = |range: &std::ops::Range<usize>| {
        let span = hindsight_compiler::ast::Span::new(range.start, range.end);
        document.lines.range(&document.text, span, encoding)
    };
    let primary = diag
        .labels
        .iter()
        .find(|label| label.style == LabelStyle::Primary)
        .or(diag.labels.first());
    let mut message = diag.message.clone();
    if let Some(label) = primary.filter(|label| !label.message.is_empty()) {
        message.push_str(&format!("\n{}", label.message));
    }
    for note in &diag.notes {
        message.push_str(&format!("\n{note}"));
    }
    let related: Vec<DiagnosticRelatedInformation> = diag
        .labels
        .iter()
        .filter(|label| label.style == LabelStyle::Secondary)
        .map(|label| DiagnosticRelatedInformation {
            location: Location {
                uri: document.uri.clone(),
                range: range_of(&label.range),
            },
            message: label.message.clone(),
        })
        .collect();
    lsp_types::Diagnostic {
        range: primary.map_or_else(Default::default, |label| range_of(&label.range)),
        severity: Some(match diag.severity {
            Severity::Bug | Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Note => DiagnosticSeverity::INFORMATION,
            Severity::Help => DiagnosticSeverity::HINT,
        }),
        code: diag.code.clone().map(NumberOrString::String),
        source: Some("hindsight".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp_types::Diagnostic::default()
    }
}

/// A declaration in one line: `input action: Action`, `let busy = ...`.
pub(crate) fn signature(document: &Document, id: SymbolId) -> String {
    let symbol = &document.symbols().symbols[id];
    let source = |span: hindsight_compiler::ast::Span| {
        let text = document.text.get(span.range()).unwrap_or_default();
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let body = symbol.body.map(source).unwrap_or_default();
    let name = &symbol.name;
    let parent = symbol
        .parent
        .map(|p| document.symbols().symbols[p].name.as_str());
    match symbol.kind {
        Kind::Input | Kind::Variable | Kind::Attribute | Kind::Global | Kind::Time => {
            let ty = symbol.ty.as_deref().unwrap_or("?");
            let keyword = match symbol.kind {
                Kind::Input => "input ",
                Kind::Time => "time ",
                Kind::Global => "global ",
                _ => "",
            };
            format!("{keyword}{name}: {ty}")
        }
        Kind::Let => format!("let {name} = {body}"),
        Kind::Goal => format!("goal {name} = {body}"),
        Kind::Property => format!("property {name} = {body}"),
        Kind::Protocol => format!("protocol {name} = {body}"),
        Kind::Variant => format!("{}::{name}", parent.unwrap_or("?")),
        Kind::Guard | Kind::Enum | Kind::Lifeline | Kind::Group => source(symbol.span),
        Kind::Monitor | Kind::System | Kind::Population => {
            format!("{} {name}", symbol.kind.describe())
        }
        // The quantifier's head: `exists r in Reviewers`.
        Kind::Bound => source(symbol.span)
            .split(':')
            .next()
            .unwrap_or_default()
            .to_string(),
    }
}

/// Hover text for `id`: its declaration, what it is, and for a property how
/// it is computed (`hindsight explain`'s line for it).
pub(crate) fn describe(document: &Document, id: SymbolId) -> String {
    let symbols = document.symbols();
    let symbol = &symbols.symbols[id];
    let mut text = format!("```hindsight\n{}\n```\n", signature(document, id));
    let within = symbol
        .parent
        .map(|p| {
            let parent = &symbols.symbols[p];
            format!(" of {} `{}`", parent.kind.describe(), parent.name)
        })
        .unwrap_or_default();
    text.push_str(&format!("\n{}{within}", symbol.kind.describe()));
    if symbol.kind == Kind::Property {
        if let Some(summary) = property_summary(document, id) {
            text.push_str(&format!("\n\n{summary}"));
        }
    }
    text
}

/// `hindsight explain`'s line for a monitor or population property, when the
/// document compiles.
fn property_summary(document: &Document, id: SymbolId) -> Option<String> {
    let symbols = document.symbols();
    let symbol = &symbols.symbols[id];
    let block = &symbols.symbols[symbol.parent?];
    let program = &document.analysis.compiled.as_ref()?.program;
    let table = match block.kind {
        Kind::Monitor => program.monitor(&block.name)?,
        Kind::Population => &program.population(&block.name)?.top,
        _ => return None,
    };
    let output = table.outputs.iter().find(|out| out.name == symbol.name)?;
    Some(table.output_summary(output))
}
