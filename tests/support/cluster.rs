//! A real Kubernetes control plane for integration tests: etcd, kube-apiserver,
//! kube-controller-manager, kube-scheduler and kwok (fake kubelets), built by
//! `tests/cluster/build.sh` (Go ≥ 1.26) and started once per test binary.
//!
//! # Use
//!
//! ```ignore
//! use crate::support; // main.rs: #[path = "../support/mod.rs"] mod support;
//! use support::cluster::{TestCluster, Identity};
//! use support::objects::{gpu_pod, wait_for};
//!
//! #[tokio::test]
//! async fn my_test() {
//!     let tc = TestCluster::shared();                       // starts on first use
//!     let ns = tc.fresh_namespace("my-test").await;         // "my-test-<n>", unique
//!     let nodes = tc.create_gpu_nodes("my-test", 4, "H100-my-test").await; // Ready on return
//!     let admin = tc.admin_client().await;                  // kube::Client, this runtime
//!     let viewer = tc.viewer_client().await;                // read-only identity
//!     let kubeconfig = tc.kubeconfig_path(Identity::Viewer); // for the ome-top binary
//! }
//! ```
//!
//! # API
//!
//! * `TestCluster::shared() -> &'static TestCluster`: starts the cluster on first call (from a
//!   dedicated thread with its own runtime, so any test runtime may call it) and panics with
//!   the cause — never skips — when it cannot (binaries missing and not buildable: the message
//!   names `tests/cluster/build.sh` and Go ≥ 1.26).
//! * `TestCluster::start_new() -> Result<TestCluster, String>`: a control plane of the
//!   caller's own (what `shared()` starts once); dropping it stops it (the scale bench's
//!   fleet mode runs several side by side).
//! * `admin_client()` / `viewer_client()` / `client(Identity)`: a fresh `kube::Client` bound
//!   to the calling test's runtime (a client must not outlive the runtime that made it).
//! * `kubeconfig_path(Identity)`: a kubeconfig file (absolute CA path, bearer token).
//! * `server_url()`: `https://127.0.0.1:<port>`; `dir()`: the cluster's data dir.
//! * `stop_component(name)`: stops KCM, the scheduler or kwok for good (the scale test stops
//!   KCM, whose node lifecycle would taint and evict under its load).
//! * `stop_apiserver()` / `start_apiserver().await`: stop (SIGTERM, then SIGKILL) and restart
//!   the apiserver on the same port, certificates and etcd; `start_apiserver` returns once
//!   `/readyz` answers. Tests that do this share the cluster with others in the same binary,
//!   so they belong in `tests/live_exclusive`, whose tests run one at a time (`alone()`).
//! * `audit_log_path()`: JSON-lines audit log, one `Metadata`-level event per request
//!   (`verb`, `user.username`, `objectRef`, `responseStatus.code`); `Identity::user()` gives
//!   the user name to filter on.
//! * `log_path(component)`: the log of `etcd`, `kube-apiserver`, `kube-controller-manager`,
//!   `kube-scheduler` or `kwok`.
//! * `fresh_namespace(name)`: creates and returns a unique namespace.
//! * `create_gpu_nodes(prefix, n, product)`: creates `<prefix>-0..n` fake nodes with 8 GPUs
//!   of `product` (the engine's pool key) and waits until they are Ready and untainted.
//!   `create_nodes` takes prepared `objects::gpu_node` values for custom labels.
//! * `support::objects`: `wait_for`, `gpu_node`, `gpu_pod`, `read_snapshot` (nodes and pods
//!   through kube, converted by `ome_top::cluster::convert`), `CRDS`.
//!
//! # What runs
//!
//! Identities (static token file): `admin` (system:masters), `viewer` (`view` ClusterRole plus
//! get/list/watch on nodes, namespaces, events, leases, CRDs, `ome.io` and
//! `scheduling.x-k8s.io`). CRDs, schema-less with a status subresource:
//! `inferenceservices.ome.io` and `inferencereplicas.ome.io` (v1beta1),
//! `podgroups.scheduling.x-k8s.io` (v1alpha1). Scheduler profiles: `default-scheduler` and
//! `gpu-binpack` (NodeResourcesFit MostAllocated, GPU weight 10). kwok manages nodes annotated
//! `kwok.x-k8s.io/node=fake`: Ready within seconds, pods Running once bound, deleted pods
//! removed, Job pods completed. Admission `ServiceAccount` and `TaintNodesByCondition` are off.
//!
//! Data lives in `/dev/shm/ome-top-testcluster-*` (tmpfs; else the temp dir). Processes and
//! data are removed by a watchdog when the test binary exits (see `procs`); set
//! `OME_TOP_TESTCLUSTER_KEEP=1` to keep the dir and logs. `TESTCLUSTER_BIN` overrides the
//! binary dir.
//!
//! Owns: `TestCluster`. Must not be used from `src/` (test support only).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use k8s_openapi::api::core::v1::{Namespace, Node};
use kube::api::PostParams;
use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Api, Client, Config};

use super::binaries::{self, BinDir};
pub use super::files::Identity;
use super::files::{self, kubeconfig_path, write_kubeconfig};
use super::objects::{self, wait_for, Fatal};
use super::procs::{self, Proc, Watchdog};
use super::start;

/// A running test control plane (see the module doc).
#[derive(Debug)]
pub struct TestCluster {
    pub(super) dir: PathBuf,
    pub(super) bin: BinDir,
    pub(super) etcd_port: u16,
    pub(super) apiserver_port: u16,
    pub(super) server_url: String,
    pub(super) apiserver: Mutex<Option<Proc>>,
    /// etcd, KCM, scheduler, kwok: held so their handles live as long as the process.
    pub(super) others: Mutex<Vec<Proc>>,
    pub(super) _watchdog: Watchdog,
}

static SHARED: OnceLock<Result<TestCluster, String>> = OnceLock::new();
static NAMES: AtomicUsize = AtomicUsize::new(0);

impl TestCluster {
    /// The cluster of this test binary, started on first call (seconds; the first
    /// `cargo test` may also build the binaries, tens of minutes: docs/performance.md). Panics with the cause
    /// when it cannot start; every later call panics with the same message.
    pub fn shared() -> &'static TestCluster {
        let started = SHARED.get_or_init(TestCluster::start_new);
        match started {
            Ok(cluster) => cluster,
            Err(e) => panic!("the test control plane did not start: {e}"),
        }
    }

    /// Starts a control plane of its own (not the shared one): the caller owns it, and
    /// dropping it stops its processes and deletes its data dir (the watchdog's pipe closes).
    /// Returns the cause as text when it cannot start.
    pub fn start_new() -> Result<TestCluster, String> {
        // A thread with its own runtime: the caller may be inside any test's runtime,
        // where blocking on another runtime is not allowed.
        std::thread::spawn(start::start_with_retries)
            .join()
            .unwrap_or_else(|_| Err("the start thread panicked".to_string()))
    }

    /// `https://127.0.0.1:<port>` of the apiserver.
    pub fn server_url(&self) -> &str {
        &self.server_url
    }

    /// The cluster's data dir (configs, `logs/`, `pki/`, `audit.log`).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A kubeconfig for `identity`, usable by kube-rs and by the `ome-top` binary.
    pub fn kubeconfig_path(&self, identity: Identity) -> PathBuf {
        kubeconfig_path(&self.dir, identity)
    }

    /// The apiserver audit log (JSON lines, `Metadata` level, every request).
    pub fn audit_log_path(&self) -> PathBuf {
        self.dir.join("audit.log")
    }

    /// The log file of a component (`etcd`, `kube-apiserver`, `kube-controller-manager`,
    /// `kube-scheduler`, `kwok`).
    pub fn log_path(&self, component: &str) -> PathBuf {
        procs::log_path(&self.dir, component)
    }

    /// A fresh client for `identity`, bound to the calling runtime.
    pub async fn client(&self, identity: Identity) -> Result<Client> {
        client_from(&self.kubeconfig_path(identity)).await
    }

    /// A fresh `admin` (system:masters) client. Panics when the kubeconfig is unusable.
    pub async fn admin_client(&self) -> Client {
        self.client(Identity::Admin).await.expect("admin client")
    }

    /// A fresh client of the restricted read-only `viewer` identity.
    pub async fn viewer_client(&self) -> Client {
        self.client(Identity::Viewer).await.expect("viewer client")
    }

    /// Stops one of the other components (`kube-controller-manager`, `kube-scheduler`,
    /// `kwok`) for good; returns whether it was running.
    pub fn stop_component(&self, name: &str) -> bool {
        let mut others = self.others.lock().expect("components lock");
        let Some(at) = others.iter().position(|p| p.name == name) else {
            return false;
        };
        let proc = others.remove(at);
        drop(others);
        procs::stop(&self.dir, proc).expect("stopping a component");
        true
    }

    /// Stops the apiserver (etcd and the other components keep running). No-op when stopped.
    pub fn stop_apiserver(&self) {
        let proc = self.apiserver.lock().expect("apiserver lock").take();
        if let Some(proc) = proc {
            procs::stop(&self.dir, proc).expect("stopping kube-apiserver");
        }
    }

    /// Starts the apiserver again (same port, certificates, tokens and etcd) and waits until
    /// `/readyz` answers. No-op when running.
    pub async fn start_apiserver(&self) {
        let already = self.apiserver.lock().expect("apiserver lock").is_some();
        if !already {
            let proc = start::spawn_apiserver(self).expect("starting kube-apiserver");
            *self.apiserver.lock().expect("apiserver lock") = Some(proc);
        }
        self.wait_apiserver_ready()
            .await
            .expect("kube-apiserver ready");
    }

    /// Waits (≤ 120 s) for `/readyz` with the admin token; fails early with the log tail if
    /// the apiserver process exits.
    pub(super) async fn wait_apiserver_ready(&self) -> Result<()> {
        wait_for(
            "kube-apiserver /readyz",
            Duration::from_secs(120),
            || async {
                if let Some(proc) = self.apiserver.lock().map_err(|e| anyhow!("{e}"))?.as_mut() {
                    procs::ensure_running(&self.dir, proc).map_err(|e| Fatal(format!("{e:#}")))?;
                }
                // The client loads the CA file, which the apiserver writes only once it starts.
                if !files::apiserver_ca_path(&self.dir).is_file() {
                    return Ok(None);
                }
                let admin = self.client(Identity::Admin).await?;
                let request = http::Request::get("/readyz").body(Vec::new())?;
                let body = admin.request_text(request).await?;
                Ok((body.trim() == "ok").then_some(()))
            },
        )
        .await
    }

    /// Creates a namespace named `<name>-<n>` (unique within this test binary) and returns
    /// its name. Nothing deletes it: the cluster dies with the test binary.
    pub async fn fresh_namespace(&self, name: &str) -> String {
        let n = NAMES.fetch_add(1, Ordering::Relaxed);
        let ns_name = format!("{name}-{n}");
        let ns: Namespace =
            serde_json::from_value(serde_json::json!({"metadata": {"name": ns_name}}))
                .expect("namespace literal");
        Api::<Namespace>::all(self.admin_client().await)
            .create(&PostParams::default(), &ns)
            .await
            .expect("creating the namespace");
        ns_name
    }

    /// Creates `n` fake GPU nodes `<prefix>-0` … `<prefix>-<n-1>` (8 GPUs of `product` each,
    /// see `objects::gpu_node`) and waits until all are Ready and untainted.
    pub async fn create_gpu_nodes(&self, prefix: &str, n: usize, product: &str) -> Vec<String> {
        let nodes = (0..n)
            .map(|i| objects::gpu_node(&format!("{prefix}-{i}"), product))
            .collect();
        self.create_nodes(nodes).await
    }

    /// Creates the given nodes (built with `objects::gpu_node` and adjusted) and waits until
    /// all are Ready and untainted. Returns their names.
    pub async fn create_nodes(&self, nodes: Vec<Node>) -> Vec<String> {
        let admin = self.admin_client().await;
        let api: Api<Node> = Api::all(admin.clone());
        let mut names = Vec::new();
        for node in nodes {
            let created = api
                .create(&PostParams::default(), &node)
                .await
                .expect("creating a node");
            names.push(created.metadata.name.unwrap_or_default());
        }
        if let Err(e) = objects::wait_nodes_ready(&admin, &names).await {
            panic!(
                "{e:#}\nkwok log:\n{}",
                procs::log_tail(&self.dir, "kwok", 20)
            );
        }
        names
    }

    /// Writes the kubeconfig of every identity for `server_url`.
    pub(super) fn write_kubeconfigs(&self) -> Result<()> {
        for id in Identity::ALL {
            write_kubeconfig(&self.dir, &self.server_url, id)?;
        }
        Ok(())
    }
}

/// A kube client from a kubeconfig file (never the process-wide `KUBECONFIG`).
pub async fn client_from(path: &Path) -> Result<Client> {
    let kubeconfig =
        Kubeconfig::read_from(path).with_context(|| format!("reading {}", path.display()))?;
    let config = Config::from_custom_kubeconfig(kubeconfig, &KubeConfigOptions::default())
        .await
        .with_context(|| format!("loading {}", path.display()))?;
    Ok(Client::try_from(config)?)
}

/// Locates the binaries or explains how to build them.
pub(super) fn locate_binaries() -> Result<BinDir> {
    binaries::locate()
}

/// Writes the static files of a fresh cluster dir.
pub(super) fn prepare_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir.join("pki"))?;
    std::fs::create_dir_all(dir.join("kwok-home"))?;
    files::write_static_files(dir)
}

/// Fails unless `cond`; keeps `start.rs` terse.
pub(super) fn ensure(cond: bool, msg: &str) -> Result<()> {
    if !cond {
        bail!("{msg}");
    }
    Ok(())
}
