//! The JSON object: string keys to values, in insertion order.

use std::collections::hash_map::{Entry, HashMap, RandomState};
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};
use std::iter::FromIterator;
use std::ops::Index;
use std::sync::Arc;

use super::Json;

/// Objects above this size compare through a temporary hash index instead of linear lookups.
const EQ_INDEX_THRESHOLD: usize = 16;

/// Maps that grow past this many entries while being extended (or parsed) find existing keys
/// through a [`KeyIndex`] instead of a scan, so building an object stays linear in its size.
pub(crate) const INDEX_THRESHOLD: usize = 128;

/// A JSON object: unique string keys mapped to values, kept in insertion order.
///
/// It is a vector of entries: iteration follows insertion order, memory is one allocation of
/// exactly the parsed size (plus a reference count), and lookups ([`get`](Map::get), [`insert`](Map::insert),
/// [`remove`](Map::remove)) scan the keys, which is the fastest choice for the objects APIs
/// exchange (up to a few dozen keys). Building a map stays linear however large it gets:
/// the parser, `collect` and `extend` find repeated keys through a hash index past 128
/// entries. Code that looks up many keys one by one in an object with thousands should
/// build its own index once.
///
/// Keys are unique: [`insert`](Map::insert) replaces an existing key's value in place, and the
/// parser keeps the last value of a duplicate key at the position of its first occurrence
/// (or refuses duplicates, see [`ParseOptions::reject_duplicate_keys`](super::ParseOptions::reject_duplicate_keys)).
///
/// Two maps are equal when they hold the same keys with equal values, in any order.
///
/// Cloning is cheap: a clone shares the entries with the original (a reference count, as
/// `Arc` keeps), and the first change to either copies that one level, its values shared in
/// turn (copy on write). So the copies of one schema that an importer inlines in a thousand
/// tools, or that a tool spec and its endpoint both hold, are one allocation, however deep.
///
/// # Examples
///
/// ```
/// use httptool::json::{Json, Map};
///
/// let mut map = Map::new();
/// map.insert("city", "Hangzhou");
/// map.insert("days", 3);
/// assert_eq!(map.get("days").and_then(Json::as_i64), Some(3));
/// assert_eq!(map.keys().collect::<Vec<_>>(), ["city", "days"]);
/// assert_eq!(Json::from(map).to_string(), r#"{"city":"Hangzhou","days":3}"#);
/// ```
#[derive(Clone, Default)]
pub struct Map {
    /// `None` for an empty map that never had room reserved (no allocation); shared by
    /// clones until one of them changes.
    shared: Option<Arc<Vec<(String, Json)>>>,
}

impl Map {
    /// An empty map.
    pub fn new() -> Map {
        Map { shared: None }
    }

    /// An empty map with room for `n` entries.
    pub fn with_capacity(n: usize) -> Map {
        if n == 0 {
            return Map::new();
        }
        Map {
            shared: Some(Arc::new(Vec::with_capacity(n))),
        }
    }

    /// Wraps entries whose keys are known to be unique (the parser's output).
    pub(crate) fn from_unique_entries(entries: Vec<(String, Json)>) -> Map {
        if entries.is_empty() {
            return Map::new();
        }
        Map {
            shared: Some(Arc::new(entries)),
        }
    }

    /// The entries as a slice (for the crate's writer, equality and drop).
    pub(crate) fn entries(&self) -> &[(String, Json)] {
        match &self.shared {
            Some(entries) => entries,
            None => &[],
        }
    }

    /// The entries to change: this map's own, copied first if a clone shares them (one
    /// level: the values are clones, themselves shared).
    fn entries_mut(&mut self) -> &mut Vec<(String, Json)> {
        Arc::make_mut(self.shared.get_or_insert_with(Default::default))
    }

    /// The entries to change in place, copied first if a clone shares them; nothing is
    /// allocated for an empty map.
    fn entries_mut_slice(&mut self) -> &mut [(String, Json)] {
        match &mut self.shared {
            Some(entries) => Arc::make_mut(entries).as_mut_slice(),
            None => &mut [],
        }
    }

    /// The entries when no clone shares them, to take apart (the non-recursive drop).
    pub(crate) fn unshared_entries_mut(&mut self) -> Option<&mut Vec<(String, Json)>> {
        self.shared.as_mut().and_then(Arc::get_mut)
    }

    /// Whether a clone shares these entries (they are one allocation with its).
    pub(crate) fn is_shared(&self) -> bool {
        self.shared
            .as_ref()
            .map_or(false, |entries| Arc::strong_count(entries) > 1)
    }

    /// The address of the entries, the same for every clone that shares them (`None` for
    /// an empty map); only meaningful while one of them is alive.
    pub(crate) fn shared_id(&self) -> Option<usize> {
        self.shared
            .as_ref()
            .map(|entries| Arc::as_ptr(entries) as usize)
    }

    /// Whether both are the same allocation (a clone of one another, unchanged since), so
    /// equal without looking.
    pub(crate) fn shares_with(&self, other: &Map) -> bool {
        match (&self.shared, &other.shared) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries().len()
    }

    /// Whether the map has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries().is_empty()
    }

    fn position(&self, key: &str) -> Option<usize> {
        self.entries().iter().position(|(k, _)| k == key)
    }

    /// The value for `key`.
    pub fn get(&self, key: &str) -> Option<&Json> {
        self.entries()
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// The value for `key`, to change it.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        let i = self.position(key)?;
        self.entries_mut_slice().get_mut(i).map(|(_, v)| v)
    }

    /// Whether the map has `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Sets `key` to `value`. An existing key keeps its position and its old value is
    /// returned; a new key goes at the end.
    pub fn insert(&mut self, key: impl Into<String>, value: impl Into<Json>) -> Option<Json> {
        self.insert_owned(key.into(), value.into())
    }

    /// [`insert`](Map::insert) past the conversions: one copy of the body, not one per
    /// pair of argument types (build cost, see `design::performance`).
    fn insert_owned(&mut self, key: String, value: Json) -> Option<Json> {
        match self.position(&key) {
            Some(i) => self
                .entries_mut_slice()
                .get_mut(i)
                .map(|entry| std::mem::replace(&mut entry.1, value)),
            None => {
                push_snug(self.entries_mut(), (key, value));
                None
            }
        }
    }

    /// Removes `key` and returns its value; the other entries keep their order.
    pub fn remove(&mut self, key: &str) -> Option<Json> {
        let i = self.position(key)?;
        Some(self.entries_mut().remove(i).1)
    }

    /// The entries in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            inner: self.entries().iter(),
        }
    }

    /// The entries in order, with values to change.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        IterMut {
            inner: self.entries_mut_slice().iter_mut(),
        }
    }

    /// The keys in order.
    pub fn keys(&self) -> Keys<'_> {
        Keys {
            inner: self.entries().iter(),
        }
    }

    /// The values in order.
    pub fn values(&self) -> Values<'_> {
        Values {
            inner: self.entries().iter(),
        }
    }

    /// The values in order, to change them.
    pub fn values_mut(&mut self) -> ValuesMut<'_> {
        ValuesMut {
            inner: self.entries_mut_slice().iter_mut(),
        }
    }
}

impl PartialEq for Map {
    /// Same keys with equal values, in any order.
    fn eq(&self, other: &Map) -> bool {
        let mut pairs = Vec::new();
        self.eq_pairs(other, &mut pairs) && pairs.into_iter().all(|(a, b)| a == b)
    }
}

impl Map {
    /// Checks that both maps have the same keys and pushes the value pairs to compare, so
    /// the caller decides how to compare nested values (without recursion).
    pub(crate) fn eq_pairs<'a>(
        &'a self,
        other: &'a Map,
        pairs: &mut Vec<(&'a Json, &'a Json)>,
    ) -> bool {
        if self.len() != other.len() {
            return false;
        }
        if self.shares_with(other) {
            return true;
        }
        if self.len() <= EQ_INDEX_THRESHOLD {
            for (k, v) in self.entries() {
                match other.get(k) {
                    Some(w) => pairs.push((v, w)),
                    None => return false,
                }
            }
            return true;
        }
        // Large objects: an index keeps this linear rather than quadratic.
        // The same index as `extend` uses, rather than a map of its own that would compile
        // a second hash table (build cost, see `design::performance`).
        let theirs = other.entries();
        let index = KeyIndex::new(theirs);
        for (k, v) in self.entries() {
            match index.find(theirs, k).and_then(|i| theirs.get(i)) {
                Some((_, w)) => pairs.push((v, w)),
                None => return false,
            }
        }
        true
    }
}

impl Eq for Map {}

/// Finds keys among a map's entries through keyed SipHash (std's `RandomState`, so input
/// cannot aim for collisions), in constant time a key. It holds 64-bit hashes, not the keys,
/// and confirms each hit against the entries, so a hash collision costs a scan, never a wrong
/// answer.
pub(crate) struct KeyIndex {
    state: RandomState,
    positions: HashMap<u64, usize, BuildHasherDefault<PassThrough>>,
}

impl KeyIndex {
    /// An index of `entries`, whose keys are unique.
    pub(crate) fn new(entries: &[(String, Json)]) -> KeyIndex {
        let state = RandomState::new();
        let mut positions = HashMap::with_capacity_and_hasher(entries.len(), Default::default());
        for (i, (key, _)) in entries.iter().enumerate() {
            positions.insert(hash(&state, key), i);
        }
        KeyIndex { state, positions }
    }

    /// The position of `key` in `entries`, the entries this index was built from.
    pub(crate) fn find(&self, entries: &[(String, Json)], key: &str) -> Option<usize> {
        let i = *self.positions.get(&hash(&self.state, key))?;
        match entries.get(i) {
            Some((k, _)) if k == key => Some(i),
            // Two keys with one 64-bit hash: the index holds the later one.
            _ => entries.iter().position(|(k, _)| k == key),
        }
    }

    /// The position of `key` in `entries` (the entries this index was built from, plus those
    /// added since); when it is not there, records that it will be pushed next, at
    /// `entries.len()`.
    pub(crate) fn find_or_insert(
        &mut self,
        entries: &[(String, Json)],
        key: &str,
    ) -> Option<usize> {
        match self.positions.entry(hash(&self.state, key)) {
            Entry::Vacant(slot) => {
                slot.insert(entries.len());
                None
            }
            Entry::Occupied(slot) => match entries.get(*slot.get()) {
                Some((k, _)) if k == key => Some(*slot.get()),
                // Two keys with one 64-bit hash: look properly (the new key stays out of the
                // index, so later lookups of it scan too; that takes a collision to happen).
                _ => entries.iter().position(|(k, _)| k == key),
            },
        }
    }
}

/// Finds keys among the entries of a map being built, the rule "scan while small, hash when
/// large" in one place: a scan while there are at most [`INDEX_THRESHOLD`] entries, then a
/// [`KeyIndex`] built once, so building a map of any size stays linear. `Map::extend` and
/// YAML's mappings use it (the JSON parser adds a Bloom filter in front for its hot path).
#[derive(Default)]
pub(crate) struct KeyFinder {
    index: Option<KeyIndex>,
}

impl KeyFinder {
    /// The position of `key` in `entries`; when it is not there, records that it will be
    /// pushed next, at `entries.len()`.
    pub(crate) fn find_or_insert(
        &mut self,
        entries: &[(String, Json)],
        key: &str,
    ) -> Option<usize> {
        if self.index.is_none() && entries.len() >= INDEX_THRESHOLD {
            self.index = Some(KeyIndex::new(entries));
        }
        match &mut self.index {
            Some(index) => index.find_or_insert(entries, key),
            None => entries.iter().position(|(k, _)| k == key),
        }
    }
}

fn hash(state: &RandomState, key: &str) -> u64 {
    let mut hasher = state.build_hasher();
    hasher.write(key.as_bytes());
    hasher.finish()
}

/// The index's keys are SipHash values already, so its table uses them as they are.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used (the keys are u64); fold anything else in all the same.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

impl Index<&str> for Map {
    type Output = Json;

    /// The value for `key`, or [`Json::Null`] when there is none (never panics).
    fn index(&self, key: &str) -> &Json {
        self.get(key).unwrap_or(&super::value::NULL)
    }
}

impl<K: Into<String>, V: Into<Json>> FromIterator<(K, V)> for Map {
    /// Collects entries; a repeated key keeps its first position and its last value.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Map {
        let mut map = Map::new();
        map.extend(iter);
        map
    }
}

impl<K: Into<String>, V: Into<Json>> Extend<(K, V)> for Map {
    /// Inserts each entry as [`insert`](Map::insert) does, in linear time: past
    /// a hundred or so entries, keys are found through a temporary hash index.
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        let mut iter = iter.into_iter();
        let (k, v) = match iter.next() {
            Some(first) => first,
            None => return,
        };
        let entries = self.entries_mut();
        entries.reserve(iter.size_hint().0.saturating_add(1));
        let mut keys = KeyFinder::default();
        extend_one(entries, &mut keys, k.into(), v.into());
        for (k, v) in iter {
            extend_one(entries, &mut keys, k.into(), v.into());
        }
    }
}

/// Pushes `entry`, growing the entries by half when they are full (one at a time up to
/// four) rather than doubling from four as `Vec::push` does. Maps built key by key (schemas
/// an importer converts, plugin files it writes) mostly hold one to a dozen keys and live as
/// long as the plugin: doubling left a third of their room unused, a single-key map three
/// quarters. Growth stays geometric, so building a map stays linear.
fn push_snug(entries: &mut Vec<(String, Json)>, entry: (String, Json)) {
    if entries.len() == entries.capacity() {
        let more = if entries.len() < 4 {
            1
        } else {
            entries.len() / 2
        };
        entries.reserve_exact(more);
    }
    entries.push(entry);
}

/// One entry of [`Map::extend`], outside the generic loop so its body is compiled once
/// rather than once per iterator type (build cost, see `design::performance`).
fn extend_one(entries: &mut Vec<(String, Json)>, keys: &mut KeyFinder, key: String, value: Json) {
    match keys
        .find_or_insert(entries, &key)
        .and_then(|i| entries.get_mut(i))
    {
        Some(entry) => entry.1 = value,
        None => entries.push((key, value)),
    }
}

impl IntoIterator for Map {
    type Item = (String, Json);
    type IntoIter = IntoIter;

    /// The entries by value: this map's own, or copies of them when a clone shares them.
    fn into_iter(self) -> IntoIter {
        let entries = match self.shared {
            Some(shared) => Arc::try_unwrap(shared).unwrap_or_else(|shared| (*shared).clone()),
            None => Vec::new(),
        };
        IntoIter {
            inner: entries.into_iter(),
        }
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a String, &'a Json);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Map {
    type Item = (&'a String, &'a mut Json);
    type IntoIter = IterMut<'a>;

    fn into_iter(self) -> IterMut<'a> {
        self.iter_mut()
    }
}

macro_rules! iterator {
    ($(#[$doc:meta])* $name:ident<$a:lifetime>, $inner:ty, $item:ty, |$e:ident| $map:expr) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name<$a> {
            inner: $inner,
        }

        impl<$a> Iterator for $name<$a> {
            type Item = $item;

            fn next(&mut self) -> Option<$item> {
                self.inner.next().map(|$e| $map)
            }

            fn size_hint(&self) -> (usize, Option<usize>) {
                self.inner.size_hint()
            }
        }

        impl<$a> DoubleEndedIterator for $name<$a> {
            fn next_back(&mut self) -> Option<$item> {
                self.inner.next_back().map(|$e| $map)
            }
        }

        impl<$a> ExactSizeIterator for $name<$a> {}
    };
}

iterator!(
    /// The entries of a [`Map`] in order, from [`Map::iter`].
    Iter<'a>, std::slice::Iter<'a, (String, Json)>, (&'a String, &'a Json), |e| (&e.0, &e.1)
);
iterator!(
    /// The entries of a [`Map`] in order with mutable values, from [`Map::iter_mut`].
    IterMut<'a>, std::slice::IterMut<'a, (String, Json)>, (&'a String, &'a mut Json),
    |e| (&e.0, &mut e.1)
);
iterator!(
    /// The keys of a [`Map`] in order, from [`Map::keys`].
    Keys<'a>, std::slice::Iter<'a, (String, Json)>, &'a String, |e| &e.0
);
iterator!(
    /// The values of a [`Map`] in order, from [`Map::values`].
    Values<'a>, std::slice::Iter<'a, (String, Json)>, &'a Json, |e| &e.1
);
iterator!(
    /// The values of a [`Map`] in order, to change, from [`Map::values_mut`].
    ValuesMut<'a>, std::slice::IterMut<'a, (String, Json)>, &'a mut Json, |e| &mut e.1
);

/// The entries of a [`Map`] in order, by value, from `Map::into_iter`.
#[derive(Debug)]
pub struct IntoIter {
    inner: std::vec::IntoIter<(String, Json)>,
}

impl Iterator for IntoIter {
    type Item = (String, Json);

    fn next(&mut self) -> Option<(String, Json)> {
        self.inner.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl DoubleEndedIterator for IntoIter {
    fn next_back(&mut self) -> Option<(String, Json)> {
        self.inner.next_back()
    }
}

impl ExactSizeIterator for IntoIter {}

#[cfg(test)]
mod tests {
    use super::*;

    fn capacity(map: &Map) -> usize {
        map.shared.as_ref().map_or(0, |entries| entries.capacity())
    }

    #[test]
    fn a_map_built_key_by_key_keeps_little_room_unused() {
        let mut map = Map::new();
        assert_eq!(capacity(&map), 0);
        map.insert("type", "string");
        assert_eq!(capacity(&map), 1);
        for (i, key) in ["a", "b", "c", "d"].iter().enumerate() {
            map.insert(*key, i);
        }
        assert_eq!((map.len(), capacity(&map)), (5, 6));
        for i in 0..1000 {
            map.insert(format!("k{}", i), i);
        }
        assert!(capacity(&map) * 2 <= map.len() * 3, "{}", capacity(&map));
    }

    #[test]
    fn snug_growth_keeps_order_and_replaces_duplicates_in_place() {
        let mut map = Map::with_capacity(2);
        for i in 0..10 {
            map.insert(format!("k{}", i), i);
        }
        assert_eq!(map.insert("k3", "again"), Some(Json::from(3)));
        let keys: Vec<&str> = map.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            ["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9"]
        );
        assert_eq!(map["k3"], Json::from("again"));
        assert_eq!(map.len(), 10);
    }

    #[test]
    fn an_empty_map_allocates_nothing_and_a_clone_grows_on_its_own() {
        let empty = Map::new();
        assert!(empty.shared.is_none());
        assert_eq!(Json::Object(empty.clone()).to_string(), "{}");
        let mut a = Map::new();
        a.insert("x", 1);
        let mut b = a.clone();
        b.insert("y", 2);
        assert_eq!((a.len(), b.len()), (1, 2));
        assert_eq!(capacity(&a), 1);
    }
}
