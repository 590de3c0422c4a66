//! Why a value of Alfred's recommendations ConfigMap (`last-cycle.json`, a node record) was
//! not read at all: it is not JSON, or not a JSON object. Field and row problems are warnings,
//! not errors.

/// A ConfigMap value that is not a JSON object, naming its key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// The text does not parse.
    #[error("{key}: not valid JSON: {message}")]
    NotJson {
        /// The ConfigMap key.
        key: String,
        /// serde_json's words with the line and column (its error is neither `Clone` nor
        /// `Eq`, and the recommendations that keep this one are both).
        message: String,
    },
    /// Valid JSON of another kind.
    #[error("{key}: JSON is {kind}, not an object")]
    NotObject {
        /// The ConfigMap key.
        key: String,
        /// What it is instead (`an array`, `a string`…).
        kind: &'static str,
    },
}

impl ValueError {
    /// `e`, for the value of `key`.
    pub(crate) fn not_json(key: &str, e: &serde_json::Error) -> ValueError {
        ValueError::NotJson {
            key: key.to_string(),
            message: e.to_string(),
        }
    }
}
