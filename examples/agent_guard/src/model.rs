//! A stand-in for the language model: it proposes tool calls from a fixed
//! script that contains the mistakes a real model makes, each followed by the
//! call it would try after being refused.

use crate::rules::Area;
use crate::world::ToolCall;

/// The model's proposals, in order. Five of them break a rule.
pub const SCRIPT: [ToolCall; 13] = [
    ToolCall::Load(1), // still at the depot: loading happens only in a1
    ToolCall::Drive(Area::a1),
    ToolCall::Load(1),
    ToolCall::Load(2),
    ToolCall::Load(1), // package 1 is already loaded
    ToolCall::Drive(Area::a2),
    ToolCall::Deliver(1), // not unloaded yet, and package 2 goes first
    ToolCall::Unload(1),
    ToolCall::Deliver(1), // package 2 goes first
    ToolCall::Deliver(2), // package 2 is not unloaded yet
    ToolCall::Unload(2),
    ToolCall::Deliver(2),
    ToolCall::Deliver(1),
];

/// A model that replays [`SCRIPT`].
#[derive(Debug, Default)]
pub struct ScriptedModel {
    next: usize,
}

impl ScriptedModel {
    /// The next proposed tool call, or `None` when the model is done.
    pub fn propose(&mut self) -> Option<ToolCall> {
        let call = SCRIPT.get(self.next).copied();
        self.next += 1;
        call
    }
}
