//! The three ways to give `#[monitor]` its spec produce the same monitor.

use hindsight_runtime::Verdict::{self, False as F, True as T};

#[hindsight_macros::monitor(
    enum Mode { on, off }
    monitor lamp {
        input mode: Mode;
        input level: int;
        property bright_only_when_on = level > 5 -> mode == on;
        property switched_on_before = mode == on -> Y O (mode == off);
    }
)]
mod as_tokens {}

#[hindsight_macros::monitor(
    "
    enum Mode { on, off }
    monitor lamp {
        input mode: Mode;
        input level: int;
        property bright_only_when_on = level > 5 -> mode == on;
        property switched_on_before = mode == on -> Y O (mode == off);
    }
    "
)]
mod as_string {}

#[hindsight_macros::monitor(file = "tests/specs/lamp.hind")]
mod as_file {}

/// Two specs, two monitors: no shorthand, each monitor in its own module.
#[hindsight_macros::monitor(
    monitor a { input x: bool; property p = x; }
    monitor b { input x: bool; property p = !x; }
)]
mod two {}

/// `(mode is on, level)` per step.
const TRACE: [(bool, i64); 4] = [(true, 9), (false, 9), (true, 2), (true, 7)];

/// By hand: step 0 is on with nothing before (switched_on_before false); step 1
/// is bright while off; steps 2 and 3 are on after the off at step 1.
const EXPECTED: [[Verdict; 2]; 4] = [[T, F], [F, T], [T, T], [T, T]];

macro_rules! run {
    ($module:ident) => {{
        use $module::{Input, Mode, Monitor};
        let mut monitor = Monitor::new();
        let verdicts: Vec<[Verdict; 2]> = TRACE
            .iter()
            .map(|&(on, level)| {
                let mode = if on { Mode::on } else { Mode::off };
                monitor.step(&Input { mode, level }).to_array()
            })
            .collect();
        verdicts
    }};
}

#[test]
fn tokens_string_and_file_give_the_same_hand_checked_verdicts() {
    assert_eq!(run!(as_tokens), EXPECTED);
    assert_eq!(run!(as_string), EXPECTED);
    assert_eq!(run!(as_file), EXPECTED);
}

#[test]
fn the_shorthand_and_the_full_path_name_the_same_monitor() {
    let _: as_tokens::lamp::Monitor = as_tokens::Monitor::new();
    assert_eq!(as_tokens::SCHEMA.monitor, "lamp");
}

#[test]
fn several_monitors_live_in_their_own_modules() {
    assert_eq!(two::a::Monitor::new().step(&two::a::Input { x: true }).p, T);
    assert_eq!(two::b::Monitor::new().step(&two::b::Input { x: true }).p, F);
}

#[hindsight_macros::monitor(
    population crowd {
        capacity 8;
        agent { sick: bool }
        property nobody_sick = forall a in agents: !a.sick;
        property one_sick_eventually = exists a in agents: F a.sick;
    }
)]
mod crowd {}

#[test]
fn a_population_block_gives_a_population_monitor() {
    use crowd::crowd::{Agent, Globals, Monitor};
    let mut m: Monitor = Monitor::new();
    let healthy = [Agent { sick: false }, Agent { sick: false }];
    let v = m.step(&healthy, &Globals {}).unwrap();
    // Nobody is sick at step 0; nobody has been sick yet, so F is open.
    assert_eq!(
        (v.nobody_sick, v.one_sick_eventually),
        (T, Verdict::Unknown)
    );
    let one = [Agent { sick: false }, Agent { sick: true }];
    let v = m.step(&one, &Globals {}).unwrap();
    // Agent 1 is sick: the forall is false now, the exists decided true.
    assert_eq!((v.nobody_sick, v.one_sick_eventually), (F, T));
    // Capacity 8 declared in the spec; a third agent changes the count.
    assert!(m.step(&[Agent { sick: false }; 3], &Globals {}).is_err());
    assert_eq!(crowd::crowd::CAPACITY, 8);
}

/// `sealed_stamps` before the spec: the system's stamps travel sealed.
#[hindsight_macros::monitor(
    sealed_stamps,
    system pair {
        lifeline A { x: int }
        lifeline B { y: int }
        guard saw_one at B = A.x == 1;
    }
)]
mod sealed {}

#[test]
fn sealed_stamps_from_the_macro_need_the_key() {
    use hindsight_runtime::stamp::{StampError, StampKey};
    use sealed::pair::{Stamp, A, B};
    let key = StampKey::new(&[1; 32]);
    let mut a = A::Monitor::new();
    let mut b = B::Monitor::new();
    let stamp = a.on_send(&A::Changes { x: Some(1) }).expect("sends");
    let mut out = [0u8; Stamp::BYTES];
    let len = stamp.to_bytes(&key, &mut out).expect("fits");
    let received = Stamp::from_bytes(&out[..len], &key).expect("authentic");
    b.on_recv(&received, &B::Changes::default())
        .expect("consistent");
    assert_eq!(b.on_choice(&B::Changes::default()).saw_one, T);
    out[0] ^= 1;
    assert_eq!(
        Stamp::from_bytes(&out[..len], &key),
        Err(StampError::Unauthenticated)
    );
}

#[hindsight_macros::monitor(
    monitor door {
        input request: bool;
        input grant: bool;
        /// A grant needs an earlier request.
        property answered = grant -> Y O request;
    }
)]
mod door_rules {}

#[test]
fn peek_does_not_advance_and_step_does() {
    let grant = door_rules::Input {
        request: false,
        grant: true,
    };
    let request = door_rules::Input {
        request: true,
        grant: false,
    };
    let mut m = door_rules::Monitor::new();
    // Step 0: a grant with no request before it would violate the rule.
    assert_eq!(m.peek(&grant).answered, F);
    assert_eq!(m.step(&request).answered, T);
    // Step 1: the request was at step 0, so a grant is fine now.
    assert_eq!(m.step(&grant).answered, T);
    assert_eq!(m.finish(), door_rules::door::Verdicts { answered: T });
}

/// A system with a protocol: the macro writes its central and group monitors.
#[hindsight_macros::monitor(
    system shop {
        lifeline buyer {}
        lifeline seller {}
        lifeline bank {}
        protocol order = buyer -> seller: order . (seller -> bank: charge . bank -> buyer: receipt + seller -> buyer: refusal);
    }
)]
mod shop_rules {}

#[test]
fn protocol_monitors_from_the_macro_follow_the_protocol() {
    use shop_rules::shop::protocols::order::{Group, Monitor};
    // Lifelines in declaration order: buyer 0, seller 1, bank 2. The
    // protocol is synchronous: a message is one event, at its send.
    let mut central = Monitor::new();
    assert!(central.on_message(true, 0, 1, "order"));
    assert!(!central.on_message(false, 0, 1, "order"));
    assert_eq!(central.verdict(), Verdict::Unknown);
    // Not a message of the protocol: ignored.
    assert!(!central.on_message(true, 1, 0, "hello"));
    assert!(central.on_message(true, 1, 0, "refusal"));
    assert_eq!(central.verdict(), T);
    // A receipt before any order violates the protocol; the seller's group
    // does not see receipts, so for it nothing has happened yet.
    let mut central = Monitor::new();
    central.on_message(true, 2, 0, "receipt");
    assert_eq!(central.verdict(), F);
    let mut seller = Group::new(&[1]);
    assert!(!seller.on_message(true, 2, 0, "receipt"));
    assert_eq!(seller.verdict(), Verdict::Unknown);
    let mut bank = Group::new(&[2]);
    assert!(bank.on_message(true, 2, 0, "receipt"));
    assert_eq!(bank.verdict(), F);
}
