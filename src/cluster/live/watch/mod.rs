//! The watcher tasks: one watcher per source (`listwatch`: one plain LIST decoded while it
//! arrives, then a watch, with kube-runtime's events, errors and default backoff), feeding
//! each event into its `Slot` and waking the snapshot task. While a list runs, the snapshot
//! task is woken every `PROGRESS_INTERVAL` so the header can count the objects received.
//!
//! Owns: `Scope`, `spawn_watchers` (the `Hub` they fill is `live::hub`'s) (`listwatch`: the
//! watcher stream; `lists`: a list's progress and the page size of one-off lists; `events`:
//! which API the scheduling events come through). Reads time only through the clock function
//! it is given.

use std::fmt::Debug;
use std::pin::pin;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use futures::{Stream, StreamExt};
use k8s_openapi::api::core::v1 as core;
use k8s_openapi::api::events::v1 as events_v1;
use kube::api::{Api, ApiResource, DynamicObject};
use kube::runtime::{watcher, WatchStreamExt};

use crate::cluster::live::watch::listwatch::list_watch;
use kube::Client;
use serde::de::DeserializeOwned;
use tokio::task::JoinHandle;
use tracing::Instrument;

use crate::cluster::live::crd::{wait_until_served, CrdName};
use crate::cluster::live::hub::Hub;
use crate::cluster::live::slot::{classify, ErrorClass, Slot, SourceStatus};
use crate::cluster::live::sources::{self, NAMED_CONFIG_MAPS};
use crate::cluster::live::store::Conversion;
use crate::cluster::live::stores::Stores;
use crate::cluster::live::watch::lists::Progress;
use crate::cluster::wire::Slim;

mod events;
mod lists;
mod listwatch;

pub use events::{events_api, EventsApi, POD_EVENTS_V1};
pub use lists::{PAGE_SIZE, PROGRESS_INTERVAL};

/// Which namespaces are watched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    /// Workload namespace (`-n`); `None` = all namespaces.
    pub namespace: Option<String>,
    /// Alfred's namespace (its ConfigMaps).
    pub alfred_namespace: String,
    /// The OME scheduler's namespace (`ome-scheduler-config`).
    pub scheduler_namespace: String,
}

impl Scope {
    /// An `Api` for a namespaced kind over the workload scope.
    pub fn typed<K>(&self, client: &Client) -> Api<K>
    where
        K: kube::Resource<Scope = k8s_openapi::NamespaceResourceScope>,
        K::DynamicType: Default,
    {
        match &self.namespace {
            Some(ns) => Api::namespaced(client.clone(), ns),
            None => Api::all(client.clone()),
        }
    }

    /// An `Api` for a custom resource over the workload scope.
    pub fn dynamic(&self, client: &Client, ar: &ApiResource) -> Api<DynamicObject> {
        match &self.namespace {
            Some(ns) => Api::namespaced_with(client.clone(), ns, ar),
            None => Api::all_with(client.clone(), ar),
        }
    }
}

/// Pause before a watcher is restarted after the first failure of an outage.
pub const RESTART_PAUSE: Duration = Duration::from_millis(500);

/// Where a source's slot is in the stores.
type SlotOf<T> = fn(&Stores) -> &Slot<T>;

/// Why a watcher stream was given up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PumpEnd {
    /// The first transient failure after a working period: start a fresh watcher.
    Restart,
    /// The resource is not served (its CRD is absent): follow the CRD instead.
    Absent,
}

/// Feeds one watcher stream into its slot until it should be replaced: by a fresh watcher
/// after the first transient failure of an outage (a resumed watch that sees no event would
/// never show that the outage ended, whereas a fresh watcher relists and its `InitDone` ends
/// it with the store equal to a fresh list), or, when `follows_crd`, by a watch of the CRD
/// on a 404. Later failures of the same outage stay with the stream, whose backoff paces the retries.
async fn pump<K, T, S>(
    stream: S,
    hub: &Hub,
    (slot, follows_crd): (SlotOf<T>, bool),
    conv: &Conversion<K, T>,
) -> PumpEnd
where
    S: Stream<Item = Result<watcher::Event<K>, watcher::Error>>,
    T: Clone + Send,
{
    let mut stream = pin!(stream);
    let mut progress = Progress::new((hub.clock)());
    while let Some(item) = stream.next().await {
        let now = (hub.clock)();
        let target = slot(&hub.stores);
        let (changed, end) = match item {
            Ok(event) => {
                if !matches!(event, watcher::Event::Init | watcher::Event::InitDone) {
                    hub.events_applied.fetch_add(1, Ordering::Relaxed);
                }
                if progress.count(&event, now) {
                    hub.changed.notify_one();
                }
                (target.on_event(event, conv, now), None)
            }
            Err(err) => {
                let first = target.failure().is_none();
                let end = match classify(&err) {
                    ErrorClass::NotFound if follows_crd => Some(PumpEnd::Absent),
                    ErrorClass::Transient(_) if first => Some(PumpEnd::Restart),
                    _ => None,
                };
                (target.on_error(&err, now), end)
            }
        };
        if changed {
            hub.contents.fetch_add(1, Ordering::Release);
            hub.changed.notify_one();
        }
        if let Some(end) = end {
            return end;
        }
    }
    // The watcher never ends; if it does, start over.
    PumpEnd::Restart
}

fn spawn_one<K, T>(
    api: Api<K>,
    config: watcher::Config,
    hub: &Arc<Hub>,
    slot: fn(&Stores) -> &Slot<T>,
    conv: Conversion<K, T>,
) -> JoinHandle<()>
where
    K: kube::Resource + Clone + DeserializeOwned + Debug + Send + 'static,
    T: Clone + Send + 'static,
{
    spawn_following(api, config, hub, (slot, None), conv)
}

/// Like `spawn_one`, for a custom resource whose CRD may be absent: a 404 hands over to a
/// watch of the CRD (`crd::wait_until_served`) instead of relisting on every backoff step.
fn spawn_following<K, T>(
    api: Api<K>,
    config: watcher::Config,
    hub: &Arc<Hub>,
    (slot, crd): (SlotOf<T>, Option<CrdName>),
    conv: Conversion<K, T>,
) -> JoinHandle<()>
where
    K: kube::Resource + Clone + DeserializeOwned + Debug + Send + 'static,
    T: Clone + Send + 'static,
{
    tokio::spawn(follow(api, config, hub.clone(), (slot, crd), conv).in_current_span())
}

/// The watcher loop of `spawn_following`, run until aborted.
async fn follow<K, T>(
    api: Api<K>,
    config: watcher::Config,
    hub: Arc<Hub>,
    (slot, crd): (SlotOf<T>, Option<CrdName>),
    conv: Conversion<K, T>,
) where
    K: kube::Resource + Clone + DeserializeOwned + Debug + Send + 'static,
    T: Clone + Send + 'static,
{
    loop {
        let stream = list_watch(api.clone(), config.clone()).default_backoff();
        match (pump(stream, &hub, (slot, crd.is_some()), &conv).await, crd) {
            (PumpEnd::Absent, Some(crd)) => {
                tracing::info!(crd = %crd.name(), "not installed; watching its CRD");
                let client = api.clone().into_client();
                wait_until_served(&client, crd).await;
                tracing::info!(crd = %crd.name(), "served; watching it again");
            }
            _ => tokio::time::sleep(RESTART_PAUSE).await,
        }
    }
}

/// The scheduler's `FailedScheduling` Events about pods, watched through `events.k8s.io/v1`
/// where the server serves it to this identity, else through `v1` (`events`), into one store.
fn spawn_scheduling_events(client: &Client, scope: &Scope, hub: &Arc<Hub>) -> JoinHandle<()> {
    let (client, scope, hub) = (client.clone(), scope.clone(), hub.clone());
    tokio::spawn(
        async move {
            let chosen = loop {
                if let Some(api) = events_api(&client, &scope).await {
                    break api;
                }
                tokio::time::sleep(RESTART_PAUSE).await;
            };
            tracing::info!(api = ?chosen, "watching scheduling events");
            let slot: SlotOf<_> = |s| &s.pod_events;
            let config = watcher::Config::default();
            match chosen {
                EventsApi::EventsV1 => {
                    let api = scope.typed::<events_v1::Event>(&client);
                    let config = config.fields(POD_EVENTS_V1);
                    follow(api, config, hub, (slot, None), sources::EVENTS_V1).await;
                }
                EventsApi::Core => {
                    let api = scope.typed::<core::Event>(&client);
                    let config = config.fields(sources::POD_EVENTS);
                    follow(api, config, hub, (slot, None), sources::EVENTS).await;
                }
            }
        }
        .in_current_span(),
    )
}

/// Starts one watcher task per source. The tasks run until aborted.
pub fn spawn_watchers(client: &Client, scope: &Scope, hub: &Arc<Hub>) -> Vec<JoinHandle<()>> {
    let mut tasks = spawn_objects(client, scope, hub);
    tasks.extend(spawn_config_and_events(client, scope, hub));
    tasks
}

/// Nodes, workloads, models and claims.
fn spawn_objects(client: &Client, scope: &Scope, hub: &Arc<Hub>) -> Vec<JoinHandle<()>> {
    let all = watcher::Config::default;
    vec![
        spawn_one(
            Api::<Slim<core::Node>>::all(client.clone()),
            all(),
            hub,
            |s| &s.nodes,
            sources::NODES,
        ),
        spawn_one(
            scope.typed::<Slim<core::Pod>>(client),
            all(),
            hub,
            |s| &s.pods,
            sources::PODS,
        ),
        spawn_following(
            scope.dynamic(client, &sources::isvc_resource()),
            all(),
            hub,
            (|s| &s.isvcs, Some(sources::ISVC_CRD)),
            sources::ISVCS,
        ),
        spawn_following(
            scope.dynamic(client, &sources::replica_resource()),
            all(),
            hub,
            (|s| &s.replicas, Some(sources::REPLICA_CRD)),
            sources::REPLICAS,
        ),
        spawn_following(
            scope.dynamic(client, &sources::pod_group_resource()),
            all(),
            hub,
            (|s| &s.pod_groups, Some(sources::POD_GROUP_CRD)),
            sources::POD_GROUPS,
        ),
    ]
}

/// ConfigMaps and Events.
fn spawn_config_and_events(client: &Client, scope: &Scope, hub: &Arc<Hub>) -> Vec<JoinHandle<()>> {
    let all = watcher::Config::default;
    let mut tasks = vec![
        spawn_one(
            scope.typed::<core::ConfigMap>(client),
            all(),
            hub,
            |s| &s.audit,
            sources::CONFIG_MAPS_AUDIT,
        ),
        spawn_following(
            scope.dynamic(client, &sources::base_model_resource()),
            all(),
            hub,
            (|s| &s.models, Some(sources::BASE_MODEL_CRD)),
            sources::MODELS,
        ),
        spawn_following(
            Api::all_with(client.clone(), &sources::cluster_base_model_resource()),
            all(),
            hub,
            (|s| &s.cluster_models, Some(sources::CLUSTER_BASE_MODEL_CRD)),
            sources::MODELS,
        ),
        spawn_one(
            scope.typed::<core::PersistentVolumeClaim>(client),
            all(),
            hub,
            |s| &s.volume_claims,
            sources::VOLUME_CLAIMS,
        ),
        spawn_one(
            Api::<core::Event>::all(client.clone()),
            all().fields(sources::NODE_EVENTS),
            hub,
            |s| &s.node_events,
            sources::EVENTS,
        ),
        spawn_scheduling_events(client, scope, hub),
    ];
    let named: [fn(&Stores) -> &Slot<_>; 4] = [
        |s| &s.named[0],
        |s| &s.named[1],
        |s| &s.named[2],
        |s| &s.named[3],
    ];
    for ((_, name, in_scheduler_ns), slot) in NAMED_CONFIG_MAPS.iter().zip(named) {
        let ns = if *in_scheduler_ns {
            &scope.scheduler_namespace
        } else {
            &scope.alfred_namespace
        };
        tasks.push(spawn_one(
            Api::<core::ConfigMap>::namespaced(client.clone(), ns),
            all().fields(&format!("metadata.name={name}")),
            hub,
            slot,
            sources::CONFIG_MAPS,
        ));
    }
    tasks
}
