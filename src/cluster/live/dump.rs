//! `ome-top dump`: lists every watched source with paginated requests and assembles a
//! Kubernetes `List` of the full objects (managedFields stripped), the shape
//! `kubectl get … -o json` prints, so `analyze --snapshot` reads it back.
//!
//! Owns: `dump`, `Dump`. Uses the same selectors as the watchers (`sources`).

use std::fmt::Debug;

use k8s_openapi::api::core::v1 as core;
use kube::api::{Api, ApiResource, DynamicObject, ListParams, TypeMeta};
use kube::{Client, Resource};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

use crate::cluster::live::sources::{self, AUDIT_SUFFIX, NAMED_CONFIG_MAPS};
use crate::cluster::live::watch::{Scope, PAGE_SIZE};
use crate::cluster::live::LiveError;

/// A dumped `List` and what could not be included (one line each).
#[derive(Debug, Clone)]
pub struct Dump {
    /// `{"apiVersion":"v1","kind":"List","items":[…]}`.
    pub list: Value,
    /// Sources left out (CRD not installed, refused), one line each.
    pub warnings: Vec<String>,
}

async fn list_all<K>(api: &Api<K>, fields: Option<&str>) -> Result<Vec<K>, kube::Error>
where
    K: Resource + Clone + DeserializeOwned + Debug,
{
    let mut out = Vec::new();
    let mut token: Option<String> = None;
    loop {
        let mut params = ListParams::default().limit(PAGE_SIZE);
        if let Some(f) = fields {
            params = params.fields(f);
        }
        if let Some(t) = token.take() {
            params = params.continue_token(&t);
        }
        let page = api.list(&params).await?;
        out.extend(page.items);
        match page.metadata.continue_ {
            Some(c) if !c.is_empty() => token = Some(c),
            _ => return Ok(out),
        }
    }
}

fn item<K: Resource + Serialize>(mut obj: K) -> Option<Value> {
    obj.meta_mut().managed_fields = None;
    serde_json::to_value(&obj).ok()
}

/// How one failed list is handled: required sources fail the dump, optional ones warn.
fn failed(what: &str, required: bool, e: kube::Error) -> Result<String, LiveError> {
    let (not_found, refused) = match &e {
        kube::Error::Api(s) => (
            s.code == 404 || s.is_not_found(),
            s.code == 403 || s.code == 401 || s.is_forbidden(),
        ),
        _ => (false, false),
    };
    match (required, not_found, refused) {
        (false, true, _) => Ok(format!("{what}: not installed (404), left out")),
        (false, _, true) => Ok(format!("{what}: forbidden, left out")),
        (true, _, true) => Err(LiveError::MayNot(format!("list {what}"))),
        _ => Err(LiveError::List {
            what: what.to_string(),
            error: e,
        }),
    }
}

struct Collector {
    items: Vec<Value>,
    warnings: Vec<String>,
}

impl Collector {
    async fn typed<K>(
        &mut self,
        what: &str,
        api: Api<K>,
        fields: Option<&str>,
        keep: fn(&K) -> bool,
    ) -> Result<(), LiveError>
    where
        K: Resource + Clone + DeserializeOwned + Debug + Serialize,
    {
        let required = matches!(what, "nodes" | "pods");
        match list_all(&api, fields).await {
            Ok(list) => self
                .items
                .extend(list.into_iter().filter(keep).filter_map(item)),
            Err(e) => self.warnings.push(failed(what, required, e)?),
        }
        Ok(())
    }

    async fn dynamic(
        &mut self,
        api: Api<DynamicObject>,
        ar: &ApiResource,
    ) -> Result<(), LiveError> {
        let what = format!("{}.{}", ar.plural, ar.group);
        match list_all(&api, None).await {
            Ok(list) => self.items.extend(list.into_iter().filter_map(|mut o| {
                o.types = Some(TypeMeta {
                    api_version: ar.api_version.clone(),
                    kind: ar.kind.clone(),
                });
                item(o)
            })),
            Err(e) => self.warnings.push(failed(&what, false, e)?),
        }
        Ok(())
    }

    async fn named_config_maps(&mut self, client: &Client, scope: &Scope) -> Result<(), LiveError> {
        for (_, name, in_scheduler_ns) in NAMED_CONFIG_MAPS {
            let ns = if in_scheduler_ns {
                &scope.scheduler_namespace
            } else {
                &scope.alfred_namespace
            };
            let api = Api::<core::ConfigMap>::namespaced(client.clone(), ns);
            match api.get_opt(name).await {
                Ok(Some(cm)) => self.items.extend(item(cm)),
                Ok(None) => {}
                Err(e) => self
                    .warnings
                    .push(failed(&format!("configmap {ns}/{name}"), false, e)?),
            }
        }
        Ok(())
    }
}

fn everything<K>(_: &K) -> bool {
    true
}

/// Lists every source ome-top watches, with the watchers' scopes and selectors.
pub async fn dump(client: &Client, scope: &Scope) -> Result<Dump, LiveError> {
    let mut c = Collector {
        items: Vec::new(),
        warnings: Vec::new(),
    };
    c.typed(
        "nodes",
        Api::<core::Node>::all(client.clone()),
        None,
        everything,
    )
    .await?;
    c.typed("pods", scope.typed::<core::Pod>(client), None, everything)
        .await?;
    for ar in [
        sources::isvc_resource(),
        sources::replica_resource(),
        sources::pod_group_resource(),
    ] {
        c.dynamic(scope.dynamic(client, &ar), &ar).await?;
    }
    let ar = sources::base_model_resource();
    c.dynamic(scope.dynamic(client, &ar), &ar).await?;
    let ar = sources::cluster_base_model_resource();
    c.dynamic(Api::all_with(client.clone(), &ar), &ar).await?;
    let claims = scope.typed::<core::PersistentVolumeClaim>(client);
    c.typed("persistentvolumeclaims", claims, None, everything)
        .await?;
    c.named_config_maps(client, scope).await?;
    let audit = |cm: &core::ConfigMap| {
        cm.metadata
            .name
            .as_deref()
            .is_some_and(|n| n.ends_with(AUDIT_SUFFIX))
    };
    c.typed("configmaps", scope.typed(client), None, audit)
        .await?;
    let events = Api::<core::Event>::all(client.clone());
    c.typed("events", events, Some(sources::NODE_EVENTS), everything)
        .await?;
    let events = scope.typed::<core::Event>(client);
    c.typed("events", events, Some(sources::POD_EVENTS), everything)
        .await?;
    Ok(Dump {
        list: json!({
            "apiVersion": "v1",
            "kind": "List",
            "metadata": {"resourceVersion": ""},
            "items": c.items,
        }),
        warnings: c.warnings,
    })
}
