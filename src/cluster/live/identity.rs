//! Who the operator is to the API server: one SelfSubjectReview (authentication.k8s.io/v1) at
//! start, so audit rows and Events name the Kubernetes user (product.md §6 "audit: who from
//! SelfSubjectReview") rather than the tool.
//!
//! Owns: `whoami`, `actor_name`.

use k8s_openapi::api::authentication::v1::SelfSubjectReview;
use kube::api::{Api, PostParams};
use kube::Client;

/// The user name the API server authenticates this client as, or `None` when the review is
/// refused or unsupported (the caller then names the context instead).
pub async fn whoami(client: &Client) -> Option<String> {
    let api: Api<SelfSubjectReview> = Api::all(client.clone());
    let review = api
        .create(&PostParams::default(), &SelfSubjectReview::default())
        .await
        .ok()?;
    actor_name(&review)
}

/// The user name in a SelfSubjectReview's status (`None` when absent or empty).
pub fn actor_name(review: &SelfSubjectReview) -> Option<String> {
    review
        .status
        .as_ref()?
        .user_info
        .as_ref()?
        .username
        .clone()
        .filter(|u| !u.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::authentication::v1::{SelfSubjectReviewStatus, UserInfo};

    #[test]
    fn the_actor_is_the_reviewed_user_name() {
        let review = |name: Option<&str>| SelfSubjectReview {
            status: Some(SelfSubjectReviewStatus {
                user_info: Some(UserInfo {
                    username: name.map(str::to_string),
                    ..UserInfo::default()
                }),
            }),
            ..SelfSubjectReview::default()
        };
        assert_eq!(actor_name(&review(Some("alice"))).as_deref(), Some("alice"));
        assert_eq!(actor_name(&review(Some(""))), None);
        assert_eq!(actor_name(&review(None)), None);
        assert_eq!(actor_name(&SelfSubjectReview::default()), None);
    }
}
