//! Go-style member matching and the primitive readers of the strict journal reader
//! (alfred.md §2.1): names fold case-insensitively, folded duplicates and unknown names are
//! rejected; required/optional strings, times, `instance` and node lists. Entry-level rules are
//! in `entry`.
//!
//! Pure.

use crate::engine::formats::strict_json::StrictValue;
use crate::engine::formats::strict_json::{fold_key, parse_rfc3339};
use crate::engine::journal::error::{brief, invalid, wrong, JournalError};
use chrono::{DateTime, Utc};

/// Matches the members of the object at `path` to `allowed` the way Go's decoder with
/// `DisallowUnknownFields` does, plus Alfred's duplicate check: returns each allowed field's
/// value (or `None`) in `allowed` order. Errors: not an object, a name matching an earlier one
/// after folding, or a name matching no field.
pub(super) fn fields<'a, const N: usize>(
    path: &str,
    value: &'a StrictValue,
    allowed: &[&'static str; N],
) -> Result<[Option<&'a StrictValue>; N], JournalError> {
    let StrictValue::Object(members) = value else {
        return Err(wrong(path, "an object", value));
    };
    let folded_allowed = allowed.map(fold_key);
    let mut out: [Option<&StrictValue>; N] = [None; N];
    let mut seen: Vec<(String, &str)> = Vec::new();
    for (key, v) in members {
        let folded = fold_key(key);
        if let Some((_, first)) = seen.iter().find(|(f, _)| *f == folded) {
            let (path, key, first) = (path.to_owned(), key.clone(), (*first).to_owned());
            return Err(JournalError::DuplicateMember { path, key, first });
        }
        let slot = folded_allowed
            .iter()
            .position(|a| *a == folded)
            .and_then(|i| out.get_mut(i));
        match slot {
            Some(slot) => *slot = Some(v),
            None => {
                let (path, key) = (path.to_owned(), key.clone());
                return Err(JournalError::UnknownField { path, key });
            }
        }
        seen.push((folded, key));
    }
    Ok(out)
}

/// A required, non-empty string.
pub(super) fn req_str<'a>(path: &str, v: Option<&'a StrictValue>) -> Result<&'a str, JournalError> {
    match v {
        None => Err(JournalError::Missing {
            path: path.to_owned(),
        }),
        Some(StrictValue::String(s)) if s.is_empty() => {
            Err(invalid(path, "must not be empty".into()))
        }
        Some(StrictValue::String(s)) => Ok(s),
        Some(other) => Err(wrong(path, "a string", other)),
    }
}

/// An optional string: absent or `null` ⇒ `None` (Go leaves the field unset).
pub(super) fn opt_str<'a>(
    path: &str,
    v: Option<&'a StrictValue>,
) -> Result<Option<&'a str>, JournalError> {
    match v {
        None | Some(StrictValue::Null) => Ok(None),
        Some(StrictValue::String(s)) => Ok(Some(s)),
        Some(other) => Err(wrong(path, "a string", other)),
    }
}

/// A required RFC 3339 time; `null` is rejected (Go would keep the zero time, which is never
/// a valid `createdAt`).
pub(super) fn req_time(path: &str, v: Option<&StrictValue>) -> Result<DateTime<Utc>, JournalError> {
    match v {
        None => Err(JournalError::Missing {
            path: path.to_owned(),
        }),
        Some(StrictValue::String(s)) => parse_rfc3339(s)
            .ok_or_else(|| invalid(path, format!("\"{s}\" is not an RFC 3339 time"))),
        Some(other) => Err(wrong(path, "an RFC 3339 time string", other)),
    }
}

/// An optional RFC 3339 time: absent or `null` ⇒ `None`.
pub(super) fn opt_time(
    path: &str,
    v: Option<&StrictValue>,
) -> Result<Option<DateTime<Utc>>, JournalError> {
    match v {
        None | Some(StrictValue::Null) => Ok(None),
        Some(StrictValue::String(s)) => parse_rfc3339(s)
            .map(Some)
            .ok_or_else(|| invalid(path, format!("\"{s}\" is not an RFC 3339 time"))),
        Some(other) => Err(wrong(path, "an RFC 3339 time string", other)),
    }
}

/// `instance`: present, an integer literal (Go rejects `1.0`/`1e0` for an int32), 0..=i32::MAX.
pub(super) fn instance_from(path: &str, v: Option<&StrictValue>) -> Result<i32, JournalError> {
    const EXPECTED: &str = "an integer ≥ 0";
    let raw = match v {
        None => {
            return Err(JournalError::Missing {
                path: path.to_owned(),
            })
        }
        Some(StrictValue::Number(raw)) => raw,
        Some(other) => return Err(wrong(path, EXPECTED, other)),
    };
    let digits = raw.strip_prefix('-').unwrap_or(raw);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid(
            path,
            format!("must be {EXPECTED}, found {}", brief_raw(raw)),
        ));
    }
    match raw.parse::<i64>().ok().map(i32::try_from) {
        Some(Ok(n)) if n >= 0 => Ok(n),
        Some(Ok(_)) => Err(invalid(
            path,
            format!("must be {EXPECTED}, found {}", brief_raw(raw)),
        )),
        _ => Err(invalid(
            path,
            format!("{} is outside the int32 range", brief_raw(raw)),
        )),
    }
}

fn brief_raw(raw: &str) -> String {
    brief(&StrictValue::Number(raw.to_owned()))
}

/// Optional list of node names: absent or `null` ⇒ empty; each element must be a string.
pub(super) fn targets_from(
    path: &str,
    v: Option<&StrictValue>,
) -> Result<Vec<String>, JournalError> {
    match v {
        None | Some(StrictValue::Null) => Ok(Vec::new()),
        Some(StrictValue::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                StrictValue::String(s) => Ok(s.clone()),
                other => Err(wrong(&format!("{path}[{i}]"), "a string", other)),
            })
            .collect(),
        Some(other) => Err(wrong(path, "an array of strings", other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::journal::fixtures::{self as fx, err_of, with, without};
    use crate::engine::journal::{parse_journal, Phase};
    use serde_json::{json, Value};

    #[test]
    fn unknown_fields_rejected_at_every_level() {
        let e = err_of(with("prepared", "priority", json!(1)));
        assert_eq!(e, "entries[0]: unknown field \"priority\"");
        let e = err_of(with(
            "prepared",
            "workload",
            json!({"Namespace": "a", "Name": "b", "Kind": "x"}),
        ));
        assert_eq!(e, "entries[0].workload: unknown field \"Kind\"");
    }

    #[test]
    fn duplicate_members_rejected_case_insensitively() {
        let doc = fx::journal(vec![fx::entry(0, "stalled")]).replacen(
            r#""phase":"stalled""#,
            r#""phase":"stalled","Phase":"stalled""#,
            1,
        );
        let e = parse_journal(doc.as_bytes()).unwrap_err();
        let want = "entries[0]: duplicate member \"Phase\" (same field as \"phase\"; names match \
                    case-insensitively)";
        assert_eq!(e.to_string(), want);
        let doc = fx::journal(vec![fx::entry(0, "stalled")]).replacen(
            r#""uuid":"#,
            r#""uuid":"x","uuid":"#,
            1,
        );
        assert!(matches!(
            parse_journal(doc.as_bytes()),
            Err(JournalError::DuplicateMember { key, .. }) if key == "uuid"
        ));
        let doc = fx::journal(vec![fx::entry(0, "stalled")]).replacen(
            r#""Name":"chat""#,
            r#""Name":"chat","name":"chat""#,
            1,
        );
        assert!(parse_journal(doc.as_bytes())
            .unwrap_err()
            .to_string()
            .contains("workload"));
    }

    #[test]
    fn names_match_fields_case_insensitively_like_go() {
        let doc = fx::journal(vec![fx::entry(0, "stalled")])
            .replacen(r#""uuid":"#, r#""UUID":"#, 1)
            .replacen(r#""Namespace":"#, r#""namespace":"#, 1)
            .replacen(r#""phase":"#, "\"PHA\u{17F}E\":", 1);
        let j = parse_journal(doc.as_bytes()).unwrap();
        assert_eq!(j.entries[0].uuid, fx::uuid(0));
        assert_eq!(j.entries[0].workload.namespace, "prod");
        assert_eq!(j.entries[0].phase, Phase::Stalled);
    }

    #[test]
    fn instance_present_int32_non_negative() {
        let e = err_of(with("prepared", "instance", Value::Null));
        assert_eq!(e, "entries[0].instance: must be an integer ≥ 0, found null");
        assert_eq!(
            err_of(without("prepared", "instance")),
            "entries[0].instance: required but missing"
        );
        let cases = [
            (json!(-1), "found -1"),
            (json!(1.0), "found 1.0"),
            (json!("3"), "found a string"),
        ];
        for (v, tail) in cases {
            assert!(err_of(with("prepared", "instance", v)).ends_with(tail));
        }
        let e = err_of(with("prepared", "instance", json!(2_147_483_648_i64)));
        assert_eq!(
            e,
            "entries[0].instance: 2147483648 is outside the int32 range"
        );
        let ok = fx::journal(vec![with("prepared", "instance", json!(i32::MAX))]);
        assert_eq!(
            parse_journal(ok.as_bytes()).unwrap().entries[0].instance,
            i32::MAX
        );
        let neg_zero = fx::journal(vec![fx::entry(0, "prepared")]).replacen(
            r#""instance":0"#,
            r#""instance":-0"#,
            1,
        );
        assert_eq!(
            parse_journal(neg_zero.as_bytes()).unwrap().entries[0].instance,
            0
        );
    }

    #[test]
    fn optional_members_accept_null_or_absence() {
        let mut e = fx::entry(0, "prepared");
        for field in ["targets", "lastAttempt", "acknowledgedAt", "reason"] {
            e[field] = Value::Null;
        }
        let j = parse_journal(fx::journal(vec![e]).as_bytes()).unwrap();
        let entry = &j.entries[0];
        assert!(entry.targets.is_empty() && entry.last_attempt.is_none());
        assert!(entry.acknowledged_at.is_none() && entry.reason.is_none());
        let j = parse_journal(fx::journal(vec![with("stalled", "reason", json!(""))]).as_bytes());
        assert_eq!(j.unwrap().entries[0].reason, None);
    }
}
