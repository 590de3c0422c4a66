//! Accepted documents: defaults for zero values, explicit zero/false kept, a full schema, the
//! normalised prior, Go decoder quirks, E3 extras and trigger shapes Alfred accepts.

use super::*;
use crate::engine::alfred_config::{Aggressiveness, TriggerMatcher};
use std::time::Duration;

#[test]
fn zero_means_default_for_integers_and_durations() {
    let mut body = String::from("decisionLoopInterval: 0s\nobservationLoopInterval: \"0\"\n");
    for key in TOP_KEYS
        .iter()
        .filter(|k| k.ends_with("Minutes") || k.starts_with("max"))
    {
        body.push_str(&format!("{key}: 0\n"));
    }
    body.push_str(&format!(
        "{H}healthCooldownFloorMinutes: 0\n    nodeSuspicionWindowMinutes: 0\n"
    ));
    body.push_str("  defragmentation:\n    scoring:\n      pendingUrgencyTauMinutes: 0\n");
    body.push_str("      sizeLadder: []\n      sizePrior: {}\n");
    body.push_str("mode: \"\"\nrecommendationsConfigMapName: \"\"\nlogLevel: \"\"\n");
    assert_eq!(ok(&body), AlfredConfig::default());
}

#[test]
fn explicit_zero_and_false_are_kept_for_floats_and_bools() {
    let c = ok(&format!(
        "{P}enabled: false\n    fragmentationThreshold: 0\n    scoring:\n      \
         demandBlendLambda: 0\n  nodeHealth:\n    enabled: false\n    signalOnly: false\n\
         defaultMovable: false\nomenativeMigrationEnabled: false\nstructuredLogging: false\n\
         spotPolicy: {{avoidAsTarget: false, preferAsSource: false, preemptibleLabels: []}}\n\
         earlyTickOn: []"
    ));
    let d = &c.policies.defragmentation;
    assert!(!d.enabled && d.fragmentation_threshold == 0.0 && d.scoring.demand_blend_lambda == 0.0);
    assert!(!c.policies.node_health.enabled && !c.default_movable);
    assert!(!c.omenative_migration_enabled && !c.structured_logging);
    assert!(!c.spot_policy.avoid_as_target && !c.spot_policy.prefer_as_source);
    assert!(c.spot_policy.preemptible_labels.is_empty() && c.early_tick_on.is_empty());
}

#[test]
fn parses_a_full_schema() {
    let c = ok(r#"
mode: execute
decisionLoopInterval: 2m
observationLoopInterval: 1m30s
earlyTickOn: [NodeConditionChange]
scheduling:
  profiles:
    ome-scheduler: {backend: kube-scheduler-simulator, schedulerVersion: v1.35.0, configurationID: c1, gangScheduling: true}
policies:
  defragmentation:
    fragmentationThreshold: 0.4
    aggressiveness: conservative
    scoring:
      sizeLadder: [1, 2, 4]
      demandBlendLambda: 0.5
      sizePrior: {"1": 0.2, "2": 0.3, "4": 0.5}
      pendingUrgencyTauMinutes: 15
  nodeHealth:
    aggressiveness: aggressive
    triggerConditions: [GpuUnhealthy, example.com/NodeNotReady]
    healthCooldownFloorMinutes: 3
    nodeSuspicionWindowMinutes: 45
defaultMovable: false
recentPlacementCooldownMinutes: 20
perWorkloadCooldownMinutes: 60
perNodeCooldownMinutes: 15
rawDeploymentMigrationEnabled: true
lwsRecommendationsEnabled: false
tpuSliceMigrationEnabled: true
tpuSlicePartitions: {topologyLabel: example.com/topology, idLabel: "example.com/p-%s-id", stateLabel: "example.com/p-%s-state", healthyState: READY}
recommendationsConfigMapEnabled: false
recommendationsConfigMapName: my-recs
maxInFlightMigrations: 5
maxMigrationsPerHour: 20
emergencyPendingAgeMinutes: 7
maintenanceWindows:
  - days: [Mon, Tue, Wed, Thu, Fri]
    start: "09:00"
    end: "17:00"
spotPolicy:
  preemptibleLabels: [custom.io/spot]
allowCrossTenantOptimization: false
logLevel: debug
"#);
    assert_eq!(c.mode, Mode::Execute);
    assert_eq!(c.decision_loop_interval, Duration::from_secs(120));
    assert_eq!(c.observation_loop_interval, Duration::from_secs(90));
    assert_eq!(c.early_tick_on, [EarlyTick::NodeConditionChange]);
    let p = &c.scheduling.profiles["ome-scheduler"];
    assert!(p.gang_scheduling && p.configuration_id == "c1" && p.scheduler_version == "v1.35.0");
    let d = &c.policies.defragmentation;
    assert_eq!(
        (d.fragmentation_threshold, d.aggressiveness),
        (0.4, Aggressiveness::Conservative)
    );
    assert_eq!(d.scoring.size_ladder, [1, 2, 4]);
    assert_eq!(d.scoring.prior_weight(2), 0.3);
    assert_eq!(
        (
            d.scoring.demand_blend_lambda,
            d.scoring.pending_urgency_tau_minutes
        ),
        (0.5, 15)
    );
    let n = &c.policies.node_health;
    assert_eq!(n.aggressiveness, Aggressiveness::Aggressive);
    assert_eq!(
        n.trigger_conditions,
        ["GpuUnhealthy", "example.com/NodeNotReady"]
    );
    assert_eq!(
        (
            n.health_cooldown_floor_minutes,
            n.node_suspicion_window_minutes
        ),
        (3, 45)
    );
    assert!(!c.default_movable && c.raw_deployment_migration_enabled);
    assert!(!c.lws_recommendations_enabled && c.tpu_slice_migration_enabled);
    assert_eq!(c.tpu_slice_partitions.healthy_state, "READY");
    assert!(!c.recommendations_config_map_enabled);
    assert_eq!(c.recommendations_config_map_name, "my-recs");
    let counts = [
        c.recent_placement_cooldown_minutes,
        c.per_workload_cooldown_minutes,
    ];
    assert_eq!(counts, [20, 60]);
    let caps = [c.per_node_cooldown_minutes, c.max_in_flight_migrations];
    assert_eq!(caps, [15, 5]);
    assert_eq!(
        (c.max_migrations_per_hour, c.emergency_pending_age_minutes),
        (20, 7)
    );
    let w = &c.maintenance_windows[0];
    assert_eq!((w.days.len(), w.start_minute, w.end_minute), (5, 540, 1020));
    assert_eq!(c.spot_policy.preemptible_labels, ["custom.io/spot"]);
    assert!(c.spot_policy.avoid_as_target && !c.allow_cross_tenant_optimization);
    assert_eq!(c.log_level, "debug");
}

#[test]
fn prior_is_normalised_and_null_weights_count_as_zero() {
    let c = ok(&format!(
        "{S}sizePrior: {{\"1\": 0.2, \"2\": 0.3, \"4\": 0.1, \"8\": 0.405}}"
    ));
    let prior = &c.policies.defragmentation.scoring.size_prior;
    assert!((prior.values().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!((prior[&8] - 0.405 / 1.005).abs() < 1e-12);
    // Unquoted integer keys are the same keys; a null weight is Go's zero.
    let c = ok(&format!("{S}sizePrior: {{1: 0.5, 8: 0.5, 4: null}}"));
    let prior = &c.policies.defragmentation.scoring.size_prior;
    assert_eq!(
        prior.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(),
        [(1, 0.5), (4, 0.0), (8, 0.5)]
    );
}

#[test]
fn go_decoder_quirks_are_reproduced() {
    // encoding/json matches keys case-insensitively.
    assert_eq!(
        parse("SchemaVersion: 1\nMODE: execute").map(|c| c.mode),
        Ok(Mode::Execute)
    );
    // YAML 1.1 boolean words.
    assert!(!ok("defaultMovable: no").default_movable);
    assert!(ok("rawDeploymentMigrationEnabled: on").raw_deployment_migration_enabled);
    // Numbers and bools in string fields become strings.
    assert_eq!(ok("logLevel: 3").log_level, "3");
    assert_eq!(
        ok("recommendationsConfigMapName: 1.0").recommendations_config_map_name,
        "1"
    );
    assert_eq!(ok("logLevel: 1e6").log_level, "1e+06");
    let c = ok(&format!("{T}[{{name: 7, label: {{key: k, value: 5}}}}]"));
    let t = &c.policies.node_health.maintenance.triggers[0];
    assert_eq!(t.name, "7");
    assert!(matches!(&t.matcher, TriggerMatcher::Label { value: Some(v), .. } if v == "5"));
    // Integral floats are integers; null is "absent".
    assert_eq!(ok("maxInFlightMigrations: 5.0").max_in_flight_migrations, 5);
    assert_eq!(
        ok("mode: ~\npolicies: ~\nspotPolicy:\n  preemptibleLabels: null"),
        AlfredConfig::default()
    );
    // Explicitly empty lists: earlyTickOn/preemptibleLabels keep [], the others default.
    let c = ok(&format!("{H}triggerConditions: []\nearlyTickOn: []"));
    assert_eq!(c.policies.node_health.trigger_conditions, ["GpuUnhealthy"]);
    assert!(c.early_tick_on.is_empty());
    // A huge count is clamped rather than rejected (Alfred accepts it).
    assert_eq!(
        ok("maxMigrationsPerHour: 99999999999").max_migrations_per_hour,
        u32::MAX
    );
}

#[test]
fn e3_extras_are_accepted() {
    let c = ok(&format!(
        "{T}\n        - name: de-schedule\n          label: {{key: example.com/start-at, \
         valueIsStartTime: true}}\n          cordon: true\n\
         tpuSliceMigrationEnabled: true"
    ));
    let t = &c.policies.node_health.maintenance.triggers[0];
    assert!(t.cordon && c.tpu_slice_migration_enabled);
    let want = TriggerMatcher::Label {
        key: "example.com/start-at".into(),
        value: None,
        value_is_start_time: true,
    };
    assert_eq!(t.matcher, want);
    let c = ok(&format!(
        "{T}[{{name: p, label: {{key: k, value: v, valueIsStartTime: false}}}}]"
    ));
    assert_eq!(c.policies.node_health.maintenance.triggers.len(), 1);
}

#[test]
fn triggers_accepted_by_alfred() {
    for t in [
        "[]",
        "[{name: patch, condition: {type: Patching, status: \"True\"}}]",
        "[{name: patch, condition: {type: Patching, status: \"False\"}}]",
        "[{name: patch, condition: {type: Patching, status: Unknown}}]",
        "[{name: patch, label: {key: ops.example/patch}}]",
        "[{name: patch, label: {key: ops.example/patch, value: \"\"}}]",
        "[{name: patch, taint: {key: ops.example/patch, value: planned, effect: NoSchedule}}]",
        "[{name: patch, taint: {key: ops.example/patch}}]",
        "[{name: patch, taint: {key: p, effect: \"\"}}]",
        "[{name: patch, condition: null, label: {key: p, value: null}}]",
    ] {
        ok(&format!("{T}{t}"));
    }
}
