//! Building a migration request for an operator "approval" (alfred.md §3.1, §4): the compact
//! annotation value with keys in Alfred's order, its validation (DNS-1123 nodes, ≤ 8 unique
//! hints, ≤ 4096 bytes, Go `RFC3339Nano` time). The JSON Patch that adds it to the
//! InferenceService with compare-and-swap on uid and resourceVersion is assembled by
//! `cluster::ops::patches` (`migration_request_patch`), which sends it.
//!
//! Pure: uuids and times are passed in.

use crate::engine::migration::request::{
    field_err, Component, RequestError, MAX_HINT_TARGET_NODES, REQUEST_VALUE_MAX_BYTES,
};
use chrono::{DateTime, Datelike, Timelike, Utc};
use serde::Serialize;

/// An approval to write. [`MigrationRequest::to_annotation_value`] enforces: `instance >= 0`;
/// `from_node` and every hint are DNS-1123 subdomains; hints ≤ 8, unique, never `from_node`;
/// `reason`/`requested_by` non-empty; `requested_at` in years 0000–9999; value ≤ 4096 bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MigrationRequest {
    /// Component of the Instance to move.
    pub component: Component,
    /// Instance index.
    pub instance: i32,
    /// Node the Instance must leave (the only hard exclusion).
    pub from_node: String,
    /// Soft target preference, written in this order; omitted from the JSON when empty.
    pub hint_target_nodes: Vec<String>,
    /// Written verbatim (`Fragmentation`, `NodeUnhealthy`, `NodeMaintenance`, ...).
    pub reason: String,
    /// Request time (the caller's "now"); written as Go RFC3339Nano in UTC.
    pub requested_at: DateTime<Utc>,
    /// Who asks (`alfred`, `kubectl-ome`, the TUI's name).
    pub requested_by: String,
}

/// True iff `s` is a DNS-1123 subdomain (Kubernetes `IsDNS1123Subdomain`): ≤ 253 bytes,
/// dot-separated labels of `[a-z0-9-]`, each starting and ending alphanumeric.
pub fn is_dns1123_subdomain(s: &str) -> bool {
    let alnum = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            let b = label.as_bytes();
            b.first().is_some_and(alnum)
                && b.last().is_some_and(alnum)
                && b.iter().all(|c| alnum(c) || *c == b'-')
        })
}

/// Formats like Go's `time.RFC3339Nano` in UTC: fraction with trailing zeros trimmed (none if
/// zero), `Z` suffix. `None` for years outside 0000–9999 or a chrono leap-second value, which
/// Go cannot represent.
pub fn format_rfc3339_nano(t: DateTime<Utc>) -> Option<String> {
    let nanos = t.nanosecond();
    if !(0..=9999).contains(&t.year()) || nanos >= 1_000_000_000 {
        return None;
    }
    let mut out = format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
        t.year(),
        t.month(),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    );
    if nanos > 0 {
        let frac = format!("{nanos:09}");
        out.push('.');
        out.push_str(frac.trim_end_matches('0'));
    }
    out.push('Z');
    Some(out)
}

/// Wire shape of the value; field order here is the byte order of the output.
#[derive(Serialize)]
struct WireRequest<'a> {
    #[serde(rename = "schemaVersion")]
    schema_version: &'a str,
    component: &'a str,
    instance: i32,
    from_node: &'a str,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    hint_target_nodes: &'a [String],
    reason: &'a str,
    requested_at: String,
    requested_by: &'a str,
}

impl MigrationRequest {
    /// Checks the invariants listed on the type, except the size limit.
    pub fn validate(&self) -> Result<(), RequestError> {
        if self.instance < 0 {
            return Err(field_err(
                "instance",
                format!("must be ≥ 0, got {}", self.instance),
            ));
        }
        if !is_dns1123_subdomain(&self.from_node) {
            let why = format!("\"{}\" is not a DNS-1123 subdomain", self.from_node);
            return Err(field_err("from_node", why));
        }
        self.validate_hints()?;
        if self.reason.is_empty() {
            return Err(field_err("reason", "must not be empty"));
        }
        if self.requested_by.is_empty() {
            return Err(field_err("requested_by", "must not be empty"));
        }
        Ok(())
    }

    fn validate_hints(&self) -> Result<(), RequestError> {
        const F: &str = "hint_target_nodes";
        let hints = &self.hint_target_nodes;
        if hints.len() > MAX_HINT_TARGET_NODES {
            let why = format!("{} nodes; at most {MAX_HINT_TARGET_NODES}", hints.len());
            return Err(field_err(F, why));
        }
        for (i, hint) in hints.iter().enumerate() {
            if !is_dns1123_subdomain(hint) {
                return Err(field_err(
                    F,
                    format!("\"{hint}\" is not a DNS-1123 subdomain"),
                ));
            }
            if *hint == self.from_node {
                return Err(field_err(F, format!("\"{hint}\" is the source node")));
            }
            if hints.get(..i).is_some_and(|earlier| earlier.contains(hint)) {
                return Err(field_err(F, format!("\"{hint}\" is listed twice")));
            }
        }
        Ok(())
    }

    /// The compact JSON value, keys in the order of §3.1, `hint_target_nodes` omitted if empty.
    pub fn to_annotation_value(&self) -> Result<String, RequestError> {
        self.validate()?;
        let requested_at = format_rfc3339_nano(self.requested_at)
            .ok_or_else(|| field_err("requested_at", "year must be 0000–9999 (Go RFC 3339)"))?;
        let wire = WireRequest {
            schema_version: "v1",
            component: self.component.as_str(),
            instance: self.instance,
            from_node: &self.from_node,
            hint_target_nodes: &self.hint_target_nodes,
            reason: &self.reason,
            requested_at,
            requested_by: &self.requested_by,
        };
        let value =
            serde_json::to_string(&wire).map_err(|e| RequestError::InvalidJson(e.to_string()))?;
        if value.len() > REQUEST_VALUE_MAX_BYTES {
            return Err(RequestError::TooLarge { bytes: value.len() });
        }
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::formats::strict_json::parse_rfc3339;
    use crate::engine::migration::request::{annotation_key, parse_request_annotation};
    use chrono::TimeZone;
    use proptest::prelude::*;

    const UUID: &str = "3f1c2d4e-9a7b-4c1d-8e2f-0123456789ab";

    fn example() -> MigrationRequest {
        let at = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 2).unwrap();
        MigrationRequest {
            component: Component::Engine,
            instance: 3,
            from_node: "gpu-a".into(),
            hint_target_nodes: vec!["gpu-c".into(), "gpu-d".into()],
            reason: "NodeUnhealthy".into(),
            requested_at: at + chrono::TimeDelta::nanoseconds(418_093_721),
            requested_by: "alfred".into(),
        }
    }

    fn field_of(r: &MigrationRequest) -> Option<&'static str> {
        match r.to_annotation_value() {
            Err(RequestError::Field { field, .. }) => Some(field),
            _ => None,
        }
    }

    #[test]
    fn spec_example_byte_for_byte() {
        let want = concat!(
            r#"{"schemaVersion":"v1","component":"engine","instance":3,"from_node":"gpu-a","#,
            r#""hint_target_nodes":["gpu-c","gpu-d"],"reason":"NodeUnhealthy","#,
            r#""requested_at":"2026-09-28T10:15:02.418093721Z","requested_by":"alfred"}"#
        );
        assert_eq!(example().to_annotation_value().unwrap(), want);
    }

    #[test]
    fn hints_omitted_when_empty_and_time_trimmed() {
        let mut r = example();
        r.hint_target_nodes.clear();
        r.requested_at = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 2).unwrap();
        let v = r.to_annotation_value().unwrap();
        assert!(!v.contains("hint_target_nodes"));
        assert!(v.contains(r#""reason":"NodeUnhealthy","requested_at":"2026-09-28T10:15:02Z""#));
        r.requested_at += chrono::TimeDelta::milliseconds(500);
        assert!(r.to_annotation_value().unwrap().contains("10:15:02.5Z"));
    }

    #[test]
    fn request_validation() {
        let mut r = example();
        r.instance = -1;
        assert_eq!(field_of(&r), Some("instance"));
        let mut r = example();
        r.from_node = "GPU_A".into();
        assert_eq!(field_of(&r), Some("from_node"));
        for hints in [
            (0..9).map(|i| format!("gpu-{i}")).collect::<Vec<_>>(),
            vec!["gpu-c".into(), "gpu-c".into()],
            vec!["gpu-a".into()],
            vec!["-bad".into()],
        ] {
            let mut r = example();
            r.hint_target_nodes = hints;
            assert_eq!(field_of(&r), Some("hint_target_nodes"));
        }
        let mut r = example();
        r.reason = "x".repeat(4000);
        assert!(matches!(
            r.to_annotation_value(),
            Err(RequestError::TooLarge { .. })
        ));
        let mut r = example();
        r.requested_at = Utc.with_ymd_and_hms(10000, 1, 1, 0, 0, 0).unwrap();
        assert_eq!(field_of(&r), Some("requested_at"));
    }

    #[test]
    fn dns1123() {
        for ok in ["gpu-a", "a", "node-1.pool.example", "0"] {
            assert!(is_dns1123_subdomain(ok), "{ok}");
        }
        for bad in ["", "GPU", "-a", "a-", "a..b", "a_b", ".a", &"a".repeat(254)] {
            assert!(!is_dns1123_subdomain(bad), "{bad}");
        }
    }

    #[test]
    fn rfc3339_nano_like_go() {
        let t = parse_rfc3339("2026-09-28T10:15:02.418093721Z").unwrap();
        assert_eq!(
            format_rfc3339_nano(t).unwrap(),
            "2026-09-28T10:15:02.418093721Z"
        );
        let t = parse_rfc3339("2026-09-28T12:15:02.4100+02:00").unwrap();
        assert_eq!(format_rfc3339_nano(t).unwrap(), "2026-09-28T10:15:02.41Z");
        let t = parse_rfc3339("0001-01-01T00:00:00Z").unwrap();
        assert_eq!(format_rfc3339_nano(t).unwrap(), "0001-01-01T00:00:00Z");
    }

    proptest! {
        #[test]
        fn built_values_parse_back(
            instance in 0i32..=i32::MAX,
            hints in proptest::collection::btree_set("[a-z0-9]{1,8}(\\.[a-z0-9]{1,8})?", 0..=8),
            secs in 0i64..253_402_300_799,
            nanos in 0u32..1_000_000_000,
        ) {
            let mut r = example();
            r.instance = instance;
            r.from_node = "source-node".into();
            r.hint_target_nodes = hints.into_iter().collect();
            r.requested_at = DateTime::from_timestamp(secs, nanos).unwrap();
            let v = r.to_annotation_value().unwrap();
            prop_assert!(v.len() <= REQUEST_VALUE_MAX_BYTES);
            let p = parse_request_annotation(&annotation_key(UUID).unwrap(), &v).unwrap();
            prop_assert_eq!(p.instance, instance);
            prop_assert_eq!(p.hint_target_nodes, r.hint_target_nodes.clone());
            prop_assert_eq!(p.requested_at, Some(r.requested_at));
        }

        #[test]
        fn rfc3339_nano_round_trips(
            s in ".{0,40}",
            secs in -62_135_596_800i64..253_402_300_799,
            n in 0u32..1_000_000_000,
        ) {
            let _ = is_dns1123_subdomain(&s);
            let t = DateTime::from_timestamp(secs, n).unwrap();
            let text = format_rfc3339_nano(t).unwrap();
            prop_assert_eq!(parse_rfc3339(&text), Some(t));
        }
    }
}
