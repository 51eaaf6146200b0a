//! `hindsight explain SPEC [--block NAME]`: a human-readable report of what a
//! spec compiles to, for auditors and the docs — per monitor its table (slots,
//! state cells, automata with their states' verdicts and residuals), then one
//! summary line per property: past- or future-time, and for future-time ones
//! the automaton's size and atoms; per system its stamp layout, then per
//! lifeline the guards it owns, the entries it exports and its table; per
//! population its strata, signals, future quantifiers, skeletons and top table
//! ([`PopulationTables`]'s display), one summary line per property, which
//! strata the generated code runs as bit lanes, and its state per agent and
//! at capacity.

use crate::compile::{compile_block, compile_spec, Block};
use crate::report;
use hindsight_compiler::analysis;
use hindsight_compiler::ir::population::{PopulationTables, PropertyVerdict};
use hindsight_compiler::ir::system::{EntryId, InputSource, LifelineId, SystemTables};
use hindsight_compiler::ir::table::state_width;
use hindsight_compiler::ir::table::Table;
use hindsight_compiler::{hir, Compiled};
use hindsight_grammar::diag::Code;
use hindsight_trace::{EXIT_ERROR, EXIT_OK};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What `hindsight explain` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplainOptions {
    /// The spec file.
    pub spec: PathBuf,
    /// The monitor, system or population block to report on; every block
    /// when `None`.
    pub block: Option<String>,
    /// Text (the report), or the automata and past tables as graphs.
    pub format: ExplainFormat,
}

/// What `hindsight explain SPEC` prints (`--format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ExplainFormat {
    /// The report: tables, automata as transition lists, sizes.
    #[default]
    Text,
    /// Graphviz DOT: one digraph per past table and per automaton.
    Dot,
    /// The same graphs laid out as one SVG document (no Graphviz needed).
    Svg,
}

/// Graphs of more nodes are not laid out as SVG (the DOT still is written).
const MAX_SVG_NODES: usize = 300;

/// Runs the command; returns the process exit status.
pub fn run(options: &ExplainOptions) -> u8 {
    if let Some(asked) = code_asked(&options.spec) {
        return explain_code(asked, options.block.is_some());
    }
    let spec_name = options.spec.display().to_string();
    if options.format != ExplainFormat::Text {
        return print_graphs(options, &spec_name);
    }
    let text = if let Some(block) = options.block.as_deref() {
        // One block: only its automata are built.
        let Ok(selected) = compile_block(&options.spec, &spec_name, Some(block)) else {
            return EXIT_ERROR;
        };
        report_text(
            &spec_name,
            &selected.spec,
            &selected.compiled,
            &selected.source,
            &[selected.block],
            selected.compile_time,
        )
    } else {
        let Ok(spec) = compile_spec(&options.spec, &spec_name) else {
            return EXIT_ERROR;
        };
        let compiled = &spec.compiled;
        let blocks: Vec<Block> = (0..compiled.program.monitors.len())
            .map(Block::Monitor)
            .chain((0..compiled.program.systems.len()).map(Block::System))
            .chain((0..compiled.program.populations.len()).map(Block::Population))
            .collect();
        render_blocks(
            &spec_name,
            compiled,
            &spec.source,
            &blocks,
            spec.compile_time,
        )
    };
    print(&text)
}

/// Writes `text` to stdout; a closed pipe is not an error.
fn print(text: &str) -> u8 {
    match io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => EXIT_OK,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            report::error(format_args!("cannot write the report: {e}"));
            EXIT_ERROR
        }
    }
}

/// `--format dot|svg`: every past table and automaton of the chosen block
/// (or of every block) as a graph.
fn print_graphs(options: &ExplainOptions, spec_name: &str) -> u8 {
    let compiled = match options.block.as_deref() {
        Some(block) => compile_block(&options.spec, spec_name, Some(block)).map(|b| b.compiled),
        None => compile_spec(&options.spec, spec_name).map(|s| s.compiled),
    };
    let Ok(compiled) = compiled else {
        return EXIT_ERROR;
    };
    let program = &compiled.program;
    let mut tables: Vec<(String, &Table)> = program
        .monitors
        .iter()
        .map(|t| (format!("monitor {}", t.name), t))
        .collect();
    for system in &program.systems {
        for lifeline in &system.lifelines {
            let name = format!("system {}, lifeline {}", system.name, lifeline.name);
            tables.push((name, &lifeline.table));
        }
    }
    for population in &program.populations {
        tables.push((format!("population {}", population.name), &population.top));
    }
    let graphs: Vec<hindsight_draw::automaton::Graph> = tables
        .iter()
        .flat_map(|(name, table)| graphs(name, table))
        .collect();
    match options.format {
        ExplainFormat::Svg => match hindsight_draw::automaton::svg(&graphs, MAX_SVG_NODES) {
            Ok(svg) => print(&svg),
            Err(why) => {
                report::error(format_args!("{why}"));
                EXIT_ERROR
            }
        },
        _ => print(
            &graphs
                .iter()
                .map(|(_, dot, _)| dot.as_str())
                .collect::<String>(),
        ),
    }
}

/// A table's past slots as a dataflow graph (if it has any) and each of its
/// automata.
fn graphs(block: &str, table: &Table) -> Vec<hindsight_draw::automaton::Graph> {
    use hindsight_compiler::ir::table::Source;
    use hindsight_draw::automaton::{Dataflow, Machine, MachineState};
    let mut graphs = Vec::new();
    let past: Vec<(String, usize)> = table
        .outputs
        .iter()
        .filter_map(|out| match out.source {
            Source::Slot(slot) => Some((out.name.clone(), slot.index())),
            _ => None,
        })
        .collect();
    if !table.slots.is_empty() {
        let slots = table
            .enumerate_slots()
            .map(|(id, slot)| {
                let (a, b) = slot.op.operands();
                let reads = [a, b].into_iter().flatten().map(|s| s.index()).collect();
                (format!("s{id} {}", table.slot_text(id)), reads)
            })
            .collect();
        let dataflow = Dataflow {
            title: format!("{block}: past table"),
            slots,
            outputs: past,
        };
        graphs.push(dataflow.graph());
    }
    for out in &table.outputs {
        let Source::Future(f) = out.source else {
            continue;
        };
        let Some(future) = f.get(&table.futures) else {
            continue;
        };
        let several = future.automata.len() > 1;
        for &k in &future.automata {
            let Some(a) = k.get(&table.automata) else {
                continue;
            };
            let part = if several {
                format!(" (automaton a{k})")
            } else {
                String::new()
            };
            let title = format!("{block}: {} = {}{part}", out.name, table.future_formula(f));
            let machine = Machine {
                title,
                atoms: table.atom_names(a),
                states: a
                    .states
                    .iter()
                    .map(|s| MachineState {
                        verdict: s.verdict.as_str().into(),
                        end_verdict: s.end_verdict.as_str().into(),
                        residual: s.residual.clone(),
                    })
                    .collect(),
                transitions: a.transitions.clone(),
            };
            graphs.push(machine.graph());
        }
    }
    graphs
}

/// The diagnostic code `spec` names instead of a file (`E0200`, `w0101`),
/// upper-cased; `None` for a path (an existing file named like a code is a
/// spec).
fn code_asked(spec: &Path) -> Option<String> {
    let text = spec.to_str()?;
    let bytes = text.as_bytes();
    let looks_like_code = bytes.len() == 5
        && matches!(bytes[0], b'E' | b'W' | b'e' | b'w')
        && bytes[1..].iter().all(u8::is_ascii_digit);
    (looks_like_code && !spec.exists()).then(|| text.to_ascii_uppercase())
}

/// Prints the long explanation of the code written `asked` (rustc's `--explain`).
fn explain_code(asked: String, with_block: bool) -> u8 {
    let Some(code) = Code::parse(&asked) else {
        report::error(format_args!(
            "no diagnostic has code {asked} (docs/errors.md lists them: E0001 to E0900, W0100 to W0104)"
        ));
        return EXIT_ERROR;
    };
    if with_block {
        report::error(format_args!(
            "--block names a block of a spec; {code} is a diagnostic code"
        ));
        return EXIT_ERROR;
    }
    let text = format!(
        "{code} ({}): {}\n\n{}",
        code.stage(),
        code.meaning(),
        code.explanation()
    );
    match io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => EXIT_OK,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            report::error(format_args!("cannot write the explanation: {e}"));
            EXIT_ERROR
        }
    }
}

/// The report on the monitors and systems `blocks` of the spec `spec_name`,
/// which took `compile_time` to compile (without the spec's text, a
/// population's quantifiers as written are missing: see [`render_blocks`]).
pub fn render(
    spec_name: &str,
    compiled: &Compiled,
    blocks: &[Block],
    compile_time: Duration,
) -> String {
    render_blocks(spec_name, compiled, "", blocks, compile_time)
}

/// The report on the monitors, systems and populations `blocks` (in the
/// order given) of the spec `spec_name`, whose text `source` compiled to `compiled`
/// in `compile_time`.
pub fn render_blocks(
    spec_name: &str,
    compiled: &Compiled,
    source: &str,
    blocks: &[Block],
    compile_time: Duration,
) -> String {
    report_text(
        spec_name,
        &compiled.spec,
        compiled,
        source,
        blocks,
        compile_time,
    )
}

/// [`render_blocks`], the header counting the blocks of `whole` (the whole
/// checked spec, of which `compiled` may hold some blocks only).
fn report_text(
    spec_name: &str,
    whole: &hir::Spec,
    compiled: &Compiled,
    source: &str,
    blocks: &[Block],
    compile_time: Duration,
) -> String {
    let properties = || whole.monitors.iter().flat_map(|m| &m.properties);
    let future = properties().filter(|p| p.formula.is_future()).count();
    let total = properties().count();
    let systems = blocks_and_parts(
        whole.systems.iter().map(|s| s.guards.len()),
        ("system", "systems"),
        ("guard", "guards"),
    );
    let populations_text = blocks_and_parts(
        whole.populations.iter().map(|p| p.properties.len()),
        ("population", "populations"),
        ("property", "properties"),
    );
    let mut text = format!(
        "{spec_name}: {}, {} ({} past-time, {future} future-time){systems}{populations_text}, \
         compiled in {:.3} ms\n",
        count(whole.monitors.len(), "monitor", "monitors"),
        count(total, "property", "properties"),
        total - future,
        compile_time.as_secs_f64() * 1000.0,
    );
    for &block in blocks {
        text.push('\n');
        match block {
            Block::Monitor(k) => {
                if let Some(table) = compiled.program.monitors.get(k) {
                    render_monitor(&mut text, table);
                }
            }
            Block::System(k) => {
                if let Some(system) = compiled.program.systems.get(k) {
                    render_system(&mut text, system);
                }
            }
            Block::Population(k) => {
                if let Some(tables) = compiled.program.populations.get(k) {
                    render_population(&mut text, tables, source);
                }
            }
        }
    }
    text
}

/// Appends a population's tables (written in `source`), its quantifiers as
/// written, its properties' summaries, how its strata are evaluated and its
/// state sizes to `text`.
fn render_population(text: &mut String, population: &PopulationTables, source: &str) {
    text.push_str(&population.to_string());
    let signals = analysis::signal_texts(population, source);
    let future = analysis::future_quantifier_texts(population, source);
    let written: Vec<(String, &str)> = signals
        .iter()
        .enumerate()
        .filter_map(|(j, t)| Some((population.signal_name(j)?.to_owned(), t.as_str())))
        .chain(
            future
                .iter()
                .enumerate()
                .filter_map(|(k, t)| Some((format!("f{k}"), t.as_deref()?))),
        )
        .collect();
    if !written.is_empty() {
        text.push_str("quantifiers as written:\n");
        let width = column_width(written.iter().map(|(n, _)| n.as_str()));
        for (name, written) in &written {
            text.push_str(&format!("  {name:<width$}  {written}\n"));
        }
    }
    text.push_str("properties:\n");
    let width = column_width(population.properties.iter().map(|p| p.name.as_str()));
    for property in &population.properties {
        let summary = match &property.verdict {
            PropertyVerdict::Top(i) => match i.get(&population.top.outputs) {
                Some(out) => format!("top {}", population.top.output_summary(out)),
                None => format!("top output o{i} missing"),
            },
            PropertyVerdict::Combined(skeleton) => {
                let reset = if property.reset { ", with reset" } else { "" };
                format!(
                    "combined (three-valued{reset}): {}",
                    population.skeleton_text(skeleton)
                )
            }
        };
        let line = format!("  {:<width$}  {summary}", property.name);
        text.push_str(line.trim_end());
        text.push('\n');
    }
    // A lane stratum keeps each (one-bit) cell as one bit per agent, packed
    // in bytes; the others a byte per bool cell (or more) per agent.
    let lanes = population.lane_strata();
    let lane_bits: u64 = population
        .strata
        .iter()
        .zip(&lanes)
        .filter(|(_, &lane)| lane)
        .map(|(s, _)| s.table.state.len() as u64)
        .sum();
    let per_agent = population.state_per_agent();
    let cells = per_agent.cells;
    if !population.strata.is_empty() {
        let list = |lane: bool| {
            let strata: Vec<String> = lanes
                .iter()
                .enumerate()
                .filter(|(_, &l)| l == lane)
                .map(|(s, _)| s.to_string())
                .collect();
            list_or_none(&strata)
        };
        text.push_str(&format!(
            "strata in bit lanes (64 agents per u64 word, {} per agent): {}; one agent at a time: {}\n",
            bits(lane_bits),
            list(true),
            list(false),
        ));
    }
    let (automata, memberships) = (per_agent.automata, per_agent.memberships);
    let per_agent = per_agent.total();
    text.push_str(&format!(
        "state per agent: {} = {cells} (stratum state cells) + {automata} (body automata) \
         + {memberships} (memberships of future quantifiers, fixed at the run's first step)\n",
        bytes(per_agent),
    ));
    text.push_str(&format!(
        "state of {} agents (the capacity): {}\n",
        population.capacity,
        bytes(per_agent.saturating_mul(population.capacity as u64)),
    ));
    let top_automata: u64 = population
        .top
        .automata
        .iter()
        .map(|a| state_width(a.states.len()) as u64)
        .sum();
    text.push_str(&format!(
        "top table: {} = {} (state cells) + {top_automata} (automata)\n",
        bytes(population.top.state_bytes().saturating_add(top_automata)),
        population.top.state_bytes(),
    ));
}

/// Appends a monitor's table and its properties' summaries to `text`.
fn render_monitor(text: &mut String, table: &Table) {
    text.push_str(&table.to_string());
    text.push_str("properties:\n");
    let width = column_width(table.outputs.iter().map(|o| o.name.as_str()));
    for out in &table.outputs {
        let line = format!("  {:<width$}  {}", out.name, table.output_summary(out));
        text.push_str(line.trim_end());
        text.push('\n');
    }
}

/// Appends a system's stamp layout and, per lifeline, the guards it owns, the
/// view entries it exports and reads, and its table.
fn render_system(text: &mut String, system: &SystemTables) {
    text.push_str(&format!(
        "system {}: {}, {}\n",
        system.name,
        count(system.lifelines.len(), "lifeline", "lifelines"),
        count(system.guards.len(), "guard", "guards"),
    ));
    text.push_str(&system.layout.to_string());
    let entry = |id: EntryId| format!("e{id}");
    for (k, lowered) in LifelineId::range(system.lifelines.len()).zip(&system.lifelines) {
        let guards: Vec<&str> = lowered
            .guards
            .iter()
            .filter_map(|&g| g.get(&system.guards).map(|g| g.name.as_str()))
            .collect();
        let exports: Vec<String> = system.layout.owned_by(k).map(entry).collect();
        let mut reads: Vec<EntryId> = lowered
            .inputs
            .iter()
            .filter_map(|source| match *source {
                InputSource::Entry(id) => Some(id),
                _ => None,
            })
            .collect();
        reads.sort_unstable();
        let reads: Vec<String> = reads.into_iter().map(entry).collect();
        text.push_str(&format!(
            "\nlifeline {}: guards {}; exports {}; reads {}\n",
            lowered.name,
            list_or_none(&guards),
            list_or_none(&exports),
            list_or_none(&reads),
        ));
        text.push_str(&lowered.table.to_string());
    }
}

/// `a, b`, or `none`.
fn list_or_none(items: &[impl AsRef<str>]) -> String {
    if items.is_empty() {
        "none".to_string()
    } else {
        items
            .iter()
            .map(AsRef::as_ref)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// `1 bit`, `2 bits`.
fn bits(n: u64) -> String {
    format!("{n} {}", if n == 1 { "bit" } else { "bits" })
}

/// `1 byte`, `2 bytes`.
fn bytes(n: u64) -> String {
    format!("{n} {}", if n == 1 { "byte" } else { "bytes" })
}

/// `1 monitor`, `2 monitors`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The length of the longest of `names` (0 if there are none): the width of
/// a column of names that what follows them is aligned after.
fn column_width<'a>(names: impl Iterator<Item = &'a str>) -> usize {
    names.map(str::len).max().unwrap_or(0)
}

/// The header's `, 2 systems (3 guards)`: how many blocks of a kind there
/// are, given the number of parts of each, with the parts' total; nothing
/// when there are none. `block` and `part` are (singular, plural).
fn blocks_and_parts(
    parts_per_block: impl ExactSizeIterator<Item = usize>,
    block: (&str, &str),
    part: (&str, &str),
) -> String {
    let blocks = parts_per_block.len();
    if blocks == 0 {
        return String::new();
    }
    let parts = parts_per_block.sum();
    format!(
        ", {} ({})",
        count(blocks, block.0, block.1),
        count(parts, part.0, part.1)
    )
}
