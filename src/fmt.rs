//! Times as an operator reads them, one wording for the TUI, the CLI and the reports: a local
//! date-time to the second (never nanoseconds), a compact age in one unit as kubectl shows it
//! (`45s`, `12m`, `47h`, `2d`), a relative age (`3h ago`, `in 5m`) and a length of time in at
//! most two units (`1h 35m`, `2d 3h`: waits, episodes, retries). The zone is data the caller
//! passes (the run layer reads the local zone once), so nothing here reads a clock.
//!
//! Counts read the same everywhere too: `12,596` (`count`).
//!
//! Owns: `count`, `age`, `age_secs`, `local`, `relative`, `when`, `when_opt`, `span`, `wait`, `range`.
//! Plain functions of their arguments.

use chrono::{Duration, FixedOffset};

use crate::engine::model::Time;

/// A compact age in one unit: `45s`, `12m`, `3h` (hours up to two days, as kubectl counts
/// them), `2d`; `-` when unknown; `in 5m` for the future.
pub fn age(now: Time, then: Option<Time>) -> String {
    let Some(then) = then else {
        return "-".to_string();
    };
    let secs = (now - then).num_seconds();
    let s = secs.abs();
    let text = match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m", s / 60),
        3600..=172_799 => format!("{}h", s / 3600),
        _ => format!("{}d", s / 86_400),
    };
    if secs < 0 {
        format!("in {text}")
    } else {
        text
    }
}

/// Seconds since `then` (a sort key for an age column; unknown sorts first).
pub fn age_secs(now: Time, then: Option<Time>) -> f64 {
    then.map_or(-1.0, |t| (now - t).num_seconds() as f64)
}

/// A count with thousands separators: `12,596`.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `t` in the zone `offset`: `2026-11-29 13:01:11`.
pub fn local(t: Time, offset: FixedOffset) -> String {
    t.with_timezone(&offset)
        .format("%Y-%m-%d %H:%M:%S")
        .to_string()
}

/// `t` relative to `now`: `just now`, `45s ago`, `3h ago`, `in 5m`.
pub fn relative(now: Time, t: Time) -> String {
    let secs = (now - t).num_seconds();
    if secs == 0 {
        return "just now".into();
    }
    let text = age(now, Some(t));
    if secs > 0 {
        format!("{text} ago")
    } else {
        text
    }
}

/// `2026-11-29 13:01:11 (3h ago)`.
pub fn when(now: Time, t: Time, offset: FixedOffset) -> String {
    format!("{} ({})", local(t, offset), relative(now, t))
}

/// [`when`], or `-` when the time is unknown.
pub fn when_opt(now: Time, t: Option<Time>, offset: FixedOffset) -> String {
    t.map_or_else(|| "-".to_string(), |t| when(now, t, offset))
}

/// A length of time in at most two units: `45s`, `12m`, `1h 35m`, `2d 3h` (never negative).
pub fn span(d: Duration) -> String {
    let s = d.num_seconds().max(0);
    let (days, hours, minutes) = (s / 86_400, s % 86_400 / 3600, s % 3600 / 60);
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{minutes}m"),
        3600..=86_399 if minutes == 0 => format!("{hours}h"),
        3600..=86_399 => format!("{hours}h {minutes}m"),
        _ if hours == 0 => format!("{days}d"),
        _ => format!("{days}d {hours}h"),
    }
}

/// A wait given in minutes, as [`span`] words it to the nearest second: `2h 5m`.
pub fn wait(minutes: f64) -> String {
    span(Duration::seconds((minutes.max(0.0) * 60.0).round() as i64))
}

/// `from → to` in the zone `offset`, the end's date left out when it is the start's:
/// `2026-11-29 13:01:11 → 14:02:00`.
pub fn range(from: Time, to: Time, offset: FixedOffset) -> String {
    let (a, b) = (from.with_timezone(&offset), to.with_timezone(&offset));
    let end = if a.date_naive() == b.date_naive() {
        b.format("%H:%M:%S").to_string()
    } else {
        local(to, offset)
    };
    format!("{} → {end}", local(from, offset))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{DateTime, Utc};

    fn t(s: &str) -> Time {
        DateTime::parse_from_rfc3339(s)
            .map(|d| d.with_timezone(&Utc))
            .unwrap()
    }

    #[test]
    fn a_time_reads_to_the_second_in_the_operators_zone_with_its_age() {
        let now = t("2026-11-29T16:01:11.849248527Z");
        let then = t("2026-11-29T13:01:11.849248527Z");
        let utc = FixedOffset::east_opt(0).unwrap();
        let cet = FixedOffset::east_opt(3600).unwrap();
        assert_eq!(when(now, then, utc), "2026-11-29 13:01:11 (3h ago)");
        assert_eq!(when(now, then, cet), "2026-11-29 14:01:11 (3h ago)");
        assert_eq!(when(then, now, utc), "2026-11-29 16:01:11 (in 3h)");
        assert_eq!(relative(now, now), "just now");
        assert_eq!(when_opt(now, None, utc), "-");
    }

    #[test]
    fn ages_read_in_one_unit_and_count_hours_up_to_two_days() {
        let now = t("2026-11-29T16:00:00Z");
        let ago = |s: i64| age(now, Some(now - Duration::seconds(s)));
        assert_eq!(ago(45), "45s");
        assert_eq!(ago(12 * 60 + 59), "12m");
        assert_eq!(ago(3 * 3600), "3h");
        assert_eq!(ago(47 * 3600 + 59 * 60), "47h");
        assert_eq!(ago(48 * 3600), "2d");
        assert_eq!(ago(-300), "in 5m");
        assert_eq!(age(now, None), "-");
        assert_eq!(relative(now, now - Duration::hours(3)), "3h ago");
        assert!(age_secs(now, None) < age_secs(now, Some(now)));
    }

    #[test]
    fn counts_have_thousands_separators() {
        let got: Vec<String> = [0, 999, 1_000, 12_596, 1_234_567].map(count).to_vec();
        assert_eq!(got, ["0", "999", "1,000", "12,596", "1,234,567"]);
    }

    #[test]
    fn a_wait_and_a_span_are_worded_alike() {
        assert_eq!(wait(0.75), "45s");
        assert_eq!(wait(125.0), span(Duration::minutes(125)));
        assert_eq!(wait(125.0), "2h 5m");
        assert_eq!(wait(60.0), "1h");
        assert_eq!(wait(75.0), "1h 15m");
        assert_eq!(wait(3.0 * 1440.0 + 240.0), "3d 4h");
        assert_eq!(wait(-2.0), "0s");
    }

    #[test]
    fn spans_and_ranges_read_in_two_units_at_most() {
        let m = Duration::minutes;
        assert_eq!(span(Duration::seconds(45)), "45s");
        assert_eq!(span(m(12)), "12m");
        assert_eq!(span(m(60)), "1h");
        assert_eq!(span(m(95)), "1h 35m");
        assert_eq!(span(m(51 * 60 + 5)), "2d 3h");
        assert_eq!(span(Duration::days(3)), "3d");
        assert_eq!(span(Duration::seconds(-5)), "0s");
        let utc = FixedOffset::east_opt(0).unwrap();
        let a = t("2026-11-29T13:01:11Z");
        assert_eq!(range(a, a + m(61), utc), "2026-11-29 13:01:11 → 14:02:11");
        assert_eq!(
            range(a, a + Duration::days(1), utc),
            "2026-11-29 13:01:11 → 2026-11-30 13:01:11"
        );
    }
}
