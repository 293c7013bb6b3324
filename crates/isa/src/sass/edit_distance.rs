//! Edit distance between names, for "did you mean …?" hints and for deciding whether an unknown
//! opcode could be a misspelt control instruction.
//!
//! The distance is the restricted Damerau–Levenshtein distance (optimal string alignment):
//! the fewest single-character insertions, deletions, substitutions and transpositions of two
//! adjacent characters that turn one string into the other, with no substring edited twice.
//! A one-key typo — a dropped, doubled, wrong or swapped letter — is distance 1, which is what
//! the hints are for. Comparison is by `char`, case-sensitive; callers upper-case first.

/// Restricted Damerau–Levenshtein distance of `a` and `b`, at most `cap + 1`: once every
/// alignment costs more than `cap` the exact value no longer matters, so long hostile inputs
/// stop early.
pub(crate) fn distance(a: &str, b: &str, cap: usize) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > cap {
        return cap + 1;
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
            return cap + 1;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut row);
    }
    prev[b.len()].min(cap + 1)
}

/// The candidate nearest to `name` within `max` edits, with its distance; ties go to the
/// candidate that comes first.
pub(crate) fn nearest<'a, I>(name: &str, candidates: I, max: usize) -> Option<(&'a str, usize)>
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_key_typos_are_distance_one() {
        assert_eq!(distance("IADDD", "IADD", 3), 1); // doubled letter
        assert_eq!(distance("BRAA", "BRA", 3), 1);
        assert_eq!(distance("SSX", "SSY", 3), 1); // wrong letter
        assert_eq!(distance("EIXT", "EXIT", 3), 1); // swapped letters
        assert_eq!(distance("SYN", "SYNC", 3), 1); // dropped letter
        assert_eq!(distance("BSSY", "BSSY", 3), 0);
    }

    #[test]
    fn larger_distances_and_the_cap() {
        assert_eq!(distance("ISETP", "FSETP", 3), 1);
        assert_eq!(distance("CA", "ABC", 5), 3); // restricted: no edit inside a transposition
        assert_eq!(distance("", "EXIT", 9), 4);
        assert_eq!(distance("MOV", "WARPSYNC", 2), 3); // capped at cap + 1
        assert_eq!(distance("ABCDEFGH", "ZZZZZZZZ", 2), 3);
    }

    #[test]
    fn nearest_prefers_the_smaller_distance_then_the_first() {
        let names = ["BRA", "BRX", "IADD", "IADD3"];
        assert_eq!(nearest("IADDD", names, 2), Some(("IADD", 1)));
        assert_eq!(nearest("BRY", names, 2), Some(("BRA", 1)));
        assert_eq!(nearest("QQQQQQ", names, 2), None);
        assert_eq!(nearest("IADD3", names, 2), Some(("IADD3", 0)));
    }
}
