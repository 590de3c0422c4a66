//! InferenceService keys `(namespace, name)` as small ids, numbered by first occurrence. A
//! pod's namespace and ISVC label share the ISVC's texts in a live snapshot, so lookups try
//! the addresses of the two texts first and fall back to the texts; both maps answer the same
//! id for every text they know, whatever order the ISVCs come in.
//!
//! Owns: `IsvcKeys`. Pure.

use std::cell::OnceCell;

use rustc_hash::FxHashMap as HashMap;

use crate::engine::fast::isvc_order::{by_namespace_name_known, key_orders};
use crate::engine::fast::{same, ByAddress};
use crate::engine::model::{InferenceService, Name};

/// Distinct InferenceService keys of one snapshot's ISVCs.
pub struct IsvcKeys<'a> {
    /// Key ids by text (built on first use when the ISVCs came in key order).
    by_text: OnceCell<HashMap<(&'a str, &'a str), u32>>,
    /// The same ids by the addresses of each ISVC's own namespace and name texts.
    by_address: HashMap<(ByAddress<'a>, ByAddress<'a>), u32>,
    /// The ISVCs the ids were assigned to.
    isvcs: &'a [InferenceService],
    /// Per key id: the last ISVC with that key (what a key → index map would return).
    last: Vec<usize>,
    /// Per ISVC: its key id.
    key_of: Vec<u32>,
    /// Whether the ISVCs are in ascending `(namespace, name)` order.
    key_order: bool,
    /// Whether they are in that order and in ascending `ns/name` text order as well.
    text_order: bool,
}

impl<'a> IsvcKeys<'a> {
    /// Assigns key ids to `isvcs` in first-occurrence order. ISVCs in key order (the live
    /// store's) have equal keys side by side, so ids come from comparing neighbours and no text
    /// is hashed until a lookup needs the text map; in any other order the text map numbers
    /// them. Both give the same ids (`ids_equal_a_text_map`).
    pub fn new(isvcs: &'a [InferenceService]) -> Self {
        let n = isvcs.len();
        let (key_order, text_order) = key_orders(isvcs);
        let mut by_text: HashMap<(&str, &str), u32> = HashMap::default();
        let mut by_address: HashMap<(ByAddress<'a>, ByAddress<'a>), u32> = HashMap::default();
        by_address.reserve(n);
        let mut last = Vec::new();
        let mut key_of: Vec<u32> = Vec::with_capacity(n);
        for (i, w) in isvcs.iter().enumerate() {
            let next = last.len() as u32;
            let id = if key_order {
                match (i.checked_sub(1).map(|p| &isvcs[p]), key_of.last()) {
                    (Some(prev), Some(&id))
                        if same(prev.namespace(), w.namespace()) && same(prev.name(), w.name()) =>
                    {
                        id
                    }
                    _ => next,
                }
            } else {
                *by_text
                    .entry((w.namespace().as_ref(), w.name().as_ref()))
                    .or_insert(next)
            };
            by_address
                .entry((ByAddress(w.namespace()), ByAddress(w.name())))
                .or_insert(id);
            if id == next {
                last.push(i);
            } else if let Some(slot) = last.get_mut(id as usize) {
                *slot = i;
            }
            key_of.push(id);
        }
        let text = OnceCell::new();
        if !key_order {
            let _ = text.set(by_text);
        }
        IsvcKeys {
            by_text: text,
            by_address,
            isvcs,
            last,
            key_of,
            key_order,
            text_order,
        }
    }

    /// The key id of `(namespace, name)`.
    pub fn id(&self, namespace: &str, name: &str) -> Option<u32> {
        let by_text = self.by_text.get_or_init(|| {
            let mut by_text: HashMap<(&str, &str), u32> = HashMap::default();
            by_text.reserve(self.isvcs.len());
            for (w, &id) in self.isvcs.iter().zip(&self.key_of) {
                by_text.insert((w.namespace().as_ref(), w.name().as_ref()), id);
            }
            by_text
        });
        by_text.get(&(namespace, name)).copied()
    }

    /// `id` for shared names: by address first, by text when the texts are not an ISVC's own.
    pub fn id_of(&self, namespace: &Name, name: &Name) -> Option<u32> {
        match self
            .by_address
            .get(&(ByAddress(namespace), ByAddress(name)))
        {
            Some(id) => Some(*id),
            None => self.id(namespace, name),
        }
    }

    /// The last ISVC with key id `id`.
    pub fn last(&self, id: u32) -> Option<usize> {
        self.last.get(id as usize).copied()
    }

    /// The key id of ISVC `isvc`.
    pub fn key_of(&self, isvc: usize) -> Option<u32> {
        self.key_of.get(isvc).copied()
    }

    /// ISVC indices sorted by `(namespace, name)` text, equal keys by index.
    pub fn namespace_name_order(&self) -> Vec<usize> {
        by_namespace_name_known(self.isvcs, self.key_order)
    }

    /// Per ISVC, the rank of its `ns/name` text among the distinct texts, when the ISVCs are
    /// in both key order and text order: ids are then assigned in text order, so they are
    /// those ranks. `None` otherwise (ranks then need a sort).
    pub fn text_ranks(&self) -> Option<&[u32]> {
        (self.key_order && self.text_order).then_some(&self.key_of[..])
    }

    /// Number of distinct keys.
    pub fn len(&self) -> usize {
        self.last.len()
    }

    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.last.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::testkit::isvc;
    use std::sync::Arc;

    fn keys_of(isvcs: &[InferenceService]) -> IsvcKeys<'_> {
        IsvcKeys::new(isvcs)
    }

    #[test]
    fn duplicate_keys_share_an_id_and_the_last_wins() {
        let isvcs = vec![isvc("a", "x"), isvc("b", "x"), isvc("a", "x")];
        let keys = keys_of(&isvcs);
        assert_eq!(keys.len(), 2);
        assert_eq!(keys.id("a", "x"), Some(0));
        assert_eq!(keys.last(0), Some(2));
        assert_eq!(keys.key_of(2), Some(0));
        assert_eq!(keys.id("c", "x"), None);
    }

    #[test]
    fn shared_and_separate_texts_find_the_same_id() {
        let shared = isvc("a", "x");
        // The same texts, shared: one key.
        let twin =
            InferenceService::named(shared.namespace().clone(), shared.name().clone(), |k| {
                Name::from(k)
            });
        let isvcs = vec![shared.clone(), isvc("b", "y"), twin, isvc("a", "x")];
        let keys = keys_of(&isvcs);
        assert_eq!(keys.len(), 2);
        assert_eq!(
            keys.last(0),
            Some(3),
            "separate copies of a text share its id"
        );
        let (ns, name): (Name, Name) = (Arc::from("a"), Arc::from("x"));
        assert_eq!(keys.id_of(&ns, &name), Some(0));
        assert_eq!(keys.id_of(shared.namespace(), shared.name()), Some(0));
        assert_eq!(keys.id_of(isvcs[1].namespace(), isvcs[1].name()), Some(1));
        assert_eq!(keys.id_of(shared.namespace(), &Arc::from("nope")), None);
    }

    proptest::proptest! {
        /// In any order, with texts shared between ISVCs or copied, ids number keys by first
        /// occurrence, and every lookup (by text, by the ISVC's own names, by copies of them)
        /// answers like a plain text map; the order is a stable sort by key.
        #[test]
        fn ids_equal_a_text_map(
            pairs in proptest::collection::vec(("[ab]{0,2}", "[xy]{0,2}", proptest::bool::ANY), 0..24),
            sort in proptest::bool::ANY,
        ) {
            let mut pairs = pairs;
            if sort {
                pairs.sort();
            }
            let mut isvcs: Vec<InferenceService> =
                pairs.iter().map(|(ns, name, _)| isvc(ns, name)).collect();
            // Some ISVCs share the previous one's texts, as interned snapshots do.
            for i in 1..isvcs.len() {
                if pairs[i].2 && pairs[i].0 == pairs[i - 1].0 {
                    let (ns, name) = (isvcs[i - 1].namespace().clone(), isvcs[i].name().clone());
                    isvcs[i] = InferenceService::named(ns, name, |k| Name::from(k));
                }
            }
            let keys = keys_of(&isvcs);
            let mut first: std::collections::HashMap<(&str, &str), u32> = Default::default();
            for (i, (ns, name, _)) in pairs.iter().enumerate() {
                let next = first.len() as u32;
                let id = *first.entry((ns.as_str(), name.as_str())).or_insert(next);
                proptest::prop_assert_eq!(keys.key_of(i), Some(id));
                proptest::prop_assert_eq!(keys.id(ns, name), Some(id));
                proptest::prop_assert_eq!(keys.id_of(isvcs[i].namespace(), isvcs[i].name()), Some(id));
                let (ns_copy, name_copy): (Name, Name) = (Arc::from(ns.as_str()), Arc::from(name.as_str()));
                proptest::prop_assert_eq!(keys.id_of(&ns_copy, &name_copy), Some(id));
                let last = pairs.iter().rposition(|p| (&p.0, &p.1) == (ns, name));
                proptest::prop_assert_eq!(keys.last(id), last);
            }
            proptest::prop_assert_eq!(keys.len(), first.len());
            proptest::prop_assert_eq!(keys.id("zz", "x"), None);
            let mut stable: Vec<usize> = (0..pairs.len()).collect();
            stable.sort_by_key(|&i| (&pairs[i].0, &pairs[i].1));
            proptest::prop_assert_eq!(keys.namespace_name_order(), stable);
        }
    }
}
