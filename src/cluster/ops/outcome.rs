//! How the API server's answers become an [`OpOutcome`]: which errors mean "changed since you
//! looked" (409, a failed JSON Patch `test` answered with 422), which mean "you may not" (403,
//! naming the missing permission), and the one-line messages the notice bar shows.
//!
//! Owns: `ApiFailure`, `classify`, the message builders. Pure apart from reading `kube::Error`.

use crate::cluster::live::cause::{has_message, kube_words, status_words};
use crate::protocol::OpOutcome;

/// What went wrong with one request, as far as the op cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiFailure {
    /// 409, or a JSON Patch `test` that failed (422): the object is not what was tested.
    Conflict(String),
    /// 401/403: the identity may not do this.
    Forbidden(String),
    /// 404: the object (or its resource) does not exist.
    NotFound(String),
    /// 422 from validation (not a failed `test`): the server refused the content.
    Invalid(String),
    /// Anything else: network, timeouts, 5xx, 429, undecodable answers.
    Other(String),
}

/// Text fragments of a failed JSON Patch `test`. The API server answers an unapplicable JSON
/// Patch with 422 and the patch library's error, e.g. `testing value /metadata/uid failed: test
/// failed`, or `test operation does not apply: is missing path` when the tested member is gone;
/// a validation failure is also 422 but names fields instead.
const TEST_FAILURE_MARKERS: [&str; 3] = [
    "test failed",
    "testing value",
    "test operation does not apply",
];

/// Sorts a kube error into an [`ApiFailure`]; the text is the server's message (one line).
pub fn classify(err: &kube::Error) -> ApiFailure {
    let kube::Error::Api(status) = err else {
        return ApiFailure::Other(kube_words(err));
    };
    // The server's message, or (an answer that is not a Status) its HTTP status and body.
    let mut text = match has_message(status) {
        true => status.message.clone(),
        false => status_words(status),
    };
    if let Some(details) = &status.details {
        for cause in &details.causes {
            if !cause.message.is_empty() && !text.contains(&cause.message) {
                text.push_str("; ");
                text.push_str(&cause.message);
            }
        }
    }
    let text = one_line(&text);
    // A JSON Patch that cannot be applied (our `test`s come first, so in practice a failed
    // `test`) is answered 422 with the generic "rejected our request" message and no field
    // causes (seen on kube-apiserver 1.36); validation failures name fields.
    let names_fields = status
        .details
        .as_ref()
        .is_some_and(|d| d.causes.iter().any(|c| !c.field.is_empty()));
    match status.code {
        409 => ApiFailure::Conflict(text),
        422 if is_test_failure(&text) || !names_fields => ApiFailure::Conflict(text),
        422 => ApiFailure::Invalid(text),
        401 | 403 => ApiFailure::Forbidden(text),
        404 => ApiFailure::NotFound(text),
        _ if text.starts_with("HTTP ") => ApiFailure::Other(text),
        code => ApiFailure::Other(format!("HTTP {code}: {text}")),
    }
}

/// True when a 422 text comes from a failed JSON Patch `test` operation.
pub fn is_test_failure(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    TEST_FAILURE_MARKERS.iter().any(|m| lower.contains(m))
}

/// What the server holds now, read back after a conflict to tell the operator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CurrentState {
    /// The object exists at this resourceVersion.
    At(String),
    /// The object exists with another uid: it was deleted and created again.
    Recreated {
        /// The new uid.
        uid: String,
    },
    /// The object is gone.
    Gone,
    /// Reading it back failed too; the text says why.
    Unknown(String),
}

/// `Conflict` with "changed since you looked: <object> …" and what the server holds now.
pub fn conflict(object: &str, seen_rv: &str, now: &CurrentState) -> OpOutcome {
    let tail = match now {
        CurrentState::At(rv) if rv == seen_rv => {
            format!("is at resourceVersion {rv} now (the one you saw, but another field differs)")
        }
        CurrentState::At(rv) => format!("is at resourceVersion {rv} now (you saw {seen_rv})"),
        CurrentState::Recreated { uid } => {
            format!("was deleted and created again (uid {uid} now); nothing written")
        }
        CurrentState::Gone => "no longer exists; nothing written".to_string(),
        CurrentState::Unknown(why) => {
            format!(
                "no longer matches what you saw (resourceVersion {seen_rv}); re-read failed: {why}"
            )
        }
    };
    OpOutcome::Conflict {
        message: format!("changed since you looked: {object} {tail}"),
    }
}

/// `Conflict` with a reason given in words (e.g. "is already cordoned").
pub fn conflict_because(object: &str, why: &str) -> OpOutcome {
    OpOutcome::Conflict {
        message: format!("changed since you looked: {object} {why}"),
    }
}

/// The outcome of a failed request: `permission` is the `verb resource` the request needed,
/// named when the server answers 401/403. Conflicts are handled by the caller (they need a
/// re-read), so a conflict reaching here is reported without the current resourceVersion.
pub fn failure(object: &str, permission: &str, failure: ApiFailure) -> OpOutcome {
    match failure {
        ApiFailure::Forbidden(text) => OpOutcome::Refused {
            message: format!(
                "forbidden: this identity lacks \"{permission}\" for {object} ({text})"
            ),
        },
        ApiFailure::Conflict(text) => OpOutcome::Conflict {
            message: format!("changed since you looked: {object} ({text})"),
        },
        ApiFailure::NotFound(text) => OpOutcome::Conflict {
            message: format!("changed since you looked: {object} no longer exists ({text})"),
        },
        ApiFailure::Invalid(text) => OpOutcome::Failed {
            message: format!("the API server refused the change to {object}: {text}"),
        },
        ApiFailure::Other(text) => OpOutcome::Failed {
            message: format!("{permission} on {object} failed: {text}"),
        },
    }
}

/// Collapses whitespace runs (including newlines) so a message fits one notice line.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use kube::core::Status;

    fn api(code: u16, message: &str, cause: Option<&str>) -> kube::Error {
        let mut status = serde_json::json!({"code": code, "message": message});
        if let Some(c) = cause {
            status["details"] = serde_json::json!({"causes": [{"message": c}]});
        }
        let status: Status = serde_json::from_value(status).unwrap();
        kube::Error::Api(Box::new(status))
    }

    #[test]
    fn status_codes_map_to_failures() {
        let e = api(409, "Operation cannot be fulfilled", None);
        assert!(matches!(classify(&e), ApiFailure::Conflict(_)));
        let e = api(
            422,
            "the server rejected our request due to an error in our request",
            Some("testing value /metadata/resourceVersion failed: test failed"),
        );
        assert!(matches!(classify(&e), ApiFailure::Conflict(t) if t.contains("resourceVersion")));
        let e = api(
            422,
            "the server rejected our request due to an error in our request",
            None,
        );
        assert!(matches!(classify(&e), ApiFailure::Conflict(_)));
        let invalid: Status = serde_json::from_value(serde_json::json!({"code": 422,
            "message": "ConfigMap \"x\" is invalid: data: Invalid value",
            "details": {"causes": [{"field": "data", "message": "Invalid value"}]}}))
        .unwrap();
        let e = kube::Error::Api(Box::new(invalid));
        assert!(matches!(classify(&e), ApiFailure::Invalid(_)));
        let e = api(
            403,
            "nodes \"n\" is forbidden: User \"v\" cannot patch",
            None,
        );
        assert!(matches!(classify(&e), ApiFailure::Forbidden(_)));
        let e = api(404, "not found", None);
        assert!(matches!(classify(&e), ApiFailure::NotFound(_)));
        let e = api(500, "etcd\nleader\tchanged", None);
        assert_eq!(
            classify(&e),
            ApiFailure::Other("HTTP 500: etcd leader changed".into())
        );
    }

    #[test]
    fn forbidden_names_the_permission() {
        let out = failure(
            "node/gpu-1",
            "patch nodes",
            ApiFailure::Forbidden("cannot patch".into()),
        );
        let OpOutcome::Refused { message } = out else {
            panic!("{out:?}")
        };
        assert!(message.contains("\"patch nodes\"") && message.contains("node/gpu-1"));
    }

    #[test]
    fn conflict_messages_say_what_changed() {
        let out = conflict("node/a", "10", &CurrentState::At("12".into()));
        assert_eq!(
            out,
            OpOutcome::Conflict {
                message:
                    "changed since you looked: node/a is at resourceVersion 12 now (you saw 10)"
                        .into()
            }
        );
        let OpOutcome::Conflict { message } = conflict("x", "1", &CurrentState::Gone) else {
            panic!()
        };
        assert!(message.starts_with("changed since you looked: x no longer exists"));
        let recreated = CurrentState::Recreated { uid: "u2".into() };
        let OpOutcome::Conflict { message } = conflict("x", "1", &recreated) else {
            panic!()
        };
        assert!(message.contains("created again (uid u2"));
    }
}
