//! A crate using the macro: the one-monitor shorthand, `peek` and `step`.

use hindsight_runtime::Verdict;

#[hindsight_macros::monitor(
    monitor door {
        input request: bool;
        input grant: bool;
        /// A grant needs an earlier request.
        property answered = grant -> Y O request;
    }
)]
mod rules {}

fn main() {
    let grant = rules::Input { request: false, grant: true };
    let request = rules::Input { request: true, grant: false };
    let mut m = rules::Monitor::new();
    // Step 0: a grant with no request before it would violate the rule.
    assert_eq!(m.peek(&grant).answered, Verdict::False);
    assert_eq!(m.step(&request).answered, Verdict::True);
    // Step 1: the request was at step 0, so a grant is fine now.
    assert_eq!(m.step(&grant).answered, Verdict::True);
    assert_eq!(m.finish(), rules::door::Verdicts { answered: Verdict::True });
}
