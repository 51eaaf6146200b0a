//! The typed API of the generated trucks monitor on a hand-worked agent run:
//! the agent asks `peek` before acting ("deny before acting"), `peek` leaves the
//! state alone, `finish` reports the last step, `reset` starts over.

use hindsight_no_std_monitor::trucks::{Input, Monitor, Verdicts, SCHEMA};
use hindsight_no_std_monitor::{Action, Area};
use hindsight_runtime::{InputType, Verdict};

const T: Verdict = Verdict::True;
const F: Verdict = Verdict::False;

fn at(action: Action, area: Area, pkg: i64) -> Input {
    Input { action, area, pkg }
}

#[test]
fn an_agent_run_checked_before_each_action() {
    use Action::*;
    use Area::*;
    // Verdict arrays are in declaration order: load_only_in_a1, load_at_most_once,
    // deliver_after_unload, pkg2_before_pkg1, fuelled, no_double_look.
    let mut m = Monitor::new();
    assert_eq!(m.finish(), Verdicts::UNKNOWN);

    assert_eq!(m.step(&at(refuel, depot, 0)).to_array(), [T; 6]);
    assert_eq!(m.step(&at(drive, depot, 0)).to_array(), [T; 6]); // refuelled 1 step ago
    assert_eq!(m.step(&at(load, a1, 2)).to_array(), [T; 6]);

    // Delivering before unloading would break deliver_after_unload: the agent
    // asks first, sees the violation, and unloads instead.
    let before = m.clone();
    let asked = m.peek(&at(deliver, a2, 2));
    assert_eq!(asked.deliver_after_unload, F);
    assert_eq!(asked.to_array(), [T, T, F, T, T, T]);
    assert_eq!(m, before, "peek changed the state");
    assert_eq!(m.step(&at(unload, a2, 2)).to_array(), [T; 6]);

    // Now the delivery is allowed, and peek says exactly what step then reports.
    let asked = m.peek(&at(deliver, a2, 2));
    assert_eq!(asked.to_array(), [T; 6]);
    assert_eq!(m.step(&at(deliver, a2, 2)), asked);

    // Package 1 may only be delivered after package 2: it was, so this holds.
    assert_eq!(m.step(&at(deliver, a2, 1)).pkg2_before_pkg1, T);
    assert_eq!(m.step(&at(look, a2, 0)).to_array(), [T; 6]);
    assert_eq!(m.peek(&at(look, a2, 0)).no_double_look, F);
    // Driving 7 steps after the only refuel, then loading outside a1, a second time.
    assert_eq!(m.step(&at(drive, a2, 0)).to_array(), [T, T, T, T, F, T]);
    let last = m.step(&at(load, a2, 1));
    assert_eq!(last.to_array(), [F, F, T, T, T, T]);

    assert_eq!(m.finish(), last);
    m.reset();
    assert_eq!(m, Monitor::new());
    assert_eq!(m, Monitor::default());
    assert_eq!(m.finish(), Verdicts::UNKNOWN);
}

#[test]
fn schema_and_names_follow_the_spec() {
    let properties = [
        "load_only_in_a1",
        "load_at_most_once",
        "deliver_after_unload",
        "pkg2_before_pkg1",
        "fuelled",
        "no_double_look",
    ];
    assert_eq!(Verdicts::NAMES, properties);
    assert_eq!(SCHEMA.monitor, "trucks");
    let declared: Vec<&str> = SCHEMA.properties.iter().map(|p| p.name).collect();
    assert_eq!(declared, properties);
    assert!(SCHEMA.properties.iter().all(|p| !p.reset));
    let inputs: Vec<_> = SCHEMA.inputs.iter().map(|i| (i.name, i.ty)).collect();
    assert_eq!(
        inputs,
        [
            (
                "action",
                InputType::Enum {
                    name: "Action",
                    variants: &["drive", "load", "unload", "deliver", "refuel", "look"],
                }
            ),
            (
                "area",
                InputType::Enum {
                    name: "Area",
                    variants: &["depot", "a1", "a2"],
                }
            ),
            ("pkg", InputType::Int),
        ]
    );
    assert_eq!(Action::NAMES[Action::refuel.index() as usize], "refuel");
    assert_eq!(Area::from_index(2), Some(Area::a2));
    assert_eq!(Area::from_index(3), None);
}
