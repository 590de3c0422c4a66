//! The what-if of new values of Alfred's policy typed into a dialog: the line the dialog
//! starts from (the values in force), how a typed line reads as values
//! (`threshold=0.3 in-flight=3 per-hour=10 windows=Mon,Tue@01:00-05:00;Sat@00:00-06:00`, or
//! `windows=any`), and the pane of the analysis on a copy under them. Nothing is written.
//!
//! Owns: `policy_line`, `parse_policy`, `PolicyTextError`, `policy_pane`. Plain data.

use chrono::Weekday;

use crate::app::detail::{DetailKind, DetailModel, Lines};
use crate::app::model::pending::WhatIfKind;
use crate::app::table::Tone;
use crate::app::views::pending::what_if::{options_of, scenario_lines, WHAT_IF_MARK};
use crate::engine::alfred_config::{AlfredConfig, MaintenanceWindow};
use crate::engine::analysis::scenario::{what_if_change, Change, PolicyValues};
use crate::protocol::Feed;

/// Why a typed line does not read as policy values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyTextError {
    /// A word is not `name=value` of a known name.
    #[error("{0}: expected threshold=, in-flight=, per-hour= or windows=")]
    UnknownWord(String),
    /// A value does not read as the name asks.
    #[error("{0}: {1}")]
    BadValue(String, &'static str),
}

fn hhmm(minute: u32) -> String {
    format!("{:02}:{:02}", minute / 60, minute % 60)
}

/// `Mon,Tue@01:00-05:00;Sat@00:00-06:00`, or `any` without windows.
fn windows_text(windows: &[MaintenanceWindow]) -> String {
    if windows.is_empty() {
        return "any".into();
    }
    let one = |w: &MaintenanceWindow| {
        let days: Vec<String> = w.days.iter().map(|d| d.to_string()).collect();
        format!(
            "{}@{}-{}",
            days.join(","),
            hhmm(w.start_minute),
            hhmm(w.end_minute)
        )
    };
    windows.iter().map(one).collect::<Vec<_>>().join(";")
}

/// The values in force as the dialog's starting line.
pub fn policy_line(cfg: &AlfredConfig) -> String {
    format!(
        "threshold={} in-flight={} per-hour={} windows={}",
        cfg.policies.defragmentation.fragmentation_threshold,
        cfg.max_in_flight_migrations,
        cfg.max_migrations_per_hour,
        windows_text(&cfg.maintenance_windows)
    )
}

fn minute(text: &str) -> Option<u32> {
    let (h, m) = text.split_once(':')?;
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60).then_some(h * 60 + m)
}

fn window(text: &str) -> Option<MaintenanceWindow> {
    let (days, span) = text.split_once('@')?;
    let days: Option<Vec<Weekday>> = days.split(',').map(|d| d.trim().parse().ok()).collect();
    let (start, end) = span.split_once('-')?;
    let (start_minute, end_minute) = (minute(start)?, minute(end)?);
    let days = days.filter(|d| !d.is_empty())?;
    (start_minute < end_minute).then_some(MaintenanceWindow {
        days,
        start_minute,
        end_minute,
    })
}

fn windows(text: &str) -> Option<Vec<MaintenanceWindow>> {
    if text == "any" {
        return Some(Vec::new());
    }
    text.split(';').map(window).collect()
}

/// The values `line` names; a name left out keeps the value in force.
pub fn parse_policy(line: &str) -> Result<PolicyValues, PolicyTextError> {
    let mut v = PolicyValues::default();
    for word in line.split_whitespace() {
        let bad = |why| PolicyTextError::BadValue(word.to_string(), why);
        let (name, value) = word
            .split_once('=')
            .ok_or_else(|| PolicyTextError::UnknownWord(word.into()))?;
        match name {
            "threshold" => {
                let t: f64 = value.parse().map_err(|_| bad("a number from 0 to 1"))?;
                v.threshold = Some(t).filter(|t| (0.0..=1.0).contains(t));
                v.threshold.ok_or_else(|| bad("a number from 0 to 1"))?;
            }
            "in-flight" => {
                v.max_in_flight = Some(value.parse().map_err(|_| bad("a whole number"))?)
            }
            "per-hour" => v.max_per_hour = Some(value.parse().map_err(|_| bad("a whole number"))?),
            "windows" => {
                let w = windows(value)
                    .ok_or_else(|| bad("any, or Mon,Tue@01:00-05:00;Sat@00:00-06:00"))?;
                v.windows = Some(w);
            }
            _ => return Err(PolicyTextError::UnknownWord(word.into())),
        }
    }
    Ok(v)
}

/// The what-if pane of `values` on `feed`; `again`: the key that asks for other values.
pub fn policy_pane(feed: &Feed, values: &PolicyValues, again: Option<&str>) -> DetailModel {
    let (snap, a) = (&*feed.snapshot, &*feed.analysis);
    let mut out = Lines::default();
    out.push(WHAT_IF_MARK, Tone::Danger);
    out.heading("The change (not made): Alfred's policy values");
    out.line(format!("now:     {}", policy_line(&a.config)));
    out.line(format!(
        "what if: {}",
        policy_line(&values.applied_to(&a.config))
    ));
    let s = what_if_change(
        snap,
        &options_of(snap, a),
        a,
        &Change::Policy(values.clone()),
    );
    scenario_lines(&mut out, &s, WhatIfKind::Policy);
    out.push("", Tone::Normal);
    if let Some(k) = again {
        out.push(format!("{k} types other values"), Tone::Accent);
    }
    DetailModel {
        kind: DetailKind::WhatIf("policy".into()),
        title: "what if Alfred's policy changed — nothing is written".into(),
        lines: out.0,
    }
}
