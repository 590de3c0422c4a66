//! Starting a `TestCluster`: data dir, ports, then etcd → kube-apiserver → RBAC and CRDs →
//! kube-controller-manager, kube-scheduler and kwok, with readiness waits in that order
//! (test-cluster.md §4.7) and a retry with new ports when one was taken meanwhile.
//!
//! Owns: `start_with_retries`, `spawn_apiserver`. Must not hold a client beyond the start.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{Context, Result};

use super::binaries::BinDir;
use super::cluster::{ensure, locate_binaries, prepare_dir, TestCluster};
use super::files::{apiserver_ca_path, kubeconfig_path, Identity};
use super::objects::{self, wait_for, Fatal};
use super::procs::{self, Proc};

const ATTEMPTS: usize = 3;

/// Starts a cluster, retrying with fresh ports when a port was taken between choosing and
/// binding it. Returns the cause as text (it is stored in a static and shown by every test).
pub fn start_with_retries() -> Result<TestCluster, String> {
    let bin = locate_binaries().map_err(|e| format!("{e:#}"))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let mut last = String::new();
    for _ in 0..ATTEMPTS {
        match runtime.block_on(start_once(bin.clone())) {
            Ok(cluster) => return Ok(cluster),
            Err(e) => {
                last = format!("{e:#}");
                if !last.contains("address already in use") {
                    break;
                }
            }
        }
    }
    Err(last)
}

/// Prefers tmpfs: etcd and the audit log write a lot, and nothing must outlive the run.
fn data_root() -> PathBuf {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

async fn start_once(bin: BinDir) -> Result<TestCluster> {
    let dir = tempfile::Builder::new()
        .prefix("ome-top-testcluster-")
        .tempdir_in(data_root())
        .context("creating the cluster dir")?
        .keep();
    let keep = std::env::var_os("OME_TOP_TESTCLUSTER_KEEP").is_some();
    // First, so that a failure below still tears down whatever was started.
    let watchdog = procs::start_watchdog(&dir, keep)?;
    prepare_dir(&dir)?;
    let apiserver_port = procs::free_port()?;
    let cluster = TestCluster {
        server_url: format!("https://127.0.0.1:{apiserver_port}"),
        etcd_port: procs::free_port()?,
        apiserver_port,
        dir,
        bin,
        apiserver: Mutex::new(None),
        others: Mutex::new(Vec::new()),
        _watchdog: watchdog,
    };
    cluster.write_kubeconfigs()?;
    eprintln!(
        "test control plane: {} (data {})",
        cluster.server_url,
        cluster.dir.display()
    );
    start_etcd(&cluster).await?;
    let apiserver = spawn_apiserver(&cluster)?;
    *lock(&cluster.apiserver)? = Some(apiserver);
    cluster.wait_apiserver_ready().await?;
    let admin = cluster.client(Identity::Admin).await?;
    wait_for(
        "namespaces default and kube-node-lease",
        TIMEOUT,
        || async {
            let api: kube::Api<k8s_openapi::api::core::v1::Namespace> =
                kube::Api::all(admin.clone());
            let both = api.get_opt("default").await?.is_some()
                && api.get_opt("kube-node-lease").await?.is_some();
            Ok(both.then_some(()))
        },
    )
    .await?;
    objects::install_viewer_rbac(&admin).await?;
    objects::install_crds(&admin).await?;
    start_components(&cluster)?;
    Ok(cluster)
}

const TIMEOUT: Duration = Duration::from_secs(120);

fn lock<T>(m: &Mutex<T>) -> Result<std::sync::MutexGuard<'_, T>> {
    m.lock().map_err(|e| anyhow::anyhow!("{e}"))
}

fn arg(flag: &str, value: impl std::fmt::Display) -> String {
    format!("--{flag}={value}")
}

async fn start_etcd(c: &TestCluster) -> Result<()> {
    let peer = procs::free_port()?;
    let client_url = format!("http://127.0.0.1:{}", c.etcd_port);
    let peer_url = format!("http://127.0.0.1:{peer}");
    let args = vec![
        arg("name", "t"),
        arg("data-dir", c.dir.join("etcd").display()),
        arg("listen-client-urls", &client_url),
        arg("advertise-client-urls", &client_url),
        arg("listen-peer-urls", &peer_url),
        arg("initial-advertise-peer-urls", &peer_url),
        arg("initial-cluster", format!("t={peer_url}")),
        arg("unsafe-no-fsync", true),
        arg("log-level", "warn"),
    ];
    let mut etcd = procs::spawn(&c.dir, 1, "etcd", &c.bin.binary("etcd"), &args, &[])?;
    let port = c.etcd_port;
    let result = wait_for("etcd /health", TIMEOUT, || {
        let running = procs::ensure_running(&c.dir, &mut etcd);
        async move {
            running.map_err(|e| Fatal(format!("{e:#}")))?;
            let body = procs::http_get(port, "/health").unwrap_or_default();
            Ok(body.contains("\"health\":\"true\"").then_some(()))
        }
    })
    .await;
    lock(&c.others)?.push(etcd);
    result
}

/// Spawns kube-apiserver with the cluster's fixed flags (also used by `start_apiserver`).
pub fn spawn_apiserver(c: &TestCluster) -> Result<Proc> {
    let d = &c.dir;
    let args = vec![
        arg("etcd-servers", format!("http://127.0.0.1:{}", c.etcd_port)),
        arg("bind-address", "127.0.0.1"),
        arg("advertise-address", "127.0.0.1"),
        arg("secure-port", c.apiserver_port),
        arg("cert-dir", d.join("pki").display()),
        arg(
            "service-account-issuer",
            "https://kubernetes.default.svc.cluster.local",
        ),
        arg("service-account-key-file", d.join("sa.key").display()),
        arg(
            "service-account-signing-key-file",
            d.join("sa.key").display(),
        ),
        arg("service-cluster-ip-range", "10.96.0.0/16"),
        arg("authorization-mode", "RBAC"),
        arg("token-auth-file", d.join("tokens.csv").display()),
        arg(
            "disable-admission-plugins",
            "ServiceAccount,TaintNodesByCondition",
        ),
        arg("allow-privileged", true),
        arg("profiling", false),
        arg("audit-policy-file", d.join("audit-policy.yaml").display()),
        arg("audit-log-path", c.dir.join("audit.log").display()),
        arg("audit-log-mode", "blocking"),
        arg("audit-log-format", "json"),
    ];
    procs::spawn(
        d,
        2,
        "kube-apiserver",
        &c.bin.binary("kube-apiserver"),
        &args,
        &[],
    )
}

/// KCM, scheduler and kwok: none serves a port, so no readiness probe beyond "still running"
/// after a short settle; tests wait for the effects they need (nodes Ready, pods bound).
fn start_components(c: &TestCluster) -> Result<()> {
    let d = &c.dir;
    ensure(
        apiserver_ca_path(d).is_file(),
        "the apiserver wrote no pki/apiserver.crt",
    )?;
    let kcm = vec![
        arg(
            "kubeconfig",
            kubeconfig_path(d, Identity::ControllerManager).display(),
        ),
        arg("leader-elect", false),
        arg("secure-port", 0),
        arg("controllers", "*"),
        arg(
            "service-account-private-key-file",
            d.join("sa.key").display(),
        ),
        arg("root-ca-file", apiserver_ca_path(d).display()),
    ];
    let scheduler = vec![
        arg("config", d.join("scheduler.yaml").display()),
        arg("secure-port", 0),
    ];
    let mut kwok = vec![
        arg("kubeconfig", kubeconfig_path(d, Identity::Kwok).display()),
        arg(
            "manage-nodes-with-annotation-selector",
            "kwok.x-k8s.io/node=fake",
        ),
        arg("node-lease-duration-seconds", 40),
        arg("cidr", "10.244.0.0/16"),
    ];
    kwok.extend(
        c.bin
            .kwok_stages()
            .iter()
            .map(|s| arg("config", s.display())),
    );
    // A private HOME: kwok merges ~/.kwok/kwok.yaml when it exists.
    let home = d.join("kwok-home");
    let mut started = vec![
        procs::spawn(
            d,
            3,
            "kube-controller-manager",
            &c.bin.binary("kube-controller-manager"),
            &kcm,
            &[],
        )?,
        procs::spawn(
            d,
            4,
            "kube-scheduler",
            &c.bin.binary("kube-scheduler"),
            &scheduler,
            &[],
        )?,
        procs::spawn(
            d,
            5,
            "kwok",
            &c.bin.binary("kwok"),
            &kwok,
            &[("HOME", &home)],
        )?,
    ];
    // Flag or config errors make these exit within a second or two.
    std::thread::sleep(Duration::from_secs(2));
    for proc in &mut started {
        procs::ensure_running(d, proc)?;
    }
    lock(&c.others)?.extend(started);
    Ok(())
}
