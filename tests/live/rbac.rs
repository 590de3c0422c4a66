//! The roles of docs/rbac/, applied as they are to the real API server: under
//! `readonly.yaml` the live read path (`analyze` and `dump` on the binary, every watcher and
//! read) is never refused and reads every resource the role grants, and every write is
//! refused; under `operator.yaml` every action (cordon, approve, opt out, clear a journal
//! entry, and the Event each records) is carried out, using every write the role grants. The
//! identities are impersonated by the admin (a kubeconfig's `as` and `as-groups`), so the
//! files' own group subjects are what grants access; the audit log shows each refusal.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use k8s_openapi::api::core::v1::Node;
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
use kube::api::{Api, ListParams, PostParams};
use kube::Client;
use ome_top::cluster::ops::execute;
use ome_top::protocol::{Op, OpOutcome};
use serde_json::Value;

use crate::fixtures::{create_isvc, create_journal, ctx, entry, journal, node_rv, seen, uuid};
use crate::isvc::{approve, opt_out};
use crate::journal::clear;
use crate::support::cluster::{client_from, Identity, TestCluster};

/// The documents of `docs/rbac/<file>`, as JSON.
fn documents(file: &str) -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/rbac")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    serde_saphyr::from_multiple::<Value>(&text).unwrap()
}

/// Creates every document of `file`; a namespaced one goes to `namespace` (the file's `ome`
/// is Alfred's default namespace; the test's Alfred lives in a fresh one).
async fn apply(admin: &Client, file: &str, namespace: &str) {
    for mut doc in documents(file) {
        let pp = PostParams::default();
        let kind = doc["kind"].as_str().unwrap().to_string();
        if doc["metadata"].get("namespace").is_some() {
            doc["metadata"]["namespace"] = namespace.into();
        }
        let created = match kind.as_str() {
            "ClusterRole" => Api::<ClusterRole>::all(admin.clone())
                .create(&pp, &serde_json::from_value(doc).unwrap())
                .await
                .map(drop),
            "ClusterRoleBinding" => Api::<ClusterRoleBinding>::all(admin.clone())
                .create(&pp, &serde_json::from_value(doc).unwrap())
                .await
                .map(drop),
            "Role" => Api::<Role>::namespaced(admin.clone(), namespace)
                .create(&pp, &serde_json::from_value(doc).unwrap())
                .await
                .map(drop),
            "RoleBinding" => Api::<RoleBinding>::namespaced(admin.clone(), namespace)
                .create(&pp, &serde_json::from_value(doc).unwrap())
                .await
                .map(drop),
            other => panic!("{file}: unexpected kind {other}"),
        };
        match created {
            Ok(()) => {}
            // Both tests apply readonly.yaml; the second finds it there.
            Err(kube::Error::Api(s)) if s.code == 409 => {}
            Err(e) => panic!("{file}: {kind}: {e}"),
        }
    }
}

/// A kubeconfig of the admin impersonating `user` in `group`, written to `dir`.
fn impersonating(tc: &TestCluster, dir: &Path, user: &str, group: &str) -> PathBuf {
    let admin = std::fs::read_to_string(tc.kubeconfig_path(Identity::Admin)).unwrap();
    let token = format!("    token: {}\n", Identity::Admin.token());
    assert!(admin.contains(&token), "{admin}");
    let text = admin.replace(
        &token,
        &format!("{token}    as: {user}\n    as-groups:\n    - {group}\n"),
    );
    let path = dir.join(format!("{user}.kubeconfig"));
    std::fs::write(&path, text).unwrap();
    path
}

/// Waits (≤ 10 s) until the authorizer has the new bindings: `client` may list nodes.
async fn until_bound(client: &Client) {
    let nodes = Api::<Node>::all(client.clone());
    for _ in 0..100 {
        if nodes.list(&ListParams::default().limit(1)).await.is_ok() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the role's binding never took effect");
}

/// The resources of every request `user` (impersonated) sent after byte `from`.
fn requested(tc: &TestCluster, from: usize, user: &str) -> BTreeSet<String> {
    let text = std::fs::read_to_string(tc.audit_log_path()).unwrap();
    text.get(from..)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["impersonatedUser"]["username"] == user)
        .filter_map(|e| e["objectRef"]["resource"].as_str().map(str::to_string))
        .collect()
}

/// The resources `file` grants `get`, `list` and `watch` on.
fn granted_reads(file: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for doc in documents(file) {
        for rule in doc["rules"].as_array().into_iter().flatten() {
            let verbs: Vec<&str> = rule["verbs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            assert_eq!(verbs, ["get", "list", "watch"], "{file}: {rule}");
            for r in rule["resources"].as_array().unwrap() {
                out.insert(r.as_str().unwrap().to_string());
            }
        }
    }
    out
}

/// `(verb, resource)` of every write `user` (impersonated) sent after byte `from` that the
/// server carried out.
fn writes_done(tc: &TestCluster, from: usize, user: &str) -> BTreeSet<(String, String)> {
    let text = std::fs::read_to_string(tc.audit_log_path()).unwrap();
    text.get(from..)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["stage"] == "ResponseComplete")
        .filter(|e| e["impersonatedUser"]["username"] == user)
        .filter(|e| {
            e["responseStatus"]["code"]
                .as_u64()
                .is_some_and(|c| c < 300)
        })
        .filter(|e| !matches!(e["verb"].as_str(), Some("get" | "list" | "watch")))
        // Access reviews and the identity check: every signed-in identity may send them.
        .filter(|e| {
            !matches!(
                e["objectRef"]["apiGroup"].as_str(),
                Some("authorization.k8s.io" | "authentication.k8s.io")
            )
        })
        .map(|e| {
            let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
            (s(&e["verb"]), s(&e["objectRef"]["resource"]))
        })
        .collect()
}

/// `(verb, resource)` of every rule of `file`.
fn granted(file: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for doc in documents(file) {
        for rule in doc["rules"].as_array().into_iter().flatten() {
            for v in rule["verbs"].as_array().unwrap() {
                for r in rule["resources"].as_array().unwrap() {
                    let (v, r) = (v.as_str().unwrap(), r.as_str().unwrap());
                    out.insert((v.to_string(), r.to_string()));
                }
            }
        }
    }
    out
}

/// `(verb, resource)` of every request refused (403) to the impersonated `user` after byte
/// `from` of the audit log.
fn refused(tc: &TestCluster, from: usize, user: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(tc.audit_log_path()).unwrap();
    let mut out: Vec<(String, String)> = text
        .get(from..)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["stage"] == "ResponseComplete")
        .filter(|e| e["impersonatedUser"]["username"] == user)
        .filter(|e| e["responseStatus"]["code"] == 403)
        .map(|e| {
            let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
            (s(&e["verb"]), s(&e["objectRef"]["resource"]))
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

fn audit_len(tc: &TestCluster) -> usize {
    std::fs::metadata(tc.audit_log_path()).unwrap().len() as usize
}

/// Runs `ome-top ARGS --kubeconfig K`; fails the test on a non-zero exit.
fn ome_top_ok(args: &[&str], kubeconfig: &Path) {
    let out = crate::support::command::ome_top()
        .args(args)
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_readonly_role_reads_everything_ome_top_reads_and_refuses_every_write() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("rbac-ro").await;
    let nodes = tc.create_gpu_nodes("rbac-ro", 1, "H100-rbac").await;
    let admin = tc.admin_client().await;
    let (uid, rv) = seen(&create_isvc(&admin, &ns, "chat", None).await);
    let cm = create_journal(
        &admin,
        &ns,
        &journal(vec![entry(&uuid(7, 0), "stalled", 1)]),
    )
    .await;
    apply(&admin, "readonly.yaml", &ns).await;
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = impersonating(tc, dir.path(), "rbac-reader", "ome-top-readers");
    let reader = client_from(&kubeconfig).await.unwrap();
    until_bound(&reader).await;
    let from = audit_len(tc);

    ome_top_ok(&["analyze", "-o", "json"], &kubeconfig);
    let snapshot = dir.path().join("dump.json");
    ome_top_ok(&["dump", "-o", snapshot.to_str().unwrap()], &kubeconfig);
    assert_eq!(
        refused(tc, from, "rbac-reader"),
        Vec::<(String, String)>::new(),
        "the read path was refused under readonly.yaml"
    );
    // Nothing granted that ome-top does not read: every resource of the role was requested.
    let mut unread = granted_reads("readonly.yaml");
    for r in requested(tc, from, "rbac-reader") {
        unread.remove(&r);
    }
    assert_eq!(unread, BTreeSet::new(), "granted, never read");

    let cm_rv = cm.metadata.resource_version.clone().unwrap();
    let writes: [Op; 4] = [
        crate::cordon(&nodes[0], &node_rv(&admin, &nodes[0]).await, None),
        approve(&ns, "chat", &uid, &rv),
        opt_out(&ns, "chat", &uid, &rv),
        clear(&ns, &uuid(7, 0), &cm_rv),
    ];
    for op in &writes {
        let out = execute(&reader, op, &ctx(&ns)).await;
        assert!(matches!(out, OpOutcome::Refused { .. }), "{op:?}: {out:?}");
    }
    let expected = [
        ("patch", "inferenceservices"),
        ("patch", "nodes"),
        ("update", "configmaps"),
    ];
    let expected: Vec<_> = expected
        .iter()
        .map(|(v, r)| (v.to_string(), r.to_string()))
        .collect();
    assert_eq!(refused(tc, from, "rbac-reader"), expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operator_role_carries_out_every_action() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("rbac-op").await;
    let nodes = tc.create_gpu_nodes("rbac-op", 1, "H100-rbac-op").await;
    let admin = tc.admin_client().await;
    let (uid, rv) = seen(&create_isvc(&admin, &ns, "chat", None).await);
    let (uid2, rv2) = seen(&create_isvc(&admin, &ns, "batch", None).await);
    let cm = create_journal(
        &admin,
        &ns,
        &journal(vec![entry(&uuid(8, 0), "stalled", 1)]),
    )
    .await;
    apply(&admin, "readonly.yaml", &ns).await;
    apply(&admin, "operator.yaml", &ns).await;
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = impersonating(tc, dir.path(), "rbac-operator", "ome-top-operators");
    let operator = client_from(&kubeconfig).await.unwrap();
    until_bound(&operator).await;
    let from = audit_len(tc);

    ome_top_ok(&["analyze", "-o", "json"], &kubeconfig);
    let cm_rv = cm.metadata.resource_version.clone().unwrap();
    let actions: [Op; 4] = [
        crate::cordon(&nodes[0], &node_rv(&admin, &nodes[0]).await, None),
        approve(&ns, "chat", &uid, &rv),
        opt_out(&ns, "batch", &uid2, &rv2),
        clear(&ns, &uuid(8, 0), &cm_rv),
    ];
    for op in &actions {
        let out = execute(&operator, op, &ctx(&ns)).await;
        assert!(matches!(out, OpOutcome::Done { .. }), "{op:?}: {out:?}");
    }
    // The Events are recorded after the write: nothing of it, nor of the reads, refused.
    assert_eq!(
        refused(tc, from, "rbac-operator"),
        Vec::<(String, String)>::new()
    );
    // And the role grants no write the actions do not use.
    assert_eq!(
        writes_done(tc, from, "rbac-operator"),
        granted("operator.yaml")
    );
}
