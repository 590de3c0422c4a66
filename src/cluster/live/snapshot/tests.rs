//! The snapshot task's tests: what one pass publishes (`feed`), when the next pass is due
//! (`deadline`), and the analysis kept up to date one change at a time against the full one
//! (`analyse`).

mod feed {
    use super::super::*;
    use crate::cluster::live::slot::Slot;
    use crate::cluster::live::sources::{CONFIG_MAPS_AUDIT, PODS};
    use crate::cluster::live::store::Conversion;
    use crate::cluster::wire::Slim;
    use crate::engine::analysis::ExecutorSetting;
    use crate::engine::model::Time;
    use crate::protocol::Permissions;
    use kube::runtime::watcher::Event;

    fn clock() -> Time {
        chrono::DateTime::UNIX_EPOCH
    }

    fn pod(name: &str) -> Slim<k8s_openapi::api::core::v1::Pod> {
        let json = serde_json::json!({"metadata": {"name": name, "namespace": "team"},
            "spec": {"containers": [{"name": "main"}]}});
        Slim(serde_json::from_value(json).unwrap())
    }

    /// The next feed published, within 5 s.
    pub(super) async fn next(rx: &mut watch::Receiver<Arc<Feed>>) -> Arc<Feed> {
        let wait = tokio::time::timeout(Duration::from_secs(5), rx.changed());
        wait.await.unwrap().unwrap();
        rx.borrow_and_update().clone()
    }

    /// A read-only hub on `clock` with its snapshot task running, and the task's feed.
    pub(super) fn started(
        clock: fn() -> Time,
    ) -> (Arc<Hub>, watch::Receiver<Arc<Feed>>, JoinHandle<()>) {
        let hub = Arc::new(Hub::new(clock, Permissions::read_only("test")));
        let options = AnalysisOptions {
            now: clock(),
            alfred_namespace: "ome".into(),
            executor: ExecutorSetting::Auto,
            placement: Default::default(),
            instance_types: Default::default(),
        };
        let source = SourceKind::Live("test".into());
        let (tx, rx) = watch::channel(Arc::new(initial_feed(&hub, source.clone(), &options)));
        let task = spawn_snapshot_task(hub.clone(), source, options, tx);
        (hub, rx, task)
    }

    #[tokio::test]
    async fn progress_alone_republishes_the_last_analysis_with_the_new_counts() {
        let (hub, mut rx, task) = started(clock);
        let pods = &hub.stores.pods;

        hub.changed.notify_one();
        let analysed = next(&mut rx).await;
        assert_eq!(analysed.generation, 1);

        // A list running: two pods received, nothing visible changed.
        pods.on_event(Event::Init, &PODS, clock());
        pods.on_event(Event::InitApply(pod("a")), &PODS, clock());
        pods.on_event(Event::InitApply(pod("b")), &PODS, clock());
        hub.changed.notify_one();
        let progress = next(&mut rx).await;
        assert_eq!(progress.generation, 1, "no new analysis for progress");
        assert!(
            progress.snapshot.pods.is_empty(),
            "the snapshot is the last one"
        );
        let state = |f: &Feed| {
            f.sources
                .iter()
                .find(|s| s.name == "pods")
                .cloned()
                .unwrap()
        };
        assert_eq!(state(&progress).listing, Some(2));

        // The list completes: a change of contents, so a new snapshot and analysis.
        pods.on_event(Event::InitDone, &PODS, clock());
        hub.contents.fetch_add(1, Ordering::Release);
        hub.changed.notify_one();
        let done = next(&mut rx).await;
        assert_eq!(done.generation, 2);
        assert_eq!(done.snapshot.pods.len(), 2);
        assert_eq!(state(&done).listing, None);
        task.abort();
    }
    /// The task's path: after the first analysis, batches of pod events are drained by key
    /// (the stores' whole-snapshot count stays); a relist or another kind reads the whole.
    #[tokio::test]
    async fn pod_batches_read_no_whole_snapshot_but_a_relist_or_another_kind_does() {
        let (hub, mut rx, task) = started(clock);
        let (stores, pods) = (&hub.stores, &hub.stores.pods);
        let changed = || {
            hub.contents.fetch_add(1, Ordering::Release);
            hub.changed.notify_one();
        };
        let names = |f: Arc<Feed>| {
            f.snapshot
                .pods
                .iter()
                .map(|p| p.name.to_string())
                .collect::<Vec<_>>()
        };

        pods.on_event(Event::Init, &PODS, clock());
        pods.on_event(Event::InitApply(pod("a")), &PODS, clock());
        pods.on_event(Event::InitDone, &PODS, clock());
        changed();
        assert_eq!(names(next(&mut rx).await), ["a"]);
        let listed = stores.whole_snapshots();

        for (add, gone) in [("b", "a"), ("c", "b"), ("a", "c")] {
            pods.on_event(Event::Apply(pod(add)), &PODS, clock());
            pods.on_event(Event::Delete(pod(gone)), &PODS, clock());
            changed();
            assert_eq!(names(next(&mut rx).await), [add]);
        }
        assert_eq!(
            stores.whole_snapshots(),
            listed,
            "pod batches drain keys alone"
        );

        let audit = k8s_openapi::api::core::v1::ConfigMap {
            metadata: kube::api::ObjectMeta {
                name: Some("x-ome-migration-audit".into()),
                namespace: Some("team".into()),
                ..Default::default()
            },
            ..Default::default()
        };
        stores
            .audit
            .on_event(Event::Apply(audit), &CONFIG_MAPS_AUDIT, clock());
        changed();
        assert_eq!(next(&mut rx).await.snapshot.config_maps.len(), 1);
        assert_eq!(
            stores.whole_snapshots(),
            listed + 1,
            "another kind reads the whole"
        );
        task.abort();
    }

    /// An empty list of `slot`, complete.
    fn listed<K, T: Clone + Send>(slot: &Slot<T>, conv: &Conversion<K, T>) {
        slot.on_event(Event::Init, conv, clock());
        slot.on_event(Event::InitDone, conv, clock());
    }

    /// Every source but the pods listed (empty).
    fn all_but_pods_listed(s: &Stores) {
        use crate::cluster::live::sources as src;
        listed(&s.nodes, &src::NODES);
        listed(&s.isvcs, &src::ISVCS);
        listed(&s.replicas, &src::REPLICAS);
        listed(&s.pod_groups, &src::POD_GROUPS);
        for named in &s.named {
            listed(named, &src::CONFIG_MAPS);
        }
        listed(&s.audit, &CONFIG_MAPS_AUDIT);
        listed(&s.models, &src::MODELS);
        listed(&s.cluster_models, &src::MODELS);
        listed(&s.volume_claims, &src::VOLUME_CLAIMS);
        listed(&s.node_events, &src::EVENTS);
        listed(&s.pod_events, &src::EVENTS);
    }

    /// A wait of an hour (the coalescing or the rest) before the first sync ends as soon as
    /// the last source completes its list, the wake-up kept for the task's next turn; a task
    /// whose last feed was connected is never cut short (checked by the next test's path).
    #[tokio::test]
    async fn the_change_that_completes_the_sync_cuts_the_wait_short() {
        let hub = Hub::new(clock, Permissions::read_only("test"));
        all_but_pods_listed(&hub.stores);
        let hour = Duration::from_secs(3600);
        let pods = &hub.stores.pods;
        let complete = async {
            tokio::task::yield_now().await;
            pods.on_event(Event::Init, &PODS, clock());
            pods.on_event(Event::InitApply(pod("a")), &PODS, clock());
            pods.on_event(Event::InitDone, &PODS, clock());
            hub.changed.notify_one();
        };
        let waited = async { tokio::join!(pause(&hub, hour, false, true), complete) };
        tokio::time::timeout(Duration::from_secs(5), waited)
            .await
            .expect("the wait ends once every source is listed");
        tokio::time::timeout(Duration::from_secs(5), hub.changed.notified())
            .await
            .expect("the wake-up is kept for the next turn");
        // Synced already: no wait at all.
        tokio::time::timeout(Duration::from_secs(5), pause(&hub, hour, false, false))
            .await
            .expect("nothing to wait for once synced");
    }

    /// The first sync's feed says connected and holds every listed object.
    #[tokio::test]
    async fn the_feed_that_completes_the_sync_is_connected() {
        let (hub, mut rx, task) = started(clock);
        all_but_pods_listed(&hub.stores);
        let pods = &hub.stores.pods;
        pods.on_event(Event::Init, &PODS, clock());
        pods.on_event(Event::InitApply(pod("a")), &PODS, clock());
        pods.on_event(Event::InitDone, &PODS, clock());
        hub.contents.fetch_add(1, Ordering::Release);
        hub.changed.notify_one();
        let done = next(&mut rx).await;
        assert!(matches!(done.api, ApiStatus::Connected), "{:?}", done.api);
        assert_eq!(done.snapshot.pods.len(), 1);
        task.abort();
    }
}

mod deadline {
    use super::super::*;
    use super::feed::{next, started};
    use crate::cluster::live::sources::NODES;
    use crate::cluster::wire::Slim;
    use kube::runtime::watcher::Event;
    use std::sync::atomic::AtomicI64;

    /// The test's wall clock, in seconds since the epoch.
    static SECONDS: AtomicI64 = AtomicI64::new(1_790_000_000);

    fn clock() -> Time {
        Time::from_timestamp(SECONDS.load(Ordering::SeqCst), 0).unwrap_or_default()
    }

    /// A node whose trigger condition turned False `ago` seconds before the clock's time.
    fn suspect_node(ago: i64) -> Slim<k8s_openapi::api::core::v1::Node> {
        let since = Time::from_timestamp(SECONDS.load(Ordering::SeqCst) - ago, 0).unwrap();
        let json = serde_json::json!({"metadata": {"name": "gpu-a"},
            "status": {"conditions": [{"type": "GpuUnhealthy", "status": "False",
                "lastTransitionTime": since.to_rfc3339()}]}});
        Slim(serde_json::from_value(json).unwrap())
    }

    /// With no store change, the task wakes at the analysis's next deadline (a suspect node's
    /// `suspectUntil`) and publishes the analysis at the new time: the node is Clear.
    #[tokio::test]
    async fn a_deadline_publishes_without_a_change() {
        let (hub, mut rx, task) = started(clock);
        // Suspect for one more second (the window is 30 minutes).
        let nodes = &hub.stores.nodes;
        nodes.on_event(Event::Init, &NODES, clock());
        nodes.on_event(Event::InitApply(suspect_node(30 * 60 - 1)), &NODES, clock());
        nodes.on_event(Event::InitDone, &NODES, clock());
        hub.contents.fetch_add(1, Ordering::Release);
        hub.changed.notify_one();
        let first = next(&mut rx).await;
        assert_eq!(first.analysis.nodes[0].health.name(), "Suspect");
        SECONDS.fetch_add(2, Ordering::SeqCst);
        let later = next(&mut rx).await;
        assert_eq!(later.generation, first.generation + 1);
        assert_eq!(later.analysis.nodes[0].health.name(), "Clear");
        assert!(
            later.snapshot.nodes == first.snapshot.nodes,
            "the same snapshot"
        );
        task.abort();
    }
}

mod analyse {
    use super::super::*;
    use crate::cluster::live::delta::testkit::{apply, load, pod_key};
    use crate::engine::analysis::ExecutorSetting;
    use crate::engine::model::Pod;
    use crate::sim::cluster::{generate_cluster, ClusterSpec};
    use chrono::TimeZone;

    fn at(seconds: i64) -> AnalysisOptions {
        AnalysisOptions {
            now: chrono::Utc
                .timestamp_opt(1_790_000_000 + seconds, 0)
                .unwrap(),
            alfred_namespace: "ome".into(),
            executor: ExecutorSetting::Auto,
            placement: Default::default(),
            instance_types: Default::default(),
        }
    }

    /// Before its next deadline a changed pod is an incremental update from the drained keys
    /// alone, and the batch moves the analysis to its time without a pass; so does a batch
    /// once the time is `RETIME_STEP` old; past a deadline, or with time going back, the pass is a full one at the new time.
    /// Each result is the full analysis of the stores' snapshot at the result's time.
    #[test]
    fn updates_incrementally_until_a_deadline_then_runs_a_full_pass() {
        let spec = ClusterSpec {
            seed: 4,
            nodes: 20,
            pods: 200,
        };
        let original = generate_cluster(&spec, at(0).now);
        let stores = Stores::default();
        load(&stores, &original);
        let mut last = analyse(None, &stores, at(0));
        assert!(last.inc.last_rerun().full);
        assert_eq!(stores.whole_snapshots(), 1);
        let deadline = last.inc.next_deadline();

        let bound: Vec<_> = original
            .pods
            .shared()
            .iter()
            .filter(|p| p.node.is_some())
            .take(2)
            .cloned()
            .collect();
        let later = |ms| AnalysisOptions {
            now: at(0).now + chrono::Duration::milliseconds(ms),
            ..at(0)
        };
        for (step, pod) in bound.iter().enumerate() {
            // Another bound pod's readiness flipped.
            let mut flipped = Pod::clone(pod);
            flipped.ready = !flipped.ready;
            apply(&stores.pods, pod_key(pod), Arc::new(flipped));
            let when = later(300 + 100 * step as i64);
            last = analyse(Some(last), &stores, when.clone());
            let inc = &last.inc;
            assert!(!inc.last_rerun().full, "{step}: {:?}", inc.last_rerun());
            assert_eq!(inc.options().now, when.now, "a batch ends at its time");
            assert_eq!(stores.whole_snapshots(), 1, "no whole snapshot read");
            let snap = stores.snapshot();
            assert!(inc.snapshot() == &snap, "{step}: snapshots differ");
            let full = analyze(&snap, &when);
            assert_eq!(format!("{:?}", inc.analysis()), format!("{full:?}"));
        }

        let snap = stores.snapshot();
        let keep = Analysed {
            inc: last.inc.clone(),
        };
        let moved = analyse(Some(last), &stores, at(6));
        assert_eq!(moved.inc.options().now, at(6).now, "RETIME_STEP old: moved");
        let full = analyze(&snap, &at(6));
        assert_eq!(format!("{:?}", moved.inc.analysis()), format!("{full:?}"));
        if let Some(d) = deadline {
            let past = AnalysisOptions { now: d, ..at(0) };
            let third = analyse(Some(keep), &stores, past);
            assert!(
                third.inc.last_rerun().full,
                "a passed deadline is a full pass"
            );
        }
        let back = analyse(Some(moved), &stores, at(1));
        assert!(back.inc.last_rerun().full, "time going back is a full pass");
    }

    /// The task sleeps until the next deadline, not sooner than `TIME_STEP` after the
    /// analysis's time nor longer than `MAX_WAIT`; without deadlines nor drift, until a change.
    #[test]
    fn sleeps_until_the_next_deadline() {
        let quiet = Incremental::new(Default::default(), at(0));
        assert_eq!(next_wake(&quiet, at(0).now), None);
        let spec = ClusterSpec {
            seed: 4,
            nodes: 20,
            pods: 200,
        };
        let inc = Incremental::new(generate_cluster(&spec, at(0).now), at(0));
        let wait = next_wake(&inc, at(0).now);
        match (inc.next_deadline(), inc.drifts()) {
            (None, false) => assert_eq!(wait, None),
            _ => assert!(wait.is_some_and(|w| (TIME_STEP..=MAX_WAIT).contains(&w))),
        }
        assert_eq!(next_wake(&inc, at(3600).now).filter(|w| !w.is_zero()), None);
    }
}
