//! One rejected document per rule of alfred.md §5, each failing with its key path, plus
//! document-level failures and the wording of messages.

use super::*;
use crate::engine::alfred_config::validate::fields::POSITIVE;

/// One case per rule of alfred.md §5: `path of the error | document after schemaVersion`.
/// `@D`, `@S`, `@H`, `@T`, `@P` abbreviate the defragmentation, scoring, nodeHealth,
/// maintenance-trigger and default-scheduler-profile prefixes of both columns; a written
/// `\n` is a line break.
const REJECTED: &str = r#"
mode | mode: dry-run
decisionLoopInterval | decisionLoopInterval: 500ms
decisionLoopInterval | decisionLoopInterval: -5m
decisionLoopInterval | decisionLoopInterval: soon
decisionLoopInterval | decisionLoopInterval: 300
decisionLoopInterval | decisionLoopInterval: ~
observationLoopInterval | observationLoopInterval: 0.5s
earlyTickOn[0] | earlyTickOn: [PodDeleted]
earlyTickOn[1] | earlyTickOn: [NodeConditionChange, Foo]
earlyTickOn | earlyTickOn: NodeConditionChange
scheduling.profiles["Bad_Name"] | scheduling: {profiles: {Bad_Name: {}}}
scheduling.profiles | scheduling: {profiles: [a]}
@P.backend | @P backend: "", schedulerVersion: v1, configurationID: c}}}
@P.schedulerVersion | @P backend: b, schedulerVersion: " v1", configurationID: c}}}
@P.configurationID | @P backend: b, schedulerVersion: v1, configurationID: null}}}
@P.gangScheduling | @P backend: b, schedulerVersion: v, configurationID: c, gangScheduling: 2}}}
@P.extra | @P backend: b, schedulerVersion: v1, configurationID: c, extra: 1}}}
@D.fragmentationThreshold | @D fragmentationThreshold: 1.5}}
@D.fragmentationThreshold | @D fragmentationThreshold: -0.1}}
@D.fragmentationThreshold | @D fragmentationThreshold: .nan}}
@D.fragmentationThreshold | @D fragmentationThreshold: high}}
@D.aggressiveness | @D aggressiveness: yolo}}
@D.enabled | @D enabled: maybe}}
@S.demandBlendLambda | @S demandBlendLambda: 1.2}}}
@S.sizeLadder | @S sizeLadder: [4, 2, 8]}}}
@S.sizeLadder[0] | @S sizeLadder: [0, 1]}}}
@S.sizeLadder[0] | @S sizeLadder: [-2, 1]}}}
@S.sizeLadder[2] | @S sizeLadder: [1, 2, 2, 4]}}}
@S.sizeLadder[1] | @S sizeLadder: [1, x]}}}
@S.sizePrior["08"] | @S sizePrior: {"08": 1}}}}
@S.sizePrior["+8"] | @S sizePrior: {"+8": 1}}}}
@S.sizePrior["8x"] | @S sizePrior: {"8x": 1}}}}
@S.sizePrior["big"] | @S sizePrior: {big: 1}}}}
@S.sizePrior["16"] | @S sizePrior: {"16": 1}}}}
@S.sizePrior["4"] | @S sizePrior: {"8": 1.2, "4": -0.2}}}}
@S.sizePrior | @S sizePrior: {"8": 0.5}}}}
@S.sizePrior["8"] | @S sizePrior: {"8": 0.5, 8: 0.5}}}}
@S.sizePrior["8"] | @S sizePrior: {"8": "1"}}}}
@S.pendingUrgencyTauMinutes | @S pendingUrgencyTauMinutes: -30}}}
@S.foo | @S foo: 1}}}
@H.aggressiveness | @H aggressiveness: yolo}}
@H.triggerConditions[0] | @H triggerConditions: ["bad name"]}}
@H.triggerConditions[0] | @H triggerConditions: [""]}}
@H.triggerConditions[1] | @H triggerConditions: [A, A]}}
@H.healthCooldownFloorMinutes | @H healthCooldownFloorMinutes: -1}}
@H.nodeSuspicionWindowMinutes | @H nodeSuspicionWindowMinutes: -1}}
@H.signalOnly | @H signalOnly: 1}}
@H.maintenance.triggers | @H maintenance: {triggers: {name: p}}}}
@T[0].name | @T [{}]
@T[0] | @T [{name: patch}]
@T[0].name | @T [{label: {key: patch}}]
@T[0].name | @T [{name: "  ", label: {key: patch}}]
@T[0].name | @T [{name: " patch", label: {key: patch}}]
@T[1].name | @T [{name: p, label: {key: a}}, {name: p, taint: {key: b}}]
@T[0] | @T [{name: p, label: {key: a}, taint: {key: a}}]
@T[0].condition.type | @T [{name: p, condition: {}}]
@T[0].condition.type | @T [{name: p, condition: {type: "bad name", status: "True"}}]
@T[0].condition.status | @T [{name: p, condition: {type: Patching}}]
@T[0].condition.status | @T [{name: p, condition: {type: Patching, status: yes}}]
@T[0].condition.status | @T [{name: p, condition: {type: Patching, status: True}}]
@T[0].label.key | @T [{name: p, label: {}}]
@T[0].label.key | @T [{name: p, label: {key: "bad key"}}]
@T[0].label.value | @T [{name: p, label: {key: patch, value: "bad value"}}]
@T[0].label.valueIsStartTime | @T [{name: p, label: {key: s, value: "1", valueIsStartTime: true}}]
@T[0].label.other | @T [{name: p, label: {key: patch, other: 1}}]
@T[0].taint.key | @T [{name: p, taint: {}}]
@T[0].taint.key | @T [{name: p, taint: {key: "bad key"}}]
@T[0].taint.value | @T [{name: p, taint: {key: patch, value: "bad value"}}]
@T[0].taint.effect | @T [{name: p, taint: {key: patch, effect: Bad}}]
@T[0].cordon | @T [{name: p, label: {key: patch}, cordon: perhaps}]
@T[0].node | @T [{name: p, label: {key: patch}, node: x}]
recentPlacementCooldownMinutes | recentPlacementCooldownMinutes: -5
perWorkloadCooldownMinutes | perWorkloadCooldownMinutes: -1
perNodeCooldownMinutes | perNodeCooldownMinutes: -1
maxInFlightMigrations | maxInFlightMigrations: -1
maxInFlightMigrations | maxInFlightMigrations: "3"
maxInFlightMigrations | maxInFlightMigrations: 2.5
maxMigrationsPerHour | maxMigrationsPerHour: -1
emergencyPendingAgeMinutes | emergencyPendingAgeMinutes: -1
defaultMovable | defaultMovable: maybe
structuredLogging | structuredLogging: "true"
logLevel | logLevel: [debug]
policies | policies: 5
spotPolicy.preemptibleLabels[0] | spotPolicy: {preemptibleLabels: [[x]]}
spotPolicy.avoidAsTarget | spotPolicy: {avoidAsTarget: 0}
maintenanceWindows | maintenanceWindows: {}
maintenanceWindows[0].days | maintenanceWindows: [{days: [], start: "01:00", end: "05:00"}]
maintenanceWindows[0].days[1] | maintenanceWindows: [{days: [Sat, Monday], start: "01:00", end: "05:00"}]
maintenanceWindows[0].start | maintenanceWindows: [{days: [Sat], start: 9am, end: "17:00"}]
maintenanceWindows[0].end | maintenanceWindows: [{days: [Sat], start: "09:00", end: "24:00"}]
maintenanceWindows[0] | maintenanceWindows: [{days: [Sat], start: "17:00", end: "09:00"}]
maintenanceWindows[0] | maintenanceWindows: [{days: [Sat], start: "09:00", end: "09:00"}]
maintenanceWindows[0].start | maintenanceWindows: [{days: [Sat], end: "05:00"}]
maintenanceWindows[0].tz | maintenanceWindows: [{days: [Sat], start: "01:00", end: "02:00", tz: UTC}]
tpuSlicePartitions.topologyLabel | tpuSlicePartitions: {topologyLabel: "bad label!"}
tpuSlicePartitions.idLabel | tpuSlicePartitions: {idLabel: example.com/partition-id}
tpuSlicePartitions.stateLabel | tpuSlicePartitions: {stateLabel: "x-%s-%s"}
tpuSlicePartitions.healthyState | tpuSlicePartitions: {healthyState: "not healthy"}
tpuSliceMigrationEnabled | tpuSliceMigrationEnabled: sure
modee | modee: execute
omenativeCapabilityLeaseName | omenativeCapabilityLeaseName: x
omenativeCapabilityLeaseNamespace | omenativeCapabilityLeaseNamespace: ome
omenativeCapabilityMaxStaleness | omenativeCapabilityMaxStaleness: 45s
mode | mode: execute\nmode: execute
Mode | mode: execute\nMode: execute
@D.enabled | @D enabled: true, enabled: false}}
mode | mode: !Foo execute
"#;

fn rejected() -> impl Iterator<Item = (String, String)> {
    #[rustfmt::skip]
    const PREFIXES: [(&str, &str, &str); 5] = [
        ("@D", "policies.defragmentation", "policies: {defragmentation: {"),
        ("@S", "policies.defragmentation.scoring", "policies: {defragmentation: {scoring: {"),
        ("@H", "policies.nodeHealth", "policies: {nodeHealth: {"),
        ("@T", "policies.nodeHealth.maintenance.triggers", T),
        ("@P", "scheduling.profiles[\"default-scheduler\"]", "scheduling: {profiles: {default-scheduler: {"),
    ];
    REJECTED.lines().filter(|l| !l.is_empty()).map(|line| {
        let (path, body) = line.split_once(" | ").unwrap_or((line, ""));
        let (mut path, mut body) = (path.to_owned(), body.to_owned());
        for (tag, path_prefix, yaml_prefix) in PREFIXES {
            path = path.replace(tag, path_prefix);
            body = body.replace(&format!("{tag} "), yaml_prefix);
        }
        (path, body.replace("\\n", "\n"))
    })
}

#[test]
fn every_rule_fails_with_its_path() {
    let mut count = 0;
    for (path, body) in rejected() {
        let e = parse_err(&body);
        assert_eq!(e.path, path, "{body:?} → {e}");
        assert!(!e.expected.is_empty() && !e.found.is_empty(), "{e:?}");
        count += 1;
    }
    assert!(count > 100, "{count}");
}

#[test]
fn document_level_failures() {
    for doc in [
        "",
        "# only a comment\n",
        "mode: execute",
        "schemaVersion: 2",
        "schemaVersion: 0",
    ] {
        assert_eq!(
            parse(doc).map_err(|e| e.path),
            Err("schemaVersion".to_owned()),
            "{doc:?}"
        );
    }
    let e = parse("schemaVersion: \"1\"").unwrap_err();
    assert_eq!(
        (e.path.as_str(), e.expected.as_str()),
        ("schemaVersion", "an integer")
    );
    for doc in [
        "- a",
        "5",
        "schemaVersion: 1\nmode: [",
        "schemaVersion: 1\n---\nmode: x",
    ] {
        assert_eq!(parse(doc).unwrap_err().path, "", "{doc:?}");
    }
}

#[test]
fn messages_name_what_was_expected_and_found() {
    let e = parse_err(&format!("{P}fragmentationThreshold: 1.5"));
    let want = "config.yaml: policies.defragmentation.fragmentationThreshold: \
                expected a number in [0,1], found 1.5";
    assert_eq!(e.to_string(), want);
    let e = parse_err("recentPlacementCooldownMinutes: -5");
    assert_eq!((e.expected.as_str(), e.found.as_str()), (POSITIVE, "-5"));
    let e = parse_err("omenativeCapabilityLeaseName: x");
    let found = "unknown key \"omenativeCapabilityLeaseName\" (E1 only; Alfred E2 rejects it)";
    assert_eq!(e.found, found);
    let e = parse_err("spotPolicy: {avoid: true}");
    let expected = "a known key (avoidAsTarget, preferAsSource, preemptibleLabels)";
    assert_eq!(
        (e.expected.as_str(), e.found.as_str()),
        (expected, "unknown key \"avoid\"")
    );
    let e = parse_err("mode: execute\nmode: execute");
    assert_eq!(
        (e.expected.as_str(), e.found.as_str()),
        ("each key once", "a duplicate key")
    );
    let e = parse_err(&format!("{S}sizePrior: {{\"8\": 0.5}}"));
    assert_eq!(e.found, "a sum of 0.5");
    let e = parse_err(&format!("{S}sizeLadder: [4, 2, 8]"));
    assert_eq!(e.found, "[4, 2, 8]");
    let e = parse_err("maintenanceWindows: [{days: [Sat], start: \"17:00\", end: \"09:00\"}]");
    assert_eq!(e.found, "start 17:00, end 09:00");
    let e = parse_err("mode: !Foo execute");
    assert_eq!(e.found, "a value tagged !Foo");
    let long = "x".repeat(200);
    assert!(parse_err(&format!("mode: {long}")).found.chars().count() < 80);
}
