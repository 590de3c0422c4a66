//! The live cluster layer: kube-rs watchers feed compact stores; a snapshot task analyses
//! them and publishes the latest `protocol::Feed` on a `tokio::sync::watch` channel.
//!
//! Retry policy: every watcher uses kube's default backoff (exponential, capped) and never
//! gives up; an outage shows as `ApiStatus::Reconnecting` with the last data kept, and a
//! relist replaces each store exactly. A 404 on a CRD is `Presence::CrdAbsent`, a refusal
//! `Presence::Forbidden`; neither is retried faster than the backoff.
//!
//! Owns: `LiveOptions`, `LiveError`, `LiveSession`, `EventCounts`, `connect`, `context_name`,
//! `context_names`, `kubeconfig_contexts`, `context_server`. Never reads the clock (the composition root hands in
//! `LiveOptions::clock`).

pub mod cause;
pub mod crd;
pub mod delta;
pub mod dump;
pub mod fetch;
pub mod identity;
pub mod rbac;
pub mod slot;
pub mod snapshot;
pub mod sources;
pub mod store;
pub mod watch;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError};
use std::time::Duration;

use kube::config::{KubeConfigOptions, Kubeconfig, KubeconfigError};
use kube::{Client, Config};
use tokio::sync::watch as channel;
use tokio::task::JoinHandle;

use crate::cluster::live::cause::kube_words;
use crate::engine::analysis::AnalysisOptions;
use crate::engine::model::Time;
use crate::protocol::{ApiStatus, Feed, Permissions, SourceKind};

/// How long `connect` waits for the API server's `/version` before calling it unreachable.
pub const REACH_TIMEOUT: Duration = Duration::from_secs(10);

/// What to watch and how.
#[derive(Debug, Clone)]
pub struct LiveOptions {
    /// Kubeconfig file; `None` = `$KUBECONFIG` or `~/.kube/config`.
    pub kubeconfig: Option<PathBuf>,
    /// Context; `None` = the kubeconfig's current context.
    pub context: Option<String>,
    /// Workload namespace (`-n`); `None` = all namespaces. Nodes are always cluster-wide.
    pub namespace: Option<String>,
    /// Alfred's namespace.
    pub alfred_namespace: String,
    /// The OME scheduler's namespace.
    pub scheduler_namespace: String,
    /// Why the session may not write (`--readonly`, a read-only context, a headless command):
    /// no RBAC probe (it is a create request) and every action disabled. `None`: writable.
    pub read_only: Option<String>,
    /// Options of every analysis; `now` is replaced by `clock()` each time, and the
    /// namespaces by the two fields above.
    pub analysis: AnalysisOptions,
    /// The wall clock (read only by the composition root's function).
    pub clock: fn() -> Time,
}

/// Why a live session could not start. The kubeconfig's variants exit with code 2, the
/// server's with 3 ([`LiveError::exit_code`]); every one displays on one line, the cause's
/// first line included (so the cause is a field, not a `source` a chain would print again).
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// The kubeconfig file given with `--kubeconfig` does not load.
    #[error("cannot load kubeconfig {}: {}{DEMO_HINT}", path.display(), kubeconfig_words(error))]
    KubeconfigFile {
        /// The file.
        path: PathBuf,
        /// Why.
        error: KubeconfigError,
    },
    /// The default kubeconfig does not load.
    #[error("cannot load kubeconfig{}{DEMO_HINT}", default_kubeconfig_words(error))]
    KubeconfigDefault {
        /// Why.
        error: KubeconfigError,
    },
    /// `--context` names a context the kubeconfig does not have.
    #[error("context {0:?} does not exist in the kubeconfig")]
    NoSuchContext(String),
    /// The context does not make a client configuration.
    #[error("kubeconfig: {}", one_line(error))]
    Kubeconfig {
        /// Why.
        error: KubeconfigError,
    },
    /// The configuration does not make a client (TLS, proxy).
    #[error("kubeconfig: {}", one_line(error))]
    Client {
        /// Why.
        error: kube::Error,
    },
    /// The identity may not do what ome-top needs (`list nodes`, `watch pods`).
    #[error("forbidden: the identity may not {0}")]
    MayNot(String),
    /// The API server refused the identity (401 or 403 on the version request).
    #[error("forbidden: the API server refused the identity: {0}")]
    Refused(String),
    /// The version request failed.
    #[error("cluster unreachable: {server}: {}", kube_words(error))]
    Request {
        /// The server, without user info.
        server: String,
        /// Why.
        error: kube::Error,
    },
    /// The version request had no answer in time.
    #[error("cluster unreachable: {server}: no answer within {}s", within.as_secs())]
    NoAnswer {
        /// The server, without user info.
        server: String,
        /// How long ome-top waited.
        within: Duration,
    },
    /// The watchers were reconnecting when the wait for the first sync ended.
    #[error("cluster unreachable: {server}: {error}")]
    Reconnecting {
        /// The server, without user info.
        server: String,
        /// The watchers' last error, as the feed carries it.
        error: String,
    },
    /// The initial lists did not complete in time.
    #[error(
        "cluster unreachable: {server}: initial lists not complete after {}s",
        within.as_secs()
    )]
    NotSynced {
        /// The server, without user info.
        server: String,
        /// How long ome-top waited.
        within: Duration,
    },
    /// A list `dump` needs failed.
    #[error("cluster unreachable: list {what}: {}", kube_words(error))]
    List {
        /// What was listed.
        what: String,
        /// Why.
        error: kube::Error,
    },
}

impl LiveError {
    /// The process exit code for this error (see `cli::EXIT_*`).
    pub fn exit_code(&self) -> i32 {
        match self {
            LiveError::KubeconfigFile { .. }
            | LiveError::KubeconfigDefault { .. }
            | LiveError::NoSuchContext(_)
            | LiveError::Kubeconfig { .. }
            | LiveError::Client { .. } => 2,
            _ => 3,
        }
    }
}

/// What the operator can run without a cluster, after a kubeconfig that does not load.
const DEMO_HINT: &str = "; to try ome-top without a cluster: `ome-top demo`";

/// Why a kubeconfig did not load, without the path kube quotes twice (`'"/x"'`): the path is
/// named by the message around it.
fn kubeconfig_words(error: &KubeconfigError) -> String {
    match error {
        KubeconfigError::ReadConfig(io, _) => io.to_string(),
        other => one_line(other),
    }
}

/// The default kubeconfig's failure: the file it read, named once, or that none was found.
fn default_kubeconfig_words(error: &KubeconfigError) -> String {
    match error {
        KubeconfigError::ReadConfig(io, path) => format!(" {}: {io}", path.display()),
        KubeconfigError::FindPath => {
            ": none found ($KUBECONFIG is unset and ~/.kube/config does not exist)".into()
        }
        other => format!(": {}", one_line(other)),
    }
}

/// First line of an error's text (errors are shown on one line).
pub fn one_line(e: &dyn fmt::Display) -> String {
    e.to_string().lines().next().unwrap_or_default().to_string()
}

/// A running live session. Dropping it stops every task.
pub struct LiveSession {
    /// The latest feed (newest value wins).
    pub feed: channel::Receiver<Arc<Feed>>,
    /// The client, for the ops worker and on-demand reads.
    pub client: Client,
    /// The kubeconfig context in use.
    pub context: String,
    /// The API server URL (with the context, the history store's cluster key).
    pub server: String,
    hub: Arc<watch::Hub>,
    tasks: Vec<JoinHandle<()>>,
}

/// How far the analyses are behind the watchers, in object events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventCounts {
    /// Object events applied to the stores since the session started.
    pub applied: u64,
    /// Of those, the events included in the latest published feed.
    pub in_feed: u64,
}

impl Drop for LiveSession {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

impl LiveSession {
    /// The event counters of the watchers and the snapshot task (read now, not atomically
    /// together: `in_feed` may lag `applied` by the events of one analysis).
    pub fn event_counts(&self) -> EventCounts {
        EventCounts {
            applied: self.hub.events_applied.load(Ordering::Relaxed),
            in_feed: self.hub.events_in_feed.load(Ordering::Relaxed),
        }
    }

    /// Waits until a feed satisfies `done`, at most `timeout`; returns it, or `None` on
    /// timeout (or when the snapshot task ended).
    pub async fn wait_for(
        &mut self,
        timeout: Duration,
        done: impl Fn(&Feed) -> bool,
    ) -> Option<Arc<Feed>> {
        let wait = async {
            loop {
                let feed = self.feed.borrow_and_update().clone();
                if done(&feed) {
                    return Some(feed);
                }
                self.feed.changed().await.ok()?;
            }
        };
        tokio::time::timeout(timeout, wait).await.ok().flatten()
    }

    /// Waits for the first complete sync (every source listed, no outage) and returns that
    /// feed. A refused Node or Pod list is `Forbidden`; no sync within `timeout` is
    /// `Unreachable` with the last error seen.
    pub async fn wait_synced(&mut self, timeout: Duration) -> Result<Arc<Feed>, LiveError> {
        let done = |f: &Feed| matches!(f.api, ApiStatus::Connected | ApiStatus::Forbidden { .. });
        match self.wait_for(timeout, done).await {
            Some(feed) => match &feed.api {
                ApiStatus::Forbidden { what } => Err(LiveError::MayNot(what.clone())),
                _ => Ok(feed),
            },
            None => {
                let last = self.feed.borrow().api.clone();
                let server = without_userinfo(&self.server);
                Err(match last {
                    ApiStatus::Reconnecting { error, .. } => {
                        LiveError::Reconnecting { server, error }
                    }
                    _ => LiveError::NotSynced {
                        server,
                        within: timeout,
                    },
                })
            }
        }
    }
}

/// The User-Agent of every request: `ome-top/<version>`.
pub const USER_AGENT: &str = concat!("ome-top/", env!("CARGO_PKG_VERSION"));

/// The context a session on `kubeconfig` (or the default one) with `--context` would use,
/// read from the file without contacting any server: `context`, else the current context.
/// `None` when the kubeconfig cannot be read (connecting then reports why).
pub fn context_name(kubeconfig: Option<&Path>, context: Option<&str>) -> Option<String> {
    if let Some(wanted) = context {
        return Some(wanted.to_string());
    }
    let file = match kubeconfig {
        Some(path) => Kubeconfig::read_from(path).ok()?,
        None => Kubeconfig::read().ok()?,
    };
    file.current_context
}

/// Every context of `kubeconfig` (or the default one), in file order, read without contacting
/// any server; empty when the file cannot be read.
pub fn context_names(kubeconfig: Option<&Path>) -> Vec<String> {
    let file = match kubeconfig {
        Some(path) => Kubeconfig::read_from(path),
        None => Kubeconfig::read(),
    };
    file.map(|f| f.contexts.into_iter().map(|c| c.name).collect())
        .unwrap_or_default()
}

/// Every context of `kubeconfig` (or the default one), in file order, read without contacting
/// any server; a kubeconfig that does not load is the error `connect` would report.
pub fn kubeconfig_contexts(kubeconfig: Option<&Path>) -> Result<Vec<String>, LiveError> {
    let file = match kubeconfig {
        Some(path) => Kubeconfig::read_from(path).map_err(|error| LiveError::KubeconfigFile {
            path: path.to_path_buf(),
            error,
        })?,
        None => Kubeconfig::read().map_err(|error| LiveError::KubeconfigDefault { error })?,
    };
    Ok(file.contexts.into_iter().map(|c| c.name).collect())
}

/// The API server URL (without user info) the kubeconfig names for `context`, read without
/// contacting it; `None` when the file, the context or its cluster's server is missing.
pub fn context_server(kubeconfig: Option<&Path>, context: &str) -> Option<String> {
    let file = match kubeconfig {
        Some(path) => Kubeconfig::read_from(path).ok()?,
        None => Kubeconfig::read().ok()?,
    };
    let named = file.contexts.iter().find(|c| c.name == context)?;
    let cluster = &named.context.as_ref()?.cluster;
    let found = file.clusters.iter().find(|c| &c.name == cluster)?;
    let server = found.cluster.as_ref()?.server.as_deref()?;
    Some(without_userinfo(server))
}

async fn client_for(
    kubeconfig: Option<&Path>,
    context: Option<&str>,
) -> Result<(Client, String, String), LiveError> {
    let wanted_context = context;
    let kubeconfig = match kubeconfig {
        Some(path) => Kubeconfig::read_from(path).map_err(|error| LiveError::KubeconfigFile {
            path: path.to_path_buf(),
            error,
        })?,
        None => Kubeconfig::read().map_err(|error| LiveError::KubeconfigDefault { error })?,
    };
    if let Some(wanted) = wanted_context {
        if !kubeconfig.contexts.iter().any(|c| c.name == wanted) {
            return Err(LiveError::NoSuchContext(wanted.to_string()));
        }
    }
    let context = wanted_context
        .map(str::to_string)
        .or_else(|| kubeconfig.current_context.clone())
        .unwrap_or_default();
    let options = KubeConfigOptions {
        context: wanted_context.map(str::to_string),
        ..KubeConfigOptions::default()
    };
    let config = Config::from_custom_kubeconfig(kubeconfig, &options)
        .await
        .map_err(|error| LiveError::Kubeconfig { error })?;
    let server = config.cluster_url.to_string();
    let mut config = config;
    // Every request names the program, so an audit log tells ome-top's requests apart.
    config.headers.push((
        http::header::USER_AGENT,
        http::HeaderValue::from_static(USER_AGENT),
    ));
    // kube retries a 429, 503 or 504 answer up to 15 times with a doubling wait (minutes in
    // all) before a caller hears of it, so a proxy answering 503 in front of a dead API server
    // read as "loading…" for minutes. Each watcher has its own backoff and shows the outage at
    // once (with the server's answer); a write that fails says so and may be tried again.
    config.default_retry = false;
    let client = Client::try_from(config).map_err(|error| LiveError::Client { error })?;
    Ok((client, context, server))
}

/// Loads the kubeconfig and checks that the API server answers, without watching anything
/// (what `dump` needs).
pub async fn client(
    kubeconfig: Option<&Path>,
    context: Option<&str>,
) -> Result<(Client, String), LiveError> {
    reachable(kubeconfig, context)
        .await
        .map(|(c, ctx, _)| (c, ctx))
}

/// `client`, also returning the API server URL.
async fn reachable(
    kubeconfig: Option<&Path>,
    context: Option<&str>,
) -> Result<(Client, String, String), LiveError> {
    let (client, context, server) = client_for(kubeconfig, context).await.inspect_err(|e| {
        tracing::error!(error = %e, "kubeconfig not usable");
    })?;
    let shown = without_userinfo(&server);
    tracing::info!(context, server = %shown, "connecting");
    let answer = match tokio::time::timeout(REACH_TIMEOUT, client.apiserver_version()).await {
        Ok(Ok(info)) => {
            tracing::info!(version = %info.git_version, "API server reachable");
            return Ok((client, context, server));
        }
        Ok(Err(kube::Error::Api(s))) if s.code == 403 || s.code == 401 => {
            LiveError::Refused(s.message)
        }
        // The server is named: "(Connect)" alone does not say which address was tried.
        Ok(Err(error)) => LiveError::Request {
            server: shown.clone(),
            error,
        },
        Err(_) => LiveError::NoAnswer {
            server: shown.clone(),
            within: REACH_TIMEOUT,
        },
    };
    tracing::error!(context, server = %shown, error = %answer, "cannot start");
    Err(answer)
}

/// `url` without a `user:password@` part, for the log.
fn without_userinfo(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => format!("{scheme}://{}", &rest[at + 1..]),
        None => url.to_string(),
    }
}

/// Connects: loads the kubeconfig, checks reachability, starts the watchers, the RBAC probe
/// (unless read-only) and the snapshot task. Must run inside a tokio runtime.
pub async fn connect(opts: LiveOptions) -> Result<LiveSession, LiveError> {
    let (client, context, server) =
        reachable(opts.kubeconfig.as_deref(), opts.context.as_deref()).await?;
    let permissions = match &opts.read_only {
        Some(why) => Permissions::read_only(why.clone()),
        None => rbac::pending(),
    };
    tracing::info!(
        namespace = opts.namespace.as_deref().unwrap_or("(all)"),
        alfred_namespace = opts.alfred_namespace,
        scheduler_namespace = opts.scheduler_namespace,
        read_only = opts.read_only.as_deref().unwrap_or("no"),
        "watching"
    );
    let hub = Arc::new(watch::Hub::new(opts.clock, permissions));
    let scope = watch::Scope {
        namespace: opts.namespace.clone(),
        alfred_namespace: opts.alfred_namespace.clone(),
        scheduler_namespace: opts.scheduler_namespace.clone(),
    };
    let mut tasks = watch::spawn_watchers(&client, &scope, &hub);
    if opts.read_only.is_none() {
        let (hub, client, scope) = (hub.clone(), client.clone(), scope.clone());
        tasks.push(tokio::spawn(async move {
            let found =
                rbac::probe(&client, &scope.alfred_namespace, scope.namespace.as_deref()).await;
            tracing::info!(permissions = ?found.entries, "RBAC probe answered");
            *hub.permissions
                .lock()
                .unwrap_or_else(PoisonError::into_inner) = found;
            hub.changed.notify_one();
        }));
    }
    let mut analysis = opts.analysis.clone();
    analysis.alfred_namespace = opts.alfred_namespace.clone();
    analysis.placement.scheduler_namespace = opts.scheduler_namespace.clone();
    let source = SourceKind::Live(context.clone());
    let first = snapshot::initial_feed(&hub, source.clone(), &analysis);
    let (tx, feed) = channel::channel(Arc::new(first));
    tasks.push(snapshot::spawn_snapshot_task(
        hub.clone(),
        source,
        analysis,
        tx,
    ));
    Ok(LiveSession {
        feed,
        client,
        context,
        server,
        hub,
        tasks,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_never_sees_a_password_in_the_server_url() {
        assert_eq!(
            without_userinfo("https://op:s3cret@10.0.0.1:6443/base"),
            "https://10.0.0.1:6443/base"
        );
        let plain = "https://10.0.0.1:6443/";
        assert_eq!(without_userinfo(plain), plain);
        assert_eq!(without_userinfo("https://h/a@b"), "https://h/a@b");
    }

    #[test]
    fn the_context_comes_from_the_flag_else_the_kubeconfig() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config");
        std::fs::write(
            &path,
            "apiVersion: v1\nkind: Config\ncurrent-context: prod\ncontexts: []\nclusters: []\nusers: []\n",
        )
        .unwrap();
        assert_eq!(context_name(Some(&path), None).as_deref(), Some("prod"));
        assert_eq!(
            context_name(Some(&path), Some("dev")).as_deref(),
            Some("dev")
        );
        assert_eq!(context_name(Some(&dir.path().join("absent")), None), None);
        std::fs::write(
            &path,
            "apiVersion: v1\nkind: Config\ncurrent-context: prod\ncontexts:\n\
             - name: prod\n  context: {cluster: c, user: u}\n\
             - name: staging\n  context: {cluster: c, user: u}\n\
             clusters: []\nusers: []\n",
        )
        .unwrap();
        assert_eq!(context_names(Some(&path)), ["prod", "staging"]);
        std::fs::write(
            &path,
            "apiVersion: v1\nkind: Config\ncontexts:\n\
             - name: prod\n  context: {cluster: c, user: u}\n\
             - name: lost\n  context: {cluster: gone, user: u}\n\
             clusters:\n- name: c\n  cluster: {server: \"https://op:pw@10.0.0.1:6443\"}\n\
             users: []\n",
        )
        .unwrap();
        assert_eq!(
            context_server(Some(&path), "prod").as_deref(),
            Some("https://10.0.0.1:6443")
        );
        assert_eq!(context_server(Some(&path), "lost"), None);
        assert_eq!(context_server(Some(&path), "absent"), None);
        assert!(context_names(Some(&dir.path().join("absent"))).is_empty());
    }
}
