//! The kubeconfig read without contacting a server (its contexts, the current one, a context's
//! server URL) and a client for a context whose API server is checked to answer.
//!
//! Owns: `REACH_TIMEOUT`, `USER_AGENT`, `context_name`, `context_names`,
//! `kubeconfig_contexts`, `context_server`, `client`.

use std::path::Path;
use std::time::Duration;

use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Client, Config};

use crate::cluster::live::LiveError;

/// How long `connect` waits for the API server's `/version` before calling it unreachable.
pub const REACH_TIMEOUT: Duration = Duration::from_secs(10);
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
pub(super) async fn reachable(
    kubeconfig: Option<&Path>,
    context: Option<&str>,
) -> Result<(Client, String, String), LiveError> {
    let (client, context, server) = configured(kubeconfig, context).await?;
    answers(&client, &context, &server).await?;
    Ok((client, context, server))
}

/// The client of the kubeconfig's `context`, its context name and API server URL, without
/// contacting the server (`answers` checks it).
pub(super) async fn configured(
    kubeconfig: Option<&Path>,
    context: Option<&str>,
) -> Result<(Client, String, String), LiveError> {
    let (client, context, server) = client_for(kubeconfig, context).await.inspect_err(|e| {
        tracing::error!(error = %e, "kubeconfig not usable");
    })?;
    let shown = without_userinfo(&server);
    tracing::info!(context, server = %shown, "connecting");
    Ok((client, context, server))
}

/// Checks that the API server of `client` answers its `/version` within `REACH_TIMEOUT`.
pub(super) async fn answers(client: &Client, context: &str, server: &str) -> Result<(), LiveError> {
    let shown = without_userinfo(server);
    let answer = match tokio::time::timeout(REACH_TIMEOUT, client.apiserver_version()).await {
        Ok(Ok(info)) => {
            tracing::info!(version = %info.git_version, "API server reachable");
            return Ok(());
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
pub(super) fn without_userinfo(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => format!("{scheme}://{}", &rest[at + 1..]),
        None => url.to_string(),
    }
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
