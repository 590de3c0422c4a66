//! The compact store of one watched source: converts each object on arrival into its engine
//! model type and keeps only that, keyed by `namespace/name`. A relist (`Init`, `InitApply`…,
//! `InitDone`) is buffered in arrival order and then replaces the contents exactly, so the
//! store after a recovery equals a fresh list; the map it becomes is built in one pass from
//! the sorted buffer, its nodes full (a list arrives in key order, and inserting keys in order
//! would leave every node of the map half empty).
//!
//! Strings are interned in `SharedNames`, one table for every store of a session: a pod's
//! node name, owner name and UID and ISVC label are then the very `Arc`s of the node, replica
//! and InferenceService, so the engine compares them by address and memory holds each once.
//!
//! Every change of the contents is recorded by key (`touched`) until the snapshot task drains
//! it with the objects (`Store::drain`), so a batch reads what changed, not the whole store.
//!
//! Owns: `Store`, `Conversion`, `SharedNames` (`touched`: `Touched`, `Drained`). Pure over `kube::runtime::watcher::Event` values (no
//! I/O, no clock).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use kube::runtime::watcher::Event;

use crate::cluster::convert::{ConvertError, Interner, Warnings};

mod touched;

pub use touched::Drained;
use touched::Touched;

/// How a source turns its Kubernetes type `K` into the model type `T`.
pub struct Conversion<K, T> {
    /// The store key of an object: `namespace/name` (or `name` when cluster-scoped).
    pub key: fn(&K) -> String,
    /// Converts an object; `Ok(None)` means "not of interest" (dropped without a warning).
    /// Non-fatal oddities go to the warnings.
    pub convert: fn(&mut Interner, &K, &mut Warnings) -> Result<Option<T>, ConvertError>,
}

/// The interner the stores of one session share (each store renews it when its own
/// conversions outgrow what it holds; a renewal only loses sharing with older objects).
#[derive(Debug, Clone, Default)]
pub struct SharedNames(Arc<Mutex<Interner>>);

impl SharedNames {
    fn with<R>(&self, f: impl FnOnce(&mut Interner) -> R) -> R {
        // A panic while interning leaves a table of valid strings behind: keep using it.
        let mut interner = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        f(&mut interner)
    }
}

/// A store key: `namespace/name`, without spare capacity.
type Key = Box<str>;

/// Objects of one source as the engine sees them, plus per-object conversion warnings.
pub struct Store<T> {
    live: BTreeMap<Key, T>,
    live_warnings: BTreeMap<String, Warnings>,
    /// `Some` between `Init` and `InitDone`: the relist being collected.
    relist: Option<Relist<T>>,
    names: SharedNames,
    /// Conversions since the interner was last renewed (bounds its growth under churn).
    conversions: usize,
    /// Keys whose object changed since the last drain.
    touched: Touched,
}

struct Relist<T> {
    /// Every key in arrival order; `None` where the object was not of interest or not
    /// understood. A later arrival of a key wins, as an insert into the map would.
    objects: Vec<(Key, Option<T>)>,
    warnings: BTreeMap<String, Warnings>,
}

impl<T> Relist<T> {
    fn new() -> Self {
        Relist {
            objects: Vec::new(),
            warnings: BTreeMap::new(),
        }
    }

    fn put(&mut self, key: String, result: Result<(Option<T>, Warnings), ConvertError>) {
        let object = match result {
            Ok((Some(t), w)) => {
                set_warnings(&mut self.warnings, key.clone(), w);
                Some(t)
            }
            Ok((None, _)) => {
                self.warnings.remove(&key);
                None
            }
            Err(e) => {
                not_understood(&mut self.warnings, key.clone(), &e);
                None
            }
        };
        self.objects.push((key.into_boxed_str(), object));
    }

    /// The map of the objects listed: sorted (stable, so arrival order breaks ties), the last
    /// arrival of each key kept, then built bottom-up.
    fn into_map(self) -> (BTreeMap<Key, T>, BTreeMap<String, Warnings>) {
        let mut objects = self.objects;
        objects.sort_by(|a, b| a.0.cmp(&b.0));
        objects.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                std::mem::swap(later, kept);
            }
            same
        });
        let map = objects
            .into_iter()
            .filter_map(|(k, t)| t.map(|t| (k, t)))
            .collect();
        (map, self.warnings)
    }
}

impl<T> Default for Store<T> {
    /// A store with an interner of its own.
    fn default() -> Self {
        Store::sharing(SharedNames::default())
    }
}

impl<T> Store<T> {
    /// An empty store interning into `names`.
    pub fn sharing(names: SharedNames) -> Self {
        Store {
            live: BTreeMap::new(),
            live_warnings: BTreeMap::new(),
            relist: None,
            names,
            conversions: 0,
            touched: Touched::default(),
        }
    }
}

impl<T: Clone> Store<T> {
    /// Applies one watcher event. Returns whether the visible contents (objects or warnings)
    /// changed; `Init` and `InitApply` change nothing visible until `InitDone`.
    pub fn apply<K>(&mut self, event: Event<K>, conv: &Conversion<K, T>) -> bool {
        match event {
            Event::Init => {
                self.renew_interner_if_grown();
                self.relist = Some(Relist::new());
                false
            }
            Event::InitApply(obj) => {
                let (key, result) = self.convert(&obj, conv);
                // An InitApply without a preceding Init (not produced by kube) starts a relist.
                self.relist.get_or_insert_with(Relist::new).put(key, result);
                false
            }
            Event::InitDone => match self.relist.take() {
                Some(relist) => {
                    (self.live, self.live_warnings) = relist.into_map();
                    self.touched.replaced();
                    true
                }
                None => false,
            },
            Event::Apply(obj) => {
                self.renew_interner_if_grown();
                let (key, result) = self.convert(&obj, conv);
                self.touched.key(&key);
                put(&mut self.live, &mut self.live_warnings, key, result);
                true
            }
            Event::Delete(obj) => {
                let key = (conv.key)(&obj);
                let removed = self.live.remove(key.as_str()).is_some();
                if removed {
                    self.touched.key(&key);
                }
                removed | self.live_warnings.remove(&key).is_some()
            }
        }
    }

    /// Empties the store (the resource vanished or became forbidden). Returns whether
    /// anything was held.
    pub fn clear(&mut self) -> bool {
        self.relist = None;
        let had = !self.live.is_empty() || !self.live_warnings.is_empty();
        if !self.live.is_empty() {
            self.touched.replaced();
        }
        self.live.clear();
        self.live_warnings.clear();
        had
    }

    /// Number of objects held (not counting unconvertible ones).
    pub fn len(&self) -> usize {
        self.live.len()
    }

    /// Whether no object is held.
    pub fn is_empty(&self) -> bool {
        self.live.is_empty()
    }

    /// While a list runs (between `Init` and `InitDone`): the objects it delivered so far
    /// (those dropped on arrival included).
    pub fn listing(&self) -> Option<usize> {
        self.relist.as_ref().map(|r| r.objects.len())
    }

    /// Clones of the objects held, in key order.
    pub fn values(&self) -> Vec<T> {
        self.live.values().cloned().collect()
    }

    /// Appends the held objects to `out` (key order).
    pub fn extend_into(&self, out: &mut impl Extend<T>) {
        out.extend(self.live.values().cloned());
    }

    /// The keys changed since the last drain, each with its object now, and a fresh record:
    /// applied to what the last drain (or `drain_all`) returned, they give the contents now.
    pub fn drain(&mut self) -> Drained<T> {
        match self.touched.take() {
            Some(keys) => Drained::Keys(
                keys.into_iter()
                    .map(|k| {
                        let object = self.live.get(&k).cloned();
                        (k, object)
                    })
                    .collect(),
            ),
            None => Drained::Whole,
        }
    }

    /// `extend_into`, and a fresh record of changed keys (the next drain starts from here).
    pub fn drain_all(&mut self, out: &mut impl Extend<T>) {
        self.touched.take();
        self.extend_into(out);
    }

    /// The warnings of the held and the unconvertible objects, one line each (key order).
    pub fn warnings(&self) -> Vec<String> {
        self.live_warnings.values().flatten().cloned().collect()
    }

    /// Number of objects that could not be converted.
    pub fn unconvertible(&self) -> usize {
        self.live_warnings
            .keys()
            .filter(|k| !self.live.contains_key(k.as_str()))
            .count()
    }

    fn convert<K>(
        &mut self,
        obj: &K,
        conv: &Conversion<K, T>,
    ) -> (String, Result<(Option<T>, Warnings), ConvertError>) {
        self.conversions += 1;
        let key = (conv.key)(obj);
        let mut warnings = Warnings::new();
        let result = self
            .names
            .with(|i| (conv.convert)(i, obj, &mut warnings))
            .map(|t| (t, warnings));
        (key, result)
    }

    /// Interned strings of deleted objects would otherwise live forever; a fresh interner
    /// only loses sharing with older objects.
    fn renew_interner_if_grown(&mut self) {
        if self.conversions > 2 * self.live.len() + 1024 {
            self.names.with(|i| *i = Interner::default());
            self.conversions = 0;
        }
    }
}

fn put<T>(
    objects: &mut BTreeMap<Key, T>,
    warnings: &mut BTreeMap<String, Warnings>,
    key: String,
    result: Result<(Option<T>, Warnings), ConvertError>,
) {
    match result {
        Ok((Some(t), w)) => {
            objects.insert(Key::from(key.as_str()), t);
            set_warnings(warnings, key, w);
        }
        Ok((None, _)) => {
            objects.remove(key.as_str());
            warnings.remove(&key);
        }
        Err(e) => {
            // The previous version is dropped: the store never shows data it cannot vouch for.
            objects.remove(key.as_str());
            not_understood(warnings, key, &e);
        }
    }
}

fn not_understood(warnings: &mut BTreeMap<String, Warnings>, key: String, e: &ConvertError) {
    warnings.insert(key, vec![format!("not understood, ignored: {e}")]);
}

fn set_warnings(warnings: &mut BTreeMap<String, Warnings>, key: String, w: Warnings) {
    if w.is_empty() {
        warnings.remove(&key);
    } else {
        warnings.insert(key, w);
    }
}

#[cfg(test)]
mod tests;
