//! Field readers with Alfred's defaulting rules (0 or absent = default for integers and
//! durations, explicit 0/false kept for floats and bools) and the shared "expected" texts.

use std::time::Duration;

use super::reader::{boolean, float, int, string, Obj};
use super::syntax::parse_go_duration;
use super::yaml::{describe, fail, quote, Yaml};
use super::Res;
use crate::engine::alfred_config::Aggressiveness;

pub(super) const QUALIFIED: &str = "a qualified name ([prefix/]name, name ≤ 63 of [A-Za-z0-9._-])";
pub(super) const LABEL_VALUE: &str = "a label value (≤ 63 of [A-Za-z0-9._-], alphanumeric ends)";
pub(super) const POSITIVE: &str = "a positive integer (0 or absent = default)";
pub(super) const ONE_MATCHER: &str = "exactly one of condition, label, taint";

/// An integer where 0 or absence means the default and a negative fails. Values above
/// `u32::MAX`, which Alfred accepts and no sane config uses, are clamped.
pub(super) fn positive_or_default(o: &Obj<'_>, name: &str, default: u32) -> Res<u32> {
    match o.read(name, int)? {
        None | Some(0) => Ok(default),
        Some(n) if n < 0 => fail(&o.at(name), POSITIVE, n.to_string()),
        Some(n) => Ok(u32::try_from(n).unwrap_or(u32::MAX)),
    }
}

/// A string where "" or absence means the default.
pub(super) fn text_or(o: &Obj<'_>, name: &str, default: &str) -> Res<String> {
    let text = o.read(name, string)?.filter(|s| !s.is_empty());
    Ok(text.unwrap_or_else(|| default.to_owned()))
}

pub(super) fn flag(o: &Obj<'_>, name: &str, default: bool) -> Res<bool> {
    Ok(o.read(name, boolean)?.unwrap_or(default))
}

/// A float in [0, 1]; absent = default, an explicit 0 is kept.
pub(super) fn unit_interval(o: &Obj<'_>, name: &str, default: f64) -> Res<f64> {
    match o.read(name, float)? {
        None => Ok(default),
        Some(x) if (0.0..=1.0).contains(&x) => Ok(x),
        Some(x) => fail(&o.at(name), "a number in [0,1]", x.to_string()),
    }
}

/// A loop interval: absent or 0 = default, otherwise ≥ 1 s. Unlike other fields, `null` and
/// bare numbers fail: Alfred's `metav1.Duration` accepts only a duration string.
pub(super) fn interval(o: &Obj<'_>, name: &str, default: Duration) -> Res<Duration> {
    const SYNTAX: &str = "a Go duration string such as \"5m\", \"30s\" or \"1h30m\"";
    let Some(v) = o.get(name) else {
        return Ok(default);
    };
    let Yaml::Str(text) = v else {
        return fail(&o.at(name), SYNTAX, describe(v));
    };
    match parse_go_duration(text) {
        None => fail(&o.at(name), SYNTAX, quote(text)),
        Some(0) => Ok(default),
        Some(n) if n < 1_000_000_000 => fail(
            &o.at(name),
            "a duration of at least 1s (0 = default)",
            quote(text),
        ),
        Some(n) => Ok(Duration::from_nanos(u64::try_from(n).unwrap_or(u64::MAX))),
    }
}

pub(super) fn aggressiveness(o: &Obj<'_>, name: &str) -> Res<Aggressiveness> {
    match o.read(name, string)?.as_deref() {
        None | Some("" | "balanced") => Ok(Aggressiveness::Balanced),
        Some("conservative") => Ok(Aggressiveness::Conservative),
        Some("aggressive") => Ok(Aggressiveness::Aggressive),
        Some(other) => fail(
            &o.at(name),
            "conservative, balanced or aggressive",
            quote(other),
        ),
    }
}
