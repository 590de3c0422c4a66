//! The OME scheduler's `KubeSchedulerConfiguration` (ConfigMap `ome-scheduler-config`, key
//! `config.yaml`, gangpack.md §2): the profile name, the `OMEGangPack` args, and the score
//! settings that explain where a pod lands. Absent ⇒ the chart defaults; malformed or
//! rejected by the plugin's validation ⇒ a warning and the chart defaults, never a panic.
//!
//! Owns: `SchedulerConfig`, `GangPackArgs`, `scheduler_config`. Pure (parses text it is handed,
//! YAML through `engine::formats::go_yaml`).

use serde_json::Value;

use crate::engine::gangs::config_error::SchedulerConfigError;
use crate::engine::model::names::is_qualified_name;
use crate::engine::model::ClusterSnapshot;

/// Name of the scheduler's ConfigMap (`<scheduler.name>-config` with the chart default name).
pub const SCHEDULER_CONFIG_MAP: &str = "ome-scheduler-config";
/// Key of the configuration in that ConfigMap.
pub const SCHEDULER_CONFIG_KEY: &str = "config.yaml";
/// The plugin's name in the profile.
pub const GANG_PACK: &str = "OMEGangPack";
/// Profile name when the configuration is unreadable (chart `scheduler.name`).
pub const DEFAULT_SCHEDULER_NAME: &str = "ome-scheduler";

/// The `OMEGangPack` plugin args (gangpack.md §2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GangPackArgs {
    /// `topologyKey`: fallback node label for gangs without the annotation, and the label of
    /// standalone packing; empty = none.
    pub topology_key: String,
    /// `podGroupTopologyKeyAnnotation`: the PodGroup annotation naming a gang's label.
    pub pod_group_topology_key_annotation: String,
    /// `unsupportedPlacementGroupLabel`; empty disables the check.
    pub unsupported_placement_group_label: String,
    /// `defaultPermitTimeoutSeconds` (seconds; ≤ 0 = not configured).
    pub default_permit_timeout_seconds: i64,
    /// `podGroupSyncTimeoutSeconds` (seconds).
    pub pod_group_sync_timeout_seconds: i64,
    /// `gcIntervalSeconds` (seconds, > 0).
    pub gc_interval_seconds: i64,
    /// `standaloneDomainPacking` (absent ⇒ true).
    pub standalone_domain_packing: bool,
}

impl Default for GangPackArgs {
    /// The chart defaults (`charts/ome-scheduler/values.yaml`).
    fn default() -> Self {
        GangPackArgs {
            topology_key: String::new(),
            pod_group_topology_key_annotation: "ome.io/topology-key".into(),
            unsupported_placement_group_label: "ome.io/placement-group".into(),
            default_permit_timeout_seconds: 600,
            pod_group_sync_timeout_seconds: 30,
            gc_interval_seconds: 60,
            standalone_domain_packing: true,
        }
    }
}

/// One scored resource of `NodeResourcesFit` (`scoringStrategy.resources[]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceWeight {
    /// Resource name (`cpu`, `memory`, `habana.ai/gaudi`, …).
    pub name: String,
    /// Weight, 1–100.
    pub weight: i64,
}

/// What ome-top reads from the scheduler configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchedulerConfig {
    /// The profile's `schedulerName`: pods with this `spec.schedulerName` reach OMEGangPack.
    pub scheduler_name: String,
    /// The plugin args.
    pub gang_pack: GangPackArgs,
    /// `NodeResourcesFit` scoring strategy type (`MostAllocated`, `LeastAllocated`, …).
    pub fit_strategy: String,
    /// `NodeResourcesFit` scored resources.
    pub fit_resources: Vec<ResourceWeight>,
    /// Score weight of `NodeResourcesFit`.
    pub fit_weight: i64,
    /// Score weight of `OMEGangPack`.
    pub gang_pack_weight: i64,
    /// `percentageOfNodesToScore` (profile value, else top-level), when set.
    pub percentage_of_nodes_to_score: Option<i64>,
    /// Whether the values came from the ConfigMap (`false` = chart defaults).
    pub from_config_map: bool,
}

impl Default for SchedulerConfig {
    /// The chart's rendered profile (ome-scheduler-configuration.md "Scheduler profile").
    fn default() -> Self {
        SchedulerConfig {
            scheduler_name: DEFAULT_SCHEDULER_NAME.into(),
            gang_pack: GangPackArgs::default(),
            fit_strategy: "MostAllocated".into(),
            fit_resources: vec![
                ResourceWeight {
                    name: "cpu".into(),
                    weight: 1,
                },
                ResourceWeight {
                    name: "memory".into(),
                    weight: 1,
                },
            ],
            fit_weight: 10,
            gang_pack_weight: 10,
            percentage_of_nodes_to_score: None,
            from_config_map: false,
        }
    }
}

/// Reads the configuration from `namespace/ome-scheduler-config` in the snapshot. Returns the
/// effective configuration and warnings (absent ConfigMap = defaults, no warning).
pub fn load_scheduler_config(
    snap: &ClusterSnapshot,
    namespace: &str,
) -> (SchedulerConfig, Vec<String>) {
    let Some(cm) = snap.config_map(namespace, SCHEDULER_CONFIG_MAP) else {
        return (SchedulerConfig::default(), Vec::new());
    };
    match cm.data.get(SCHEDULER_CONFIG_KEY) {
        Some(text) => scheduler_config(text),
        None => (
            SchedulerConfig::default(),
            vec![format!(
                "{namespace}/{SCHEDULER_CONFIG_MAP} has no {SCHEDULER_CONFIG_KEY} key; \
                 scheduler chart defaults assumed"
            )],
        ),
    }
}

/// Parses a `KubeSchedulerConfiguration` text. On any error the chart defaults are returned
/// with one warning naming the problem.
pub fn scheduler_config(text: &str) -> (SchedulerConfig, Vec<String>) {
    match parse(text) {
        Ok(cfg) => (cfg, Vec::new()),
        Err(e) => (
            SchedulerConfig::default(),
            vec![format!(
                "{SCHEDULER_CONFIG_MAP}: {e}; scheduler chart defaults assumed"
            )],
        ),
    }
}

fn parse(text: &str) -> Result<SchedulerConfig, SchedulerConfigError> {
    let doc =
        crate::engine::formats::go_yaml::to_json(text).map_err(SchedulerConfigError::NotYaml)?;
    if !doc.is_object() {
        return Err(SchedulerConfigError::NotMapping);
    }
    if let Some(kind) = doc.get("kind").and_then(Value::as_str) {
        if kind != "KubeSchedulerConfiguration" {
            return Err(SchedulerConfigError::WrongKind(kind.to_string()));
        }
    }
    let profiles = doc.get("profiles").and_then(Value::as_array);
    let profile = profiles
        .and_then(|ps| {
            ps.iter()
                .find(|p| names_gang_pack(p))
                .or_else(|| ps.first())
        })
        .ok_or(SchedulerConfigError::NoProfiles)?;
    let mut cfg = SchedulerConfig {
        scheduler_name: text_at(profile, &["schedulerName"])
            .unwrap_or("default-scheduler")
            .to_string(),
        from_config_map: true,
        ..SchedulerConfig::default()
    };
    cfg.gang_pack = match plugin_args(profile, GANG_PACK) {
        Some(args) => gang_pack_args(args)?,
        None => return Err(SchedulerConfigError::NoGangPackConfig),
    };
    fit_settings(profile, &mut cfg)?;
    cfg.gang_pack_weight = score_weight(profile, GANG_PACK)?.unwrap_or(1);
    cfg.fit_weight = score_weight(profile, "NodeResourcesFit")?.unwrap_or(1);
    cfg.percentage_of_nodes_to_score = profile
        .get("percentageOfNodesToScore")
        .or_else(|| doc.get("percentageOfNodesToScore"))
        .and_then(Value::as_i64);
    Ok(cfg)
}

fn text_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    path.iter()
        .try_fold(v, |v, k| v.get(*k))
        .and_then(Value::as_str)
}

/// Entries `{name, weight?}` of `plugins.<point>.enabled`.
fn enabled<'a>(profile: &'a Value, point: &str) -> impl Iterator<Item = &'a Value> {
    profile
        .get("plugins")
        .and_then(|p| p.get(point))
        .and_then(|p| p.get("enabled"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

fn names_gang_pack(profile: &Value) -> bool {
    plugin_args(profile, GANG_PACK).is_some()
        || enabled(profile, "multiPoint").any(|e| e.get("name") == Some(&GANG_PACK.into()))
}

fn plugin_args<'a>(profile: &'a Value, name: &str) -> Option<&'a Value> {
    profile
        .get("pluginConfig")
        .and_then(Value::as_array)?
        .iter()
        .find(|c| c.get("name").and_then(Value::as_str) == Some(name))
        .map(|c| c.get("args").unwrap_or(&Value::Null))
}

/// Weight from `plugins.score.enabled`, else `plugins.multiPoint.enabled`.
fn score_weight(profile: &Value, name: &str) -> Result<Option<i64>, SchedulerConfigError> {
    let entry = enabled(profile, "score")
        .chain(enabled(profile, "multiPoint"))
        .find(|e| e.get("name").and_then(Value::as_str) == Some(name));
    match entry.and_then(|e| e.get("weight")) {
        None | Some(Value::Null) => Ok(None),
        Some(w) => match w.as_i64() {
            Some(w) if w >= 0 => Ok(Some(w)),
            _ => Err(SchedulerConfigError::ScoreWeight {
                plugin: name.to_string(),
                weight: w.clone(),
            }),
        },
    }
}

fn fit_settings(profile: &Value, cfg: &mut SchedulerConfig) -> Result<(), SchedulerConfigError> {
    let strategy = plugin_args(profile, "NodeResourcesFit").and_then(|a| a.get("scoringStrategy"));
    let Some(strategy) = strategy else {
        // kube-scheduler's own default: LeastAllocated on cpu and memory.
        cfg.fit_strategy = "LeastAllocated".into();
        return Ok(());
    };
    cfg.fit_strategy = text_at(strategy, &["type"])
        .unwrap_or("LeastAllocated")
        .to_string();
    if let Some(list) = strategy.get("resources").and_then(Value::as_array) {
        cfg.fit_resources = list
            .iter()
            .map(|r| {
                let name = text_at(r, &["name"]).ok_or(SchedulerConfigError::UnnamedResource)?;
                let weight = r.get("weight").and_then(Value::as_i64).unwrap_or(1);
                if !(1..=100).contains(&weight) {
                    return Err(SchedulerConfigError::ResourceWeight(name.to_string()));
                }
                Ok(ResourceWeight {
                    name: name.to_string(),
                    weight,
                })
            })
            .collect::<Result<_, SchedulerConfigError>>()?;
    }
    Ok(())
}

/// Reads and validates the args as `config.go` does; missing args take Go zero values
/// (except `standaloneDomainPacking`, whose nil means true).
fn gang_pack_args(args: &Value) -> Result<GangPackArgs, SchedulerConfigError> {
    if !(args.is_object() || args.is_null()) {
        return Err(SchedulerConfigError::ArgsNotMapping);
    }
    let string = |key: &str| -> Result<String, SchedulerConfigError> {
        match args.get(key) {
            None | Some(Value::Null) => Ok(String::new()),
            Some(Value::String(s)) => {
                if s.is_empty() || is_qualified_name(s) {
                    Ok(s.clone())
                } else {
                    Err(SchedulerConfigError::LabelKey {
                        key: key.to_string(),
                        value: s.clone(),
                    })
                }
            }
            Some(other) => Err(SchedulerConfigError::NotString {
                key: key.to_string(),
                value: other.clone(),
            }),
        }
    };
    let int = |key: &str, required: bool| -> Result<i64, SchedulerConfigError> {
        match args.get(key) {
            None | Some(Value::Null) if required => {
                Err(SchedulerConfigError::Required(key.to_string()))
            }
            None | Some(Value::Null) => Ok(0),
            Some(v) => match v.as_i64() {
                Some(n) if n > 0 => Ok(n),
                _ => Err(SchedulerConfigError::NotPositive {
                    key: key.to_string(),
                    value: v.clone(),
                }),
            },
        }
    };
    let packing = match args.get("standaloneDomainPacking") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(other) => return Err(SchedulerConfigError::PackingNotBool(other.clone())),
    };
    Ok(GangPackArgs {
        topology_key: string("topologyKey")?,
        pod_group_topology_key_annotation: string("podGroupTopologyKeyAnnotation")?,
        unsupported_placement_group_label: string("unsupportedPlacementGroupLabel")?,
        default_permit_timeout_seconds: int("defaultPermitTimeoutSeconds", false)?,
        pod_group_sync_timeout_seconds: int("podGroupSyncTimeoutSeconds", false)?,
        gc_interval_seconds: int("gcIntervalSeconds", true)?,
        standalone_domain_packing: packing,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHART: &str = r#"
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: ome-scheduler
    plugins:
      multiPoint:
        enabled:
          - name: OMEGangPack
      score:
        enabled:
          - name: NodeResourcesFit
            weight: 10
          - name: OMEGangPack
            weight: 10
    pluginConfig:
      - name: OMEGangPack
        args:
          topologyKey: "ome.io/rack"
          podGroupTopologyKeyAnnotation: "ome.io/topology-key"
          unsupportedPlacementGroupLabel: "ome.io/placement-group"
          defaultPermitTimeoutSeconds: 300
          podGroupSyncTimeoutSeconds: 30
          gcIntervalSeconds: 60
          standaloneDomainPacking: true
      - name: NodeResourcesFit
        args:
          scoringStrategy:
            type: MostAllocated
            resources:
              - name: habana.ai/gaudi
                weight: 100
"#;

    #[test]
    fn reads_the_chart_profile() {
        let (cfg, warnings) = scheduler_config(CHART);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert!(cfg.from_config_map);
        assert_eq!(cfg.scheduler_name, "ome-scheduler");
        assert_eq!(cfg.gang_pack.topology_key, "ome.io/rack");
        assert_eq!(cfg.gang_pack.default_permit_timeout_seconds, 300);
        assert_eq!(cfg.fit_strategy, "MostAllocated");
        assert_eq!(cfg.fit_resources[0].name, "habana.ai/gaudi");
        assert_eq!((cfg.fit_weight, cfg.gang_pack_weight), (10, 10));
    }

    #[test]
    fn absent_args_take_go_zero_values() {
        let text = "profiles:\n- schedulerName: s\n  pluginConfig:\n  - name: OMEGangPack\n    args:\n      gcIntervalSeconds: 60\n";
        let (cfg, warnings) = scheduler_config(text);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(cfg.gang_pack.pod_group_topology_key_annotation, "");
        assert_eq!(cfg.gang_pack.default_permit_timeout_seconds, 0);
        assert!(cfg.gang_pack.standalone_domain_packing);
        assert_eq!(cfg.fit_strategy, "LeastAllocated");
    }

    #[test]
    fn malformed_or_invalid_configs_give_defaults_and_a_warning() {
        for bad in [
            "::: not yaml [",
            "- a list",
            "kind: Other",
            "profiles: []",
            "profiles:\n- schedulerName: s\n",
            "profiles:\n- pluginConfig:\n  - name: OMEGangPack\n    args: {}\n",
            "profiles:\n- pluginConfig:\n  - name: OMEGangPack\n    args: {gcIntervalSeconds: 0}\n",
            "profiles:\n- pluginConfig:\n  - name: OMEGangPack\n    args: {gcIntervalSeconds: 1, topologyKey: 'gpu clique'}\n",
            "profiles:\n- pluginConfig:\n  - name: OMEGangPack\n    args: {gcIntervalSeconds: 1, standaloneDomainPacking: yes-please}\n",
        ] {
            let (cfg, warnings) = scheduler_config(bad);
            assert_eq!(cfg, SchedulerConfig::default(), "{bad}");
            assert_eq!(warnings.len(), 1, "{bad}");
        }
    }
}
