//! Times as an operator reads them: a local date-time to the second (never nanoseconds) with
//! a relative age (`3h ago`, `in 5m`). The offset is data in `AppState` (the run layer reads
//! the local zone once), so the reducer and the views stay clock-free.
//!
//! Owns: `local`, `relative`, `when`, `when_opt`, `span`, `range`. Plain functions of their
//! arguments.

use chrono::{Duration, FixedOffset};

use crate::app::views::cells::age;
use crate::engine::model::Time;

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
