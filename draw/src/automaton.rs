//! What a spec compiles to, as graphs: each future property's LTL3
//! automaton (states labelled with their residual obligation and coloured by
//! verdict, edges labelled with the letters that take them as a small
//! Boolean formula over the atoms) and a block's past table (slots as nodes,
//! operands as edges). Written as Graphviz DOT, and laid out as SVG by
//! layout-rs so that no Graphviz install is needed.

use std::fmt::Write as _;

use crate::svg::escape;

/// An LTL3 automaton to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    /// The property (and part) it decides: a heading.
    pub title: String,
    /// The atoms; bit `i` of a letter is atom `i`'s value.
    pub atoms: Vec<String>,
    /// The states; state 0 is initial.
    pub states: Vec<MachineState>,
    /// The successor of state `s` on letter `l` at `(s << atoms.len()) | l`.
    pub transitions: Vec<u32>,
}

/// One automaton state.
#[derive(Clone, Debug, PartialEq)]
pub struct MachineState {
    /// Its LTL3 verdict: `true`, `false` or `?`.
    pub verdict: String,
    /// The verdict if the trace ended here.
    pub end_verdict: String,
    /// What is still owed, in the spec's syntax.
    pub residual: String,
}

/// A block's past table as a dataflow graph.
#[derive(Clone, Debug, PartialEq)]
pub struct Dataflow {
    /// The block: a heading.
    pub title: String,
    /// Each slot's text (`s11 since s10 s0`) and the slots it reads.
    pub slots: Vec<(String, Vec<usize>)>,
    /// The outputs: a property's name and the slot holding its value.
    pub outputs: Vec<(String, usize)>,
}

/// Fill colours by verdict (a light tint of [`crate::svg::verdict_colour`]).
fn fill(verdict: &str) -> &'static str {
    match verdict {
        "true" => "#dcfce7",
        "false" => "#fee2e2",
        _ => "#fef3c7",
    }
}

/// `text` as a DOT string literal.
fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl Machine {
    /// The automaton as a DOT digraph: one edge per pair of states, labelled
    /// with the letters taking it.
    pub fn dot(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "digraph {} {{", quoted(&self.title));
        out.push_str("  rankdir=LR;\n  node [shape=box, style=filled, fontsize=12];\n");
        let _ = writeln!(
            out,
            "  label={};\n  start [shape=circle, label=\"start\", fillcolor=\"#f1f5f9\"];\n  start -> q0;",
            quoted(&format!("{} — atoms: {}", self.title, self.atoms.join(", ")))
        );
        for (s, state) in self.states.iter().enumerate() {
            let _ = writeln!(
                out,
                "  q{s} [label={}, fillcolor=\"{}\"];",
                quoted(&format!(
                    "q{s}: {} (end {})\n{}",
                    state.verdict, state.end_verdict, state.residual
                )),
                fill(&state.verdict)
            );
        }
        for (from, to, letters) in self.edges() {
            let _ = writeln!(
                out,
                "  q{from} -> q{to} [label={}];",
                quoted(&letters_formula(&self.atoms, &letters))
            );
        }
        out.push_str("}\n");
        out
    }

    /// `(from, to, letters)` for every pair of states some letter joins.
    fn edges(&self) -> Vec<(usize, usize, Vec<usize>)> {
        let letters = 1usize << self.atoms.len();
        let mut edges: Vec<(usize, usize, Vec<usize>)> = Vec::new();
        for from in 0..self.states.len() {
            for letter in 0..letters {
                let Some(&to) = self.transitions.get((from << self.atoms.len()) | letter) else {
                    continue;
                };
                let to = to as usize;
                match edges.iter_mut().find(|(f, t, _)| *f == from && *t == to) {
                    Some(edge) => edge.2.push(letter),
                    None => edges.push((from, to, vec![letter])),
                }
            }
        }
        edges
    }
}

impl Dataflow {
    /// The table as a DOT digraph: operands point at the slots reading them,
    /// outputs are named ovals under their slots.
    pub fn dot(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "digraph {} {{", quoted(&self.title));
        out.push_str("  rankdir=TB;\n  node [shape=box, style=filled, fillcolor=\"#f8fafc\", fontsize=12];\n");
        let _ = writeln!(out, "  label={};", quoted(&self.title));
        for (k, (text, operands)) in self.slots.iter().enumerate() {
            let _ = writeln!(out, "  s{k} [label={}];", quoted(text));
            for operand in operands {
                let _ = writeln!(out, "  s{operand} -> s{k};");
            }
        }
        for (k, (name, slot)) in self.outputs.iter().enumerate() {
            let _ = writeln!(
                out,
                "  out{k} [shape=circle, fillcolor=\"#dbeafe\", label={}];\n  s{slot} -> out{k};",
                quoted(name)
            );
        }
        out.push_str("}\n");
        out
    }
}

/// The letters (bit `i` = atom `i`) as a short formula: `true`, or a
/// disjunction of conjunctions of literals covering exactly those letters
/// (prime implicants, Quine–McCluskey, then a greedy cover). More than 8
/// atoms: the letters are counted instead.
pub fn letters_formula(atoms: &[String], letters: &[usize]) -> String {
    let n = atoms.len();
    if letters.len() == 1 << n {
        return "true".into();
    }
    if n > 8 {
        return format!("{} of {} letters", letters.len(), 1usize << n);
    }
    // A cube: (care mask, values); a letter is in it when its cared bits match.
    let mut cubes: Vec<(usize, usize)> = letters.iter().map(|&l| ((1 << n) - 1, l)).collect();
    let mut primes: Vec<(usize, usize)> = Vec::new();
    while !cubes.is_empty() {
        let mut merged = vec![false; cubes.len()];
        let mut next: Vec<(usize, usize)> = Vec::new();
        for i in 0..cubes.len() {
            for j in i + 1..cubes.len() {
                let ((ci, vi), (cj, vj)) = (cubes[i], cubes[j]);
                let differ = vi ^ vj;
                if ci == cj && differ.count_ones() == 1 {
                    merged[i] = true;
                    merged[j] = true;
                    let cube = (ci & !differ, vi & !differ);
                    if !next.contains(&cube) {
                        next.push(cube);
                    }
                }
            }
        }
        for (i, cube) in cubes.iter().enumerate() {
            if !merged[i] && !primes.contains(cube) {
                primes.push(*cube);
            }
        }
        cubes = next;
    }
    let covers = |(care, value): (usize, usize), letter: usize| letter & care == value;
    let mut left: Vec<usize> = letters.to_vec();
    let mut chosen: Vec<(usize, usize)> = Vec::new();
    while !left.is_empty() {
        let best = primes
            .iter()
            .copied()
            .max_by_key(|&p| {
                let covered = left.iter().filter(|&&l| covers(p, l)).count();
                (covered, usize::MAX - p.0.count_ones() as usize)
            })
            .expect("every letter is covered by a prime");
        left.retain(|&l| !covers(best, l));
        chosen.push(best);
    }
    // Terms in atom order: the one reading the first atom first.
    chosen.sort_by_key(|&(care, value)| (care.trailing_zeros(), care.count_ones(), value));
    let terms: Vec<String> = chosen
        .iter()
        .map(|&(care, value)| {
            let literals: Vec<String> = (0..n)
                .filter(|i| care >> i & 1 == 1)
                .map(|i| {
                    let atom = &atoms[i];
                    let atom = if atom.contains(' ') {
                        format!("({atom})")
                    } else {
                        atom.clone()
                    };
                    if value >> i & 1 == 1 {
                        atom
                    } else {
                        format!("!{atom}")
                    }
                })
                .collect();
            literals.join(" && ")
        })
        .collect();
    if terms.len() == 1 {
        return terms[0].clone();
    }
    terms
        .iter()
        .map(|t| {
            if t.contains("&&") {
                format!("({t})")
            } else {
                t.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" || ")
}

/// A graph to lay out: its heading, its DOT text and how many nodes it has.
pub type Graph = (String, String, usize);

impl Machine {
    /// The graph of [`Machine::dot`]: heading, DOT, node count.
    pub fn graph(&self) -> Graph {
        (self.title.clone(), self.dot(), self.states.len() + 1)
    }
}

impl Dataflow {
    /// The graph of [`Dataflow::dot`]: heading, DOT, node count.
    pub fn graph(&self) -> Graph {
        (
            self.title.clone(),
            self.dot(),
            self.slots.len() + self.outputs.len(),
        )
    }
}

/// The graphs laid out (layout-rs) and stacked in one SVG document, each
/// under its heading. Graphs over `max_nodes` nodes are not laid out (an
/// error naming them: render the DOT with Graphviz instead).
pub fn svg(graphs: &[Graph], max_nodes: usize) -> Result<String, String> {
    let mut parts = String::new();
    let (mut width, mut height) = (0.0f64, 0.0f64);
    for (title, dot, nodes) in graphs {
        let nodes = *nodes;
        if nodes > max_nodes {
            return Err(format!(
                "{title}: {nodes} nodes are more than --format svg lays out ({max_nodes}); use --format dot and Graphviz"
            ));
        }
        let rendered = std::panic::catch_unwind(|| layout(dot))
            .map_err(|_| format!("{title}: the layout failed; use --format dot and Graphviz"))??;
        let (w, h) = size(&rendered);
        let _ = writeln!(
            parts,
            "<text x=\"8\" y=\"{}\" font-weight=\"600\">{}</text>\n<svg x=\"0\" y=\"{}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">{}</svg>",
            height + 18.0,
            escape(title),
            height + 26.0,
            strip_svg(&rendered)
        );
        width = width.max(w);
        height += h + 34.0;
    }
    Ok(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         font-family=\"ui-sans-serif, system-ui, sans-serif\" font-size=\"13\">\n{}</svg>\n",
        parts
    ))
}

/// One DOT graph laid out as an SVG document.
fn layout(dot: &str) -> Result<String, String> {
    use layout::backends::svg::SVGWriter;
    use layout::gv::{DotParser, GraphBuilder};
    let graph = DotParser::new(dot)
        .process()
        .map_err(|e| format!("internal error: the DOT written does not parse: {e}"))?;
    let mut builder = GraphBuilder::new();
    builder.visit_graph(&graph);
    let mut visual = builder.get();
    let mut writer = SVGWriter::new();
    visual.do_it(false, false, false, &mut writer);
    Ok(writer.finalize())
}

/// The width and height an SVG document declares.
fn size(svg: &str) -> (f64, f64) {
    let attribute = |name: &str| {
        let at = svg.find(&format!("{name}=\""))? + name.len() + 2;
        svg[at..]
            .split('"')
            .next()?
            .trim_end_matches("px")
            .parse::<f64>()
            .ok()
    };
    (
        attribute("width").unwrap_or(400.0),
        attribute("height").unwrap_or(300.0),
    )
}

/// The content of an SVG document: between its root element's tags.
fn strip_svg(svg: &str) -> &str {
    let start = svg
        .find("<svg")
        .and_then(|s| svg[s..].find('>').map(|e| s + e + 1));
    let end = svg.rfind("</svg>");
    match (start, end) {
        (Some(start), Some(end)) if start <= end => &svg[start..end],
        _ => svg,
    }
}
