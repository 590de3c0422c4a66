//! Decoder and validator behind [`super::parse_alfred_config`]: reads `config.yaml` into a
//! YAML tree that keeps duplicate keys, then walks the schema of alfred.md §5 block by block,
//! applying Alfred's defaults and validation and naming the key path of the first problem.
//!
//! It reproduces `sigs.k8s.io/yaml` + `encoding/json` semantics where they show: keys match
//! struct fields case-insensitively; numbers and bools given for a string become strings
//! (`value: 5` is "5", unquoted `status: True` is "true" and so invalid); an integral float is
//! an integer; `null` means "absent" (a zero value inside lists and maps) except for durations.
//!
//! This file owns the entry point and the top-level keys; `yaml` the document tree and message
//! helpers, `reader` the Go-struct view of a mapping and its scalar readers, `fields` the
//! defaulted field readers, `syntax` the Go and Kubernetes string syntaxes, `blocks` the
//! scheduling, policy, TPU and spot blocks, `maintenance` the triggers and windows.

mod blocks;
mod fields;
mod maintenance;
mod reader;
mod syntax;
#[cfg(test)]
mod tests;
mod yaml;

use super::{AlfredConfig, ConfigError, EarlyTick, Mode};
use blocks::{read_policies, read_scheduling, read_spot_policy, read_tpu};
use fields::{flag, interval, positive_or_default, text_or};
use maintenance::read_windows;
use reader::{int, string, Obj};
use yaml::{fail, quote, Yaml};

type Res<T> = Result<T, ConfigError>;

/// Top-level keys, in the order Alfred's `Config` struct declares them.
#[rustfmt::skip]
pub(super) const TOP_KEYS: &[&str] = &[
    "schemaVersion", "mode", "decisionLoopInterval", "observationLoopInterval", "earlyTickOn",
    "policies", "scheduling", "defaultMovable", "recentPlacementCooldownMinutes",
    "perWorkloadCooldownMinutes", "perNodeCooldownMinutes", "rawDeploymentMigrationEnabled",
    "omenativeMigrationEnabled", "lwsRecommendationsEnabled", "tpuSliceMigrationEnabled",
    "tpuSlicePartitions", "recommendationsConfigMapEnabled", "recommendationsConfigMapName",
    "maxInFlightMigrations", "maxMigrationsPerHour", "emergencyPendingAgeMinutes",
    "maintenanceWindows", "spotPolicy", "allowCrossTenantOptimization", "logLevel",
    "structuredLogging",
];

/// Entry point: the whole document, blocks in the order Alfred validates them.
pub(super) fn parse(yaml: &str) -> Res<AlfredConfig> {
    let doc = match Yaml::read(yaml) {
        Ok(doc) => doc,
        Err(e) => return fail("", "valid YAML (one document)", e.to_string()),
    };
    let top = Obj::open(Some(&doc), String::new(), TOP_KEYS)?;
    let mut c = AlfredConfig::default();
    match top.read("schemaVersion", int)? {
        Some(1) => {}
        Some(v) => return fail("schemaVersion", "1", v.to_string()),
        None => return fail("schemaVersion", "1", "nothing (the key is required)"),
    }
    c.mode = match top.read("mode", string)?.as_deref() {
        None | Some("" | "recommend-only") => Mode::RecommendOnly,
        Some("execute") => Mode::Execute,
        Some(other) => return fail("mode", "recommend-only or execute", quote(other)),
    };
    read_tpu(&top, &mut c)?;
    let (decision, observation) = ("decisionLoopInterval", "observationLoopInterval");
    c.decision_loop_interval = interval(&top, decision, c.decision_loop_interval)?;
    c.observation_loop_interval = interval(&top, observation, c.observation_loop_interval)?;
    if let Some(names) = top.list("earlyTickOn", string)? {
        let tick = |(i, name): (usize, &String)| early_tick(name, i);
        c.early_tick_on = names.iter().enumerate().map(tick).collect::<Res<_>>()?;
    }
    c.scheduling = read_scheduling(&top)?;
    read_policies(&top, &mut c)?;
    read_top_scalars(&top, &mut c)?;
    c.maintenance_windows = read_windows(&top)?;
    read_spot_policy(&top, &mut c)?;
    Ok(c)
}

fn early_tick(name: &str, i: usize) -> Res<EarlyTick> {
    match name {
        "NodeConditionChange" => Ok(EarlyTick::NodeConditionChange),
        "NodeMaintenanceChange" => Ok(EarlyTick::NodeMaintenanceChange),
        other => {
            let expected = "NodeConditionChange or NodeMaintenanceChange";
            fail(&format!("earlyTickOn[{i}]"), expected, quote(other))
        }
    }
}

/// The top-level bools of the config, by key.
fn flag_slot<'c>(c: &'c mut AlfredConfig, key: &str) -> Option<&'c mut bool> {
    Some(match key {
        "defaultMovable" => &mut c.default_movable,
        "rawDeploymentMigrationEnabled" => &mut c.raw_deployment_migration_enabled,
        "omenativeMigrationEnabled" => &mut c.omenative_migration_enabled,
        "lwsRecommendationsEnabled" => &mut c.lws_recommendations_enabled,
        "tpuSliceMigrationEnabled" => &mut c.tpu_slice_migration_enabled,
        "recommendationsConfigMapEnabled" => &mut c.recommendations_config_map_enabled,
        "allowCrossTenantOptimization" => &mut c.allow_cross_tenant_optimization,
        "structuredLogging" => &mut c.structured_logging,
        _ => return None,
    })
}

/// The top-level "positive, 0 = default" integers of the config, by key.
fn count_slot<'c>(c: &'c mut AlfredConfig, key: &str) -> Option<&'c mut u32> {
    Some(match key {
        "recentPlacementCooldownMinutes" => &mut c.recent_placement_cooldown_minutes,
        "perWorkloadCooldownMinutes" => &mut c.per_workload_cooldown_minutes,
        "perNodeCooldownMinutes" => &mut c.per_node_cooldown_minutes,
        "maxInFlightMigrations" => &mut c.max_in_flight_migrations,
        "maxMigrationsPerHour" => &mut c.max_migrations_per_hour,
        "emergencyPendingAgeMinutes" => &mut c.emergency_pending_age_minutes,
        _ => return None,
    })
}

/// Top-level bools, counts and free strings; only keys present change a default.
fn read_top_scalars(top: &Obj<'_>, c: &mut AlfredConfig) -> Res<()> {
    for &(key, _) in &top.fields {
        if let Some(slot) = flag_slot(c, key) {
            *slot = flag(top, key, *slot)?;
        } else if let Some(slot) = count_slot(c, key) {
            *slot = positive_or_default(top, key, *slot)?;
        }
    }
    let name = "recommendationsConfigMapName";
    c.recommendations_config_map_name = text_or(top, name, &c.recommendations_config_map_name)?;
    c.log_level = text_or(top, "logLevel", &c.log_level)?;
    Ok(())
}
