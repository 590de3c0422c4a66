//! `policies.nodeHealth.maintenance.triggers` (each with exactly one condition, label or taint
//! matcher) and `maintenanceWindows` (weekly UTC windows that cannot cross midnight).

use chrono::Weekday;

use super::blocks::identifier;
use super::fields::{flag, LABEL_VALUE, ONE_MATCHER, QUALIFIED};
use super::reader::{items, string, Obj};
use super::syntax::{is_label_token, is_qualified_name, parse_hhmm};
use super::yaml::{fail, quote, Yaml};
use super::Res;
use crate::engine::alfred_config::{
    ConditionStatus, MaintenanceTrigger, MaintenanceWindow, TaintEffect, TriggerMatcher,
};

pub(super) fn read_triggers(o: &Obj<'_>) -> Res<Vec<MaintenanceTrigger>> {
    const KEYS: &[&str] = &["name", "condition", "label", "taint", "cordon"];
    let path = o.at("triggers");
    let mut triggers: Vec<MaintenanceTrigger> = Vec::new();
    for (i, item) in items(o.get("triggers"), &path)?
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let t = Obj::open(Some(item), format!("{path}[{i}]"), KEYS)?;
        let name = t.read("name", string)?.unwrap_or_default();
        identifier(&t.at("name"), &name)?;
        if triggers.iter().any(|seen| seen.name == name) {
            return fail(
                &t.at("name"),
                "a name unique among the triggers",
                quote(&name),
            );
        }
        let set: Vec<&str> = ["condition", "label", "taint"]
            .into_iter()
            .filter(|k| !matches!(t.get(k), None | Some(Yaml::Null)))
            .collect();
        let matcher = match set.as_slice() {
            ["condition"] => condition_matcher(&t)?,
            ["label"] => label_matcher(&t)?,
            ["taint"] => taint_matcher(&t)?,
            [] => return fail(&t.path, ONE_MATCHER, "none"),
            many => return fail(&t.path, ONE_MATCHER, many.join(" and ")),
        };
        let cordon = flag(&t, "cordon", false)?;
        triggers.push(MaintenanceTrigger {
            name,
            matcher,
            cordon,
        });
    }
    Ok(triggers)
}

fn condition_matcher(t: &Obj<'_>) -> Res<TriggerMatcher> {
    let o = t.child("condition", &["type", "status"])?;
    let condition_type = o.read("type", string)?.unwrap_or_default();
    if !is_qualified_name(&condition_type) {
        return fail(&o.at("type"), QUALIFIED, quote(&condition_type));
    }
    let status = match o.read("status", string)?.unwrap_or_default().as_str() {
        "True" => ConditionStatus::True,
        "False" => ConditionStatus::False,
        "Unknown" => ConditionStatus::Unknown,
        other => {
            return fail(
                &o.at("status"),
                "\"True\", \"False\" or \"Unknown\"",
                quote(other),
            )
        }
    };
    Ok(TriggerMatcher::Condition {
        condition_type,
        status,
    })
}

/// The `key` and optional `value` shared by label and taint matchers.
fn key_and_value(o: &Obj<'_>) -> Res<(String, Option<String>)> {
    let key = o.read("key", string)?.unwrap_or_default();
    if !is_qualified_name(&key) {
        return fail(&o.at("key"), QUALIFIED, quote(&key));
    }
    let value = o.read("value", string)?;
    if let Some(v) = value
        .as_deref()
        .filter(|v| !v.is_empty() && !is_label_token(v))
    {
        return fail(&o.at("value"), LABEL_VALUE, quote(v));
    }
    Ok((key, value))
}

fn label_matcher(t: &Obj<'_>) -> Res<TriggerMatcher> {
    let o = t.child("label", &["key", "value", "valueIsStartTime"])?;
    let (key, value) = key_and_value(&o)?;
    let value_is_start_time = flag(&o, "valueIsStartTime", false)?;
    if value_is_start_time && value.is_some() {
        let expected = "either value or valueIsStartTime: true, not both";
        return fail(&o.at("valueIsStartTime"), expected, "both");
    }
    Ok(TriggerMatcher::Label {
        key,
        value,
        value_is_start_time,
    })
}

fn taint_matcher(t: &Obj<'_>) -> Res<TriggerMatcher> {
    let o = t.child("taint", &["key", "value", "effect"])?;
    let (key, value) = key_and_value(&o)?;
    let effect = match o.read("effect", string)?.unwrap_or_default().as_str() {
        "" => None,
        "NoSchedule" => Some(TaintEffect::NoSchedule),
        "PreferNoSchedule" => Some(TaintEffect::PreferNoSchedule),
        "NoExecute" => Some(TaintEffect::NoExecute),
        other => {
            let expected = "NoSchedule, PreferNoSchedule or NoExecute";
            return fail(&o.at("effect"), expected, quote(other));
        }
    };
    Ok(TriggerMatcher::Taint { key, value, effect })
}

pub(super) fn read_windows(top: &Obj<'_>) -> Res<Vec<MaintenanceWindow>> {
    let path = top.at("maintenanceWindows");
    let mut windows = Vec::new();
    for (i, item) in items(top.get("maintenanceWindows"), &path)?
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let o = Obj::open(
            Some(item),
            format!("{path}[{i}]"),
            &["days", "start", "end"],
        )?;
        let names = o.list("days", string)?.unwrap_or_default();
        if names.is_empty() {
            return fail(&o.at("days"), "a non-empty list of Mon..Sun", "no days");
        }
        let day = |(d, name): (usize, &String)| weekday(name, &format!("{}[{d}]", o.at("days")));
        let days = names.iter().enumerate().map(day).collect::<Res<_>>()?;
        let clock = |key: &str| -> Res<(u32, String)> {
            let text = o.read(key, string)?.unwrap_or_default();
            match parse_hhmm(&text) {
                Some(minute) => Ok((minute, text)),
                None => fail(&o.at(key), "\"HH:MM\" (UTC)", quote(&text)),
            }
        };
        let ((start_minute, start), (end_minute, end)) = (clock("start")?, clock("end")?);
        if start_minute >= end_minute {
            let expected = "start before end (a window cannot cross midnight)";
            return fail(&o.path, expected, format!("start {start}, end {end}"));
        }
        windows.push(MaintenanceWindow {
            days,
            start_minute,
            end_minute,
        });
    }
    Ok(windows)
}

fn weekday(name: &str, path: &str) -> Res<Weekday> {
    Ok(match name {
        "Mon" => Weekday::Mon,
        "Tue" => Weekday::Tue,
        "Wed" => Weekday::Wed,
        "Thu" => Weekday::Thu,
        "Fri" => Weekday::Fri,
        "Sat" => Weekday::Sat,
        "Sun" => Weekday::Sun,
        other => return fail(path, "one of Mon..Sun", quote(other)),
    })
}
