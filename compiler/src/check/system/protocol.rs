//! Checking a system's protocols (docs/language.md, section 4e).
//!
//! - The communication model is `sync` (the default) or `async` (E0418
//!   otherwise). A synchronous protocol's event types are interactions,
//!   `A -> B: m`; an asynchronous one's are sends and receipts, `send A ->
//!   B: m` and `receive A -> B: m` (E0418 for either in the other model,
//!   and for another word before the sender).
//! - `A` and `B` are lifelines of the system (E0200, E0206); a label is any
//!   name.
//! - A name is `skip` (the empty protocol) or a protocol of the system
//!   (E0200, E0206): recursion, the paper's cyclic terms.
//! - Recursion is guarded: no protocol reaches itself by names alone,
//!   through positions where no event must come first — the operands of
//!   `+ & |||` and of a filter, the left side of `.`, and its right side
//!   when the left side accepts the empty trace (E0417). Deriving a guarded
//!   protocol always consumes an event before unfolding a name again.

use super::scope::{Binding, SystemScope};
use crate::check::report;
use crate::hir::{self, nullable_protocols, ProtoExpr, ProtoKind};
use crate::ir::protocol::{Communication, EventKind, EventType};
use hindsight_grammar::ast::{self, EventTypeDecl, Ident, ProtocolDecl};
use hindsight_grammar::diag::{Code, Diag};

/// The system's protocols, checked; `None` if one of them is wrong.
pub(super) fn check_protocols(
    scope: &SystemScope<'_>,
    diags: &mut Vec<Diag>,
) -> Option<Vec<hir::Protocol>> {
    let before = diags.len();
    let protocols: Vec<Option<hir::Protocol>> = scope
        .protocols
        .iter()
        .map(|decl| check_protocol(scope, decl, diags))
        .collect();
    let protocols: Vec<hir::Protocol> = protocols.into_iter().collect::<Option<_>>()?;
    if diags.len() > before {
        return None;
    }
    let unguarded = unguarded_cycle(&protocols);
    if let Some(diag) = unguarded {
        diags.push(diag);
        return None;
    }
    Some(protocols)
}

/// One protocol: its model and its body, every name resolved.
fn check_protocol(
    scope: &SystemScope<'_>,
    decl: &ProtocolDecl,
    diags: &mut Vec<Diag>,
) -> Option<hir::Protocol> {
    let model = match decl.model.as_ref().map(|m| m.name.as_str()) {
        None | Some("sync") => Communication::Synchronous,
        Some("async") => Communication::Asynchronous,
        Some(_) => {
            let word = decl.model.as_ref()?;
            diags.push(
                report::error(
                    Code::WrongCommunication,
                    format_args!("`{word}` is no communication model"),
                )
                .with_labels(vec![report::primary(
                    word.span,
                    "expected `sync` or `async`",
                )])
                .with_notes(vec![
                    "note: `sync` (the default): one event per message, `A -> B: m`; `async`: a \
                     send and a receipt per message, `send A -> B: m`, `receive A -> B: m`"
                        .to_string(),
                ]),
            );
            return None;
        }
    };
    let before = diags.len();
    let body = Body {
        scope,
        model,
        diags,
    }
    .expr(&decl.body);
    if diags.len() > before {
        return None;
    }
    Some(hir::Protocol {
        name: decl.name.name.clone(),
        model,
        body,
        span: decl.span,
    })
}

/// Resolves the names of one protocol's body.
struct Body<'s, 'a, 'd> {
    scope: &'s SystemScope<'a>,
    model: Communication,
    diags: &'d mut Vec<Diag>,
}

impl Body<'_, '_, '_> {
    fn expr(&mut self, e: &ast::ProtoExpr) -> ProtoExpr {
        let mut two = |a: &ast::ProtoExpr, b: &ast::ProtoExpr| {
            (Box::new(self.expr(a)), Box::new(self.expr(b)))
        };
        let kind = match &e.kind {
            ast::ProtoKind::Event(t) => match self.event(t) {
                Some(t) => ProtoKind::Event(t),
                None => ProtoKind::Empty,
            },
            ast::ProtoKind::Name(name) => self.name(name),
            ast::ProtoKind::Seq(a, b) => {
                let (a, b) = two(a, b);
                ProtoKind::Seq(a, b)
            }
            ast::ProtoKind::Choice(a, b) => {
                let (a, b) = two(a, b);
                ProtoKind::Choice(a, b)
            }
            ast::ProtoKind::Inter(a, b) => {
                let (a, b) = two(a, b);
                ProtoKind::Inter(a, b)
            }
            ast::ProtoKind::Shuffle(a, b) => {
                let (a, b) = two(a, b);
                ProtoKind::Shuffle(a, b)
            }
            ast::ProtoKind::Filter(types, body) => {
                let types = types.iter().filter_map(|t| self.event(t)).collect();
                ProtoKind::Filter(types, Box::new(self.expr(body)))
            }
        };
        ProtoExpr { kind, span: e.span }
    }

    /// `skip` or a protocol of the system.
    fn name(&mut self, name: &Ident) -> ProtoKind {
        match self.scope.lookup(&name.name) {
            Some(Binding::Protocol(k)) => ProtoKind::Ref(k),
            None if name.name == "skip" => ProtoKind::Empty,
            Some(other) => {
                let diag = self.scope.wrong_role(name, other, "a protocol");
                self.diags.push(diag);
                ProtoKind::Empty
            }
            None => {
                let protocols = self.scope.protocols.iter().map(|p| p.name.name.as_str());
                let diag = self.scope.unknown(name, "protocol", protocols);
                self.diags.push(diag.with_notes(vec![
                    "note: a name in a protocol is another protocol of the system, or `skip`"
                        .to_string(),
                ]));
                ProtoKind::Empty
            }
        }
    }

    /// An event type: its lifelines resolved, its direction against the
    /// model.
    fn event(&mut self, t: &EventTypeDecl) -> Option<EventType> {
        let direction = t.direction.as_ref().map(|d| d.name.as_str());
        let kind = match (self.model, direction) {
            (Communication::Synchronous, None) => Some(EventKind::Interaction),
            (Communication::Asynchronous, Some("send")) => Some(EventKind::Send),
            (Communication::Asynchronous, Some("receive")) => Some(EventKind::Receive),
            (Communication::Synchronous, Some("send" | "receive")) => {
                self.wrong_model(
                    t,
                    "a send or receipt in a synchronous protocol",
                    "help: declare the protocol `async` to tell sends from receipts, or write the \
                     interaction `A -> B: m`",
                );
                None
            }
            (Communication::Asynchronous, None) => {
                self.wrong_model(
                    t,
                    "an interaction in an asynchronous protocol",
                    "help: an asynchronous protocol has a send and a receipt per message: `send A \
                     -> B: m` and `receive A -> B: m`",
                );
                None
            }
            (_, Some(_)) => {
                self.wrong_model(
                    t,
                    "an event's direction is `send` or `receive`",
                    "note: `A -> B: m` is a synchronous interaction; `send A -> B: m` and \
                     `receive A -> B: m` are the events of an asynchronous message",
                );
                None
            }
        };
        let from = self.scope.resolve_lifeline(&t.from, self.diags);
        let to = self.scope.resolve_lifeline(&t.to, self.diags);
        Some(EventType {
            kind: kind?,
            from: from?,
            to: to?,
            label: t.label.name.clone(),
        })
    }

    fn wrong_model(&mut self, t: &EventTypeDecl, message: &str, help: &str) {
        let at = t.direction.as_ref().map_or(t.span, |d| d.span);
        self.diags.push(
            report::error(Code::WrongCommunication, message)
                .with_labels(vec![report::primary(
                    at,
                    format_args!("in a protocol declared `{}`", self.model.as_str()),
                )])
                .with_notes(vec![help.to_string()]),
        );
    }
}

/// E0417 for the first protocol that reaches itself by names alone, if
/// one does.
fn unguarded_cycle(protocols: &[hir::Protocol]) -> Option<Diag> {
    let nullable = nullable_protocols(protocols);
    // Per protocol: the names in unguarded positions, with their spans.
    let edges: Vec<Vec<(usize, ast::Span)>> = protocols
        .iter()
        .map(|p| {
            let mut out = Vec::new();
            unguarded_refs(&p.body, &nullable, &mut out);
            out
        })
        .collect();
    for start in 0..protocols.len() {
        // Depth-first from `start` over unguarded references.
        let mut seen = vec![false; protocols.len()];
        let mut stack: Vec<(usize, Vec<usize>)> = vec![(start, vec![start])];
        while let Some((at, path)) = stack.pop() {
            for &(next, span) in edges.get(at).into_iter().flatten() {
                if next == start {
                    let names: Vec<&str> = path
                        .iter()
                        .chain([&start])
                        .filter_map(|&k| protocols.get(k).map(|p| p.name.as_str()))
                        .collect();
                    return Some(unguarded(&protocols[start], span, &names));
                }
                if next < protocols.len() && !std::mem::replace(&mut seen[next], true) {
                    let mut longer = path.clone();
                    longer.push(next);
                    stack.push((next, longer));
                }
            }
        }
    }
    None
}

/// The names of `e` in positions where no event must come before them.
fn unguarded_refs(e: &ProtoExpr, nullable: &[bool], out: &mut Vec<(usize, ast::Span)>) {
    match &e.kind {
        ProtoKind::Ref(k) => out.push((*k, e.span)),
        ProtoKind::Seq(a, b) => {
            unguarded_refs(a, nullable, out);
            if a.nullable(nullable) {
                unguarded_refs(b, nullable, out);
            }
        }
        _ => {
            for child in e.children() {
                unguarded_refs(child, nullable, out);
            }
        }
    }
}

fn unguarded(protocol: &hir::Protocol, at: ast::Span, cycle: &[&str]) -> Diag {
    report::error(
        Code::UnguardedRecursion,
        format_args!(
            "protocol `{}` reaches itself before any event",
            protocol.name
        ),
    )
    .with_labels(vec![report::primary(
        at,
        "unfolded before an event is required",
    )])
    .with_notes(vec![
        format!("note: the names unfold as {}", cycle.join(" -> ")),
        "help: put an event before the name, `a -> b: m . p`, so each unfolding reads one"
            .to_string(),
    ])
}
