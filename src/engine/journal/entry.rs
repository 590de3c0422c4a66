//! Entry-level rules of the strict journal reader (alfred.md §2.1): the 17 entry members and the
//! 2 workload members, value domains (UUID syntax, component, phase, payload size) and timestamp
//! order with `completedAt` iff terminal.
//!
//! Pure.

use crate::engine::formats::strict_json::is_uuid_syntax;
use crate::engine::formats::strict_json::StrictValue;
use crate::engine::journal::error::{invalid, JournalError};
use crate::engine::journal::fields::{
    fields, instance_from, opt_str, opt_time, req_str, req_time, targets_from,
};
use crate::engine::journal::{JournalEntry, Phase, Workload, PAYLOAD_MAX_BYTES};
use crate::engine::migration::format_rfc3339_nano;
use crate::engine::migration::Component;
use chrono::{DateTime, Utc};

/// Entry members, in canonical spelling (`entry_from_value` looks them up by these names).
const ENTRY_FIELDS: [&str; 17] = [
    "uuid",
    "workload",
    "workloadUID",
    "irName",
    "irUID",
    "component",
    "instance",
    "fromNode",
    "targets",
    "payload",
    "sourceFingerprint",
    "createdAt",
    "lastAttempt",
    "acknowledgedAt",
    "completedAt",
    "phase",
    "reason",
];

/// Go's `types.NamespacedName` has no JSON tags, so its wire names are the Go field names.
const WORKLOAD_FIELDS: [&str; 2] = ["Namespace", "Name"];

/// Builds and validates one entry at `path` (e.g. `entries[2]`).
pub(super) fn entry_from_value(path: &str, v: &StrictValue) -> Result<JournalEntry, JournalError> {
    let values = fields(path, v, &ENTRY_FIELDS)?;
    let member = |name: &str| {
        let i = ENTRY_FIELDS.iter().position(|f| *f == name);
        i.and_then(|i| values.get(i).copied().flatten())
    };
    let at = |name: &str| format!("{path}.{name}");
    let text = |name: &str| req_str(&at(name), member(name)).map(str::to_owned);
    let uuid = text("uuid")?;
    if !is_uuid_syntax(&uuid) {
        return Err(invalid(
            &at("uuid"),
            format!("\"{uuid}\" is not an RFC 4122 UUID"),
        ));
    }
    let payload = text("payload")?;
    if payload.len() > PAYLOAD_MAX_BYTES {
        let why = format!("{} bytes exceeds {PAYLOAD_MAX_BYTES}", payload.len());
        return Err(invalid(&at("payload"), why));
    }
    let entry = JournalEntry {
        uuid,
        workload: workload_from(&at("workload"), member("workload"))?,
        workload_uid: text("workloadUID")?,
        ir_name: text("irName")?,
        ir_uid: text("irUID")?,
        component: component_from(&at("component"), member("component"))?,
        instance: instance_from(&at("instance"), member("instance"))?,
        from_node: text("fromNode")?,
        targets: targets_from(&at("targets"), member("targets"))?,
        payload,
        source_fingerprint: text("sourceFingerprint")?,
        created_at: req_time(&at("createdAt"), member("createdAt"))?,
        last_attempt: opt_time(&at("lastAttempt"), member("lastAttempt"))?,
        acknowledged_at: opt_time(&at("acknowledgedAt"), member("acknowledgedAt"))?,
        completed_at: opt_time(&at("completedAt"), member("completedAt"))?,
        phase: phase_from(&at("phase"), member("phase"))?,
        reason: opt_str(&at("reason"), member("reason"))?
            .filter(|r| !r.is_empty())
            .map(str::to_owned),
    };
    check_times(path, &entry)?;
    Ok(entry)
}

/// Timestamp order and the `completedAt`-iff-terminal rule (§2.1).
fn check_times(path: &str, e: &JournalEntry) -> Result<(), JournalError> {
    let before_created = |field: &str, t: Option<DateTime<Utc>>| match t {
        Some(t) if t < e.created_at => Err(invalid(
            &format!("{path}.{field}"),
            format!(
                "{} is before createdAt {}",
                show_time(t),
                show_time(e.created_at)
            ),
        )),
        _ => Ok(()),
    };
    before_created("lastAttempt", e.last_attempt)?;
    before_created("acknowledgedAt", e.acknowledged_at)?;
    let at = format!("{path}.completedAt");
    match (e.phase.is_terminal(), e.completed_at) {
        (true, None) => Err(invalid(
            &at,
            format!("required while phase is \"{}\"", e.phase),
        )),
        (true, Some(_)) => before_created("completedAt", e.completed_at),
        (false, Some(_)) => Err(invalid(
            &at,
            format!("must not be set while phase is \"{}\"", e.phase),
        )),
        (false, None) => Ok(()),
    }
}

/// Go `RFC3339Nano` rendering, as Alfred writes times.
fn show_time(t: DateTime<Utc>) -> String {
    format_rfc3339_nano(t).unwrap_or_else(|| t.to_rfc3339())
}

fn workload_from(path: &str, v: Option<&StrictValue>) -> Result<Workload, JournalError> {
    let v = v.ok_or_else(|| JournalError::Missing {
        path: path.to_owned(),
    })?;
    let [namespace, name] = fields(path, v, &WORKLOAD_FIELDS)?;
    Ok(Workload {
        namespace: req_str(&format!("{path}.Namespace"), namespace)?.to_owned(),
        name: req_str(&format!("{path}.Name"), name)?.to_owned(),
    })
}

fn component_from(path: &str, v: Option<&StrictValue>) -> Result<Component, JournalError> {
    let s = req_str(path, v)?;
    Component::parse(s).ok_or_else(|| {
        invalid(
            path,
            format!("must be engine, decoder or router, found \"{s}\""),
        )
    })
}

fn phase_from(path: &str, v: Option<&StrictValue>) -> Result<Phase, JournalError> {
    let s = req_str(path, v)?;
    Phase::parse(s).ok_or_else(|| {
        let why = format!(
            "must be one of prepared, submitted, acknowledged, completed, failed, stalled; \
             found \"{s}\""
        );
        invalid(path, why)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::journal::fixtures::{self as fx, err_of, with, without};
    use crate::engine::journal::parse_journal;
    use proptest::prelude::*;
    use serde_json::{json, Value};

    #[test]
    fn uuid_syntax_required() {
        for bad in [
            "",
            "not-a-uuid",
            "00000000000040008000000000000001",
            "{00000000-0000-4000-8000-000000000001}",
        ] {
            let e = err_of(with("prepared", "uuid", json!(bad)));
            assert!(e.starts_with("entries[0].uuid: "), "{e}");
        }
        assert_eq!(
            err_of(with("prepared", "uuid", json!(7))),
            "entries[0].uuid: must be a string, found a number"
        );
    }

    #[test]
    fn timestamps_ordered() {
        let early = json!("2026-09-28T10:15:02Z");
        for field in ["lastAttempt", "acknowledgedAt"] {
            let e = err_of(with("submitted", field, early.clone()));
            assert!(
                e.starts_with(&format!(
                    "entries[0].{field}: 2026-09-28T10:15:02Z is before createdAt \
                     2026-09-28T10:15:02.418093721Z"
                )),
                "{e}"
            );
        }
        let e = err_of(with("completed", "completedAt", early.clone()));
        assert!(e.starts_with("entries[0].completedAt: 2026-09-28T10:15:02Z is before"));
        let same = json!("2026-09-28T12:15:02.418093721+02:00");
        let ok = fx::journal(vec![with("failed", "completedAt", same)]);
        assert!(parse_journal(ok.as_bytes()).is_ok());
        let e = err_of(with("prepared", "createdAt", json!("2026-09-28 10:15:02Z")));
        assert_eq!(
            e,
            "entries[0].createdAt: \"2026-09-28 10:15:02Z\" is not an RFC 3339 time"
        );
        assert_eq!(
            err_of(with("prepared", "createdAt", Value::Null)),
            "entries[0].createdAt: must be an RFC 3339 time string, found null"
        );
    }

    #[test]
    fn completed_at_iff_terminal() {
        for phase in ["prepared", "submitted", "acknowledged", "stalled"] {
            let e = err_of(with(phase, "completedAt", json!("2026-09-28T11:00:00Z")));
            assert_eq!(
                e,
                format!("entries[0].completedAt: must not be set while phase is \"{phase}\"")
            );
        }
        for phase in ["completed", "failed"] {
            let e = err_of(without(phase, "completedAt"));
            assert_eq!(
                e,
                format!("entries[0].completedAt: required while phase is \"{phase}\"")
            );
            assert!(err_of(with(phase, "completedAt", Value::Null)).contains("required while"));
        }
    }

    #[test]
    fn value_domains() {
        assert!(err_of(with("prepared", "phase", json!("Stalled")))
            .starts_with("entries[0].phase: must be one of"));
        assert!(err_of(with("prepared", "component", json!("Engine")))
            .starts_with("entries[0].component: must be engine"));
        let e = err_of(with("prepared", "payload", json!("x".repeat(4097))));
        assert_eq!(e, "entries[0].payload: 4097 bytes exceeds 4096");
        assert_eq!(
            err_of(with("prepared", "irUID", json!(""))),
            "entries[0].irUID: must not be empty"
        );
        assert_eq!(
            err_of(without("prepared", "workload")),
            "entries[0].workload: required but missing"
        );
        let e = err_of(with("prepared", "targets", json!(["a", null])));
        assert_eq!(e, "entries[0].targets[1]: must be a string, found null");
        let e = err_of(with("prepared", "workload", json!({"Namespace": "prod"})));
        assert_eq!(e, "entries[0].workload.Name: required but missing");
    }

    fn any_json() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            "[a-zA-Z0-9:.+-]{0,40}".prop_map(Value::from),
            Just(json!("2026-09-28T10:15:01Z")),
            Just(json!("2026-09-28T11:00:00Z")),
            Just(json!([])),
            Just(json!({})),
        ]
    }

    proptest! {
        /// Random field swaps/removals/case-variants on valid entries: never panics, and any
        /// accepted journal satisfies the documented invariants.
        #[test]
        fn field_mutations_keep_invariants(
            edits in proptest::collection::vec((0usize..17, 0u8..3, any_json()), 1..4),
            phase in 0usize..6,
        ) {
            let mut e = fx::entry(0, Phase::ALL[phase].as_str());
            let obj = e.as_object_mut().unwrap();
            for (field, how, value) in edits {
                let name = ENTRY_FIELDS[field];
                match how {
                    0 => { obj.shift_remove(name); }
                    1 => { obj.insert(name.to_owned(), value); }
                    _ => { obj.insert(name.to_uppercase(), value); }
                }
            }
            if let Ok(j) = parse_journal(fx::journal(vec![e]).as_bytes()) {
                let entry = &j.entries[0];
                prop_assert!(entry.instance >= 0);
                prop_assert!(is_uuid_syntax(&entry.uuid));
                prop_assert_eq!(entry.completed_at.is_some(), entry.phase.is_terminal());
                prop_assert!(entry.completed_at.is_none_or(|t| t >= entry.created_at));
                prop_assert!(entry.last_attempt.is_none_or(|t| t >= entry.created_at));
            }
        }
    }
}
