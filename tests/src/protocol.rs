//! A reference for protocol verdicts (docs/language.md, section 4e),
//! written from the textbook semantics of trace expressions and nothing of
//! the compiler: a protocol without recursion denotes a finite set of
//! words, built here operator by operator (concatenation of every pair,
//! union, intersection, every interleaving of every pair); the verdict
//! after a word is `true` if the word is in the set, `false` if no word of
//! the set begins with it, `?` otherwise. A protocol repeated by recursion,
//! `p = (body) . a -> b: n . p + skip`, denotes the words made of blocks,
//! each a word of `body` followed by `a -> b: n`; a word is in it if it
//! splits into blocks, and can still conform if it splits into blocks and
//! a beginning of one.

use std::collections::BTreeSet;
use std::fmt;

/// A message of the reference: sender, receiver (lifeline indices) and
/// whether its label is `n` (else `m`).
pub type Message = (usize, usize, bool);

/// A trace expression without recursion over messages between lifelines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proto {
    /// One message.
    Event(Message),
    /// The empty trace.
    Skip,
    /// `(x . y)`.
    Seq(Box<Proto>, Box<Proto>),
    /// `(x + y)`.
    Choice(Box<Proto>, Box<Proto>),
    /// `(x ||| y)`.
    Shuffle(Box<Proto>, Box<Proto>),
    /// `(x & y)`.
    Inter(Box<Proto>, Box<Proto>),
}

/// The lifelines' names, by index.
pub const LIFELINES: [&str; 4] = ["a", "b", "c", "d"];

/// `a -> b: m`.
pub fn message_text((from, to, n): Message) -> String {
    let label = if n { "n" } else { "m" };
    format!("{} -> {}: {label}", LIFELINES[from], LIFELINES[to])
}

impl fmt::Display for Proto {
    /// The expression as source text, fully parenthesized.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Proto::Event(m) => f.write_str(&message_text(*m)),
            Proto::Skip => f.write_str("skip"),
            Proto::Seq(x, y) => write!(f, "({x} . {y})"),
            Proto::Choice(x, y) => write!(f, "({x} + {y})"),
            Proto::Shuffle(x, y) => write!(f, "({x} ||| {y})"),
            Proto::Inter(x, y) => write!(f, "({x} & {y})"),
        }
    }
}

/// A finite language: a set of words.
pub type Language = BTreeSet<Vec<Message>>;

/// The words of `p`, or `None` if some step would hold more than `limit`
/// words (interleavings multiply fast).
pub fn language(p: &Proto, limit: usize) -> Option<Language> {
    let capped = |l: Language| (l.len() <= limit).then_some(l);
    match p {
        Proto::Event(m) => Some(BTreeSet::from([vec![*m]])),
        Proto::Skip => Some(BTreeSet::from([Vec::new()])),
        Proto::Seq(x, y) => {
            let (x, y) = (language(x, limit)?, language(y, limit)?);
            let mut out = Language::new();
            for u in &x {
                for v in &y {
                    out.insert(u.iter().chain(v).copied().collect());
                    if out.len() > limit {
                        return None;
                    }
                }
            }
            capped(out)
        }
        Proto::Choice(x, y) => {
            let mut out = language(x, limit)?;
            out.extend(language(y, limit)?);
            capped(out)
        }
        Proto::Inter(x, y) => {
            let (x, y) = (language(x, limit)?, language(y, limit)?);
            Some(x.intersection(&y).cloned().collect())
        }
        Proto::Shuffle(x, y) => {
            let (x, y) = (language(x, limit)?, language(y, limit)?);
            let mut out = Language::new();
            for u in &x {
                for v in &y {
                    interleave(u, v, &mut Vec::new(), &mut out);
                    if out.len() > limit {
                        return None;
                    }
                }
            }
            capped(out)
        }
    }
}

/// Every interleaving of `u` and `v` after `prefix`, into `out`.
fn interleave(u: &[Message], v: &[Message], prefix: &mut Vec<Message>, out: &mut Language) {
    match (u.split_first(), v.split_first()) {
        (None, None) => {
            out.insert(prefix.clone());
        }
        (first_u, first_v) => {
            if let Some((&head, rest)) = first_u {
                prefix.push(head);
                interleave(rest, v, prefix, out);
                prefix.pop();
            }
            if let Some((&head, rest)) = first_v {
                prefix.push(head);
                interleave(u, rest, prefix, out);
                prefix.pop();
            }
        }
    }
}

/// The three verdicts, as the reference spells them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// The word is a trace of the protocol.
    Complete,
    /// No continuation of the word is.
    Violated,
    /// Some continuation is, the word itself not.
    Pending,
}

/// The verdict after `word` for the finite language `words`.
pub fn verdict(words: &Language, word: &[Message]) -> Expected {
    if words.contains(word) {
        Expected::Complete
    } else if words.iter().any(|w| w.starts_with(word)) {
        Expected::Pending
    } else {
        Expected::Violated
    }
}

/// The verdict after `word` for the repetition of `blocks` (each a word
/// of the body followed by the closing message): zero or more blocks.
pub fn repeated_verdict(blocks: &Language, word: &[Message]) -> Expected {
    // ends[i]: whether word[..i] splits into whole blocks.
    let mut ends = vec![false; word.len() + 1];
    ends[0] = true;
    for i in 0..word.len() {
        if !ends[i] {
            continue;
        }
        for b in blocks {
            if !b.is_empty() && word[i..].starts_with(b) {
                ends[i + b.len()] = true;
            }
        }
    }
    if ends[word.len()] {
        return Expected::Complete;
    }
    // Blocks, then the beginning of one more.
    let started = (0..word.len())
        .filter(|&i| ends[i])
        .any(|i| blocks.iter().any(|b| b.starts_with(&word[i..])));
    if started {
        Expected::Pending
    } else {
        Expected::Violated
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const AB_M: Message = (0, 1, false);
    const CD_M: Message = (2, 3, false);
    const AB_N: Message = (0, 1, true);

    fn event(m: Message) -> Box<Proto> {
        Box::new(Proto::Event(m))
    }

    #[test]
    fn languages_of_the_operators() {
        let shuffle = Proto::Shuffle(event(AB_M), event(CD_M));
        assert_eq!(
            language(&shuffle, 10),
            Some(BTreeSet::from([vec![AB_M, CD_M], vec![CD_M, AB_M]]))
        );
        let both = Proto::Inter(
            Box::new(shuffle.clone()),
            Box::new(Proto::Seq(event(CD_M), event(AB_M))),
        );
        assert_eq!(
            language(&both, 10),
            Some(BTreeSet::from([vec![CD_M, AB_M]]))
        );
        let choice = Proto::Choice(event(AB_M), Box::new(Proto::Skip));
        assert_eq!(
            language(&choice, 10),
            Some(BTreeSet::from([vec![], vec![AB_M]]))
        );
        assert_eq!(language(&shuffle, 1), None);
        assert_eq!(shuffle.to_string(), "(a -> b: m ||| c -> d: m)");
    }

    #[test]
    fn verdicts_of_words() {
        let words = language(&Proto::Seq(event(AB_M), event(CD_M)), 10).unwrap();
        assert_eq!(verdict(&words, &[]), Expected::Pending);
        assert_eq!(verdict(&words, &[AB_M]), Expected::Pending);
        assert_eq!(verdict(&words, &[AB_M, CD_M]), Expected::Complete);
        assert_eq!(verdict(&words, &[CD_M]), Expected::Violated);
        // (a -> b: m . a -> b: n)*
        let blocks = BTreeSet::from([vec![AB_M, AB_N]]);
        assert_eq!(repeated_verdict(&blocks, &[]), Expected::Complete);
        assert_eq!(repeated_verdict(&blocks, &[AB_M]), Expected::Pending);
        assert_eq!(
            repeated_verdict(&blocks, &[AB_M, AB_N, AB_M, AB_N]),
            Expected::Complete
        );
        assert_eq!(repeated_verdict(&blocks, &[AB_M, AB_M]), Expected::Violated);
    }
}
