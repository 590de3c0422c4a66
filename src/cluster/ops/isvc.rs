//! Writes to an InferenceService (`ome.io/v1beta1`): approving a move (the migration request
//! annotation `ome.io/migration-request-v1-<uuid>`, alfred.md §3.1) and opting a workload out
//! (`alfred.ome.io/movable: "false"` + `alfred.ome.io/opt-out-reason`, alfred.md §4), or back
//! in (both annotations removed). All are
//! JSON Patches that `test` the uid and resourceVersion the operator saw; never a full update.

use kube::api::{Api, ApiResource, DynamicObject, Patch};

use super::event::{EventTarget, EventText};
use super::node::note;
use super::outcome::{classify, conflict, failure, CurrentState};
use super::patches::{
    migration_request_patch, opt_in_patch, opt_out_patch, MOVABLE_ANNOTATION,
    OPT_OUT_REASON_ANNOTATION,
};
use super::reread::{after_failure, Written};
use super::{finish, OpContext};
use crate::engine::migration::{annotation_key, parse_request_annotation, RequestError};
use crate::protocol::{Op, OpOutcome};

/// `ome.io/v1beta1` InferenceService, served by the OME CRD.
pub fn inference_service_resource() -> ApiResource {
    ApiResource {
        group: "ome.io".into(),
        version: "v1beta1".into(),
        api_version: "ome.io/v1beta1".into(),
        kind: "InferenceService".into(),
        plural: "inferenceservices".into(),
    }
}

const PATCH_ISVC: &str = "patch inferenceservices.ome.io";
const GET_ISVC: &str = "get inferenceservices.ome.io";

/// What an annotation write needs, taken from the op.
struct Write<'a> {
    namespace: &'a str,
    name: &'a str,
    uid: &'a str,
    seen_rv: &'a str,
}

/// Executes `Op::ApproveMove`, `Op::OptOut` or `Op::OptIn` (other ops are refused). Sends one GET (to learn
/// whether the annotations map exists, and to refuse early when the object already moved on),
/// one PATCH, one Event create.
pub async fn annotate(client: &kube::Client, ctx: &OpContext, op: &Op) -> OpOutcome {
    let object = op.object();
    let w = match op {
        Op::ApproveMove {
            namespace,
            name,
            uid,
            resource_version,
            ..
        }
        | Op::OptOut {
            namespace,
            name,
            uid,
            resource_version,
            ..
        }
        | Op::OptIn {
            namespace,
            name,
            uid,
            resource_version,
        } => Write {
            namespace,
            name,
            uid,
            seen_rv: resource_version,
        },
        _ => {
            return OpOutcome::Refused {
                message: format!("{object}: not an InferenceService op"),
            }
        }
    };
    let planned = match plan(op) {
        Ok(p) => p,
        Err(why) => {
            return OpOutcome::Refused {
                message: format!("{object}: {why}"),
            }
        }
    };
    let api: Api<DynamicObject> =
        Api::namespaced_with(client.clone(), w.namespace, &inference_service_resource());
    let current = match api.get(w.name).await {
        Ok(o) => o,
        Err(e) => return failure(&object, GET_ISVC, classify(&e)),
    };
    if let Some(outcome) = stale(&object, &w, &current) {
        return outcome;
    }
    let annotations = current.metadata.annotations.as_ref();
    if let Planned::Request { key, .. } = &planned {
        if annotations.is_some_and(|a| a.contains_key(key)) {
            return OpOutcome::Refused {
                message: format!("{object} already carries {key}; nothing written"),
            };
        }
    }
    let present: Vec<&str> = annotations
        .map(|a| a.keys().map(String::as_str).collect())
        .unwrap_or_default();
    if matches!(planned, Planned::OptIn)
        && ![MOVABLE_ANNOTATION, OPT_OUT_REASON_ANNOTATION]
            .iter()
            .any(|k| present.contains(k))
    {
        return OpOutcome::Refused {
            message: format!("{object} is not opted out; nothing written"),
        };
    }
    let body = planned.body(w.uid, w.seen_rv, annotations.is_some(), &present);
    let written = match api
        .patch(w.name, &super::patch_params(), &Patch::Json::<()>(body))
        .await
    {
        Ok(o) => o,
        Err(e) => {
            let target = Written {
                object: &object,
                name: w.name,
                uid: Some(w.uid),
                seen_rv: w.seen_rv,
                permission: PATCH_ISVC,
            };
            return after_failure(&api, &target, classify(&e)).await;
        }
    };
    let new_rv = written.metadata.resource_version.clone();
    let target = EventTarget {
        api_version: "ome.io/v1beta1",
        kind: "InferenceService",
        namespace: Some(w.namespace.to_string()),
        name: w.name.to_string(),
        uid: w.uid.to_string(),
        resource_version: new_rv.clone(),
    };
    let (text, done) = planned.describe(&ctx.actor, &object);
    finish(client, ctx, &target, &text, done, new_rv).await
}

/// The write an op asks for, validated before anything is sent.
#[derive(Debug)]
enum Planned {
    Request {
        key: String,
        uuid: String,
        value: String,
        overrode: Option<String>,
    },
    OptOut {
        reason: String,
    },
    OptIn,
}

/// Validates the op's content: a lowercase UUID, a request value Alfred's consumer would
/// accept (≤ 4096 bytes), a non-empty opt-out reason.
/// Why an InferenceService op is refused before anything is sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum PlanError {
    /// The request's UUID is not a lowercase UUID.
    #[error("bad request uuid: {0}")]
    Uuid(RequestError),
    /// The request's value would not be accepted by Alfred's consumer.
    #[error("bad request value: {0}")]
    Value(RequestError),
    /// An opt-out without a reason.
    #[error("an opt-out needs a reason (written to alfred.ome.io/opt-out-reason)")]
    NoReason,
    /// Another kind of op.
    #[error("not an InferenceService op")]
    NotIsvcOp,
}

fn plan(op: &Op) -> Result<Planned, PlanError> {
    match op {
        Op::ApproveMove {
            uuid,
            value,
            overrode,
            ..
        } => {
            let key = annotation_key(uuid).map_err(PlanError::Uuid)?;
            parse_request_annotation(&key, value).map_err(PlanError::Value)?;
            Ok(Planned::Request {
                key,
                uuid: uuid.clone(),
                value: value.clone(),
                overrode: overrode.clone(),
            })
        }
        Op::OptOut { reason, .. } if reason.trim().is_empty() => Err(PlanError::NoReason),
        Op::OptOut { reason, .. } => Ok(Planned::OptOut {
            reason: reason.clone(),
        }),
        Op::OptIn { .. } => Ok(Planned::OptIn),
        _ => Err(PlanError::NotIsvcOp),
    }
}

impl Planned {
    /// The patch; `present` are the annotation keys the object holds now.
    fn body(
        &self,
        uid: &str,
        rv: &str,
        has_annotations: bool,
        present: &[&str],
    ) -> json_patch::Patch {
        match self {
            Planned::Request { key, value, .. } => {
                migration_request_patch(uid, rv, has_annotations, key, value)
            }
            Planned::OptOut { reason } => opt_out_patch(uid, rv, has_annotations, reason),
            Planned::OptIn => opt_in_patch(uid, rv, present),
        }
    }

    fn describe(&self, actor: &str, object: &str) -> (EventText, String) {
        match self {
            Planned::Request {
                uuid,
                value,
                overrode,
                ..
            } => {
                let over = overrode
                    .as_deref()
                    .map(|o| format!(" (override: {o})"))
                    .unwrap_or_default();
                (
                    EventText {
                        action: "ApproveMove",
                        reason: "OmeTopApproveMove",
                        note: note(
                            &format!("migration request {uuid} written{over}"),
                            actor,
                            Some(value),
                        ),
                    },
                    format!("migration request {uuid} written to {object}{over}"),
                )
            }
            Planned::OptOut { reason } => (
                EventText {
                    action: "OptOut",
                    reason: "OmeTopOptOut",
                    note: note("opted out of Alfred's moves", actor, Some(reason)),
                },
                format!("{object} opted out of Alfred's moves"),
            ),
            Planned::OptIn => (
                EventText {
                    action: "OptIn",
                    reason: "OmeTopOptIn",
                    note: note("opted back in to Alfred's moves", actor, None),
                },
                format!("{object} opted back in to Alfred's moves"),
            ),
        }
    }
}

/// `Some(Conflict)` when the object read now is not the one the operator saw.
fn stale(object: &str, w: &Write<'_>, current: &DynamicObject) -> Option<OpOutcome> {
    let uid = current.metadata.uid.clone().unwrap_or_default();
    let rv = current
        .metadata
        .resource_version
        .clone()
        .unwrap_or_default();
    if uid != w.uid {
        return Some(conflict(
            object,
            w.seen_rv,
            &CurrentState::Recreated { uid },
        ));
    }
    (rv != w.seen_rv).then(|| conflict(object, w.seen_rv, &CurrentState::At(rv)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn approve(uuid: &str, value: &str) -> Op {
        Op::ApproveMove {
            namespace: "prod".into(),
            name: "chat".into(),
            uid: "u".into(),
            resource_version: "1".into(),
            uuid: uuid.into(),
            value: value.into(),
            overrode: None,
        }
    }

    const VALUE: &str = r#"{"schemaVersion":"v1","component":"engine","instance":0,"from_node":"gpu-a","reason":"Fragmentation","requested_at":"2026-11-30T04:00:00Z","requested_by":"ome-top"}"#;
    const UUID: &str = "3f1c2d4e-9a7b-4c1d-8e2f-0123456789ab";

    #[test]
    fn requests_are_validated_before_sending() {
        assert!(matches!(
            plan(&approve(UUID, VALUE)),
            Ok(Planned::Request { .. })
        ));
        assert!(plan(&approve(&UUID.to_uppercase(), VALUE))
            .unwrap_err()
            .to_string()
            .contains("uuid"));
        assert!(plan(&approve(UUID, "{not json"))
            .unwrap_err()
            .to_string()
            .contains("value"));
        let opt_out = |reason: &str| Op::OptOut {
            namespace: "prod".into(),
            name: "chat".into(),
            uid: "u".into(),
            resource_version: "1".into(),
            reason: reason.into(),
        };
        assert!(plan(&opt_out("  ")).is_err());
        let Ok(p) = plan(&opt_out("batch")) else {
            panic!()
        };
        let body = serde_json::to_value(p.body("u", "1", true, &[])).unwrap();
        assert_eq!(
            body[2]["path"],
            "/metadata/annotations/alfred.ome.io~1movable"
        );
    }

    #[test]
    fn request_body_tests_uid_and_rv() {
        let Ok(p) = plan(&approve(UUID, VALUE)) else {
            panic!()
        };
        let body = serde_json::to_value(p.body("u-9", "77", false, &[])).unwrap();
        assert_eq!(body[0]["value"], "u-9");
        assert_eq!(body[1]["value"], "77");
        assert_eq!(body[2]["path"], "/metadata/annotations");
        assert_eq!(body[3]["value"], VALUE);
    }
}
