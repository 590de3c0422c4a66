//! Why a live session could not start, in the operator's words: the kubeconfig's failures
//! (exit code 2) and the server's (exit code 3), each on one line.
//!
//! Owns: `LiveError`, `one_line`.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use kube::config::KubeconfigError;

use crate::cluster::live::cause::kube_words;

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
