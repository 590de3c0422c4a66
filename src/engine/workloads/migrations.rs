//! Workload migration state (`inferencereplica.md` §5.2): request annotations, IR
//! `status.migrations[]` rows, `MigrationStateValid`, `ActiveMigrations` and `LastMigration`.
//!
//! Owns: `workload_migrations`. Pure.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::engine::migration::{parse_request_annotation, REQUEST_ANNOTATION_PREFIX};
use crate::engine::model::{
    ClusterSnapshot, InferenceService, MigrationPhase, MigrationStatus, Time, COMPONENTS,
};
use crate::engine::workloads::{IsvcComponents, WorkloadMigrations};

fn row_valid(row: &MigrationStatus, seen: &mut HashSet<String>) -> bool {
    let unique = !row.request_uuid.is_empty() && seen.insert(row.request_uuid.to_string());
    let phase_ok = match row.trigger.as_ref() {
        "Manual" => row.phase.is_manual(),
        "Auto" => row.phase == MigrationPhase::Relocated,
        _ => false,
    };
    let times_ok = match (row.started_at, row.completed_at) {
        (None, _) => false,
        (Some(s), Some(c)) => c >= s && row.is_terminal(),
        (Some(_), None) => true,
    };
    unique && row.source_instance.is_some_and(|i| i >= 0) && phase_ok && times_ok
}

/// Computes the migration evidence of ISVC `isvc` from its annotations and the migration rows
/// of every bound IR of its OMENative components.
pub fn workload_migrations(
    snap: &ClusterSnapshot,
    isvc: usize,
    components: &IsvcComponents,
) -> WorkloadMigrations {
    let w = &snap.isvcs[isvc];
    let mut out = WorkloadMigrations {
        state_valid: true,
        ..Default::default()
    };
    let invalid = |out: &mut WorkloadMigrations, why: String| {
        out.state_valid = false;
        out.invalid_reason.get_or_insert(why);
    };
    let mine = || {
        components
            .iter()
            .enumerate()
            .filter_map(|(c, comp)| Some((c, comp.as_ref()?)))
    };
    let mut rows: Vec<(usize, &MigrationStatus)> = Vec::new();
    for (c, comp) in mine() {
        // `ir` is set only when steps 1–5 bound a fresh replica (layout/row failures keep it).
        match comp.ir {
            Some(ir) => rows.extend(snap.replicas[ir].status.migrations.iter().map(|r| (c, r))),
            None => invalid(
                &mut out,
                format!("{} has no bound inference replica", COMPONENTS[c]),
            ),
        }
    }
    let mut seen = HashSet::default();
    let mut row_uuids = HashSet::default();
    for (c, row) in &rows {
        row_uuids.insert(row.request_uuid.to_string());
        if !row_valid(row, &mut seen) {
            invalid(
                &mut out,
                format!("migration row {} is invalid", row.request_uuid),
            );
            continue;
        }
        if row.is_terminal() {
            let t = row.completed_at.or(row.started_at);
            out.last_migration = out.last_migration.max(t);
            continue;
        }
        out.active += 1;
        out.active_requested_at.extend(row.started_at);
        let source = row.source_instance.unwrap_or(-1);
        let healthy_source = components
            .get(*c)
            .and_then(Option::as_ref)
            .is_some_and(|comp| {
                comp.instances
                    .iter()
                    .any(|i| i.index == source && i.observation.is_ok())
            });
        if !healthy_source {
            invalid(
                &mut out,
                format!(
                    "migration {} source instance {source} is not observed",
                    row.request_uuid
                ),
            );
        }
    }
    request_annotations(w, components, &row_uuids, &mut out);
    out
}

/// When the cooldown `in_cooldown` judges ends: `last + window_minutes` (`None` when no
/// cooldown runs at any time, or the instant is not representable).
pub fn cooldown_end(last: Option<Time>, window_minutes: i64) -> Option<Time> {
    let t = last.filter(|_| window_minutes > 0)?;
    t.checked_add_signed(chrono::Duration::try_minutes(window_minutes)?)
}

/// Whether `now − last < window_minutes` (a per-workload cooldown is running).
pub fn in_cooldown(last: Option<Time>, window_minutes: i64, now: Time) -> bool {
    match last {
        Some(t) if window_minutes > 0 => {
            now.signed_duration_since(t) < chrono::Duration::minutes(window_minutes)
        }
        _ => false,
    }
}

/// Adds the request annotations of `w` that no IR row supersedes: well-formed ones are active
/// migrations, malformed ones invalidate the workload's migration state.
fn request_annotations(
    w: &InferenceService,
    components: &IsvcComponents,
    row_uuids: &HashSet<String>,
    out: &mut WorkloadMigrations,
) {
    let has_requests = w
        .annotations
        .keys()
        .any(|k| k.starts_with(REQUEST_ANNOTATION_PREFIX));
    if !has_requests {
        return; // The common case: no request annotation to check.
    }
    let instances: HashMap<&str, HashSet<i64>> = components
        .iter()
        .enumerate()
        .filter_map(|(c, comp)| Some((c, comp.as_ref()?)))
        .map(|(c, comp)| {
            (
                COMPONENTS[c],
                comp.instances.iter().map(|i| i.index).collect(),
            )
        })
        .collect();
    for (key, value) in &w.annotations {
        let Some(uuid) = key.strip_prefix(REQUEST_ANNOTATION_PREFIX) else {
            continue;
        };
        out.request_uuids.push(uuid.to_string());
        if row_uuids.contains(uuid) {
            continue; // An IR row with the same UUID supersedes the annotation.
        }
        let parsed = parse_request_annotation(key, value).ok().filter(|r| {
            instances
                .get(r.component.as_str())
                .is_some_and(|set| set.contains(&i64::from(r.instance)))
        });
        match parsed {
            Some(r) => {
                out.active += 1;
                out.active_requested_at.extend(r.requested_at);
            }
            None => {
                out.malformed_request = true;
                out.state_valid = false;
                out.invalid_reason
                    .get_or_insert(format!("request annotation {key} is malformed"));
            }
        }
    }
}
