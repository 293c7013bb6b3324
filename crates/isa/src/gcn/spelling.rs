//! Spelling distance for the front end's "did you mean …?" hints: the Damerau–Levenshtein
//! distance in its optimal-string-alignment form (insertions, deletions, substitutions and
//! transpositions of two adjacent characters, each costing 1; no substring is edited twice).

/// Largest distance the front end treats as a misspelling.
pub const MAX_HINT_DISTANCE: usize = 2;

/// Longest name compared; longer words are not misspellings of any mnemonic or register.
const MAX_LEN: usize = 64;

/// The distance between `a` and `b` if it is at most `limit`, else `None`. Bounded work:
/// `O(|a| · |b|)` with both at most 64 bytes (longer inputs return `None`), and an early
/// exit once a whole row exceeds `limit`.
pub fn distance_within(a: &str, b: &str, limit: usize) -> Option<usize> {
    let a = a.as_bytes();
    let b = b.as_bytes();
    if a.len() > MAX_LEN || b.len() > MAX_LEN || a.len().abs_diff(b.len()) > limit {
        return None;
    }
    let w = b.len() + 1;
    // Three rows: i - 2, i - 1, i.
    let mut prev2 = vec![0usize; w];
    let mut prev: Vec<usize> = (0..w).collect();
    let mut cur = vec![0usize; w];
    for i in 1..=a.len() {
        cur[0] = i;
        let mut row_min = cur[0];
        for j in 1..w {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(prev2[j - 2] + 1);
            }
            cur[j] = d;
            row_min = row_min.min(d);
        }
        if row_min > limit {
            return None;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    let d = prev[b.len()];
    (d <= limit).then_some(d)
}

/// The candidates nearest to `word` within [`MAX_HINT_DISTANCE`], in the order given,
/// at most three, with their distance.
pub fn nearest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> (usize, Vec<&'a str>) {
    let mut best = MAX_HINT_DISTANCE + 1;
    let mut out: Vec<&'a str> = Vec::new();
    for c in candidates {
        let Some(d) = distance_within(word, c, best.min(MAX_HINT_DISTANCE)) else {
            continue;
        };
        if d < best {
            best = d;
            out.clear();
        }
        if d == best && out.len() < 3 && !out.contains(&c) {
            out.push(c);
        }
    }
    (best, out)
}

/// `` `a` ``, `` `a` or `b` ``, `` `a`, `b` or `c` ``.
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
    fn edits_and_transpositions() {
        assert_eq!(
            distance_within("s_cbranch_exez", "s_cbranch_execz", 2),
            Some(1)
        );
        assert_eq!(distance_within("exce", "exec", 2), Some(1));
        assert_eq!(distance_within("vcc", "vcc", 2), Some(0));
        assert_eq!(distance_within("ab", "ba", 2), Some(1));
        assert_eq!(distance_within("kitten", "sitting", 3), Some(3));
        assert_eq!(distance_within("kitten", "sitting", 2), None);
        assert_eq!(distance_within("a", "abcd", 2), None);
    }

    #[test]
    fn nearest_keeps_ties_in_order() {
        let (d, v) = nearest(
            "s_and_b33",
            ["s_and_b32", "s_and_b64", "s_or_b32"].into_iter(),
        );
        assert_eq!((d, v), (1, vec!["s_and_b32"]));
        let (d, v) = nearest("zzz", ["s_and_b32"].into_iter());
        assert_eq!((d, v.len()), (MAX_HINT_DISTANCE + 1, 0));
        assert_eq!(or_list(&["a", "b", "c"]), "`a`, `b` or `c`");
    }
}
