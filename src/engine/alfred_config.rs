//! TEMPORARY shim until the strict Alfred config parser lands.
use serde::Serialize;
#[derive(Debug, Clone, Default, Serialize)]
pub struct AlfredConfig {
    pub x: u32,
}
#[derive(Debug)]
pub struct ConfigError;
impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "x")
    }
}
pub fn effective_alfred_config(_y: Option<&str>) -> (AlfredConfig, Option<ConfigError>) {
    (AlfredConfig::default(), None)
}
