//! Generated monitors carry no more state than the hand-written ones, plus the
//! last verdicts `finish` reports (one byte per property).

use std::mem::size_of;

use hindsight_benches::generated::{p1, p2, pt2};
use hindsight_benches::hand::{Pt2, P1, P2};

#[test]
fn generated_state_is_what_the_properties_need() {
    let sizes = [
        ("p1", size_of::<P1>(), size_of::<p1::Monitor>(), 1),
        ("p2", size_of::<P2>(), size_of::<p2::Monitor>(), 1),
        ("pt2", size_of::<Pt2>(), size_of::<pt2::Monitor>(), 2),
    ];
    for (name, hand, generated, properties) in sizes {
        println!("{name}: hand-written {hand} bytes, generated {generated} bytes");
        assert!(
            generated <= hand + properties,
            "{name}: {generated} > {hand} + {properties}"
        );
    }
    // One bool per temporal operator: `S`; `Y` and two `S`; `S H O S` and `H O S`.
    assert_eq!(
        [size_of::<P1>(), size_of::<P2>(), size_of::<Pt2>()],
        [1, 3, 7]
    );
}
