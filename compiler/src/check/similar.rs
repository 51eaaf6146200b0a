//! "Did you mean" suggestions: the closest known name by edit distance.

use super::report;

/// Names longer than this get no suggestion (nobody mistypes a 100-character
/// name), which keeps suggesting cheap whatever the spec.
const MAX_SUGGESTED_LEN: usize = 64;

/// Most candidates compared with one name (an enum of 70,000 variants
/// compares only its first ones).
const MAX_CANDIDATES: usize = 10_000;

/// The candidate closest to `name`, if one is close enough to be a likely typo
/// (edit distance at most a third of the name's length; names shorter than
/// three characters, or longer than 64, get no suggestion).
pub(super) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let len = name.chars().count();
    let limit = len / 3;
    if limit == 0 || len > MAX_SUGGESTED_LEN {
        return None;
    }
    candidates
        .into_iter()
        .take(MAX_CANDIDATES)
        .filter(|c| *c != name && c.len().abs_diff(name.len()) <= 4 * limit)
        .filter_map(|c| within(name, c, limit).map(|d| (d, c)))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// The edit distance between `a` and `b` if it is at most `limit` (so long
/// candidates cost nothing: their length alone rules them out).
fn within(a: &str, b: &str, limit: usize) -> Option<usize> {
    if b.chars().count().abs_diff(a.chars().count()) > limit {
        return None;
    }
    Some(edit_distance(a, b)).filter(|&d| d <= limit)
}

/// The help line for a suggestion, if there is one.
pub(super) fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    closest(name, candidates).map(|c| format!("help: did you mean `{c}`?"))
}

/// The notes for `name`, which is none of `known`: a suggestion if one is
/// close, then `none` if there are none, else `listing` of them all.
pub(super) fn unknown_notes(
    name: &str,
    known: &[&str],
    none: String,
    listing: impl FnOnce(String) -> String,
) -> Vec<String> {
    let mut notes: Vec<String> = did_you_mean(name, known.iter().copied())
        .into_iter()
        .collect();
    notes.push(if known.is_empty() {
        none
    } else {
        listing(report::list_names(known))
    });
    notes
}

/// Levenshtein distance between two strings, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = i;
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            let substitution = diagonal + usize::from(ca != *cb);
            row[j + 1] = substitution.min(above + 1).min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_by_hand() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("grant", "grant"), 0);
        assert_eq!(edit_distance("grnat", "grant"), 2);
        assert_eq!(edit_distance("reqest", "request"), 1);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn suggests_only_close_names() {
        let names = ["request", "grant", "alarm"];
        assert_eq!(closest("reqest", names), Some("request"));
        assert_eq!(closest("grnt", names), Some("grant"));
        assert_eq!(closest("zzz", names), None);
        assert_eq!(closest("b", ["a"]), None);
        assert_eq!(closest("grant", names), None);
    }

    #[test]
    fn long_names_and_far_lengths_are_not_compared() {
        let long = "n".repeat(100_000);
        let near = format!("{long}x");
        assert_eq!(closest(&long, [near.as_str()]), None);
        assert_eq!(within("request", &"r".repeat(1000), 2), None);
        assert_eq!(within("reqest", "request", 2), Some(1));
    }
}
