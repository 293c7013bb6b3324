//! Spelling distance between names, shared by every front end for its "did you mean …?"
//! hints and for deciding whether an unknown opcode or register could be a misspelt
//! control instruction (which must be an error, never a generic reading).
//!
//! The distance is the restricted Damerau–Levenshtein distance (optimal string alignment):
//! the fewest single-character insertions, deletions, substitutions and transpositions of two
//! adjacent characters that turn one string into the other, no substring edited twice. A
//! one-key typo — a dropped, doubled, wrong or swapped letter — is distance 1. Comparison is by
//! `char` and case-sensitive (callers normalise case first).
//!
//! Work is bounded for hostile input: names are compared by their first [`MAX_LEN`]
//! characters, and a computation stops as soon as every alignment costs more than the cap.

/// Characters of a name that take part in a comparison; no mnemonic, register or modifier is
/// longer, so a longer word is never a near miss of one.
pub const MAX_LEN: usize = 64;

/// The distance of `a` and `b`, or `cap + 1` (saturating) when it is larger than `cap`.
pub fn distance(a: &str, b: &str, cap: usize) -> usize {
    let over = cap.saturating_add(1);
    if a == b {
        return 0;
    }
    let a: Vec<char> = a.chars().take(MAX_LEN).collect();
    let b: Vec<char> = b.chars().take(MAX_LEN).collect();
    if a.len().abs_diff(b.len()) > cap {
        return over;
    }
    // Three rows of the dynamic-programming table: i-2, i-1 and i.
    let width = b.len() + 1;
    let mut before: Vec<usize> = vec![0; width];
    let mut prev: Vec<usize> = (0..width).collect();
    let mut row: Vec<usize> = vec![0; width];
    for i in 1..=a.len() {
        row[0] = i;
        let mut row_min = row[0];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(row[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            row[j] = d;
            row_min = row_min.min(d);
        }
        if row_min > cap {
            return over;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut row);
    }
    prev[b.len()].min(over)
}

/// The candidate nearest to `name` within `max` edits, with its distance; ties go to the
/// candidate that comes first (callers order their tables so that the candidate whose role
/// matters most for safety comes first).
pub fn nearest<'a, I>(name: &str, candidates: I, max: usize) -> Option<(&'a str, usize)>
where
    I: IntoIterator<Item = &'a str>,
{
    let mut best: Option<(&'a str, usize)> = None;
    for c in candidates {
        let limit = best.map_or(max, |(_, d)| d.saturating_sub(1));
        let d = distance(name, c, limit);
        if d <= limit && best.is_none_or(|(_, bd)| d < bd) {
            best = Some((c, d));
            if d == 0 {
                break;
            }
        }
    }
    best
}

/// Every candidate at the smallest distance from `word` within `max` edits, in the order
/// given, at most `most` of them, with that distance (`max + 1` and none when nothing is
/// near).
pub fn nearest_all<'a, I>(
    word: &str,
    candidates: I,
    max: usize,
    most: usize,
) -> (usize, Vec<&'a str>)
where
    I: IntoIterator<Item = &'a str>,
{
    let mut best = max.saturating_add(1);
    let mut out: Vec<&'a str> = Vec::new();
    for c in candidates {
        let d = distance(word, c, best.min(max));
        if d > max || d > best {
            continue;
        }
        if d < best {
            best = d;
            out.clear();
        }
        if out.len() < most && !out.contains(&c) {
            out.push(c);
        }
    }
    (best, out)
}

/// `` `a` ``, `` `a` or `b` ``, `` `a`, `b` or `c` `` — the hint's list of names.
pub fn or_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_key_typos_are_distance_one() {
        assert_eq!(distance("IADDD", "IADD", 3), 1); // doubled letter
        assert_eq!(distance("SSX", "SSY", 3), 1); // wrong letter
        assert_eq!(distance("EIXT", "EXIT", 3), 1); // swapped letters
        assert_eq!(distance("SYN", "SYNC", 3), 1); // dropped letter
        assert_eq!(distance("s_cbranch_exez", "s_cbranch_execz", 2), 1);
        assert_eq!(distance("snyc", "sync", 2), 1);
        assert_eq!(distance("BSSY", "BSSY", 0), 0);
    }

    #[test]
    fn larger_distances_the_cap_and_long_words() {
        assert_eq!(distance("kitten", "sitting", 3), 3);
        assert_eq!(distance("kitten", "sitting", 2), 3);
        assert_eq!(distance("CA", "ABC", 5), 3); // restricted: no edit inside a transposition
        assert_eq!(distance("", "EXIT", 9), 4);
        assert_eq!(distance("MOV", "WARPSYNC", 2), 3);
        assert_eq!(distance("a", "b", usize::MAX), 1);
        let long = "x".repeat(10_000);
        assert_eq!(distance(&long, "x", 100), 63);
        assert_eq!(distance(&long, &long.replace('x', "y"), 1), 2);
    }

    #[test]
    fn nearest_and_nearest_all() {
        let names = ["BRA", "BRX", "IADD", "IADD3"];
        assert_eq!(nearest("IADDD", names, 2), Some(("IADD", 1)));
        assert_eq!(nearest("BRY", names, 2), Some(("BRA", 1)));
        assert_eq!(nearest("QQQQQQ", names, 2), None);
        assert_eq!(nearest("IADD3", names, 2), Some(("IADD3", 0)));
        assert_eq!(nearest_all("BRY", names, 2, 3), (1, vec!["BRA", "BRX"]));
        assert_eq!(nearest_all("BRY", names, 2, 1), (1, vec!["BRA"]));
        assert_eq!(nearest_all("zzzzzz", names, 2, 3), (3, vec![]));
        assert_eq!(or_list(&["a", "b", "c"]), "`a`, `b` or `c`");
        assert_eq!(or_list(&["a"]), "`a`");
    }
}
