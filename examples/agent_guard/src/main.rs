//! Runs the guarded agent on its scripted model and prints the transcript.

use agent_guard::agent::{Agent, Outcome};
use agent_guard::model::ScriptedModel;

fn main() {
    let mut agent = Agent::default();
    for turn in agent.run(&mut ScriptedModel::default()) {
        println!("model proposes: {} (truck in {:?})", turn.call, turn.truck);
        match turn.outcome {
            Outcome::Executed => println!("  guard: ok -> executed"),
            Outcome::Refused(rules) => {
                println!("  guard: REFUSED, it would break {}", rules.join(", "));
                println!("  model is told why and replans");
            }
        }
    }
    println!(
        "done: truck in {:?}, packages {:?}",
        agent.world.truck, agent.world.packages
    );
}
