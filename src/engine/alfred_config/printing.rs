//! How the effective config prints in the JSON contract: durations as Go's
//! `time.Duration.String` does, maintenance-window days as `Mon`..`Sun` and clock times as
//! "HH:MM", so the printed config reads like Alfred's own YAML.

use std::time::Duration;

use chrono::Weekday;
use serde::Serializer;

/// Three-letter English day name, the spelling `maintenanceWindows[].days` uses.
fn weekday_name(day: Weekday) -> &'static str {
    match day {
        Weekday::Mon => "Mon",
        Weekday::Tue => "Tue",
        Weekday::Wed => "Wed",
        Weekday::Thu => "Thu",
        Weekday::Fri => "Fri",
        Weekday::Sat => "Sat",
        Weekday::Sun => "Sun",
    }
}

/// Formats like Go's `time.Duration.String` ("5m0s", "1h30m0s", "1.5s", "250ms"), so the
/// printed config reads as Alfred's own YAML would.
pub(super) fn go_duration_string(d: Duration) -> String {
    let nanos = d.as_nanos();
    if nanos == 0 {
        return "0s".to_owned();
    }
    if nanos < 1_000_000_000 {
        let (unit, scale) = match nanos {
            n if n < 1_000 => ("ns", 1),
            n if n < 1_000_000 => ("µs", 1_000),
            _ => ("ms", 1_000_000),
        };
        return format!("{}{}{unit}", nanos / scale, fraction(nanos % scale, scale));
    }
    let secs = d.as_secs();
    let sub = fraction(u128::from(d.subsec_nanos()), 1_000_000_000);
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    match (h, m) {
        (0, 0) => format!("{s}{sub}s"),
        (0, _) => format!("{m}m{s}{sub}s"),
        _ => format!("{h}h{m}m{s}{sub}s"),
    }
}

/// ".5" for rest 5 of scale 10, trailing zeros trimmed; "" when rest is 0.
fn fraction(rest: u128, scale: u128) -> String {
    if rest == 0 {
        return String::new();
    }
    let width = scale.ilog10() as usize;
    let digits = format!("{rest:0width$}");
    format!(".{}", digits.trim_end_matches('0'))
}

pub(super) fn ser_go_duration<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&go_duration_string(*d))
}

pub(super) fn ser_days<S: Serializer>(days: &[Weekday], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(days.iter().map(|d| weekday_name(*d)))
}

pub(super) fn ser_hhmm<S: Serializer>(minute: &u32, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{:02}:{:02}", minute / 60, minute % 60))
}
