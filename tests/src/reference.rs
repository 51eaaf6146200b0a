//! A slow, obviously-correct evaluator of past-time formulas, straight from the
//! textbook definitions over a whole finite trace. It shares nothing with the
//! table IR or the interpreter: it is the oracle they are tested against.

use hindsight_compiler::ast::{BinaryTemporal, UnaryTemporal};
use hindsight_compiler::hir::{ArithOp, BoolOp, Bound, BoundUnit, CmpOp, Expr, ExprKind, Value};

use crate::hir::system_construct;

/// One step of a trace: a value per input, in input declaration order.
pub type Step = Vec<Value>;

/// The value of `expr` at position `i` of `trace` (`i < trace.len()`).
///
/// Windows `[i-b, i-a]` of bounded operators are clipped to positions `>= 0`.
pub fn eval(expr: &Expr, trace: &[Step], i: usize) -> Value {
    eval_timed(expr, trace, &[], i)
}

/// The value of `expr` at position `i` of `trace` whose steps happened at
/// `times` (microseconds; only duration bounds read them): a duration window
/// `[a,b]` holds the positions `j <= i` with `a <= times[i] - times[j] <= b`.
pub fn eval_timed(expr: &Expr, trace: &[Step], times: &[i64], i: usize) -> Value {
    let eval = |e: &Expr, j: usize| eval_timed(e, trace, times, j);
    let at = |e: &Expr, j: usize| eval(e, j).as_bool();
    match &expr.kind {
        ExprKind::Const(v) => *v,
        ExprKind::Input(k) => trace[i][*k],
        ExprKind::Not(a) => Value::Bool(!at(a, i)),
        ExprKind::Neg(a) => negate(eval(a, i)),
        ExprKind::Bool(op, a, b) => Value::Bool(bool_op(*op, at(a, i), at(b, i))),
        ExprKind::Cmp(op, a, b) => Value::Bool(compare(*op, eval(a, i), eval(b, i))),
        ExprKind::Arith(op, a, b) => arith(*op, eval(a, i), eval(b, i)),
        ExprKind::Unary(op, bound, a) => Value::Bool(match op {
            UnaryTemporal::Once => timed_window(*bound, times, i).any(|j| at(a, j)),
            UnaryTemporal::Historically => timed_window(*bound, times, i).all(|j| at(a, j)),
            _ => past(*op, *bound, i, |j| at(a, j)),
        }),
        ExprKind::Binary(BinaryTemporal::Since, bound, a, b) => Value::Bool(
            timed_window(*bound, times, i).any(|j| at(b, j) && (j + 1..=i).all(|k| at(a, k))),
        ),
        ExprKind::Binary(future, ..) => {
            panic!("the reference evaluator is past-time only, got {future:?}")
        }
        system_construct!() => {
            panic!("the monitor reference evaluator has no system constructs")
        }
    }
}

/// The past-time unary operator `op` with `bound` at position `i`, its operand
/// holding at position `j` iff `a(j)`.
pub fn past(op: UnaryTemporal, bound: Option<Bound>, i: usize, a: impl Fn(usize) -> bool) -> bool {
    match op {
        UnaryTemporal::Yesterday => i > 0 && a(i - 1),
        UnaryTemporal::WeakYesterday => i == 0 || a(i - 1),
        UnaryTemporal::Once => window(bound, i).any(a),
        UnaryTemporal::Historically => window(bound, i).all(a),
        future => panic!("the reference evaluator is past-time only, got {future:?}"),
    }
}

/// `φ S ψ` with `bound` at position `i`, φ holding at `j` iff `a(j)` and ψ iff
/// `b(j)`: ψ at some j in the window, and φ at every step after j up to `i`.
pub fn since(
    bound: Option<Bound>,
    i: usize,
    a: impl Fn(usize) -> bool,
    b: impl Fn(usize) -> bool,
) -> bool {
    window(bound, i).any(|j| b(j) && (j + 1..=i).all(&a))
}

/// `-x` for an int (wrapping) or a float.
pub fn negate(x: Value) -> Value {
    match x {
        Value::Int(x) => Value::Int(x.wrapping_neg()),
        Value::Float(x) => Value::Float(-x),
        other => panic!("negating {other:?}"),
    }
}

/// The Boolean connective `op` applied to `x` and `y`.
pub fn bool_op(op: BoolOp, x: bool, y: bool) -> bool {
    match op {
        BoolOp::And => x && y,
        BoolOp::Or => x || y,
        BoolOp::Implies => !x || y,
        BoolOp::Iff => x == y,
    }
}

/// The positions of `bound`'s window at `i`: as [`window`] for a step
/// bound, and for a duration bound the `j <= i` whose time lies `lo ..= hi`
/// before `times[i]`.
pub fn timed_window(
    bound: Option<Bound>,
    times: &[i64],
    i: usize,
) -> Box<dyn Iterator<Item = usize> + '_> {
    match bound {
        Some(b) if b.unit == BoundUnit::Time => Box::new((0..=i).filter(move |&j| {
            let age = (times[i] - times[j]) as u64;
            age >= b.lo && b.hi.is_none_or(|hi| age <= hi)
        })),
        _ => Box::new(window(bound, i)),
    }
}

/// The positions `j` with `i - hi <= j <= i - lo` and `j >= 0` (all of `0..=i` without a bound).
pub fn window(bound: Option<Bound>, i: usize) -> impl Iterator<Item = usize> {
    let (lo, hi) = match bound {
        None => (0, None),
        Some(b) => (b.lo, b.hi),
    };
    let i = i as u64;
    let first = match hi {
        Some(hi) => i.saturating_sub(hi),
        None => 0,
    };
    // Empty when the window lies wholly before the trace start (i < lo).
    let last = i.checked_sub(lo);
    let range = match last {
        Some(last) => first..=last,
        #[allow(clippy::reversed_empty_ranges)]
        None => 1..=0,
    };
    range.map(|j| j as usize)
}

/// `x op y` on two values of the same type (floats by IEEE: NaN is unordered).
pub fn compare(op: CmpOp, x: Value, y: Value) -> bool {
    use std::cmp::Ordering;
    let ord: Option<Ordering> = match (x, y) {
        (Value::Bool(a), Value::Bool(b)) => Some(a.cmp(&b)),
        (Value::Int(a), Value::Int(b)) => Some(a.cmp(&b)),
        (Value::Float(a), Value::Float(b)) => a.partial_cmp(&b),
        (Value::Enum(a), Value::Enum(b)) => Some(a.cmp(&b)),
        (a, b) => panic!("comparing {a:?} with {b:?}"),
    };
    match op {
        CmpOp::Eq => ord == Some(Ordering::Equal),
        CmpOp::Ne => ord != Some(Ordering::Equal),
        CmpOp::Lt => ord == Some(Ordering::Less),
        CmpOp::Le => matches!(ord, Some(Ordering::Less | Ordering::Equal)),
        CmpOp::Gt => ord == Some(Ordering::Greater),
        CmpOp::Ge => matches!(ord, Some(Ordering::Greater | Ordering::Equal)),
    }
}

/// `x op y` on two ints (wrapping) or two floats (IEEE).
pub fn arith(op: ArithOp, x: Value, y: Value) -> Value {
    match (x, y) {
        (Value::Int(a), Value::Int(b)) => Value::Int(match op {
            ArithOp::Add => a.wrapping_add(b),
            ArithOp::Sub => a.wrapping_sub(b),
            ArithOp::Mul => a.wrapping_mul(b),
        }),
        (Value::Float(a), Value::Float(b)) => Value::Float(match op {
            ArithOp::Add => a + b,
            ArithOp::Sub => a - b,
            ArithOp::Mul => a * b,
        }),
        (a, b) => panic!("arithmetic on {a:?} and {b:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hindsight_compiler::ast::Span;
    use hindsight_compiler::hir::Ty;

    fn input(k: usize) -> Expr {
        Expr {
            kind: ExprKind::Input(k),
            ty: Ty::Bool,
            span: Span::default(),
        }
    }

    fn boxed(kind: ExprKind) -> Expr {
        Expr {
            kind,
            ty: Ty::Bool,
            span: Span::default(),
        }
    }

    fn trace(bits: &[(bool, bool)]) -> Vec<Step> {
        bits.iter()
            .map(|&(p, q)| vec![Value::Bool(p), Value::Bool(q)])
            .collect()
    }

    fn values(e: &Expr, t: &[Step]) -> Vec<bool> {
        (0..t.len()).map(|i| eval(e, t, i).as_bool()).collect()
    }

    #[test]
    fn window_clips_at_the_trace_start() {
        let b = |lo, hi| Some(Bound::steps(lo, hi));
        assert_eq!(window(b(2, Some(4)), 1).count(), 0);
        assert_eq!(window(b(2, Some(4)), 3).collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!(window(b(2, Some(4)), 9).collect::<Vec<_>>(), vec![5, 6, 7]);
        assert_eq!(window(b(1, None), 3).collect::<Vec<_>>(), vec![0, 1, 2]);
        assert_eq!(window(None, 2).collect::<Vec<_>>(), vec![0, 1, 2]);
    }

    #[test]
    fn since_by_hand() {
        // p S q over   p: 1 1 0 1 1,  q: 0 1 0 0 0
        // step 0: no q yet -> false; 1: q -> true; 2: p fails after q -> false;
        // 3, 4: no q since the p failure -> false.
        let t = trace(&[
            (true, false),
            (true, true),
            (false, false),
            (true, false),
            (true, false),
        ]);
        let s = boxed(ExprKind::Binary(
            BinaryTemporal::Since,
            None,
            Box::new(input(0)),
            Box::new(input(1)),
        ));
        assert_eq!(values(&s, &t), vec![false, true, false, false, false]);
    }
}
