//! Sets of letters as truth tables: the symbolic edge labels of the construction.
//!
//! A letter is a valuation of the formula's dense atoms (bit `i` = atom `i`); a
//! set of letters is a Boolean function of the atoms, stored as its truth table
//! (bit `l` of the table is set iff letter `l` is in the set). Automata read at
//! most [`MAX_ATOMS`](super::MAX_ATOMS) atoms, so a table is at most 64 words
//! and every operation on a set is a few dozen word operations, however many
//! letters the set holds: transitions are computed per set of letters that
//! behave alike, never per letter.

/// A set of letters over the atoms of an [`Alphabet`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Letters(Vec<u64>);

impl Letters {
    /// Whether the set holds no letter.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The letters in both sets.
    pub(crate) fn and(&self, other: &Letters) -> Letters {
        Letters(self.0.iter().zip(&other.0).map(|(a, b)| a & b).collect())
    }

    /// The letters of `self` not in `other`.
    pub(crate) fn and_not(&self, other: &Letters) -> Letters {
        Letters(self.0.iter().zip(&other.0).map(|(a, b)| a & !b).collect())
    }

    /// Adds the letters of `other`.
    pub(crate) fn or_assign(&mut self, other: &Letters) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }

    /// The letters in the set, in increasing order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(w * 64 + b)
            })
        })
    }

    /// The smallest letter in the set.
    pub(crate) fn first(&self) -> Option<usize> {
        self.iter().next()
    }

    /// Words in the truth table (the cost unit of one set operation).
    pub(crate) fn words_len(&self) -> usize {
        self.0.len()
    }
}

/// The letters over `atoms` atoms, with the set of letters where each atom holds.
#[derive(Clone, Debug)]
pub(crate) struct Alphabet {
    all: Letters,
    holds: Vec<Letters>,
}

impl Alphabet {
    /// The alphabet of valuations of `atoms` atoms (`atoms` at most 12).
    pub(crate) fn new(atoms: usize) -> Alphabet {
        let letters = 1usize << atoms;
        let words = letters.div_ceil(64);
        let mut all = vec![u64::MAX; words];
        if letters < 64 {
            all[0] = (1u64 << letters) - 1;
        }
        let holds = (0..atoms)
            .map(|atom| {
                let mut table = vec![0u64; words];
                for letter in (0..letters).filter(|l| l >> atom & 1 == 1) {
                    table[letter / 64] |= 1 << (letter % 64);
                }
                Letters(table)
            })
            .collect();
        Alphabet {
            all: Letters(all),
            holds,
        }
    }

    /// Every letter.
    pub(crate) fn all(&self) -> Letters {
        self.all.clone()
    }

    /// The letters where the atoms of `pos` hold and those of `neg` do not
    /// (bit `i` = atom `i`; atoms beyond the alphabet are ignored).
    pub(crate) fn cube(&self, pos: u64, neg: u64) -> Letters {
        let mut set = self.all();
        for (atom, holds) in self.holds.iter().enumerate() {
            if pos >> atom & 1 == 1 {
                set = set.and(holds);
            }
            if neg >> atom & 1 == 1 {
                set = set.and_not(holds);
            }
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cubes_hold_exactly_their_letters() {
        for atoms in [0usize, 1, 3, 6, 7, 12] {
            let alphabet = Alphabet::new(atoms);
            let (pos, neg) = (0b101u64, 0b010u64);
            let cube = alphabet.cube(pos, neg);
            let mask = (1u64 << atoms) - 1;
            let (pos, neg) = (pos & mask, neg & mask);
            let expected: Vec<usize> = (0..1usize << atoms)
                .filter(|&l| l as u64 & pos == pos && l as u64 & neg == 0)
                .collect();
            assert_eq!(cube.iter().collect::<Vec<_>>(), expected, "{atoms} atoms");
            assert_eq!(alphabet.all().iter().count(), 1 << atoms);
            let rest = alphabet.all().and_not(&cube);
            assert!(rest.and(&cube).is_empty());
            let mut both = rest.clone();
            both.or_assign(&cube);
            assert_eq!(both, alphabet.all());
        }
    }
}
