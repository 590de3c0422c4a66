//! Tests of `Stores::take_delta`: after random store events (updates, deletions and returns,
//! keys touched twice in one batch, relists, Events replaced, another kind changed), the
//! changes drained and applied to an `Incremental` give the stores' snapshot and the full
//! analysis of it; a batch of pods, nodes and Events alone reads no whole snapshot.

use std::sync::Arc;

use chrono::TimeZone;
use proptest::prelude::*;

use super::testkit::{apply, delete, load, pod_key, relist};
use super::*;
use crate::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting, Incremental};
use crate::engine::model::{InferenceService, Pod};
use crate::sim::cluster::{generate_cluster, ClusterSpec};

fn opts() -> AnalysisOptions {
    AnalysisOptions {
        now: chrono::Utc.timestamp_opt(1_790_000_000, 0).unwrap(),
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
        instance_types: Default::default(),
    }
}

/// One step of a history: an event on a store, or a batch drained.
#[derive(Debug, Clone)]
enum Step {
    /// A pod of the fleet changed: readiness flipped, or bound to a node when pending.
    PodChanged(usize, usize),
    PodDeleted(usize),
    /// A pod of the fleet put back as it was (the same allocation).
    PodBack(usize),
    /// A pod not in the fleet added (or deleted): keys touched and gone within a batch.
    ExtraPod(usize, bool),
    NodeCordoned(usize, bool),
    NodeDeleted(usize),
    NodeBack(usize),
    /// The pods relisted without every k-th one.
    PodsRelisted(usize),
    EventsReplaced(usize),
    /// An InferenceService annotated (or the annotation removed): a change in place.
    IsvcAnnotated(usize, bool),
    IsvcDeleted(usize),
    IsvcBack(usize),
    /// PodGroups relisted: a kind the engine takes only as a whole.
    OtherChanged,
    Drain,
}

fn step() -> impl Strategy<Value = Step> {
    let n = || 0usize..1000;
    prop_oneof![
        4 => (n(), n()).prop_map(|(a, b)| Step::PodChanged(a, b)),
        2 => n().prop_map(Step::PodDeleted),
        2 => n().prop_map(Step::PodBack),
        2 => (n(), any::<bool>()).prop_map(|(a, d)| Step::ExtraPod(a, d)),
        2 => (n(), any::<bool>()).prop_map(|(a, c)| Step::NodeCordoned(a, c)),
        1 => n().prop_map(Step::NodeDeleted),
        1 => n().prop_map(Step::NodeBack),
        1 => n().prop_map(Step::PodsRelisted),
        1 => n().prop_map(Step::EventsReplaced),
        2 => (n(), any::<bool>()).prop_map(|(a, on)| Step::IsvcAnnotated(a, on)),
        1 => n().prop_map(Step::IsvcDeleted),
        1 => n().prop_map(Step::IsvcBack),
        1 => Just(Step::OtherChanged),
        3 => Just(Step::Drain),
    ]
}

/// The fleet, the stores and the analysis kept from their drains.
struct World {
    fleet: ClusterSnapshot,
    stores: Stores,
    inc: Incremental,
    /// Whether the next drain must read the whole snapshot (a relist or another kind).
    whole_due: bool,
}

impl World {
    fn new() -> Self {
        let spec = ClusterSpec {
            seed: 5,
            nodes: 10,
            pods: 90,
        };
        let fleet = generate_cluster(&spec, opts().now);
        let stores = Stores::default();
        load(&stores, &fleet);
        let inc = Incremental::new(stores.take_snapshot(), opts());
        World {
            fleet,
            stores,
            inc,
            whole_due: false,
        }
    }

    fn pod(&self, a: usize) -> Arc<Pod> {
        let pods = self.fleet.pods.shared();
        pods[a % pods.len()].clone()
    }

    fn node(&self, a: usize) -> Node {
        self.fleet.nodes[a % self.fleet.nodes.len()].clone()
    }

    /// The fleet's service `a` (none when the fleet has none) and its store key.
    fn isvc(&self, a: usize) -> Option<(String, InferenceService)> {
        let isvcs = &self.fleet.isvcs;
        let isvc = isvcs.get(a % isvcs.len().max(1))?.clone();
        Some((isvc.ns_name().to_string(), isvc))
    }

    fn event(&mut self, step: &Step) {
        let (pods, nodes) = (&self.stores.pods, &self.stores.nodes);
        match *step {
            Step::PodChanged(a, b) => {
                let mut pod = Pod::clone(&self.pod(a));
                match &pod.node {
                    None => pod.node = Some(self.node(b).name),
                    Some(_) => pod.ready = !pod.ready,
                }
                apply(pods, pod_key(&pod), Arc::new(pod));
            }
            Step::PodDeleted(a) => delete(pods, pod_key(&self.pod(a)), self.pod(a)),
            Step::PodBack(a) => apply(pods, pod_key(&self.pod(a)), self.pod(a)),
            Step::ExtraPod(a, gone) => {
                let mut pod = Pod::clone(&self.pod(a));
                pod.name = Name::from(format!("extra-{}", a % 3));
                let (key, pod) = (pod_key(&pod), Arc::new(pod));
                if gone {
                    delete(pods, key, pod);
                } else {
                    apply(pods, key, pod);
                }
            }
            Step::NodeCordoned(a, cordoned) => {
                let mut node = self.node(a);
                node.unschedulable = cordoned;
                apply(nodes, node.name.to_string(), node);
            }
            Step::NodeDeleted(a) => delete(nodes, self.node(a).name.to_string(), self.node(a)),
            Step::NodeBack(a) => apply(nodes, self.node(a).name.to_string(), self.node(a)),
            Step::PodsRelisted(a) => {
                let held = self.stores.snapshot().pods;
                let every = a % 4 + 2;
                let kept = held
                    .shared()
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| i % every != 0);
                relist(pods, kept.map(|(_, p)| (pod_key(p), p.clone())).collect());
                self.whole_due = true;
            }
            Step::EventsReplaced(a) => {
                let events = &self.fleet.events;
                let kept = events.iter().take(a % (events.len() + 1)).enumerate();
                relist(
                    &self.stores.node_events,
                    kept.map(|(i, e)| (format!("{i:06}"), e.clone())).collect(),
                );
            }
            Step::IsvcAnnotated(a, on) => {
                if let Some((key, mut isvc)) = self.isvc(a) {
                    if on {
                        isvc.annotations
                            .insert("team.example/note".into(), "x".into());
                    }
                    apply(&self.stores.isvcs, key, isvc);
                }
            }
            Step::IsvcDeleted(a) => {
                if let Some((key, isvc)) = self.isvc(a) {
                    delete(&self.stores.isvcs, key, isvc);
                }
            }
            Step::IsvcBack(a) => {
                if let Some((key, isvc)) = self.isvc(a) {
                    apply(&self.stores.isvcs, key, isvc);
                }
            }
            Step::OtherChanged => {
                let groups = &self.fleet.pod_groups;
                let keyed = groups
                    .iter()
                    .map(|g| (format!("{}/{}", g.namespace, g.name), g.clone()));
                relist(&self.stores.pod_groups, keyed.collect());
                self.whole_due = true;
            }
            Step::Drain => {}
        }
    }

    /// Drains a batch into the analysis; the snapshot and analysis must be the stores'.
    fn drain(&mut self) -> Result<(), TestCaseError> {
        let reads = self.stores.whole_snapshots();
        match self.stores.take_delta().news(self.inc.snapshot()) {
            Delta::Changes(changes) => changes.into_iter().for_each(|c| self.inc.apply(c)),
            Delta::Whole(snap) => self.inc.apply(Change::Snapshot(snap)),
        }
        let whole = self.stores.whole_snapshots() != reads;
        prop_assert!(
            whole || !self.whole_due,
            "a relist or another kind reads the whole"
        );
        prop_assert!(
            !whole || self.whole_due,
            "pods, nodes, services and Events alone read no whole"
        );
        self.whole_due = false;
        let snap = self.stores.snapshot();
        prop_assert!(self.inc.snapshot() == &snap, "the snapshot is the stores'");
        let full = analyze(&snap, self.inc.options());
        prop_assert_eq!(format!("{:?}", self.inc.analysis()), format!("{full:?}"));
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn drained_changes_bring_the_analysis_to_the_stores_state(
        steps in proptest::collection::vec(step(), 1..40)
    ) {
        let mut world = World::new();
        for step in &steps {
            world.event(step);
            if matches!(step, Step::Drain) {
                world.drain()?;
            }
        }
        world.drain()?;
    }
}

#[test]
fn a_key_added_and_deleted_in_one_batch_changes_nothing() {
    let mut world = World::new();
    world.event(&Step::ExtraPod(1, false));
    world.event(&Step::ExtraPod(1, true));
    world.event(&Step::PodBack(4));
    let news = world.stores.take_delta().news(world.inc.snapshot());
    let Delta::Changes(changes) = news else {
        panic!("a whole snapshot for pods alone");
    };
    assert!(changes.is_empty(), "{changes:?}");
}

#[test]
fn a_deleted_pod_is_deleted_by_its_key() {
    let world = World::new();
    let pod = world.pod(7);
    delete(&world.stores.pods, pod_key(&pod), pod.clone());
    let Delta::Changes(changes) = world.stores.take_delta() else {
        panic!("a whole snapshot for one pod");
    };
    match changes.as_slice() {
        [Change::PodDeleted { namespace, name }] => {
            assert_eq!((namespace, name), (&pod.namespace, &pod.name));
        }
        other => panic!("{other:?}"),
    }
}
