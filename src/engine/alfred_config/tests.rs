//! Unit tests of the effective config: every default of the §5 table, the JSON contract's
//! printing and the policies page examples here; matching and property tests in `tests/`.

use super::printing::go_duration_string;
use super::*;
use chrono::Weekday;
use serde_json::json;

mod matching;
mod props;

fn parse_ok(yaml: &str) -> AlfredConfig {
    parse_alfred_config(yaml).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn minimal_config_gives_every_default_of_the_table() {
    let c = parse_ok("schemaVersion: 1\n");
    assert_eq!(c, AlfredConfig::default());
    // alfred.md §5, row by row, as the JSON contract prints it.
    let table = json!({
        "schemaVersion": 1,
        "mode": "recommend-only",
        "decisionLoopInterval": "5m0s",
        "observationLoopInterval": "30s",
        "earlyTickOn": ["NodeConditionChange", "NodeMaintenanceChange"],
        "scheduling": {"profiles": {}},
        "policies": {
            "defragmentation": {
                "enabled": true,
                "fragmentationThreshold": 0.25,
                "aggressiveness": "balanced",
                "scoring": {
                    "sizeLadder": [1, 2, 4, 8],
                    "demandBlendLambda": 0.3,
                    "sizePrior": {"1": 0.1, "2": 0.1, "4": 0.2, "8": 0.6},
                    "pendingUrgencyTauMinutes": 30
                }
            },
            "nodeHealth": {
                "enabled": true,
                "aggressiveness": "balanced",
                "triggerConditions": ["GpuUnhealthy"],
                "signalOnly": false,
                "healthCooldownFloorMinutes": 5,
                "nodeSuspicionWindowMinutes": 30,
                "maintenance": {"triggers": []}
            }
        },
        "defaultMovable": true,
        "recentPlacementCooldownMinutes": 10,
        "perWorkloadCooldownMinutes": 30,
        "perNodeCooldownMinutes": 10,
        "rawDeploymentMigrationEnabled": false,
        "omenativeMigrationEnabled": true,
        "lwsRecommendationsEnabled": true,
        "tpuSliceMigrationEnabled": false,
        "tpuSlicePartitions": {
            "topologyLabel": "cloud.google.com/gke-tpu-topology",
            "idLabel": "cloud.google.com/gke-tpu-partition-%s-id",
            "stateLabel": "cloud.google.com/gke-tpu-partition-%s-state",
            "healthyState": "HEALTHY"
        },
        "recommendationsConfigMapEnabled": true,
        "recommendationsConfigMapName": "alfred-recommendations",
        "maxInFlightMigrations": 3,
        "maxMigrationsPerHour": 10,
        "emergencyPendingAgeMinutes": 10,
        "maintenanceWindows": [],
        "spotPolicy": {
            "avoidAsTarget": true,
            "preferAsSource": true,
            "preemptibleLabels": [
                "node.kubernetes.io/preemptible",
                "cloud.google.com/gke-preemptible"
            ]
        },
        "allowCrossTenantOptimization": true,
        "logLevel": "info",
        "structuredLogging": true
    });
    assert_eq!(serde_json::to_value(&c).unwrap(), table);
    // The typed values behind the strings.
    assert_eq!(c.decision_loop_interval, Duration::from_secs(300));
    assert_eq!(c.observation_loop_interval, Duration::from_secs(30));
    assert_eq!(c.policies.defragmentation.scoring.prior_weight(8), 0.6);
    assert_eq!(c.policies.defragmentation.scoring.prior_weight(3), 0.0);
}

#[test]
fn effective_config_falls_back_to_defaults() {
    assert_eq!(
        effective_alfred_config(None),
        (AlfredConfig::default(), None)
    );
    let (c, e) = effective_alfred_config(Some("schemaVersion: 1\nmode: dry-run"));
    assert_eq!(
        (c, e.map(|e| e.path)),
        (AlfredConfig::default(), Some("mode".into()))
    );
    let (c, e) = effective_alfred_config(Some("schemaVersion: 1\nmode: execute"));
    assert_eq!((c.mode, e), (Mode::Execute, None));
}

#[test]
fn error_display_names_path_expected_and_found() {
    let e = ConfigError {
        path: "a.b".into(),
        expected: "x".into(),
        found: "y".into(),
    };
    assert_eq!(e.to_string(), "config.yaml: a.b: expected x, found y");
    let e = ConfigError {
        path: String::new(),
        ..e
    };
    assert_eq!(e.to_string(), "config.yaml: expected x, found y");
}

#[test]
fn json_keys_are_exactly_the_yaml_keys() {
    let v = serde_json::to_value(AlfredConfig::default()).unwrap();
    let mut got: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let mut want = validate::TOP_KEYS.to_vec();
    got.sort_unstable();
    want.sort_unstable();
    assert_eq!(got, want);
}

const RICH: &str = r#"
schemaVersion: 1
mode: execute
decisionLoopInterval: 1h30m
scheduling:
  profiles:
    default-scheduler: {backend: b, schedulerVersion: v1, configurationID: c, gangScheduling: true}
policies:
  defragmentation: {scoring: {sizeLadder: [1, 2, 4], sizePrior: {"1": 0.25, "2": 0.25, "4": 0.5}}}
  nodeHealth:
    maintenance:
      triggers:
        - {name: patch, condition: {type: Patching, status: "True"}}
        - {name: start-at, label: {key: example.com/start-at, valueIsStartTime: true}, cordon: true}
        - {name: swap, taint: {key: example.com/swap, effect: NoExecute}}
maintenanceWindows:
  - {days: [Sat, Sun], start: "1:00", end: "05:30"}
"#;

#[test]
fn json_of_triggers_windows_and_profiles_reads_like_the_yaml() {
    let v = serde_json::to_value(parse_ok(RICH)).unwrap();
    let triggers = &v["policies"]["nodeHealth"]["maintenance"]["triggers"];
    let condition = json!({"type": "Patching", "status": "True"});
    assert_eq!(
        triggers[0],
        json!({"name": "patch", "condition": condition, "cordon": false})
    );
    let label = json!({"key": "example.com/start-at", "valueIsStartTime": true});
    assert_eq!(
        triggers[1],
        json!({"name": "start-at", "label": label, "cordon": true})
    );
    let taint = json!({"key": "example.com/swap", "effect": "NoExecute"});
    assert_eq!(
        triggers[2],
        json!({"name": "swap", "taint": taint, "cordon": false})
    );
    let window = json!({"days": ["Sat", "Sun"], "start": "01:00", "end": "05:30"});
    assert_eq!(v["maintenanceWindows"], json!([window]));
    let profile = &v["scheduling"]["profiles"]["default-scheduler"];
    assert_eq!(
        (&profile["configurationID"], &profile["gangScheduling"]),
        (&json!("c"), &json!(true))
    );
    assert_eq!(v["decisionLoopInterval"], "1h30m0s");
}

#[test]
fn printed_json_parses_back_to_the_same_config() {
    // JSON is YAML, so the printed effective config must be a valid config.yaml.
    for config in [AlfredConfig::default(), parse_ok(RICH)] {
        let text = serde_json::to_string(&config).unwrap();
        assert_eq!(parse_ok(&text), config, "{text}");
    }
}

#[test]
fn examples_from_the_alfred_policies_page_parse() {
    let c = parse_ok(
        r#"
schemaVersion: 1
policies:
  nodeHealth:
    maintenance:
      triggers:
        - name: os-patching
          label:
            key: maintenance.example.com/state
            value: patching
        - name: hardware-swap
          taint:
            key: maintenance.example.com/hardware-swap
            effect: NoSchedule
maintenanceWindows:
  - days: [Sat, Sun]
    start: "01:00"
    end: "05:00"
"#,
    );
    let triggers = &c.policies.node_health.maintenance.triggers;
    let label = TriggerMatcher::Label {
        key: "maintenance.example.com/state".into(),
        value: Some("patching".into()),
        value_is_start_time: false,
    };
    assert_eq!(
        (triggers[0].name.as_str(), &triggers[0].matcher),
        ("os-patching", &label)
    );
    let taint = TriggerMatcher::Taint {
        key: "maintenance.example.com/hardware-swap".into(),
        value: None,
        effect: Some(TaintEffect::NoSchedule),
    };
    assert_eq!(
        (triggers[1].name.as_str(), &triggers[1].matcher),
        ("hardware-swap", &taint)
    );
    let w = &c.maintenance_windows[0];
    assert_eq!(
        (w.days.as_slice(), w.start_minute, w.end_minute),
        (&[Weekday::Sat, Weekday::Sun][..], 60, 300)
    );
}

#[test]
fn durations_print_like_go() {
    let cases = [
        (Duration::ZERO, "0s"),
        (Duration::from_secs(300), "5m0s"),
        (Duration::from_secs(30), "30s"),
        (Duration::from_secs(5400), "1h30m0s"),
        (Duration::from_secs(7200), "2h0m0s"),
        (Duration::from_millis(1500), "1.5s"),
        (Duration::from_millis(250), "250ms"),
        (Duration::from_micros(1), "1µs"),
        (Duration::from_nanos(1_500), "1.5µs"),
        (Duration::from_nanos(61_000_000_001), "1m1.000000001s"),
    ];
    for (d, text) in cases {
        assert_eq!(go_duration_string(d), text);
    }
}
