//! The matching helpers the node-health and defragmentation engines need: maintenance triggers
//! against a node's facts (alfred.md §7.1), weekly maintenance windows (§6.4) and preemptible
//! nodes (`spotPolicy`).
//!
//! Pure: time is an argument.

use std::collections::BTreeMap;

use chrono::{DateTime, Datelike, Timelike, Utc, Weekday};
use serde::Serialize;

use super::printing::{ser_days, ser_hhmm};
use super::{AlfredConfig, MaintenanceTrigger, TriggerMatcher};

/// Minutes in a week: the windows repeat weekly, so a week holds every change they make.
const WEEK_MINUTES: i64 = 7 * 24 * 60;

/// What trigger matching needs to know about one Node at snapshot time.
#[derive(Debug, Clone, Copy)]
pub struct NodeFacts<'a> {
    /// `metadata.labels`, key → value.
    pub labels: &'a BTreeMap<String, String>,
    /// `status.conditions` as `(type, status)`, e.g. `("Ready", "True")`.
    pub conditions: &'a [(String, String)],
    /// `spec.taints` as `(key, value, effect)`; a taint without a value has `""`.
    pub taints: &'a [(String, String, String)],
}

impl MaintenanceTrigger {
    /// Whether this rule requests maintenance of `node` at `now_unix_seconds` (§7.1): condition
    /// type and status equal; label key present and value absent (any), equal, or — with
    /// `valueIsStartTime` — a Unix time ≤ now (a non-numeric value matches at once); taint key
    /// equal and value/effect equal when set.
    #[must_use]
    pub fn matches(&self, node: &NodeFacts<'_>, now_unix_seconds: i64) -> bool {
        match &self.matcher {
            TriggerMatcher::Condition {
                condition_type,
                status,
            } => node
                .conditions
                .iter()
                .any(|(t, s)| t == condition_type && s == status.as_str()),
            TriggerMatcher::Label {
                key,
                value,
                value_is_start_time,
            } => {
                let Some(actual) = node.labels.get(key) else {
                    return false;
                };
                if *value_is_start_time {
                    // Alfred: the key alone asks for maintenance; the time may only delay it.
                    return label_start(actual).is_none_or(|start| now_unix_seconds >= start);
                }
                value.as_ref().is_none_or(|v| v == actual)
            }
            TriggerMatcher::Taint { key, value, effect } => node.taints.iter().any(|(k, v, e)| {
                k == key
                    && value.as_ref().is_none_or(|want| want == v)
                    && effect.is_none_or(|want| want.as_str() == e)
            }),
        }
    }
}

/// The Unix time a `valueIsStartTime` label's value asks maintenance from (`None`: not a
/// number, it matches at once). The rule matches from that second on: the instant is also when
/// a node's triggers change by time alone.
pub fn label_start(value: &str) -> Option<i64> {
    value.parse::<i64>().ok()
}

/// A weekly UTC window for defragmentation moves: `days` non-empty, `start < end` (no
/// midnight crossing), start inclusive, end exclusive.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MaintenanceWindow {
    /// Days the window opens on (as written, duplicates kept). Printed as `Mon`..`Sun`.
    #[serde(serialize_with = "ser_days")]
    pub days: Vec<Weekday>,
    /// Opening minute after 00:00 UTC, 0..1439. Printed as "HH:MM".
    #[serde(rename = "start", serialize_with = "ser_hhmm")]
    pub start_minute: u32,
    /// Closing minute after 00:00 UTC, start < end ≤ 1439 (exclusive). Printed as "HH:MM".
    #[serde(rename = "end", serialize_with = "ser_hhmm")]
    pub end_minute: u32,
}

impl MaintenanceWindow {
    /// Whether the UTC `weekday` and `minute_of_day` (0..1439) fall inside this window.
    #[must_use]
    pub fn contains(&self, weekday: Weekday, minute_of_day: u32) -> bool {
        self.days.contains(&weekday)
            && self.start_minute <= minute_of_day
            && minute_of_day < self.end_minute
    }
}

impl AlfredConfig {
    /// Whether a node with these labels is preemptible: it carries any of
    /// `spotPolicy.preemptibleLabels` with a value other than `"false"`.
    #[must_use]
    pub fn is_preemptible(&self, labels: &BTreeMap<String, String>) -> bool {
        let labelled = |key: &String| labels.get(key).is_some_and(|v| v != "false");
        self.spot_policy.preemptible_labels.iter().any(labelled)
    }

    /// Names of the maintenance triggers matching `node` at `now_unix_seconds`, sorted (the
    /// node record's `triggers`); empty = maintenance not requested.
    #[must_use]
    pub fn matching_maintenance_triggers(
        &self,
        node: &NodeFacts<'_>,
        now_unix_seconds: i64,
    ) -> Vec<&str> {
        let triggers = &self.policies.node_health.maintenance.triggers;
        let mut names: Vec<&str> = triggers
            .iter()
            .filter(|t| t.matches(node, now_unix_seconds))
            .map(|t| t.name.as_str())
            .collect();
        names.sort_unstable();
        names
    }

    /// Whether defragmentation may act at this UTC weekday and minute of day: no windows
    /// configured, or inside one of them. Node health ignores windows.
    #[must_use]
    pub fn defrag_window_open(&self, weekday: Weekday, minute_of_day: u32) -> bool {
        self.maintenance_windows.is_empty()
            || self
                .maintenance_windows
                .iter()
                .any(|w| w.contains(weekday, minute_of_day))
    }

    /// [`Self::defrag_window_open`] at the instant `now`.
    #[must_use]
    pub fn defrag_window_open_at(&self, now: DateTime<Utc>) -> bool {
        self.defrag_window_open(now.weekday(), now.hour() * 60 + now.minute())
    }

    /// The first instant after `now` at which [`Self::defrag_window_open_at`] answers
    /// otherwise (`None` without windows: always open). Windows are whole minutes, so the
    /// answer can change only on a minute boundary; a week of them is searched.
    #[must_use]
    pub fn next_window_change(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        if self.maintenance_windows.is_empty() {
            return None;
        }
        let open = self.defrag_window_open_at(now);
        let minute = now.with_second(0)?.with_nanosecond(0)?;
        (1..=WEEK_MINUTES)
            .filter_map(|k| minute.checked_add_signed(chrono::Duration::minutes(k)))
            .find(|t| self.defrag_window_open_at(*t) != open)
    }
}
