//! How old a pass is (spec §11 step 2), a row's identity within a pass (§1.3) and the
//! client-side display order of rows (§8.1).
//!
//! Pure: `now` is an argument.

use std::cmp::Ordering;
use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};

use super::row::Row;
use super::STALE_AFTER_INTERVALS;

/// How old a pass is. Invariant: `stale` and `clock_skew` are never both true.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Freshness {
    /// `now − timestamp`; negative when the timestamp is in the future.
    pub age: TimeDelta,
    /// Older than [`STALE_AFTER_INTERVALS`] × `decisionLoopInterval` (strictly).
    pub stale: bool,
    /// The timestamp is after `now`: the clocks disagree; this is not staleness.
    pub clock_skew: bool,
}

/// Judges a pass's age. "Stale" follows the reference CLI (`kubectl ome admin
/// recommendations`): older than 2 × `decisionLoopInterval`; it is a client convention, not an
/// Alfred rule. Exactly 2× is fresh. An interval too large to represent is never stale.
pub fn freshness(
    timestamp: DateTime<Utc>,
    decision_loop_interval: Duration,
    now: DateTime<Utc>,
) -> Freshness {
    let age = now.signed_duration_since(timestamp);
    let clock_skew = age < TimeDelta::zero();
    let limit = decision_loop_interval
        .checked_mul(STALE_AFTER_INTERVALS)
        .and_then(|d| TimeDelta::from_std(d).ok());
    let stale = !clock_skew && limit.is_some_and(|limit| age > limit);
    Freshness {
        age,
        stale,
        clock_skew,
    }
}

/// The instant a pass published at `timestamp` turns stale for [`freshness`]: one nanosecond
/// past `STALE_AFTER_INTERVALS × decisionLoopInterval` (exactly that age is still fresh);
/// `None` when the limit is not representable (never stale).
pub fn stale_at(
    timestamp: DateTime<Utc>,
    decision_loop_interval: Duration,
) -> Option<DateTime<Utc>> {
    let limit = decision_loop_interval
        .checked_mul(STALE_AFTER_INTERVALS)
        .and_then(|d| TimeDelta::from_std(d).ok())?;
    timestamp
        .checked_add_signed(limit)?
        .checked_add_signed(TimeDelta::nanoseconds(1))
}

/// A row's identity within one pass: `(policy, workload, component, instance, fromNode,
/// reason)`. The same Instance may appear under two identities (health and defrag).
pub type RowIdentity<'a> = (&'a str, &'a str, &'a str, i32, Option<&'a str>, &'a str);

/// The identity tuple of `row` (§1.3).
pub fn row_identity(row: &Row) -> RowIdentity<'_> {
    (
        row.policy.as_str(),
        &row.workload,
        &row.component,
        row.instance,
        row.from_node.as_deref(),
        row.reason.as_str(),
    )
}

/// Sorts rows for display in the arbiter's order (§8.1): class desc, score desc, then — since a
/// row does not carry the Instance's GPU footprint — workload, component, instance ascending.
/// This is a DISPLAY order over all rows; Alfred arbitrates only executable candidates and does
/// not write rows in this order. Stable: remaining ties keep the writer's (policy) order.
pub fn sort_rows_for_display(rows: &mut [Row]) {
    rows.sort_by(display_order);
}

fn display_order(a: &Row, b: &Row) -> Ordering {
    // `+ 0.0` folds -0.0 into 0.0 so total_cmp (a total order, safe for sort) ties them.
    // The arbiter's class priority (§8.1): NodeUnhealthy 2 > NodeMaintenance 1 > others 0.
    b.reason
        .class()
        .cmp(&a.reason.class())
        .then_with(|| (b.score + 0.0).total_cmp(&(a.score + 0.0)))
        .then_with(|| a.workload.cmp(&b.workload))
        .then_with(|| a.component.cmp(&b.component))
        .then_with(|| a.instance.cmp(&b.instance))
}
