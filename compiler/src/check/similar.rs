//! "Did you mean" suggestions: the closest known name by edit distance.

/// The candidate closest to `name`, if one is close enough to be a likely typo
/// (edit distance at most a third of the name's length; names shorter than
/// three characters get no suggestion).
pub(super) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = name.chars().count() / 3;
    if limit == 0 {
        return None;
    }
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// The help line for a suggestion, if there is one.
pub(super) fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    closest(name, candidates).map(|c| format!("help: did you mean `{c}`?"))
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
}
