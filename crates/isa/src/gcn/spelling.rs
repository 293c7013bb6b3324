//! The GCN3 front end's reading of [`crate::spelling`]: how near a name must be to count as
//! a misspelling, and how many names a hint offers.

pub use crate::spelling::or_list;

/// Largest distance the front end treats as a misspelling.
pub const MAX_HINT_DISTANCE: usize = 2;

/// The candidates nearest to `word` within [`MAX_HINT_DISTANCE`], in the order given, at
/// most three, with their distance (`MAX_HINT_DISTANCE + 1` and none when nothing is near).
pub fn nearest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> (usize, Vec<&'a str>) {
    crate::spelling::nearest_all(word, candidates, MAX_HINT_DISTANCE, 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_keeps_ties_in_order() {
        let (d, v) = nearest(
            "s_and_b33",
            ["s_and_b32", "s_and_b64", "s_or_b32"].into_iter(),
        );
        assert_eq!((d, v), (1, vec!["s_and_b32"]));
        let (d, v) = nearest("zzz", ["s_and_b32"].into_iter());
        assert_eq!((d, v.len()), (MAX_HINT_DISTANCE + 1, 0));
    }
}
