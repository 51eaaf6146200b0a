//! The run as a JSON Lines population trace (language.md section 6), for
//! `hindsight check epidemic.hind --trace LOG`.

use crate::epidemic::{Agent, Globals};
use std::fmt::Write as _;

/// One trace line: `{"agents": [...], "globals": {...}}` (no newline).
pub fn line(agents: &[Agent], globals: &Globals) -> String {
    let mut out = String::from("{\"agents\": [");
    for (i, agent) in agents.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(
            out,
            "{{\"health\": \"{:?}\", \"female\": {}, \"age\": {}}}",
            agent.health, agent.female, agent.age
        );
    }
    let _ = write!(
        out,
        "], \"globals\": {{\"day\": {}, \"lockdown\": {}}}}}",
        globals.day, globals.lockdown
    );
    out
}
