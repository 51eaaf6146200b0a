//! Typing: AST expressions to typed HIR expressions, with `let`s inlined.
//!
//! Rules (codes in docs/errors.md):
//! - Formulas (property bodies, operands of `! && || -> <->` and of every
//!   temporal operator) must be `bool` (E0301).
//! - `==` and `!=` compare two values of one type, `bool` included; `< <= > >=`
//!   and `+ - *` (and unary `-`) take int or float operands only (E0302), both
//!   of one type (E0300). Arithmetic results have the operands' type.
//! - Coercion: an int *literal* (as written, possibly negated, e.g. `3` or
//!   `-3`) next to a float operand of a comparison or arithmetic becomes a
//!   float literal, so `speed > 3` works for a float `speed`. Nothing else is
//!   converted: an int input against a float input is E0300, and so is a `let`
//!   bound to an int literal (a `let` has one type wherever it is used).
//! - A `let` is typed once, at its definition, and its typed body is copied
//!   to every use, carrying the span of the use.
//! - An expression that already produced an error yields no type, and nothing
//!   built on it is reported again.

use super::enums::EnumTable;
use super::limits::{self, MAX_DEPTH, MAX_NODES};
use super::report;
use super::scope::InputDecl;
use crate::hir::{self, ArithOp, BoolOp, CmpOp, Ty, Value};
use hindsight_grammar::ast::{self, BinOp, Ident, LetDecl, Quantifier, Span};
use hindsight_grammar::diag::{Code, Diag};

/// What differs between kinds of block: how bare names, `base.field`, `@L φ`
/// and quantifiers are resolved (monitors reject the last three).
pub(super) trait Names<'a>: Sized {
    /// A bare name.
    fn name(typer: &mut Typer<'_, 'a, Self>, name: &Ident) -> Option<Typed>;

    /// `base.field`.
    fn field(typer: &mut Typer<'_, 'a, Self>, read: FieldRead<'_>) -> Option<Typed>;

    /// `@lifeline arg`.
    fn at(typer: &mut Typer<'_, 'a, Self>, at: At<'_>) -> Option<Typed>;

    /// `quantifier var in group: body`.
    fn quantifier(typer: &mut Typer<'_, 'a, Self>, quantified: Quantified<'_>) -> Option<Typed>;
}

/// `base.field` as written.
#[derive(Clone, Copy)]
pub(super) struct FieldRead<'e> {
    /// The whole expression.
    pub span: Span,
    /// What is read from (a lifeline or a quantifier's variable).
    pub base: &'e Ident,
    /// What is read.
    pub field: &'e Ident,
}

/// `@lifeline arg` as written.
#[derive(Clone, Copy)]
pub(super) struct At<'e> {
    /// The whole expression.
    pub span: Span,
    /// The lifeline (or quantifier variable) after `@`.
    pub lifeline: &'e Ident,
    /// The formula evaluated there.
    pub arg: &'e ast::Expr,
}

impl<'e> At<'e> {
    fn new(span: Span, lifeline: &'e Ident, arg: &'e ast::Expr) -> Self {
        At {
            span,
            lifeline,
            arg,
        }
    }

    /// `@L`: from the start of the expression to the end of the lifeline.
    pub(super) fn head(&self) -> Span {
        head_to(self.span, self.lifeline)
    }
}

/// `quantifier var in group: body` as written.
#[derive(Clone, Copy)]
pub(super) struct Quantified<'e> {
    /// The whole expression.
    pub span: Span,
    /// The quantifier.
    pub quantifier: Quantifier,
    /// The variable it binds.
    pub var: &'e Ident,
    /// The group it ranges over.
    pub group: &'e Ident,
    /// Its body.
    pub body: &'e ast::Expr,
}

impl<'e> Quantified<'e> {
    fn new(
        span: Span,
        quantifier: Quantifier,
        var: &'e Ident,
        group: &'e Ident,
        body: &'e ast::Expr,
    ) -> Self {
        Quantified {
            span,
            quantifier,
            var,
            group,
            body,
        }
    }

    /// `q var in group`: from the start of the expression to the end of the group.
    pub(super) fn head(&self) -> Span {
        head_to(self.span, self.group)
    }

    /// Where its body stands, for the E0301 labels.
    pub(super) fn body_of(&self) -> FormulaOf {
        FormulaOf::Operand {
            op: self.quantifier.keyword(),
            span: self.head(),
        }
    }
}

/// From the start of `whole` to the end of `last` (never before the start).
fn head_to(whole: Span, last: &Ident) -> Span {
    Span::new(whole.start, last.span.end.max(whole.start))
}

/// A typed expression with what the checker tracks about it.
#[derive(Clone)]
pub(super) struct Typed {
    /// The typed expression.
    pub expr: hir::Expr,
    size: Size,
    /// Whether it is an int literal as written (possibly negated).
    int_literal: bool,
}

/// Height and node count of a typed expression (after inlining).
#[derive(Clone, Copy)]
struct Size {
    height: usize,
    nodes: usize,
}

impl Size {
    const LEAF: Size = Size {
        height: 1,
        nodes: 1,
    };

    /// The size of a node over the given children.
    fn above(children: &[&Typed]) -> Size {
        children.iter().fold(Size::LEAF, |acc, child| Size {
            height: acc.height.max(child.size.height.saturating_add(1)),
            nodes: acc.nodes.saturating_add(child.size.nodes),
        })
    }
}

/// The result of checking a `let` body.
enum LetState {
    /// Not checked yet (never read: `let`s are checked in dependency order).
    Unchecked,
    /// Checked with errors, or on a cycle: uses of it produce nothing more.
    Failed,
    /// Checked: its typed body.
    Checked(Typed),
}

/// The formula or `let` body being checked, for the size limits.
struct Root {
    span: Span,
    inlined_nodes: usize,
    limit_reported: bool,
}

/// Where a formula is required, for the E0301 labels.
#[derive(Clone, Copy)]
pub(super) enum FormulaOf {
    /// The body of a property.
    Property,
    /// The body of a guard.
    Guard,
    /// The condition of a goal.
    Goal,
    /// An operand of an operator (`&&`, `S`, `!`, ...).
    Operand {
        /// The operator as written.
        op: &'static str,
        /// Where the operator was written.
        span: Span,
    },
}

/// Types the expressions of one block, resolving names with `N`.
pub(super) struct Typer<'s, 'a, N> {
    pub(super) enums: &'s EnumTable<'a>,
    /// The block's names.
    pub(super) names: N,
    pub(super) diags: &'s mut Vec<Diag>,
    let_decls: &'s [&'a LetDecl],
    lets: Vec<LetState>,
    /// Where each `let` was inlined (the use site's span, its index).
    let_uses: Vec<(Span, usize)>,
    root: Root,
}

impl<'s, 'a, N: Names<'a>> Typer<'s, 'a, N> {
    /// A typer for a block with the given names and `let`s (indexed as in `let_decls`).
    pub(super) fn new(
        enums: &'s EnumTable<'a>,
        names: N,
        let_decls: &'s [&'a LetDecl],
        diags: &'s mut Vec<Diag>,
    ) -> Self {
        let lets = let_decls.iter().map(|_| LetState::Unchecked).collect();
        Typer {
            enums,
            names,
            diags,
            let_decls,
            lets,
            let_uses: Vec::new(),
            root: Root {
                span: Span::default(),
                inlined_nodes: 0,
                limit_reported: false,
            },
        }
    }

    /// Checks `let` number `index` (once); `failed` marks it unusable whatever
    /// its body (it is on a cycle), though its body is still checked.
    pub(super) fn check_let(&mut self, index: usize, failed: bool) {
        let Some(decl) = self.let_decls.get(index).copied() else {
            return;
        };
        self.begin_root(decl.value.span);
        let typed = self.expr(&decl.value);
        let state = match typed {
            Some(t) if !failed => LetState::Checked(t),
            _ => LetState::Failed,
        };
        if let Some(slot) = self.lets.get_mut(index) {
            *slot = state;
        }
    }

    /// Marks `let` number `index` unusable without checking it (its body is too deep).
    pub(super) fn fail_let(&mut self, index: usize) {
        if let Some(slot) = self.lets.get_mut(index) {
            *slot = LetState::Failed;
        }
    }

    /// Checks a property's or guard's formula, which must be `bool`.
    pub(super) fn check_formula(
        &mut self,
        formula: &ast::Expr,
        of: FormulaOf,
    ) -> Option<hir::Expr> {
        self.begin_root(formula.span);
        self.formula(formula, of).map(|t| t.expr)
    }

    fn begin_root(&mut self, span: Span) {
        self.root = Root {
            span,
            inlined_nodes: 0,
            limit_reported: false,
        };
    }

    /// Types an expression of any type.
    pub(super) fn expr(&mut self, e: &ast::Expr) -> Option<Typed> {
        use ast::ExprKind as A;
        let span = e.span;
        match &e.kind {
            A::Bool(b) => Some(leaf(
                hir::ExprKind::Const(Value::Bool(*b)),
                Ty::Bool,
                e.span,
            )),
            A::Int(n) => {
                let mut t = leaf(hir::ExprKind::Const(Value::Int(*n)), Ty::Int, e.span);
                t.int_literal = true;
                Some(t)
            }
            A::Float(x) => Some(leaf(
                hir::ExprKind::Const(Value::Float(*x)),
                Ty::Float,
                e.span,
            )),
            A::Name(name) => N::name(self, name),
            A::Variant { enum_name, variant } => self.qualified_variant(enum_name, variant),
            A::Field { base, field } => N::field(self, FieldRead { span, base, field }),
            A::At { lifeline, arg } => N::at(self, At::new(span, lifeline, arg)),
            A::Quant {
                quantifier,
                var,
                group,
                body,
            } => {
                let quantified = Quantified::new(span, *quantifier, var, group, body);
                N::quantifier(self, quantified)
            }
            A::Not(arg) => self.not(e.span, arg),
            A::Neg(arg) => self.neg(e.span, arg),
            A::Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => self.binary(e.span, *op, *op_span, lhs, rhs),
            A::Unary {
                op,
                op_span,
                bound,
                arg,
            } => {
                let arg = self.formula(
                    arg,
                    FormulaOf::Operand {
                        op: op.symbol(),
                        span: *op_span,
                    },
                )?;
                let size = Size::above(&[&arg]);
                let kind = hir::ExprKind::Unary(*op, bound.map(hir_bound), Box::new(arg.expr));
                self.node(kind, Ty::Bool, e.span, size)
            }
            A::Temporal {
                op,
                op_span,
                bound,
                lhs,
                rhs,
            } => {
                let within = FormulaOf::Operand {
                    op: op.symbol(),
                    span: *op_span,
                };
                let lhs = self.formula(lhs, within);
                let rhs = self.formula(rhs, within);
                let (lhs, rhs) = (lhs?, rhs?);
                let size = Size::above(&[&lhs, &rhs]);
                let kind = hir::ExprKind::Binary(
                    *op,
                    bound.map(hir_bound),
                    Box::new(lhs.expr),
                    Box::new(rhs.expr),
                );
                self.node(kind, Ty::Bool, e.span, size)
            }
        }
    }

    /// Types an expression that must be a formula (`bool`), reporting E0301 otherwise.
    pub(super) fn formula(&mut self, e: &ast::Expr, of: FormulaOf) -> Option<Typed> {
        let typed = self.expr(e)?;
        if typed.expr.ty == Ty::Bool {
            return Some(typed);
        }
        let found = self.enums.type_name(typed.expr.ty);
        let mut labels = vec![report::primary(
            e.span,
            format_args!("expected `bool`, found `{found}`"),
        )];
        let mut notes = Vec::new();
        match of {
            FormulaOf::Property => {
                notes.push("note: a property's definition must be a formula".to_string())
            }
            FormulaOf::Guard => {
                notes.push("note: a guard's definition must be a formula".to_string())
            }
            FormulaOf::Goal => {
                notes.push("note: a goal's definition must be a formula".to_string())
            }
            FormulaOf::Operand { op, span } => labels.push(report::secondary(
                span,
                format_args!("`{op}` takes formulas"),
            )),
        }
        if let ast::ExprKind::Name(name) = &e.kind {
            notes.push(self.make_formula_help(&name.name, typed.expr.ty));
        }
        self.diags.push(
            report::error(
                Code::NotAFormula,
                format_args!("expected a formula (bool), found `{found}`"),
            )
            .with_labels(labels)
            .with_notes(notes),
        );
        None
    }

    /// How to turn the value `name` of type `ty` into a formula.
    fn make_formula_help(&self, name: &str, ty: Ty) -> String {
        let example = match ty {
            Ty::Enum(i) => self
                .enums
                .decl(i)
                .and_then(|d| d.variants.first())
                .map_or_else(|| "...".to_string(), |v| v.name.clone()),
            Ty::Float => "0.0".to_string(),
            _ => "0".to_string(),
        };
        let op = if matches!(ty, Ty::Enum(_)) { "==" } else { ">" };
        format!("help: compare it to make a formula, e.g. `{name} {op} {example}`")
    }

    fn not(&mut self, span: Span, arg: &ast::Expr) -> Option<Typed> {
        let op_span = prefix_span(span, arg.span);
        let arg = self.formula(
            arg,
            FormulaOf::Operand {
                op: "!",
                span: op_span,
            },
        )?;
        let size = Size::above(&[&arg]);
        self.node(hir::ExprKind::Not(Box::new(arg.expr)), Ty::Bool, span, size)
    }

    fn neg(&mut self, span: Span, arg: &ast::Expr) -> Option<Typed> {
        let arg = self.expr(arg)?;
        if !arg.expr.ty.is_numeric() {
            let op_span = prefix_span(span, arg.expr.span);
            self.not_numeric(
                "unary `-` needs an int or float operand",
                "-",
                op_span,
                &arg,
            );
            return None;
        }
        let (ty, int_literal) = (arg.expr.ty, arg.int_literal);
        let size = Size::above(&[&arg]);
        let mut t = self.node(hir::ExprKind::Neg(Box::new(arg.expr)), ty, span, size)?;
        t.int_literal = int_literal;
        Some(t)
    }

    /// `lhs op rhs`: a connective takes formulas; a comparison or arithmetic
    /// takes operands of one type, numeric except for `==` and `!=`.
    fn binary(
        &mut self,
        span: Span,
        op: BinOp,
        op_span: Span,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
    ) -> Option<Typed> {
        use hir::ExprKind::{Arith, Bool, Cmp};
        let text = op.symbol();
        let connective = matches!(op, BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Iff);
        let (lhs, rhs) = if connective {
            let within = FormulaOf::Operand {
                op: text,
                span: op_span,
            };
            let lhs = self.formula(lhs, within);
            let rhs = self.formula(rhs, within);
            (lhs?, rhs?)
        } else {
            let lhs = self.expr(lhs);
            let rhs = self.expr(rhs);
            let (lhs, rhs) = (lhs?, rhs?);
            let numeric = !matches!(op, BinOp::Eq | BinOp::Ne);
            if numeric && !self.both_numeric(text, op_span, &lhs, &rhs) {
                return None;
            }
            self.unify(text, op_span, lhs, rhs)?
        };
        let size = Size::above(&[&lhs, &rhs]);
        let operand_ty = lhs.expr.ty;
        let (l, r) = (Box::new(lhs.expr), Box::new(rhs.expr));
        let kind = match op {
            BinOp::And => Bool(BoolOp::And, l, r),
            BinOp::Or => Bool(BoolOp::Or, l, r),
            BinOp::Implies => Bool(BoolOp::Implies, l, r),
            BinOp::Iff => Bool(BoolOp::Iff, l, r),
            BinOp::Eq => Cmp(CmpOp::Eq, l, r),
            BinOp::Ne => Cmp(CmpOp::Ne, l, r),
            BinOp::Lt => Cmp(CmpOp::Lt, l, r),
            BinOp::Le => Cmp(CmpOp::Le, l, r),
            BinOp::Gt => Cmp(CmpOp::Gt, l, r),
            BinOp::Ge => Cmp(CmpOp::Ge, l, r),
            BinOp::Add => Arith(ArithOp::Add, l, r),
            BinOp::Sub => Arith(ArithOp::Sub, l, r),
            BinOp::Mul => Arith(ArithOp::Mul, l, r),
        };
        let ty = if matches!(kind, Arith(..)) {
            operand_ty
        } else {
            Ty::Bool
        };
        self.node(kind, ty, span, size)
    }

    /// Reports E0302 for each operand of `op` that is not int or float.
    fn both_numeric(&mut self, op: &str, op_span: Span, lhs: &Typed, rhs: &Typed) -> bool {
        let mut ok = true;
        for side in [lhs, rhs] {
            if !side.expr.ty.is_numeric() {
                self.not_numeric(
                    &format!("`{op}` needs int or float operands"),
                    op,
                    op_span,
                    side,
                );
                ok = false;
            }
        }
        ok
    }

    fn not_numeric(&mut self, what: &str, op: &str, op_span: Span, operand: &Typed) {
        let found = self.enums.type_name(operand.expr.ty);
        let mut notes = Vec::new();
        if matches!(op, "<" | "<=" | ">" | ">=") {
            notes.push(format!(
                "note: `{found}` values can only be compared with `==` and `!=`"
            ));
        }
        self.diags.push(
            report::error(Code::NotNumeric, format_args!("{what}, found `{found}`"))
                .with_labels(vec![
                    report::primary(
                        operand.expr.span,
                        format_args!("expected `int` or `float`, found `{found}`"),
                    ),
                    report::secondary(op_span, format_args!("`{op}` applied here")),
                ])
                .with_notes(notes),
        );
    }

    /// Brings both operands of `op` to one type (see the module doc for the
    /// int-literal coercion), reporting E0300 when they differ.
    fn unify(&mut self, op: &str, op_span: Span, lhs: Typed, rhs: Typed) -> Option<(Typed, Typed)> {
        let (lt, rt) = (lhs.expr.ty, rhs.expr.ty);
        if lt == rt {
            return Some((lhs, rhs));
        }
        if lt == Ty::Float && rhs.int_literal {
            return Some((lhs, rhs.int_literal_as_float()));
        }
        if rt == Ty::Float && lhs.int_literal {
            return Some((lhs.int_literal_as_float(), rhs));
        }
        let (l_name, r_name) = (self.enums.type_name(lt), self.enums.type_name(rt));
        let message = if matches!(op, "+" | "-" | "*") {
            format!("`{op}` needs operands of one type, found `{l_name}` and `{r_name}`")
        } else {
            format!("cannot compare `{l_name}` with `{r_name}`")
        };
        let mut notes = Vec::new();
        if lt.is_numeric() && rt.is_numeric() {
            notes.push(
                "help: int and float values do not mix; declare both as `float`, or write a float literal such as `2.0`"
                    .to_string(),
            );
        }
        for ty in [lt, rt] {
            if let Some(help) = self.enum_values_help(ty) {
                notes.push(help);
            }
        }
        self.diags.push(
            report::error(Code::TypeMismatch, message)
                .with_labels(vec![
                    report::primary(
                        rhs.expr.span,
                        format_args!("expected `{l_name}`, found `{r_name}`"),
                    ),
                    report::secondary(lhs.expr.span, format_args!("this is `{l_name}`")),
                    report::secondary(op_span, format_args!("`{op}` needs one type on both sides")),
                ])
                .with_notes(notes),
        );
        None
    }

    /// "values of `Action` are its variants, e.g. `Action::drive`".
    fn enum_values_help(&self, ty: Ty) -> Option<String> {
        let Ty::Enum(i) = ty else { return None };
        let decl = self.enums.decl(i)?;
        let first = decl.variants.first()?;
        Some(format!(
            "note: the values of `{}` are its variants, e.g. `{}::{}`",
            decl.name, decl.name, first
        ))
    }

    /// A node over already-typed children, unless the formula grows past the
    /// nesting limit (reported once per formula).
    fn node(&mut self, kind: hir::ExprKind, ty: Ty, span: Span, size: Size) -> Option<Typed> {
        if size.height > MAX_DEPTH {
            self.limit_exceeded(limits::too_deep_error(span, true));
            return None;
        }
        Some(Typed {
            expr: hir::Expr { kind, ty, span },
            size,
            int_literal: false,
        })
    }

    /// A node over already-typed children (`@L φ`, the parts of an expanded
    /// quantifier), built by `build` from their expressions; `None` (reported
    /// once per formula) past the nesting limit or, since expansion multiplies
    /// formulas, past the node limit.
    pub(super) fn node_over<const K: usize>(
        &mut self,
        children: [Typed; K],
        ty: Ty,
        span: Span,
        build: impl FnOnce([hir::Expr; K]) -> hir::ExprKind,
    ) -> Option<Typed> {
        let size = Size::above(&children.each_ref());
        self.expanded_node(size, ty, span, || build(children.map(|c| c.expr)))
    }

    /// `Count(items)` (an `int`), with the limits of [`Typer::node_over`].
    pub(super) fn count_node(&mut self, items: Vec<Typed>, span: Span) -> Option<Typed> {
        let size = Size::above(&items.iter().collect::<Vec<_>>());
        self.expanded_node(size, Ty::Int, span, || {
            hir::ExprKind::Count(items.into_iter().map(|t| t.expr).collect())
        })
    }

    fn expanded_node(
        &mut self,
        size: Size,
        ty: Ty,
        span: Span,
        kind: impl FnOnce() -> hir::ExprKind,
    ) -> Option<Typed> {
        if size.nodes > MAX_NODES {
            self.too_large();
            return None;
        }
        self.node(kind(), ty, span, size)
    }

    /// Where `let`s were named in what was typed, with their names.
    pub(super) fn let_names(&self) -> hir::LetNames {
        let named = |&(span, index): &(Span, usize)| {
            let decl = self.let_decls.get(index)?;
            Some((span, decl.name.name.clone()))
        };
        hir::LetNames::new(self.let_uses.iter().filter_map(named).collect())
    }

    /// Reports (once per formula) that expanding it passed the node limit.
    pub(super) fn too_large(&mut self) {
        self.limit_exceeded(limits::too_large_error(self.root.span, true));
    }

    /// `let` number `index`'s typed body, if it checked.
    pub(super) fn checked_let(&self, index: usize) -> Option<&hir::Expr> {
        match self.lets.get(index) {
            Some(LetState::Checked(body)) => Some(&body.expr),
            _ => None,
        }
    }

    /// A copy of `let` number `index`'s typed body for a use at `span`, unless
    /// the let failed or the formula would grow past the node limit.
    pub(super) fn inline_let(&mut self, index: usize, span: Span) -> Option<Typed> {
        let Some(LetState::Checked(body)) = self.lets.get(index) else {
            return None;
        };
        let nodes = self.root.inlined_nodes.saturating_add(body.size.nodes);
        if nodes > MAX_NODES {
            let error = limits::too_large_error(self.root.span, false);
            self.limit_exceeded(error);
            return None;
        }
        self.root.inlined_nodes = nodes;
        self.let_uses.push((span, index));
        let mut copy = body.clone();
        copy.expr.span = span;
        copy.int_literal = false;
        Some(copy)
    }

    fn limit_exceeded(&mut self, error: Diag) {
        if !self.root.limit_reported {
            self.root.limit_reported = true;
            self.diags.push(error);
        }
    }
}

/// A leaf (literal, variant or input).
pub(super) fn leaf(kind: hir::ExprKind, ty: Ty, span: Span) -> Typed {
    Typed {
        expr: hir::Expr { kind, ty, span },
        size: Size::LEAF,
        int_literal: false,
    }
}

/// A leaf reading declaration `index` of `decls` as `kind`; `None` if its
/// type did not resolve (reported where it was declared).
pub(super) fn declared_leaf(
    decls: &[InputDecl],
    index: usize,
    kind: hir::ExprKind,
    span: Span,
) -> Option<Typed> {
    let ty = decls.get(index)?.ty?;
    Some(leaf(kind, ty, span))
}

/// The text of a prefix operator: from the start of its expression to its operand.
fn prefix_span(whole: Span, operand: Span) -> Span {
    Span::new(whole.start, operand.start.max(whole.start))
}

fn hir_bound(b: ast::Bound) -> hir::Bound {
    hir::Bound {
        lo: b.lo,
        hi: b.hi,
        unit: b.unit,
    }
}

impl Typed {
    /// Its number of nodes, `let`s inlined and quantifiers expanded.
    pub(super) fn nodes(&self) -> usize {
        self.size.nodes
    }

    /// This int literal (possibly negated) as a float literal.
    fn int_literal_as_float(self) -> Typed {
        Typed {
            expr: int_to_float(self.expr),
            size: self.size,
            int_literal: false,
        }
    }
}

/// `3` to `3.0`, `-3` to `-3.0` (anything else is returned unchanged).
fn int_to_float(e: hir::Expr) -> hir::Expr {
    let (kind, ty) = match e.kind {
        hir::ExprKind::Const(Value::Int(n)) => {
            (hir::ExprKind::Const(Value::Float(n as f64)), Ty::Float)
        }
        hir::ExprKind::Neg(inner) if inner.ty == Ty::Int => (
            hir::ExprKind::Neg(Box::new(int_to_float(*inner))),
            Ty::Float,
        ),
        other => (other, e.ty),
    };
    hir::Expr {
        kind,
        ty,
        span: e.span,
    }
}
