//! What the history store hands the TUI for the mixed fleet: h100-04's recorded rows (an
//! earlier repair with its Suspect window, a cordon, the current Unhealthy episode) and the
//! health answers computed from them and from h100-05, which flapped.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use chrono::{Duration, TimeZone, Utc};
use ome_top::engine::model::Time;
use ome_top::engine::nodes::HealthState;
use ome_top::engine::timeline::{nodes_health, NodeObservation, NodesHealth, Observed};

use crate::tui_support::now;

/// The pool of h100-04 and h100-05 in the mixed fleet.
pub const POOL: &str = "NVIDIA-H100-80GB-HBM3";

fn t(day: u32, h: u32, m: u32) -> Time {
    Utc.with_ymd_and_hms(2026, 9, day, h, m, 0).unwrap()
}

fn row(at: Time, health: HealthState, since: Option<Time>, cordoned: bool) -> Observed {
    let reason = match health {
        HealthState::Clear if since.is_none() => "",
        HealthState::Unhealthy => "GpuUnhealthy=True",
        _ => "GpuUnhealthy=False",
    };
    let cleared = match health {
        HealthState::Suspect { .. } => since,
        HealthState::Clear => since.map(|s| s - Duration::minutes(30)),
        _ => None,
    };
    Observed {
        at,
        observed: NodeObservation {
            health,
            reason: reason.into(),
            triggers: Vec::new(),
            cordoned,
            since,
            cleared,
            pool: Some(POOL.into()),
        },
    }
}

/// h100-04: first seen Clear a week ago; Unhealthy 14:02–15:25 two days ago and Suspect until
/// 15:55; cordoned 02:00–06:00 yesterday; Unhealthy again since 09:40 today (as its condition
/// says).
pub fn h100_04_rows() -> Vec<Observed> {
    let suspect = HealthState::Suspect {
        until: t(26, 15, 55),
    };
    vec![
        row(t(21, 10, 0), HealthState::Clear, None, false),
        row(
            t(26, 14, 10),
            HealthState::Unhealthy,
            Some(t(26, 14, 2)),
            false,
        ),
        row(t(26, 15, 30), suspect, Some(t(26, 15, 25)), false),
        row(t(26, 16, 0), HealthState::Clear, Some(t(26, 15, 55)), false),
        row(t(27, 2, 0), HealthState::Clear, Some(t(26, 15, 55)), true),
        row(t(27, 6, 0), HealthState::Clear, Some(t(26, 15, 55)), false),
        row(
            t(28, 9, 41),
            HealthState::Unhealthy,
            Some(t(28, 9, 40)),
            false,
        ),
    ]
}

/// h100-05: four short repairs in the last week.
fn h100_05_rows() -> Vec<Observed> {
    let mut rows = vec![row(t(21, 10, 0), HealthState::Clear, None, false)];
    for day in [24, 25, 26, 27] {
        let down = t(day, 8, 0);
        let up = down + Duration::minutes(20);
        let until = up + Duration::minutes(30);
        rows.push(row(down, HealthState::Unhealthy, Some(down), false));
        rows.push(row(up, HealthState::Suspect { until }, Some(up), false));
        rows.push(row(until, HealthState::Clear, Some(until), false));
    }
    rows
}

/// The health answers over the last 7 days, flapping above 3 episodes.
pub fn fleet() -> Arc<NodesHealth> {
    let (a, b) = (h100_04_rows(), h100_05_rows());
    let nodes = [
        ("h100-04", Some(POOL), a.as_slice()),
        ("h100-05", Some(POOL), b.as_slice()),
    ];
    Arc::new(nodes_health(nodes, now() - Duration::days(7), now(), 3))
}
