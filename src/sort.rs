//! One stable sort by an integer key for the whole crate.
//!
//! Each `sort_by_key` on a new element type compiles the standard library's stable sort
//! again (the cost is in `design::performance`, "Build cost"). The callers here sort short lists
//! (parameters, notes, schema nodes) by a number, so they share one sort of `(key, position)` pairs
//! instead, and only a small loop that moves the elements is compiled per type.

/// Sorts `items` by `key`, keeping equal keys in their order (as `sort_by_key` does).
pub(crate) fn by_key<T>(items: &mut [T], mut key: impl FnMut(&T) -> u64) {
    let mut keyed = Vec::with_capacity(items.len());
    for (position, item) in items.iter().enumerate() {
        keyed.push((key(item), position));
    }
    let order = sorted_positions(keyed);
    permute(items, order);
}

/// A key that sorts larger numbers first.
pub(crate) fn descending(n: usize) -> u64 {
    u64::MAX - n as u64
}

/// The positions of `keyed` in key order, equal keys by position. The pairs are unique, so
/// the unstable sort gives the stable order.
fn sorted_positions(mut keyed: Vec<(u64, usize)>) -> Vec<usize> {
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, position)| position).collect()
}

/// Moves `items[order[p]]` to position `p` for each `p`, following each cycle of the
/// permutation with swaps. `order` is a permutation of `0..items.len()`.
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..items.len() {
        // Invariant: `items[at]` holds what was at `start`; positions already placed hold
        // `order[p] == p`.
        let mut at = start;
        while let Some(&from) = order.get(at) {
            if from == start || from == at {
                break;
            }
            items.swap(at, from);
            if let Some(done) = order.get_mut(at) {
                *done = at;
            }
            at = from;
        }
        if let Some(done) = order.get_mut(at) {
            *done = at;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn by_key_is_the_stable_sort_by_key() {
        let mut rng = Rng::new(17);
        for len in 0..60 {
            let items: Vec<(u64, usize)> = (0..len).map(|i| (rng.below(5) as u64, i)).collect();
            let mut expected = items.clone();
            expected.sort_by_key(|item| item.0);
            let mut got = items;
            by_key(&mut got, |item| item.0);
            assert_eq!(got, expected);
        }
    }

    #[test]
    fn descending_puts_larger_first_and_keeps_ties_in_order() {
        let mut words = vec!["bb", "a", "ccc", "dd", "e"];
        by_key(&mut words, |w| descending(w.len()));
        assert_eq!(words, ["ccc", "bb", "dd", "a", "e"]);
    }
}
