//! Membership tests that stay constant time however many names a declaration holds: a
//! scan while a set is small (faster than hashing there), a hash set once it is large.
//! Duplicate checks and "is this name declared" checks of the tool and plugin layers use
//! these, so loading a plugin or rendering a schema is linear in its size, never quadratic.

use std::borrow::Borrow;
use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use crate::json::{Json, Map};

/// Past this many items, a set hashes them. Below it, comparing a few short names beats
/// hashing one.
const HASH_AFTER: usize = 32;

/// A set of items (names), for duplicate and membership checks.
pub(crate) struct SmallSet<T> {
    items: Vec<T>,
    hashed: Option<HashSet<T>>,
}

impl<T: Hash + Eq> SmallSet<T> {
    /// An empty set.
    pub(crate) fn new() -> SmallSet<T> {
        SmallSet {
            items: Vec::new(),
            hashed: None,
        }
    }

    /// Whether `item` is in the set.
    pub(crate) fn contains<Q>(&self, item: &Q) -> bool
    where
        T: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        match &self.hashed {
            Some(set) => set.contains(item),
            None => self.items.iter().any(|i| i.borrow() == item),
        }
    }

    /// Adds `item`; `false` when it was there already (the set is unchanged).
    pub(crate) fn insert(&mut self, item: T) -> bool {
        if let Some(set) = &mut self.hashed {
            return set.insert(item);
        }
        if self.items.contains(&item) {
            return false;
        }
        self.items.push(item);
        if self.items.len() > HASH_AFTER {
            self.hashed = Some(self.items.drain(..).collect());
        }
        true
    }
}

impl<T: Hash + Eq> std::iter::FromIterator<T> for SmallSet<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> SmallSet<T> {
        let mut set = SmallSet::new();
        for item in iter {
            set.insert(item);
        }
        set
    }
}

/// Finds members of a JSON object by key: the map's own scan while it is small, a hash index
/// built once when it is large (`Map::get` scans, which is quadratic over many lookups).
pub(crate) struct MapLookup<'a> {
    map: &'a Map,
    index: Option<HashMap<&'a str, &'a Json>>,
}

impl<'a> MapLookup<'a> {
    /// A lookup over `map`.
    pub(crate) fn new(map: &'a Map) -> MapLookup<'a> {
        let index = if map.len() > HASH_AFTER {
            Some(map.iter().map(|(k, v)| (k.as_str(), v)).collect())
        } else {
            None
        };
        MapLookup { map, index }
    }

    /// The value for `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&'a Json> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => self.map.get(key),
        }
    }
}

/// Finds the position of a name among declared ones (parameters, properties): a scan while
/// few, a hash map once many, so matching every argument of a call to its parameter is
/// linear. The first of two equal names wins.
pub(crate) struct NameIndex<'a> {
    names: Vec<(&'a str, usize)>,
    hashed: Option<HashMap<&'a str, usize>>,
}

impl<'a> NameIndex<'a> {
    /// An index of `names` with their positions.
    pub(crate) fn new<I: IntoIterator<Item = (&'a str, usize)>>(names: I) -> NameIndex<'a> {
        let names: Vec<(&'a str, usize)> = names.into_iter().collect();
        let hashed = if names.len() > HASH_AFTER {
            let mut map = HashMap::with_capacity(names.len());
            for &(name, i) in &names {
                map.entry(name).or_insert(i);
            }
            Some(map)
        } else {
            None
        };
        NameIndex { names, hashed }
    }

    /// The position given with `name`.
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        match &self.hashed {
            Some(map) => map.get(name).copied(),
            None => self.names.iter().find(|(n, _)| *n == name).map(|&(_, i)| i),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_large_sets_agree() {
        for n in [0usize, 1, HASH_AFTER, HASH_AFTER + 1, 500] {
            let mut set = SmallSet::new();
            for i in 0..n {
                assert!(set.insert(format!("n{}", i)), "{} of {}", i, n);
            }
            for i in 0..n {
                assert!(!set.insert(format!("n{}", i)));
                assert!(set.contains(format!("n{}", i).as_str()));
            }
            assert!(!set.contains("n-1"));
        }
    }

    #[test]
    fn name_index_small_and_large_first_wins() {
        for n in [3usize, 100] {
            let names: Vec<String> = (0..n).map(|i| format!("p{}", i % (n - 1))).collect();
            let index = NameIndex::new(names.iter().enumerate().map(|(i, s)| (s.as_str(), i)));
            assert_eq!(index.position("p0"), Some(0));
            assert_eq!(index.position("p1"), Some(1));
            assert_eq!(index.position("x"), None);
        }
    }

    #[test]
    fn map_lookup_small_and_large() {
        for n in [3usize, 100] {
            let map: Map = (0..n).map(|i| (format!("k{}", i), i)).collect();
            let lookup = MapLookup::new(&map);
            assert_eq!(lookup.get("k2"), Some(&Json::from(2)));
            assert_eq!(lookup.get("nope"), None);
        }
    }
}
