//! The files a test control plane reads: the static token file, one kubeconfig per identity,
//! the service-account signing key, the audit policy and the kube-scheduler configuration
//! with its two profiles (`default-scheduler` and `gpu-binpack`).
//!
//! Owns: `Identity`, `write_static_files`, `write_kubeconfig`, `FleetMember`,
//! `write_fleet_kubeconfig`. Pure file writing: must not
//! start processes or talk to the API.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// An API identity of the test cluster, authenticated by a static bearer token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Identity {
    /// `admin`, in `system:masters`: may do anything.
    Admin,
    /// `viewer`: bound to the built-in `view` ClusterRole plus read-only access to nodes,
    /// namespaces, events, CRDs and the OME / PodGroup kinds. The restricted read-only identity.
    Viewer,
    /// `system:kube-scheduler` (in `system:masters`), used by kube-scheduler.
    Scheduler,
    /// `system:kube-controller-manager` (in `system:masters`), used by KCM.
    ControllerManager,
    /// `kwok` (in `system:masters`), used by the kwok controller.
    Kwok,
}

impl Identity {
    /// Every identity, in token-file order.
    pub const ALL: [Identity; 5] = [
        Identity::Admin,
        Identity::Viewer,
        Identity::Scheduler,
        Identity::ControllerManager,
        Identity::Kwok,
    ];

    /// The user name the apiserver sees (as in audit events' `user.username`).
    pub fn user(self) -> &'static str {
        match self {
            Identity::Admin => "admin",
            Identity::Viewer => "viewer",
            Identity::Scheduler => "system:kube-scheduler",
            Identity::ControllerManager => "system:kube-controller-manager",
            Identity::Kwok => "kwok",
        }
    }

    /// The bearer token. Fixed strings are fine: the server only listens on loopback and
    /// lives as long as one test binary.
    pub fn token(self) -> &'static str {
        match self {
            Identity::Admin => "ome-top-test-admin-token",
            Identity::Viewer => "ome-top-test-viewer-token",
            Identity::Scheduler => "ome-top-test-scheduler-token",
            Identity::ControllerManager => "ome-top-test-kcm-token",
            Identity::Kwok => "ome-top-test-kwok-token",
        }
    }

    /// Short file-name stem (`<dir>/<stem>.kubeconfig`).
    pub fn stem(self) -> &'static str {
        match self {
            Identity::Admin => "admin",
            Identity::Viewer => "viewer",
            Identity::Scheduler => "scheduler",
            Identity::ControllerManager => "kcm",
            Identity::Kwok => "kwok",
        }
    }

    fn groups(self) -> &'static str {
        match self {
            Identity::Viewer => "",
            _ => "system:masters",
        }
    }
}

/// The path of `identity`'s kubeconfig inside the cluster dir.
pub fn kubeconfig_path(dir: &Path, identity: Identity) -> PathBuf {
    dir.join(format!("{}.kubeconfig", identity.stem()))
}

/// The apiserver's self-signed serving certificate followed by its CA; the whole file is the
/// clients' CA bundle (the leaf alone fails verification).
pub fn apiserver_ca_path(dir: &Path) -> PathBuf {
    dir.join("pki").join("apiserver.crt")
}

/// Writes a kubeconfig for `identity` against `server` (`https://127.0.0.1:<port>`). The CA is
/// referenced by absolute path because the apiserver writes it only once it starts.
pub fn write_kubeconfig(dir: &Path, server: &str, identity: Identity) -> Result<PathBuf> {
    let path = kubeconfig_path(dir, identity);
    let ca = apiserver_ca_path(dir);
    let name = identity.stem();
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: test\n  cluster:\n    server: {server}\n    \
         certificate-authority: {ca}\nusers:\n- name: {name}\n  user:\n    token: {token}\n\
         contexts:\n- name: {name}@test\n  context:\n    cluster: test\n    user: {name}\n    \
         namespace: default\ncurrent-context: {name}@test\n",
        ca = ca.display(),
        token = identity.token(),
    );
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

/// One context of a fleet kubeconfig: its name, the cluster's data dir (for its CA) and its
/// apiserver URL.
#[derive(Debug, Clone)]
pub struct FleetMember {
    /// The context's name (also its cluster's and user's).
    pub context: String,
    /// The cluster's data dir.
    pub dir: PathBuf,
    /// `https://127.0.0.1:<port>`.
    pub server: String,
}

/// Writes a kubeconfig at `path` with one context per member (several control planes, one
/// file, as an operator's kubeconfig of a fleet), every one as `identity`; the first is the
/// current context.
pub fn write_fleet_kubeconfig(
    path: &Path,
    members: &[FleetMember],
    identity: Identity,
) -> Result<()> {
    let (mut clusters, mut users, mut contexts) = (String::new(), String::new(), String::new());
    for m in members {
        let (name, ca) = (&m.context, apiserver_ca_path(&m.dir));
        let _ = write!(
            clusters,
            "- name: {name}\n  cluster:\n    server: {}\n    certificate-authority: {}\n",
            m.server,
            ca.display()
        );
        let _ = write!(
            users,
            "- name: {name}\n  user:\n    token: {}\n",
            identity.token()
        );
        let _ = write!(
            contexts,
            "- name: {name}\n  context:\n    cluster: {name}\n    user: {name}\n    \
             namespace: default\n"
        );
    }
    let current = members.first().map_or("", |m| m.context.as_str());
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n{clusters}users:\n{users}contexts:\n\
         {contexts}current-context: {current}\n"
    );
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

/// Writes `tokens.csv`, `sa.key`, `audit-policy.yaml` and `scheduler.yaml` into `dir`.
pub fn write_static_files(dir: &Path) -> Result<()> {
    let mut tokens = String::new();
    for id in Identity::ALL {
        // The group column is optional; an empty quoted one would add a group named "".
        let _ = write!(tokens, "{},{},uid-{}", id.token(), id.user(), id.stem());
        let _ = match id.groups() {
            "" => writeln!(tokens),
            groups => writeln!(tokens, ",\"{groups}\""),
        };
    }
    std::fs::write(dir.join("tokens.csv"), tokens)?;
    std::fs::write(dir.join("sa.key"), service_account_key()?)?;
    std::fs::write(dir.join("audit-policy.yaml"), AUDIT_POLICY)?;
    let sched = SCHEDULER_CONFIG.replace(
        "KUBECONFIG",
        &kubeconfig_path(dir, Identity::Scheduler)
            .display()
            .to_string(),
    );
    std::fs::write(dir.join("scheduler.yaml"), sched)?;
    Ok(())
}

/// A fresh ECDSA P-256 key in SEC1 PEM (`EC PRIVATE KEY`), from the `openssl` CLI. One
/// private key file serves both `--service-account-key-file` and
/// `--service-account-signing-key-file`. (client-go's key parser reads EC keys only as SEC1
/// with the curve named, which `ring`'s PKCS#8 output is not, hence the CLI.)
fn service_account_key() -> Result<String> {
    let out = std::process::Command::new("openssl")
        .args(["ecparam", "-name", "prime256v1", "-genkey", "-noout"])
        .output()
        .context("running openssl to make the service-account key")?;
    anyhow::ensure!(out.status.success(), "openssl ecparam failed: {out:?}");
    Ok(String::from_utf8(out.stdout)?)
}

/// Logs every request at `Metadata` level (verb, user, object reference, response code) once
/// its response is complete, so a test can list exactly which verbs an identity used.
const AUDIT_POLICY: &str = "apiVersion: audit.k8s.io/v1
kind: Policy
omitStages:
- RequestReceived
rules:
- level: Metadata
";

/// test-cluster.md §4.5: the default profile plus `gpu-binpack`, which scores nodes by
/// `MostAllocated` with GPUs weighted 10 and has the balancing/spreading scores disabled so
/// that packing is deterministic. `KUBECONFIG` is replaced by the absolute path.
const SCHEDULER_CONFIG: &str = "apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: KUBECONFIG
leaderElection:
  leaderElect: false
profiles:
- schedulerName: default-scheduler
- schedulerName: gpu-binpack
  plugins:
    score:
      disabled:
      - name: NodeResourcesBalancedAllocation
      - name: PodTopologySpread
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources:
        - name: nvidia.com/gpu
          weight: 10
        - name: cpu
          weight: 1
        - name: memory
          weight: 1
";
