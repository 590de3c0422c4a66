//! Errors of the strict journal reader: what rule failed and where (`entries[2].completedAt`),
//! rendered for operators, plus the constructors the field readers share.
//!
//! Pure.

use crate::engine::formats::strict_json::{StrictError, StrictValue};
use crate::engine::journal::{JOURNAL_MAX_BYTES, JOURNAL_MAX_ENTRIES};

/// Why `state.json` is not a journal Alfred would read. `path` names the member
/// (`entries[2].completedAt`); the root is shown as `state.json`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JournalError {
    /// More than [`JOURNAL_MAX_BYTES`].
    #[error("state.json: {size} bytes exceeds the {JOURNAL_MAX_BYTES}-byte (512 KiB) limit")]
    TooLarge {
        /// Input length in bytes.
        size: usize,
    },
    /// Not one well-formed JSON document (incl. trailing data, invalid UTF-8).
    #[error("state.json: {0}")]
    Json(StrictError),
    /// Two members whose names match case-insensitively (Go field matching).
    #[error(
        "{}: duplicate member \"{key}\" (same field as \"{first}\"; names match \
         case-insensitively)",
        show(path)
    )]
    DuplicateMember {
        /// The object holding them (`""` = root).
        path: String,
        /// The later member's name as written.
        key: String,
        /// The earlier member's name as written.
        first: String,
    },
    /// A member that matches no field.
    #[error("{}: unknown field \"{key}\"", show(path))]
    UnknownField {
        /// The object holding it (`""` = root).
        path: String,
        /// Its name as written.
        key: String,
    },
    /// A required member is absent.
    #[error("{}: required but missing", show(path))]
    Missing {
        /// The member, e.g. `entries[0].instance`.
        path: String,
    },
    /// A member has the wrong JSON type.
    #[error("{}: must be {expected}, found {found}", show(path))]
    WrongType {
        /// The member.
        path: String,
        /// What was required, e.g. `an array`.
        expected: &'static str,
        /// What was found, e.g. `null`.
        found: &'static str,
    },
    /// A member has the right type but a value Alfred rejects.
    #[error("{}: {why}", show(path))]
    Invalid {
        /// The member.
        path: String,
        /// What is wrong with the value.
        why: String,
    },
    /// More than [`JOURNAL_MAX_ENTRIES`] entries.
    #[error("entries: {count} entries; at most {JOURNAL_MAX_ENTRIES} allowed")]
    TooManyEntries {
        /// How many there are.
        count: usize,
    },
    /// A UUID used twice (compared ASCII case-insensitively).
    #[error(
        "{}: uuid \"{uuid}\" is already used by entries[{first_index}]",
        show(path)
    )]
    DuplicateUuid {
        /// The later entry's `uuid` member, e.g. `entries[3].uuid`.
        path: String,
        /// The UUID as written in the later entry.
        uuid: String,
        /// Index of the entry that used it first.
        first_index: usize,
    },
}

fn show(path: &str) -> &str {
    if path.is_empty() {
        "state.json"
    } else {
        path
    }
}

/// `Invalid` at `path`.
pub(super) fn invalid(path: &str, why: String) -> JournalError {
    JournalError::Invalid {
        path: path.to_owned(),
        why,
    }
}

/// `WrongType` at `path`.
pub(super) fn wrong(path: &str, expected: &'static str, found: &StrictValue) -> JournalError {
    JournalError::WrongType {
        path: path.to_owned(),
        expected,
        found: found.kind(),
    }
}

/// A short rendering of a value for messages (strings quoted, long ones cut).
pub(super) fn brief(v: &StrictValue) -> String {
    match v {
        StrictValue::String(s) if s.chars().count() > 40 => {
            format!("\"{}…\"", s.chars().take(40).collect::<String>())
        }
        StrictValue::String(s) => format!("\"{s}\""),
        StrictValue::Number(n) if n.len() <= 24 => n.clone(),
        other => other.kind().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::journal::fixtures as fx;
    use crate::engine::journal::{parse_journal, INITIAL_STATE_JSON};
    use serde_json::json;

    fn err(doc: &str) -> JournalError {
        parse_journal(doc.as_bytes()).unwrap_err()
    }

    #[test]
    fn version_must_be_v1() {
        let e = err(r#"{"version":"v2","entries":[]}"#);
        assert_eq!(e.to_string(), r#"version: must be "v1", found "v2""#);
        assert_eq!(
            err(r#"{"entries":[]}"#),
            JournalError::Missing {
                path: "version".into()
            }
        );
        assert!(matches!(
            err(r#"{"version":null,"entries":[]}"#),
            JournalError::Invalid { .. }
        ));
    }

    #[test]
    fn entries_required_and_not_null() {
        let e = err(r#"{"version":"v1","entries":null}"#);
        assert_eq!(e.to_string(), "entries: must be an array, found null");
        assert_eq!(
            err(r#"{"version":"v1"}"#),
            JournalError::Missing {
                path: "entries".into()
            }
        );
        assert!(matches!(
            err(r#"{"version":"v1","entries":{}}"#),
            JournalError::WrongType { .. }
        ));
        let e = err(r#"{"version":"v1","entries":[null]}"#);
        assert_eq!(e.to_string(), "entries[0]: must be an object, found null");
    }

    #[test]
    fn root_shape_rules() {
        assert_eq!(
            err("[]").to_string(),
            "state.json: must be an object, found an array"
        );
        let e = err(r#"{"version":"v1","entries":[],"extra":1}"#);
        assert_eq!(
            e,
            JournalError::UnknownField {
                path: String::new(),
                key: "extra".into()
            }
        );
        let e = err(r#"{"version":"v1","Version":"v1","entries":[]}"#);
        assert!(matches!(e, JournalError::DuplicateMember { ref key, .. } if key == "Version"));
        let ok = parse_journal(br#"{"VERSION":"v1","Entries":[],"backoffuntil":null}"#).unwrap();
        assert_eq!(ok.backoff_until, None);
        let e = err(r#"{"version":"v1","entries":[],"backoffUntil":"soon"}"#);
        assert!(e
            .to_string()
            .starts_with("backoffUntil: \"soon\" is not an RFC 3339 time"));
    }

    #[test]
    fn trailing_json_rejected() {
        let e = err(r#"{"version":"v1","entries":[]}{}"#);
        assert_eq!(e, JournalError::Json(StrictError::Trailing { offset: 29 }));
        assert!(parse_journal(b" {\"version\":\"v1\",\"entries\":[]}\n").is_ok());
        assert!(matches!(
            err(r#"{"version":"v1","entries":[]"#),
            JournalError::Json(_)
        ));
    }

    #[test]
    fn size_limit_is_512_kib() {
        let pad = |n: usize| format!("{}{}", INITIAL_STATE_JSON, " ".repeat(n));
        let exact = pad(JOURNAL_MAX_BYTES - INITIAL_STATE_JSON.len());
        assert!(parse_journal(exact.as_bytes()).is_ok());
        let over = pad(JOURNAL_MAX_BYTES + 1 - INITIAL_STATE_JSON.len());
        assert_eq!(
            err(&over),
            JournalError::TooLarge {
                size: JOURNAL_MAX_BYTES + 1
            }
        );
    }

    #[test]
    fn at_most_256_entries() {
        let many = |n: usize| fx::journal((0..n).map(|i| fx::entry(i, "completed")).collect());
        assert_eq!(
            parse_journal(many(256).as_bytes()).unwrap().entries.len(),
            256
        );
        assert_eq!(err(&many(257)), JournalError::TooManyEntries { count: 257 });
    }

    #[test]
    fn uuids_unique_case_insensitively() {
        let mut second = fx::entry(1, "completed");
        second["uuid"] = json!(fx::uuid(0));
        let e = err(&fx::journal(vec![
            fx::entry(0, "completed"),
            second.clone(),
        ]));
        assert_eq!(
            e.to_string(),
            format!(
                "entries[1].uuid: uuid \"{}\" is already used by entries[0]",
                fx::uuid(0)
            )
        );
        let mut upper = fx::entry(0, "completed");
        upper["uuid"] = json!("00000000-0000-4000-8000-00000000000A");
        let lower = fx::entry(10, "completed");
        assert!(matches!(
            err(&fx::journal(vec![lower, upper])),
            JournalError::DuplicateUuid { .. }
        ));
    }

    #[test]
    fn unavailable_errors_display_names_place() {
        let mut e = fx::entry(2, "submitted");
        e["completedAt"] = json!("2026-09-28T10:25:00Z");
        let doc = fx::journal(vec![fx::entry(0, "completed"), fx::entry(1, "failed"), e]);
        assert_eq!(
            err(&doc).to_string(),
            "entries[2].completedAt: must not be set while phase is \"submitted\""
        );
    }
}
