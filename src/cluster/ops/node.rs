//! Cordon and uncordon (`spec.unschedulable`) with the Node compare-and-swap rule of
//! docs/actions.md: the write goes ahead only while the Node's cordon state is still the one the
//! operator acted on, and lands only on the exact `metadata.uid` and `spec` just read (JSON
//! Patch `test`s). Status heartbeats, which move the resourceVersion every few seconds, do not
//! count as "changed since you looked".

use k8s_openapi::api::core::v1::Node;
use kube::api::{Api, ApiResource, DynamicObject, Patch};
use serde_json::Value;

use super::event::{EventTarget, EventText};
use super::outcome::{classify, conflict_because, failure};
use super::patches::node_unschedulable_patch;
use super::reread::{after_failure, Written};
use super::{finish, OpContext};
use crate::protocol::OpOutcome;

/// A cordon or uncordon request, from `Op::Cordon`/`Op::Uncordon`.
#[derive(Debug, Clone, Copy)]
pub struct NodeWrite<'a> {
    /// Node name.
    pub node: &'a str,
    /// resourceVersion the operator saw (reported in messages; see the module doc).
    pub seen_rv: &'a str,
    /// `true` = cordon, `false` = uncordon.
    pub unschedulable: bool,
    /// The operator's reason for the Event note.
    pub reason: Option<&'a str>,
}

const PATCH_NODES: &str = "patch nodes";
const GET_NODES: &str = "get nodes";

/// Performs one cordon/uncordon. Sends a GET, then (if the state is as expected) one PATCH,
/// then one Event create.
pub async fn set_unschedulable(
    client: &kube::Client,
    ctx: &OpContext,
    w: NodeWrite<'_>,
) -> OpOutcome {
    let object = format!("node/{}", w.node);
    let api: Api<DynamicObject> = Api::all_with(client.clone(), &ApiResource::erase::<Node>(&()));
    let current = match api.get(w.node).await {
        Ok(n) => n,
        Err(e) => return failure(&object, GET_NODES, classify(&e)),
    };
    let uid = current.metadata.uid.clone().unwrap_or_default();
    let rv = current
        .metadata
        .resource_version
        .clone()
        .unwrap_or_default();
    let spec = current
        .data
        .get("spec")
        .cloned()
        .unwrap_or(Value::Object(Default::default()));
    let is_cordoned = spec
        .get("unschedulable")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    if is_cordoned == w.unschedulable {
        let state = if is_cordoned {
            "is already cordoned"
        } else {
            "is already schedulable"
        };
        if rv == w.seen_rv {
            return OpOutcome::Refused {
                message: format!("{object} {state}; nothing to do"),
            };
        }
        return conflict_because(
            &object,
            &format!("{state} (resourceVersion {rv} now, you saw {})", w.seen_rv),
        );
    }
    let body = node_unschedulable_patch(&uid, &spec, w.unschedulable);
    let params = super::patch_params();
    let written = match api.patch(w.node, &params, &Patch::Json::<()>(body)).await {
        Ok(n) => n,
        Err(e) => {
            let target = Written {
                object: &object,
                name: w.node,
                uid: Some(&uid),
                seen_rv: w.seen_rv,
                permission: PATCH_NODES,
            };
            return after_failure(&api, &target, classify(&e)).await;
        }
    };
    let (verb, action, reason) = if w.unschedulable {
        ("cordoned", "Cordon", "OmeTopCordon")
    } else {
        ("uncordoned", "Uncordon", "OmeTopUncordon")
    };
    let new_rv = written.metadata.resource_version.clone();
    let target = EventTarget {
        api_version: "v1",
        kind: "Node",
        namespace: None,
        name: w.node.to_string(),
        uid,
        resource_version: new_rv.clone(),
    };
    let text = EventText {
        action,
        reason,
        note: note(verb, &ctx.actor, w.reason),
    };
    finish(
        client,
        ctx,
        &target,
        &text,
        format!("{verb} {object}"),
        new_rv,
    )
    .await
}

/// The Event note: `<verb> by <actor>[: <reason>]`.
pub fn note(verb: &str, actor: &str, reason: Option<&str>) -> String {
    match reason.map(str::trim).filter(|r| !r.is_empty()) {
        Some(r) => format!("{verb} by {actor} with ome-top: {r}"),
        None => format!("{verb} by {actor} with ome-top"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_name_the_actor_and_reason() {
        assert_eq!(
            note("cordoned", "alice", Some(" disk errors ")),
            "cordoned by alice with ome-top: disk errors"
        );
        assert_eq!(
            note("uncordoned", "bob", Some("")),
            "uncordoned by bob with ome-top"
        );
        assert_eq!(
            note("uncordoned", "bob", None),
            "uncordoned by bob with ome-top"
        );
    }
}
