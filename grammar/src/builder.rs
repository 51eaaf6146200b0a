//! AST construction for the parser's actions, with a nesting-depth guard.
//!
//! Every expression is built together with its depth. An expression nested more
//! than [`MAX_DEPTH`] levels (operators and parentheses both count) is reported
//! once and replaced by a leaf, so no tree the parser hands out — or drops while
//! recovering from errors — is deep enough to overflow the stack of a recursive
//! consumer.

use lalrpop_util::{ErrorRecovery, ParseError};

use crate::ast::{
    BinOp, BinaryTemporal, Bound, BoundUnit, EventTypeDecl, Expr, ExprKind, Field, FilterItem,
    FromClause, Ident, PopulationMember, ProtoExpr, ProtoKind, Quantifier, Span, StepsDecl,
    TimeDecl, TypeExpr, UnaryTemporal,
};
use crate::diag::{Code, Diag, Label};
use crate::lexer::Token;
use crate::syntax_error;

/// Deepest expression nesting the parser accepts.
pub(crate) const MAX_DEPTH: u32 = 256;

/// The most truth values a step filter's evaluation may stack at once (the
/// trace readers keep them in one `u64`): how deep operands may nest on the
/// right of `&&` and `||`.
pub const MAX_FILTER_DEPTH: usize = 64;

/// An expression under construction, with its nesting depth.
#[derive(Debug)]
pub(crate) struct Node {
    expr: Expr,
    depth: u32,
}

/// A trace expression under construction, with its nesting depth (bounded
/// as expressions are).
#[derive(Debug)]
pub(crate) struct ProtoNode {
    expr: ProtoExpr,
    depth: u32,
}

/// A prefix operator, as the grammar recognizes it.
#[derive(Debug)]
pub(crate) enum Prefix {
    /// `!`
    Not,
    /// `-`
    Neg,
    /// `Y`, `O[a,b]`, ...: the operator, its token's span and its bound.
    Temporal(UnaryTemporal, Span, Option<Bound>),
    /// `@L`
    At(Ident),
}

/// State shared by the parser's actions: the source and the diagnostics of
/// syntax errors the parser recovered from.
#[derive(Debug)]
pub(crate) struct Ctx<'src> {
    source: &'src str,
    /// Where each token ends, ascending (to place a missing `;` after the
    /// token before the unexpected one).
    token_ends: Vec<usize>,
    diags: Vec<Diag>,
    reported_too_deep: bool,
}

impl<'src> Ctx<'src> {
    /// A context for parsing `source`, whose tokens end at `token_ends`
    /// (ascending).
    pub(crate) fn new(source: &'src str, token_ends: Vec<usize>) -> Self {
        Ctx {
            source,
            token_ends,
            diags: Vec::new(),
            reported_too_deep: false,
        }
    }

    /// The diagnostics collected while parsing.
    pub(crate) fn into_diags(self) -> Vec<Diag> {
        self.diags
    }

    /// Records a syntax error the parser recovered from.
    pub(crate) fn recover(
        &mut self,
        recovery: ErrorRecovery<usize, Token<'src>, std::convert::Infallible>,
    ) {
        self.error(recovery.error);
    }

    /// Records a syntax error.
    pub(crate) fn error(
        &mut self,
        error: ParseError<usize, Token<'src>, std::convert::Infallible>,
    ) {
        self.diags
            .push(syntax_error::diagnose(self.source, &self.token_ends, error));
    }

    /// An identifier from its text and span.
    pub(crate) fn ident(&self, name: &str, start: usize, end: usize) -> Ident {
        Ident {
            name: name.to_string(),
            span: Span::new(start, end),
        }
    }

    /// A literal or name: depth 1.
    pub(crate) fn leaf(&self, kind: ExprKind, start: usize, end: usize) -> Node {
        Node {
            expr: Expr {
                kind,
                span: Span::new(start, end),
            },
            depth: 1,
        }
    }

    /// `( inner )`: the same expression, its span widened to the parentheses.
    pub(crate) fn paren(&mut self, inner: Node, start: usize, end: usize) -> Node {
        let depth = inner.depth.saturating_add(1);
        self.checked(inner.expr.kind, Span::new(start, end), depth)
    }

    /// `lhs op rhs` for Boolean, comparison and arithmetic operators.
    pub(crate) fn binary(&mut self, lhs: Node, op: BinOp, op_span: Span, rhs: Node) -> Node {
        let span = lhs.expr.span.to(rhs.expr.span);
        let depth = lhs.depth.max(rhs.depth).saturating_add(1);
        let kind = ExprKind::Binary {
            op,
            op_span,
            lhs: Box::new(lhs.expr),
            rhs: Box::new(rhs.expr),
        };
        self.checked(kind, span, depth)
    }

    /// `lhs S[a,b] rhs` and the other binary temporal operators.
    pub(crate) fn temporal(
        &mut self,
        lhs: Node,
        (op, op_span, bound): (BinaryTemporal, Span, Option<Bound>),
        rhs: Node,
    ) -> Node {
        let span = lhs.expr.span.to(rhs.expr.span);
        let depth = lhs.depth.max(rhs.depth).saturating_add(1);
        let kind = ExprKind::Temporal {
            op,
            op_span,
            bound,
            lhs: Box::new(lhs.expr),
            rhs: Box::new(rhs.expr),
        };
        self.checked(kind, span, depth)
    }

    /// A prefix operator starting at `start` applied to `arg`.
    pub(crate) fn prefix(&mut self, prefix: Prefix, start: usize, arg: Node) -> Node {
        let span = Span::new(start, arg.expr.span.end);
        let depth = arg.depth.saturating_add(1);
        let arg = Box::new(arg.expr);
        let kind = match prefix {
            Prefix::Not => ExprKind::Not(arg),
            Prefix::Neg => ExprKind::Neg(arg),
            Prefix::Temporal(op, op_span, bound) => ExprKind::Unary {
                op,
                op_span,
                bound,
                arg,
            },
            Prefix::At(lifeline) => ExprKind::At { lifeline, arg },
        };
        self.checked(kind, span, depth)
    }

    /// `forall var in group: body` and the other quantifiers, starting at `start`.
    pub(crate) fn quant(
        &mut self,
        quantifier: Quantifier,
        var: Ident,
        group: Ident,
        start: usize,
        body: Node,
    ) -> Node {
        let span = Span::new(start, body.expr.span.end);
        let depth = body.depth.saturating_add(1);
        let kind = ExprKind::Quant {
            quantifier,
            var,
            group,
            body: Box::new(body.expr),
        };
        self.checked(kind, span, depth)
    }

    /// The population member `name N;`: `capacity N;`, or (for any other
    /// name) a syntax error (E0100) and nothing.
    pub(crate) fn capacity(
        &mut self,
        name: Ident,
        value: i64,
        value_span: Span,
        span: Span,
    ) -> Option<PopulationMember> {
        if name.name == "capacity" {
            return Some(PopulationMember::Capacity {
                value,
                value_span,
                span,
            });
        }
        self.diags.push(
            Diag::error()
                .with_code(Code::UnexpectedToken)
                .with_message(format!("unexpected name `{name}` in a population block"))
                .with_labels(vec![Label::primary((), name.span.range())
                    .with_message("expected `capacity`, `agent`, `global`, `group`, `let` or `property`")])
                .with_notes(vec![
                    "note: the only member written `name N;` is `capacity N;`, the most agents a monitor holds"
                        .to_string(),
                ]),
        );
        None
    }

    /// The bound `[lo, hi]` (`hi == None` for `inf`) at `span`. Both ends
    /// count steps or both are durations; a bare `0` goes with either. A bound
    /// mixing the two is reported (E0400) and read as durations.
    pub(crate) fn bound(&mut self, lo: Amount, hi: Option<Amount>, span: Span) -> Bound {
        let ends = [Some(lo), hi];
        let timed = ends.iter().flatten().any(|a| matches!(a, Amount::Time(_)));
        let counted = ends
            .iter()
            .flatten()
            .any(|a| matches!(a, Amount::Steps(n) if *n != 0));
        if timed && counted {
            self.diags.push(
                Diag::error()
                    .with_code(Code::BadBound)
                    .with_message("this bound mixes a step count and a duration")
                    .with_labels(vec![Label::primary((), span.range())
                        .with_message("one end counts steps, the other is a time")])
                    .with_notes(vec![
                        "help: write both ends as durations (`[5s,30s]`) or both as step counts \
                         (`[2,5]`); a bare `0` goes with either"
                            .to_string(),
                    ]),
            );
        }
        // Literals are never negative: `-` is a separate token.
        let value = |a: Amount| match a {
            Amount::Steps(n) => u64::try_from(n).unwrap_or(0),
            Amount::Time(micros) => micros,
        };
        Bound {
            lo: value(lo),
            hi: hi.map(value),
            unit: if timed {
                BoundUnit::Time
            } else {
                BoundUnit::Steps
            },
            span,
        }
    }

    /// `sessions end where filter;`, checking that the word after
    /// `sessions` is `end`.
    pub(crate) fn sessions_end(&mut self, end: Ident, decl: StepsDecl) -> Option<StepsDecl> {
        if end.name == "end" {
            return Some(decl);
        }
        self.diags.push(
            Diag::error()
                .with_code(Code::UnexpectedToken)
                .with_message(format!(
                    "expected `end` after `sessions`, found `{}`",
                    end.name
                ))
                .with_labels(vec![
                    Label::primary((), end.span.range()).with_message("expected `end`")
                ])
                .with_notes(vec![
                    "help: `sessions end where FILTER;` names the lines that end their session"
                        .to_string(),
                ]),
        );
        None
    }

    /// `time name [from ...];` in a monitor, a population or a system. The
    /// time is read from a value, so `from present(...)` is reported (E0413).
    pub(crate) fn time(
        &mut self,
        name: Ident,
        from: Option<FromClause>,
        span: Span,
    ) -> Option<TimeDecl> {
        let from = match from {
            None => None,
            Some(FromClause::Pointer(p)) => Some(p),
            Some(FromClause::Present(p)) => {
                self.diags.push(
                    Diag::error()
                        .with_code(Code::BadMapping)
                        .with_message(
                            "the step's time is read from a value, not from a key's presence",
                        )
                        .with_labels(vec![Label::primary((), p.span.range())
                            .with_message("`present(...)` gives a bool")])
                        .with_notes(vec![format!(
                            "help: in a monitor, write `time {name} from {:?};`; in a population \
                             or a system, `time {name};`",
                            p.value
                        )]),
                );
                None
            }
        };
        Some(TimeDecl {
            field: Field {
                name,
                ty: TypeExpr::Int(Span::new(span.start, span.start + "time".len())),
                span,
            },
            from,
        })
    }

    /// The finished expression.
    pub(crate) fn finish(&self, node: Node) -> Expr {
        node.expr
    }

    /// `a op b` for a step filter's `&&` or `||` at `span`, unless its
    /// right operands nest too deeply (E0900, reported once): then `a`.
    pub(crate) fn filter(
        &mut self,
        mut a: FilterBuild,
        b: FilterBuild,
        op: FilterItem,
        span: Span,
    ) -> FilterBuild {
        let depth = a.depth.max(b.depth.saturating_add(1));
        if depth > MAX_FILTER_DEPTH {
            if !self.reported_too_deep {
                self.reported_too_deep = true;
                self.diags.push(
                    Diag::error()
                        .with_code(Code::SizeLimitExceeded)
                        .with_message("step filter nested too deeply")
                        .with_labels(vec![Label::primary((), span.range()).with_message(
                            format!("more than {MAX_FILTER_DEPTH} operands pending here"),
                        )])
                        .with_notes(vec![
                            "parenthesize to the left: `(a || b) || c` needs less than `a || (b || c)`"
                                .to_string(),
                        ]),
                );
            }
            return a;
        }
        a.items.extend(b.items);
        a.items.push(op);
        a.depth = depth;
        a
    }

    /// A trace expression without operands (an event type, a name).
    pub(crate) fn proto_leaf(&self, kind: ProtoKind, start: usize, end: usize) -> ProtoNode {
        ProtoNode {
            expr: ProtoExpr {
                kind,
                span: Span::new(start, end),
            },
            depth: 1,
        }
    }

    /// `(τ)`, one level deeper than τ.
    pub(crate) fn proto_paren(&mut self, inner: ProtoNode, start: usize, end: usize) -> ProtoNode {
        let depth = inner.depth.saturating_add(1);
        self.proto_checked(inner.expr.kind, Span::new(start, end), depth)
    }

    /// `a op b` for a protocol operator `op` (`ProtoKind::Seq`, ...).
    pub(crate) fn proto_binary(
        &mut self,
        op: fn(Box<ProtoExpr>, Box<ProtoExpr>) -> ProtoKind,
        a: ProtoNode,
        b: ProtoNode,
        start: usize,
        end: usize,
    ) -> ProtoNode {
        let depth = a.depth.max(b.depth).saturating_add(1);
        let kind = op(Box::new(a.expr), Box::new(b.expr));
        self.proto_checked(kind, Span::new(start, end), depth)
    }

    /// `{types} >> body`.
    pub(crate) fn proto_filter(
        &mut self,
        types: Vec<EventTypeDecl>,
        body: ProtoNode,
        start: usize,
        end: usize,
    ) -> ProtoNode {
        let depth = body.depth.saturating_add(1);
        let kind = ProtoKind::Filter(types, Box::new(body.expr));
        self.proto_checked(kind, Span::new(start, end), depth)
    }

    /// The finished trace expression.
    pub(crate) fn proto_finish(&self, node: ProtoNode) -> ProtoExpr {
        node.expr
    }

    /// The trace expression, unless nested too deeply: then an error and
    /// `skip`.
    fn proto_checked(&mut self, kind: ProtoKind, span: Span, depth: u32) -> ProtoNode {
        if depth <= MAX_DEPTH {
            return ProtoNode {
                expr: ProtoExpr { kind, span },
                depth,
            };
        }
        self.too_deep(
            span,
            "protocol nested too deeply",
            "split it into named protocols",
        );
        // `kind` is at most MAX_DEPTH deep, so dropping it here is safe.
        ProtoNode {
            expr: ProtoExpr {
                kind: ProtoKind::Name(Ident {
                    name: "skip".to_string(),
                    span,
                }),
                span,
            },
            depth: 1,
        }
    }

    /// Reports, once per file, a tree nested more than [`MAX_DEPTH`] levels.
    fn too_deep(&mut self, span: Span, message: &str, help: &str) {
        if !self.reported_too_deep {
            self.reported_too_deep = true;
            self.diags.push(
                Diag::error()
                    .with_code(Code::UnexpectedToken)
                    .with_message(message)
                    .with_labels(vec![Label::primary((), span.range())
                        .with_message(format!("more than {MAX_DEPTH} levels of nesting"))])
                    .with_notes(vec![help.to_string()]),
            );
        }
    }

    /// The node, unless it is nested too deeply: then an error and a leaf.
    fn checked(&mut self, kind: ExprKind, span: Span, depth: u32) -> Node {
        if depth <= MAX_DEPTH {
            return Node {
                expr: Expr { kind, span },
                depth,
            };
        }
        self.too_deep(
            span,
            "expression nested too deeply",
            "split the expression with `let` definitions",
        );
        // `kind` is at most MAX_DEPTH deep, so dropping it here is safe.
        Node {
            expr: Expr {
                kind: ExprKind::Bool(false),
                span,
            },
            depth: 1,
        }
    }
}

/// One end of a bound as written: a step count or a duration.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Amount {
    /// An integer literal: steps.
    Steps(i64),
    /// A duration literal, in microseconds.
    Time(u64),
}

/// The count of an `atleast`/`atmost` quantifier.
pub(crate) fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// A step filter under construction: its items in postfix order and the
/// most truth values evaluating it stacks at once.
#[derive(Debug)]
pub(crate) struct FilterBuild {
    /// The items in postfix order.
    pub(crate) items: Vec<FilterItem>,
    depth: usize,
}

impl FilterBuild {
    /// A filter of one comparison or `present(...)`.
    pub(crate) fn atom(item: FilterItem) -> Self {
        FilterBuild {
            items: vec![item],
            depth: 1,
        }
    }

    /// `!self`.
    pub(crate) fn not(mut self) -> Self {
        self.items.push(FilterItem::Not);
        self
    }
}
