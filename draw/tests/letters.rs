//! Edge labels of automata: the formula `letters_formula` writes holds on
//! exactly the letters given (checked by evaluating the text, literal by
//! literal, on every letter).

use hindsight_draw::automaton::letters_formula;
use proptest::prelude::*;

/// Whether `formula` (`true`, or `a && !b || c`-style with optional
/// parentheses around conjunctions) holds on `letter` (bit i = atom `ai`).
fn holds(formula: &str, letter: usize) -> bool {
    if formula == "true" {
        return true;
    }
    formula.split(" || ").any(|term| {
        term.trim_matches(|c| c == '(' || c == ')')
            .split(" && ")
            .all(|literal| {
                let (negated, atom) = match literal.strip_prefix('!') {
                    Some(atom) => (true, atom),
                    None => (false, literal),
                };
                let i: usize = atom.trim_start_matches('a').parse().expect("an atom");
                (letter >> i & 1 == 1) != negated
            })
    })
}

proptest! {
    #[test]
    fn the_label_holds_on_exactly_its_letters(n in 1usize..=5, bits in any::<u32>()) {
        let atoms: Vec<String> = (0..n).map(|i| format!("a{i}")).collect();
        let letters: Vec<usize> = (0..1usize << n).filter(|l| bits >> l & 1 == 1).collect();
        prop_assume!(!letters.is_empty());
        let formula = letters_formula(&atoms, &letters);
        for letter in 0..1usize << n {
            prop_assert_eq!(holds(&formula, letter), letters.contains(&letter), "{} on {}", formula, letter);
        }
    }
}

#[test]
fn labels_are_short() {
    let atoms: Vec<String> = ["a0", "a1", "a2"].map(String::from).to_vec();
    // Every letter with a0 false: one literal.
    assert_eq!(letters_formula(&atoms, &[0, 2, 4, 6]), "!a0");
    assert_eq!(letters_formula(&atoms, &(0..8).collect::<Vec<_>>()), "true");
    // a0 || a1 (six letters) as two literals, not six minterms.
    assert_eq!(letters_formula(&atoms, &[1, 2, 3, 5, 6, 7]), "a0 || a1");
}
