//! The RBAC probe: one SelfSubjectAccessReview per `protocol::Capability`, turned into
//! `protocol::Permissions` whose refusals name the missing permission.
//!
//! Owns: `review_for`, `permission_from`, `probe`.

use k8s_openapi::api::authorization::v1::{
    ResourceAttributes, SelfSubjectAccessReview, SelfSubjectAccessReviewSpec,
    SubjectAccessReviewStatus,
};
use kube::api::{Api, PostParams};
use kube::Client;

use crate::protocol::{Capability, Permission, Permissions};

/// The review asking whether the current identity may use `cap`. ConfigMap updates are
/// asked in Alfred's namespace (the journal lives there); InferenceService patches in the
/// workload namespace when scoped; the rest cluster-wide.
pub fn review_for(
    cap: Capability,
    alfred_namespace: &str,
    namespace: Option<&str>,
) -> SelfSubjectAccessReview {
    let (verb, group, resource, ns) = match cap {
        Capability::CordonNode => ("patch", "", "nodes", None),
        Capability::ApproveMove | Capability::OptOut => {
            ("patch", "ome.io", "inferenceservices", namespace)
        }
        Capability::ClearJournalEntry => ("update", "", "configmaps", Some(alfred_namespace)),
        // The ops worker records `events.k8s.io/v1` Events; probe that group.
        Capability::RecordEvent => ("create", "events.k8s.io", "events", namespace),
    };
    SelfSubjectAccessReview {
        spec: SelfSubjectAccessReviewSpec {
            resource_attributes: Some(ResourceAttributes {
                verb: Some(verb.to_string()),
                group: Some(group.to_string()),
                resource: Some(resource.to_string()),
                namespace: ns.map(str::to_string),
                ..ResourceAttributes::default()
            }),
            ..SelfSubjectAccessReviewSpec::default()
        },
        ..SelfSubjectAccessReview::default()
    }
}

/// The permission a review's status grants for `cap`.
pub fn permission_from(cap: Capability, status: Option<&SubjectAccessReviewStatus>) -> Permission {
    match status {
        Some(s) if s.allowed && !s.denied.unwrap_or(false) => Permission::Allowed,
        Some(s) => {
            let why = s
                .reason
                .as_deref()
                .filter(|r| !r.is_empty())
                .map(|r| format!(" ({r})"))
                .unwrap_or_default();
            Permission::Denied(format!("forbidden: needs `{}`{why}", cap.permission()))
        }
        None => Permission::Unknown,
    }
}

/// Asks the API server about every capability. A review that cannot be sent leaves its
/// capability `Unknown` (actions stay disabled with "not yet known").
pub async fn probe(
    client: &Client,
    alfred_namespace: &str,
    namespace: Option<&str>,
) -> Permissions {
    let api: Api<SelfSubjectAccessReview> = Api::all(client.clone());
    let mut entries = Vec::with_capacity(Capability::ALL.len());
    for cap in Capability::ALL {
        let review = review_for(cap, alfred_namespace, namespace);
        let permission = match api.create(&PostParams::default(), &review).await {
            Ok(answer) => permission_from(cap, answer.status.as_ref()),
            Err(_) => Permission::Unknown,
        };
        entries.push((cap, permission));
    }
    Permissions {
        entries,
        read_only: None,
    }
}

/// Permissions before the probe answered: every capability `Unknown`.
pub fn pending() -> Permissions {
    Permissions {
        entries: Capability::ALL
            .iter()
            .map(|c| (*c, Permission::Unknown))
            .collect(),
        read_only: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reviews_ask_for_the_permission_each_capability_names() {
        for cap in Capability::ALL {
            let r = review_for(cap, "ome", Some("team-a"));
            let a = r.spec.resource_attributes.unwrap();
            let group = a.group.unwrap();
            let resource = a.resource.unwrap();
            let qualified = if group.is_empty() {
                resource.clone()
            } else {
                format!("{resource}.{group}")
            };
            assert_eq!(format!("{} {qualified}", a.verb.unwrap()), cap.permission());
            if cap == Capability::ClearJournalEntry {
                assert_eq!(a.namespace.as_deref(), Some("ome"));
            }
        }
    }

    #[test]
    fn a_refusal_names_the_missing_permission() {
        let status = SubjectAccessReviewStatus {
            allowed: false,
            reason: Some(String::new()),
            ..SubjectAccessReviewStatus::default()
        };
        assert_eq!(
            permission_from(Capability::CordonNode, Some(&status)),
            Permission::Denied("forbidden: needs `patch nodes`".to_string())
        );
        let allowed = SubjectAccessReviewStatus {
            allowed: true,
            ..SubjectAccessReviewStatus::default()
        };
        assert_eq!(
            permission_from(Capability::RecordEvent, Some(&allowed)),
            Permission::Allowed
        );
        assert_eq!(
            permission_from(Capability::OptOut, None),
            Permission::Unknown
        );
    }
}
