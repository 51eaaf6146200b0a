//! The Hindsight language server (`hindsight lsp`): a thin shell over the
//! compiler library that speaks the Language Server Protocol over stdio.
//!
//! Each open document is compiled on every change ([`hindsight_compiler::compile::analyse`]):
//! its diagnostics are published with the CLI's codes and messages (secondary
//! labels as related information, notes after the message), and its names
//! ([`hindsight_compiler::symbols`]) answer hover, go to definition, find
//! references, document symbols and completion; formatting is `hindsight
//! fmt`'s layout ([`hindsight_compiler::format`]). Compiling is bounded by
//! the compiler's own limits (a few seconds at worst), and every answer walks
//! the document's names in linear time.

mod convert;
mod lines;

use std::collections::HashMap;
use std::error::Error;

use hindsight_compiler::compile::{analyse, Analysis};
use hindsight_compiler::symbols::{Kind, SymbolId, Symbols};
use lsp_server::{Connection, ExtractError, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest, References,
    Request as _,
};
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionOptions, CompletionParams, CompletionResponse,
    DocumentFormattingParams, DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse,
    GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverContents, HoverParams,
    HoverProviderCapability, InitializeParams, Location, MarkupContent, MarkupKind, OneOf,
    PositionEncodingKind, PublishDiagnosticsParams, ReferenceParams, ServerCapabilities,
    ServerInfo, SymbolKind, TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Uri,
};

use crate::lines::{Encoding, Lines};

/// What the server reports the failure of a run as.
pub type ServerError = Box<dyn Error + Send + Sync>;

/// Serves one client on stdin and stdout until it asks the server to exit.
pub fn run_stdio() -> Result<(), ServerError> {
    let (connection, io_threads) = Connection::stdio();
    serve(&connection)?;
    drop(connection);
    io_threads.join()?;
    Ok(())
}

/// Runs the initialize handshake and then the message loop on `connection`.
pub fn serve(connection: &Connection) -> Result<(), ServerError> {
    let (id, params) = connection.initialize_start()?;
    let params: InitializeParams = serde_json::from_value(params)?;
    let utf8 = params
        .capabilities
        .general
        .and_then(|general| general.position_encodings)
        .is_some_and(|offered| offered.contains(&PositionEncodingKind::UTF8));
    let encoding = if utf8 {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    };
    let result = serde_json::json!({
        "capabilities": capabilities(encoding),
        "serverInfo": ServerInfo {
            name: "hindsight".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        },
    });
    connection.initialize_finish(id, result)?;
    let mut server = Server {
        documents: HashMap::new(),
        encoding,
    };
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request)? {
                    return Ok(());
                }
                let response = server.request(request);
                connection.sender.send(Message::Response(response))?;
            }
            Message::Notification(notification) => {
                for publish in server.notification(notification) {
                    connection.sender.send(Message::Notification(publish))?;
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(())
}

fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(match encoding {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into(), "@".into()]),
            ..CompletionOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}

/// One open document: its text and what the compiler made of it.
struct Document {
    uri: Uri,
    text: String,
    lines: Lines,
    analysis: Analysis,
}

impl Document {
    fn new(uri: Uri, text: String) -> Document {
        let lines = Lines::new(&text);
        let analysis = analyse(&text);
        Document {
            uri,
            text,
            lines,
            analysis,
        }
    }

    fn symbols(&self) -> &Symbols {
        &self.analysis.symbols
    }
}

struct Server {
    documents: HashMap<String, Document>,
    encoding: Encoding,
}

impl Server {
    fn request(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            HoverRequest::METHOD => answer::<HoverRequest>(request, |p| self.hover(p)),
            GotoDefinition::METHOD => answer::<GotoDefinition>(request, |p| self.definition(p)),
            References::METHOD => answer::<References>(request, |p| self.references(p)),
            DocumentSymbolRequest::METHOD => {
                answer::<DocumentSymbolRequest>(request, |p| self.document_symbols(p))
            }
            Completion::METHOD => answer::<Completion>(request, |p| self.completion(p)),
            Formatting::METHOD => answer::<Formatting>(request, |p| self.format(p)),
            _ => Err(Response::new_err(
                id.clone(),
                lsp_server::ErrorCode::MethodNotFound as i32,
                format!("hindsight lsp does not handle `{}`", request.method),
            )),
        };
        result.unwrap_or_else(|error| error)
    }

    /// Diagnostics to publish after a notification.
    fn notification(&mut self, notification: Notification) -> Vec<Notification> {
        match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(params) = notification
                    .extract::<lsp_types::DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD)
                else {
                    return Vec::new();
                };
                let doc = params.text_document;
                self.open(doc.uri, doc.text, Some(doc.version))
            }
            DidChangeTextDocument::METHOD => {
                let Ok(params) = notification.extract::<lsp_types::DidChangeTextDocumentParams>(
                    DidChangeTextDocument::METHOD,
                ) else {
                    return Vec::new();
                };
                // Full synchronisation: the last change holds the whole text.
                let Some(change) = params.content_changes.into_iter().last() else {
                    return Vec::new();
                };
                let doc = params.text_document;
                self.open(doc.uri, change.text, Some(doc.version))
            }
            DidCloseTextDocument::METHOD => {
                let Ok(params) = notification
                    .extract::<lsp_types::DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD)
                else {
                    return Vec::new();
                };
                let uri = params.text_document.uri;
                self.documents.remove(uri.as_str());
                vec![publish(uri, Vec::new(), None)]
            }
            _ => Vec::new(),
        }
    }

    fn open(&mut self, uri: Uri, text: String, version: Option<i32>) -> Vec<Notification> {
        let document = Document::new(uri.clone(), text);
        let diagnostics = document
            .analysis
            .diagnostics
            .iter()
            .map(|diag| convert::diagnostic(diag, &document, self.encoding))
            .collect();
        self.documents.insert(uri.as_str().to_string(), document);
        vec![publish(uri, diagnostics, version)]
    }

    /// The document and byte offset a position request points at.
    fn at(&self, position: &lsp_types::TextDocumentPositionParams) -> Option<(&Document, usize)> {
        let document = self.documents.get(position.text_document.uri.as_str())?;
        let offset = document
            .lines
            .offset(&document.text, position.position, self.encoding);
        Some((document, offset))
    }

    fn hover(&self, params: HoverParams) -> Option<Hover> {
        let (document, offset) = self.at(&params.text_document_position_params)?;
        let symbols = document.symbols();
        let (text, span) = if let Some(op) = symbols.operator_at(offset) {
            let bounded = if op.row.bounded {
                "; takes a bound `[a,b]`"
            } else {
                ""
            };
            let time = if op.row.is_future() { "future" } else { "past" };
            let text = format!(
                "`{}` — {} ({time}-time operator{bounded})",
                op.row.symbol, op.row.meaning
            );
            (text, op.span)
        } else {
            let (id, span) = symbols.at(offset)?;
            (convert::describe(document, id), span)
        };
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: text,
            }),
            range: Some(document.lines.range(&document.text, span, self.encoding)),
        })
    }

    fn definition(&self, params: GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
        let (document, offset) = self.at(&params.text_document_position_params)?;
        let (id, _) = document.symbols().at(offset)?;
        let span = document.symbols().symbols[id].name_span;
        Some(GotoDefinitionResponse::Scalar(
            self.location(document, span),
        ))
    }

    fn references(&self, params: ReferenceParams) -> Option<Vec<Location>> {
        let (document, offset) = self.at(&params.text_document_position)?;
        let symbols = document.symbols();
        let (id, _) = symbols.at(offset)?;
        let declaration = params
            .context
            .include_declaration
            .then_some(symbols.symbols[id].name_span);
        let spans = declaration.into_iter().chain(symbols.uses_of(id));
        Some(spans.map(|span| self.location(document, span)).collect())
    }

    fn document_symbols(&self, params: DocumentSymbolParams) -> Option<DocumentSymbolResponse> {
        let document = self.documents.get(params.text_document.uri.as_str())?;
        let tree = self.symbol_tree(document, None);
        Some(DocumentSymbolResponse::Nested(tree))
    }

    fn symbol_tree(&self, document: &Document, parent: Option<SymbolId>) -> Vec<DocumentSymbol> {
        let symbols = document.symbols();
        symbols
            .children(parent)
            .filter(|&id| symbols.symbols[id].kind != Kind::Bound)
            .map(|id| {
                let symbol = &symbols.symbols[id];
                let children = self.symbol_tree(document, Some(id));
                #[allow(deprecated)] // `deprecated` is a required field of the type
                DocumentSymbol {
                    name: symbol.name.clone(),
                    detail: symbol
                        .ty
                        .clone()
                        .or_else(|| Some(symbol.kind.describe().into())),
                    kind: symbol_kind(symbol.kind),
                    tags: None,
                    deprecated: None,
                    range: document
                        .lines
                        .range(&document.text, symbol.span, self.encoding),
                    selection_range: document.lines.range(
                        &document.text,
                        symbol.name_span,
                        self.encoding,
                    ),
                    children: (!children.is_empty()).then_some(children),
                }
            })
            .collect()
    }

    fn completion(&self, params: CompletionParams) -> Option<CompletionResponse> {
        let (document, offset) = self.at(&params.text_document_position)?;
        let symbols = document.symbols();
        let mut items: Vec<CompletionItem> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for id in symbols.visible_at(offset) {
            let symbol = &symbols.symbols[id];
            if seen.insert((symbol.name.clone(), symbol.kind)) {
                items.push(CompletionItem {
                    label: symbol.name.clone(),
                    kind: Some(completion_kind(symbol.kind)),
                    detail: Some(convert::signature(document, id)),
                    ..CompletionItem::default()
                });
            }
        }
        for keyword in hindsight_compiler::ops::KEYWORDS {
            items.push(CompletionItem {
                label: (*keyword).into(),
                kind: Some(CompletionItemKind::KEYWORD),
                ..CompletionItem::default()
            });
        }
        for row in hindsight_compiler::ops::temporal_rows() {
            items.push(CompletionItem {
                label: row.symbol.into(),
                kind: Some(CompletionItemKind::OPERATOR),
                detail: Some(row.meaning.into()),
                ..CompletionItem::default()
            });
        }
        Some(CompletionResponse::Array(items))
    }

    /// The whole document laid out by `hindsight fmt`'s rules: one edit, or
    /// none when it is formatted already or does not parse.
    fn format(&self, params: DocumentFormattingParams) -> Option<Vec<TextEdit>> {
        let document = self.documents.get(params.text_document.uri.as_str())?;
        let formatted = hindsight_compiler::format(&document.text).ok()?;
        if formatted == document.text {
            return Some(Vec::new());
        }
        let whole = hindsight_compiler::ast::Span::new(0, document.text.len());
        Some(vec![TextEdit {
            range: document.lines.range(&document.text, whole, self.encoding),
            new_text: formatted,
        }])
    }

    fn location(&self, document: &Document, span: hindsight_compiler::ast::Span) -> Location {
        Location {
            uri: document.uri.clone(),
            range: document.lines.range(&document.text, span, self.encoding),
        }
    }
}

/// Answers `request` of type `R` with `handle`'s result (`null` for `None`).
fn answer<R>(
    request: Request,
    handle: impl FnOnce(R::Params) -> R::Result,
) -> Result<Response, Response>
where
    R: lsp_types::request::Request,
    R::Result: serde::Serialize,
{
    let id: RequestId = request.id.clone();
    let params = request.extract::<R::Params>(R::METHOD).map_err(|error| {
        let message = match error {
            ExtractError::JsonError { error, .. } => format!("invalid parameters: {error}"),
            ExtractError::MethodMismatch(request) => format!("unexpected `{}`", request.method),
        };
        Response::new_err(
            id.clone(),
            lsp_server::ErrorCode::InvalidParams as i32,
            message,
        )
    })?;
    let result = handle(params.1);
    Ok(Response::new_ok(id, result))
}

fn publish(
    uri: Uri,
    diagnostics: Vec<lsp_types::Diagnostic>,
    version: Option<i32>,
) -> Notification {
    Notification::new(
        PublishDiagnostics::METHOD.into(),
        PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        },
    )
}

fn symbol_kind(kind: Kind) -> SymbolKind {
    match kind {
        Kind::Enum => SymbolKind::ENUM,
        Kind::Variant => SymbolKind::ENUM_MEMBER,
        Kind::Monitor | Kind::System | Kind::Population => SymbolKind::MODULE,
        Kind::Input | Kind::Time | Kind::Variable | Kind::Attribute => SymbolKind::FIELD,
        Kind::Global => SymbolKind::VARIABLE,
        Kind::Let | Kind::Goal => SymbolKind::CONSTANT,
        Kind::Property | Kind::Guard | Kind::Protocol => SymbolKind::FUNCTION,
        Kind::Lifeline => SymbolKind::CLASS,
        Kind::Group => SymbolKind::ARRAY,
        Kind::Bound => SymbolKind::VARIABLE,
    }
}

fn completion_kind(kind: Kind) -> CompletionItemKind {
    match kind {
        Kind::Enum => CompletionItemKind::ENUM,
        Kind::Variant => CompletionItemKind::ENUM_MEMBER,
        Kind::Monitor | Kind::System | Kind::Population => CompletionItemKind::MODULE,
        Kind::Input | Kind::Time | Kind::Variable | Kind::Attribute => CompletionItemKind::FIELD,
        Kind::Global | Kind::Bound => CompletionItemKind::VARIABLE,
        Kind::Let | Kind::Goal => CompletionItemKind::CONSTANT,
        Kind::Property | Kind::Guard | Kind::Protocol => CompletionItemKind::FUNCTION,
        Kind::Lifeline => CompletionItemKind::CLASS,
        Kind::Group => CompletionItemKind::VARIABLE,
    }
}
