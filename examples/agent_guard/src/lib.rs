//! A tool-using agent for the IPC-Trucks domain whose every action passes a
//! Hindsight guard first.
//!
//! The "model" proposes tool calls (a fixed script standing in for an LLM, so
//! runs are deterministic). Before running a call, the agent asks the monitor
//! what the rules would say if it ran — `peek`, which leaves the monitor's state
//! alone — and refuses the call when any rule would turn false; the model then
//! proposes something else. A call that passes is executed and recorded with
//! `step`, so the monitor has seen exactly the executed trace.

pub mod agent;
pub mod model;
pub mod world;

/// The IPC-Trucks rules from the TRAC paper, compiled into this module at build
/// time: `rules::Monitor`, `rules::Input`, `rules::Verdicts`, and the spec's
/// enums `rules::Action` and `rules::Area`.
#[hindsight_macros::monitor(
    enum Action { drive, load, unload, deliver }
    enum Area { depot, a1, a2 }

    monitor trucks {
        input action: Action;
        input area: Area;   // where the truck is when it acts
        input pkg: int;     // the package acted on (0 for drive)

        let load1 = action == load && pkg == 1;
        let load2 = action == load && pkg == 2;
        let unload1_at_a2 = action == unload && pkg == 1 && area == a2;
        let unload2_at_a2 = action == unload && pkg == 2 && area == a2;

        // Packages are loaded only in area a1.
        property load_only_in_a1 = action == load -> area == a1;

        // Each package is loaded at most once.
        property load_at_most_once = !(load1 && Y O load1) && !(load2 && Y O load2);

        // A package is delivered only after it was unloaded at a2, and not
        // loaded again since.
        property deliver_after_unload =
            (action == deliver && pkg == 1 -> (!load1 S unload1_at_a2))
            && (action == deliver && pkg == 2 -> (!load2 S unload2_at_a2));

        // Package 2 is delivered before package 1.
        property pkg2_before_pkg1 =
            (action == deliver && pkg == 1) -> Y O (action == deliver && pkg == 2);
    }
)]
pub mod rules {}
