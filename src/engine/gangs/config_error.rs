//! Why the scheduler's `KubeSchedulerConfiguration` was refused: one variant per check of
//! `scheduler_config`, worded as the warning that names it (the chart defaults are then
//! assumed).

use serde_json::Value;

use crate::engine::formats::go_yaml::YamlError;
use crate::engine::gangs::scheduler_config::{GANG_PACK, SCHEDULER_CONFIG_KEY};

/// A scheduler configuration the plugin's validation would refuse.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SchedulerConfigError {
    /// The text does not parse.
    #[error("{SCHEDULER_CONFIG_KEY} is not YAML: {0}")]
    NotYaml(YamlError),
    /// The document is a scalar or a list.
    #[error("{SCHEDULER_CONFIG_KEY} is not a mapping")]
    NotMapping,
    /// Another `kind`.
    #[error("kind {0:?} is not KubeSchedulerConfiguration")]
    WrongKind(String),
    /// `profiles` is absent or empty.
    #[error("no profiles")]
    NoProfiles,
    /// The chosen profile does not configure the plugin.
    #[error("profile has no {GANG_PACK} pluginConfig")]
    NoGangPackConfig,
    /// A score weight below zero or not a number.
    #[error("score weight of {plugin} is not a non-negative integer: {weight}")]
    ScoreWeight {
        /// The plugin.
        plugin: String,
        /// The weight as written.
        weight: Value,
    },
    /// An entry of `scoringStrategy.resources` without `name`.
    #[error("a scored resource has no name")]
    UnnamedResource,
    /// A resource weight outside kube-scheduler's range.
    #[error("weight of scored resource {0} is not in 1..=100")]
    ResourceWeight(String),
    /// The plugin's args are a scalar or a list.
    #[error("{GANG_PACK} args are not a mapping")]
    ArgsNotMapping,
    /// A label key arg that is not a qualified name.
    #[error("{key} {value:?} is not a valid label key")]
    LabelKey {
        /// The arg.
        key: String,
        /// Its value.
        value: String,
    },
    /// A label key arg that is not a string.
    #[error("{key} is not a string: {value}")]
    NotString {
        /// The arg.
        key: String,
        /// Its value.
        value: Value,
    },
    /// A required duration arg is absent.
    #[error("{0} is required")]
    Required(String),
    /// A duration arg that is not a positive integer.
    #[error("{key} must be a positive integer, got {value}")]
    NotPositive {
        /// The arg.
        key: String,
        /// Its value.
        value: Value,
    },
    /// `standaloneDomainPacking` that is not a boolean.
    #[error("standaloneDomainPacking is not a boolean: {0}")]
    PackingNotBool(Value),
}
