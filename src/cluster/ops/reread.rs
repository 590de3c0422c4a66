//! After a failed write, the one re-read every op shares: a conflict (or the object gone)
//! reads the object back once, so the operator is told what the server holds now (its
//! resourceVersion, a new uid when it was deleted and created again, or that it is gone);
//! any other failure is worded as it is, with no read.
//!
//! Owns: `Written`, `after_failure`.

use kube::api::Api;
use kube::ResourceExt;

use super::outcome::{conflict, failure, ApiFailure, CurrentState};
use crate::cluster::live::cause::kube_words;
use crate::protocol::OpOutcome;

/// The object a write was aimed at, as the operator saw it.
pub struct Written<'a> {
    /// The object in the operator's words (`node gpu-1`).
    pub object: &'a str,
    /// Its name in the API.
    pub name: &'a str,
    /// The uid the operator saw; `None` when a re-created object is no different to them.
    pub uid: Option<&'a str>,
    /// The resourceVersion the operator saw.
    pub seen_rv: &'a str,
    /// The permission a refusal names (`patch nodes`).
    pub permission: &'a str,
}

/// A failed write: a conflict or a missing object re-reads it once to say what it looks like
/// now; anything else is reported as it failed.
pub async fn after_failure<K>(api: &Api<K>, w: &Written<'_>, why: ApiFailure) -> OpOutcome
where
    K: kube::Resource + Clone + serde::de::DeserializeOwned + std::fmt::Debug,
{
    if !matches!(why, ApiFailure::Conflict(_) | ApiFailure::NotFound(_)) {
        return failure(w.object, w.permission, why);
    }
    let now = match api.get_opt(w.name).await {
        Ok(Some(o)) if w.uid.is_some_and(|uid| o.uid().as_deref() != Some(uid)) => {
            CurrentState::Recreated {
                uid: o.uid().unwrap_or_default(),
            }
        }
        Ok(Some(o)) => CurrentState::At(o.resource_version().unwrap_or_default()),
        Ok(None) => CurrentState::Gone,
        Err(e) => CurrentState::Unknown(kube_words(&e)),
    };
    conflict(w.object, w.seen_rv, &now)
}
