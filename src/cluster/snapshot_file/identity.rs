//! The identity rules of a snapshot file's objects, as the API server and an informer apply
//! them: a namespaced kind needs a namespace and a name, a cluster-scoped one a name; a `spec`
//! or `status` of the wrong JSON type is refused, naming the field; two objects with the same
//! (kind, namespace, name), or the same UID, are one object and the last one listed wins. An
//! Event listed once per API (`v1` and `events.k8s.io/v1`, as two `kubectl get` commands dump
//! it) is one object too, and not a duplicate worth a warning.
//!
//! Owns: `Kind`, `Identities` (where each object went, which were replaced or dropped),
//! `check_shape`. Pure.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use crate::cluster::convert::ConvertError;

/// The kinds a snapshot keeps, each in its own list of the `ClusterSnapshot`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `v1` Node (cluster-scoped).
    Node,
    /// `v1` Pod.
    Pod,
    /// `v1` ConfigMap.
    ConfigMap,
    /// `v1` Event.
    Event,
    /// `events.k8s.io/v1` Event (kept with the `v1` Events: the same objects, another view).
    EventsV1Event,
    /// `v1` PersistentVolumeClaim.
    VolumeClaim,
    /// `ome.io` InferenceService.
    InferenceService,
    /// `ome.io` InferenceReplica.
    InferenceReplica,
    /// `ome.io` BaseModel.
    BaseModel,
    /// `ome.io` ClusterBaseModel (cluster-scoped; kept with the BaseModels).
    ClusterBaseModel,
    /// `scheduling.x-k8s.io` PodGroup.
    PodGroup,
}

impl Kind {
    /// The kind as the file names it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Node => "Node",
            Kind::Pod => "Pod",
            Kind::ConfigMap => "ConfigMap",
            Kind::Event | Kind::EventsV1Event => "Event",
            Kind::VolumeClaim => "PersistentVolumeClaim",
            Kind::InferenceService => "InferenceService",
            Kind::InferenceReplica => "InferenceReplica",
            Kind::BaseModel => "BaseModel",
            Kind::ClusterBaseModel => "ClusterBaseModel",
            Kind::PodGroup => "PodGroup",
        }
    }

    fn namespaced(self) -> bool {
        !matches!(self, Kind::Node | Kind::ClusterBaseModel)
    }

    /// Whether the API server refuses the kind without a `spec` object.
    fn needs_spec(self) -> bool {
        matches!(
            self,
            Kind::Pod | Kind::InferenceService | Kind::InferenceReplica | Kind::PodGroup
        )
    }

    /// The list an object of this kind goes to (both model kinds share one).
    pub fn list(self) -> Kind {
        match self {
            Kind::ClusterBaseModel => Kind::BaseModel,
            Kind::EventsV1Event => Kind::Event,
            k => k,
        }
    }
}

/// `(kind, namespace, name)`.
type Key = (Kind, String, String);

/// Where an object goes in its kind's list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// At the end: the first object with this identity.
    New,
    /// Over the object at this index of its kind's list (the same object listed again).
    Replace(usize),
}

/// The identities seen so far and what the duplicates did.
#[derive(Debug, Default)]
pub struct Identities {
    /// Where each identity went, and the kind that put it there.
    by_key: HashMap<Key, (usize, Kind)>,
    by_uid: HashMap<String, Key>,
    /// Objects an object with the same UID (and another name) replaced: (list, index).
    dropped: Vec<(Kind, usize)>,
    /// Duplicates per kind: how many, and the first few names.
    duplicates: BTreeMap<Kind, (usize, Vec<String>)>,
    /// UID clashes: how many, and the first few pairs.
    uid_clashes: (usize, Vec<String>),
}

/// How many names a warning lists before "…".
const NAMED: usize = 3;

fn shown(ns: &str, name: &str) -> String {
    if ns.is_empty() {
        name.to_string()
    } else {
        format!("{ns}/{name}")
    }
}

impl Identities {
    /// Where the object `(kind, ns, name)` with `uid` goes; `len` is its list's length now.
    /// A UID already seen under another name drops that object (an informer keeps one).
    pub fn place(&mut self, kind: Kind, ns: &str, name: &str, uid: &str, len: usize) -> Slot {
        let key: Key = (kind.list(), ns.to_string(), name.to_string());
        if !uid.is_empty() {
            if let Some(old) = self.by_uid.get(uid).filter(|old| **old != key).cloned() {
                if let Some((i, _)) = self.by_key.remove(&old) {
                    self.dropped.push((old.0, i));
                }
                let (count, names) = &mut self.uid_clashes;
                *count += 1;
                if names.len() < NAMED {
                    names.push(format!(
                        "{} {} and {}",
                        kind.name(),
                        shown(&old.1, &old.2),
                        shown(ns, name)
                    ));
                }
            }
            self.by_uid.insert(uid.to_string(), key.clone());
        }
        if let Some(&(i, earlier)) = self.by_key.get(&key) {
            if earlier != kind && kind.list() == Kind::Event {
                // The same Event through the other API.
                self.by_key.insert(key, (i, kind));
                return Slot::Replace(i);
            }
            let (count, names) = self.duplicates.entry(kind.list()).or_default();
            *count += 1;
            if names.len() < NAMED {
                names.push(shown(ns, name));
            }
            return Slot::Replace(i);
        }
        self.by_key.insert(key, (len, kind));
        Slot::New
    }

    /// Indices of `list` dropped for a UID clash, in descending order (remove them in turn).
    pub fn dropped(&self, list: Kind) -> Vec<usize> {
        let mut out: Vec<usize> = self
            .dropped
            .iter()
            .filter(|(k, _)| *k == list)
            .map(|(_, i)| *i)
            .collect();
        out.sort_unstable_by(|a, b| b.cmp(a));
        out.dedup();
        out
    }

    /// One warning per kind with duplicates, and one for UID clashes.
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (kind, (count, names)) in &self.duplicates {
            let more = if *count > names.len() { ", …" } else { "" };
            out.push(format!(
                "{count} duplicate {} object(s) (same namespace and name: {}{more}); the last one \
                 listed is used",
                kind.name(),
                names.join(", ")
            ));
        }
        let (count, pairs) = &self.uid_clashes;
        if *count > 0 {
            let more = if *count > pairs.len() { "; …" } else { "" };
            out.push(format!(
                "{count} object(s) share a UID with an earlier one ({}{more}); the last one \
                 listed is used",
                pairs.join("; ")
            ));
        }
        out
    }
}

/// "an" before a kind that starts with a vowel (an InferenceService), else "a".
fn article(word: &str) -> &'static str {
    match word.chars().next() {
        Some('A' | 'E' | 'I' | 'O' | 'U' | 'a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// The identity of an item the snapshot keeps: `(namespace, name, uid)`, or why Kubernetes
/// would not hold such an object. `at` names the item (`items[3]`).
pub fn check_shape(
    kind: Kind,
    at: &str,
    v: &Value,
) -> Result<(String, String, String), ConvertError> {
    let refuse = |field: &str, message: String| ConvertError {
        object: format!("{at} ({})", kind.name()),
        field: field.into(),
        message,
    };
    let meta = v.get("metadata");
    if let Some(m) = meta.filter(|m| !m.is_object() && !m.is_null()) {
        return Err(refuse(
            "metadata",
            format!("{}, not an object", json_type(m)),
        ));
    }
    let text = |key: &str| meta.and_then(|m| m.get(key)).and_then(Value::as_str);
    let name = text("name").filter(|n| !n.is_empty());
    let Some(name) = name else {
        return Err(refuse(
            "metadata.name",
            format!("missing; every {} has a name", kind.name()),
        ));
    };
    let ns = text("namespace").unwrap_or_default();
    if kind.namespaced() && ns.is_empty() {
        return Err(ConvertError {
            object: format!("{at} ({} {name})", kind.name()),
            field: "metadata.namespace".into(),
            message: format!(
                "missing; {} {} lives in a namespace",
                article(kind.name()),
                kind.name()
            ),
        });
    }
    let ns = if kind.namespaced() { ns } else { "" };
    let id = || format!("{} {}", kind.name(), shown(ns, name));
    for field in ["spec", "status"] {
        match v.get(field) {
            None | Some(Value::Object(_)) => {}
            Some(Value::Null) if field == "status" || !kind.needs_spec() => {}
            Some(other) => {
                return Err(ConvertError {
                    object: id(),
                    field: field.into(),
                    message: format!("{}, not an object", json_type(other)),
                })
            }
        }
    }
    if kind.needs_spec() && v.get("spec").is_none() && kind == Kind::Pod {
        return Err(ConvertError {
            object: id(),
            field: "spec".into(),
            message: "missing; a Pod has a spec".into(),
        });
    }
    let uid = text("uid").unwrap_or_default();
    Ok((ns.to_string(), name.to_string(), uid.to_string()))
}

/// A JSON value's type in words.
fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // Tests may fail loudly.

    use super::*;
    use serde_json::json;

    #[test]
    fn kinds_take_their_article() {
        assert_eq!(article("InferenceService"), "an");
        assert_eq!(article("Pod"), "a");
    }

    #[test]
    fn names_and_namespaces_are_required_where_kubernetes_requires_them() {
        let node = json!({"metadata": {}});
        let e = check_shape(Kind::Node, "items[3]", &node).unwrap_err();
        assert_eq!(
            e.to_string(),
            "items[3] (Node): metadata.name: missing; every Node has a name"
        );
        let pod = json!({"metadata": {"name": "p"}, "spec": {}});
        let e = check_shape(Kind::Pod, "items[0]", &pod).unwrap_err();
        assert_eq!(e.field, "metadata.namespace");
        assert!(e.object.contains("items[0] (Pod p)"), "{e}");
        // A cluster-scoped object's namespace is ignored.
        let node = json!({"metadata": {"name": "n", "namespace": "x", "uid": "u"}});
        let got = check_shape(Kind::Node, "items[0]", &node).unwrap();
        assert_eq!(got, (String::new(), "n".into(), "u".into()));
    }

    #[test]
    fn a_spec_of_the_wrong_type_names_the_field() {
        let isvc = json!({"metadata": {"name": "a", "namespace": "s"}, "spec": "RawDeployment"});
        let e = check_shape(Kind::InferenceService, "items[1]", &isvc).unwrap_err();
        assert_eq!(
            e.to_string(),
            "InferenceService s/a: spec: a string, not an object"
        );
        let pod = json!({"metadata": {"name": "p", "namespace": "s"}, "spec": null});
        let e = check_shape(Kind::Pod, "items[2]", &pod).unwrap_err();
        assert_eq!(e.to_string(), "Pod s/p: spec: null, not an object");
        let pod = json!({"metadata": {"name": "p", "namespace": "s"}});
        assert_eq!(check_shape(Kind::Pod, "x", &pod).unwrap_err().field, "spec");
        let node = json!({"metadata": {"name": "n"}, "spec": null, "status": [1]});
        let e = check_shape(Kind::Node, "x", &node).unwrap_err();
        assert_eq!(e.to_string(), "Node n: status: an array, not an object");
    }

    #[test]
    fn the_last_object_listed_wins() {
        let mut ids = Identities::default();
        assert_eq!(ids.place(Kind::Node, "", "a", "u1", 0), Slot::New);
        assert_eq!(ids.place(Kind::Node, "", "b", "u2", 1), Slot::New);
        assert_eq!(ids.place(Kind::Node, "", "a", "u1", 2), Slot::Replace(0));
        // Same UID, another name: the earlier object is dropped.
        assert_eq!(ids.place(Kind::Node, "", "c", "u2", 2), Slot::New);
        assert_eq!(ids.dropped(Kind::Node), vec![1]);
        // The same name in another kind or namespace is another object.
        assert_eq!(ids.place(Kind::Pod, "x", "a", "", 0), Slot::New);
        assert_eq!(ids.place(Kind::Pod, "y", "a", "", 1), Slot::New);
        let w = ids.warnings();
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(w[0].starts_with("1 duplicate Node object(s) (same namespace and name: a)"));
        assert!(w[1].contains("Node b and c"), "{w:?}");
    }

    #[test]
    fn an_event_listed_through_both_apis_is_one_event_without_a_warning() {
        let mut ids = Identities::default();
        assert_eq!(ids.place(Kind::Event, "s", "p.1", "u", 0), Slot::New);
        assert_eq!(
            ids.place(Kind::EventsV1Event, "s", "p.1", "u", 1),
            Slot::Replace(0)
        );
        assert!(ids.warnings().is_empty(), "{:?}", ids.warnings());
        assert!(ids.dropped(Kind::Event).is_empty());
        // Listed twice through one API, it is a duplicate as any object is.
        assert_eq!(
            ids.place(Kind::EventsV1Event, "s", "p.1", "u", 1),
            Slot::Replace(0)
        );
        assert_eq!(ids.warnings().len(), 1);
    }
}
