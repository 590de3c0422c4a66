//! `config.toml`: which theme and keymap, how often to redraw, how long to keep history, the
//! default namespaces, which contexts are read-only, the fleet's contexts (`[fleet]`), how much
//! to log and the instance-type table that names pools. Every key is optional; an unknown key
//! is an error because a misspelt `read-only` must not leave a production context writable.
//!
//! Owns: `Settings`, `LogLevel`, `parse_settings`.

use std::collections::BTreeMap;

use super::error::{kind_of, reject_unknown_keys, show_value, ConfigError};

/// The keys of `config.toml`.
const KEYS: &[&str] = &[
    "theme",
    "keymap",
    "max-redraws-per-second",
    "history-retention-days",
    "alfred-namespace",
    "scheduler-namespace",
    "read-only",
    "mouse",
    "log-level",
    "instance-type-map",
    "fleet",
];

/// How much ome-top writes to its log file (`log-level` in config.toml, `--log-level`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogLevel {
    /// No log file at all.
    Off,
    /// Failures only.
    Error,
    /// Failures and oddities.
    Warn,
    /// Start, connection, watcher state changes, every write and its outcome, exit (default).
    Info,
    /// Also every HTTP request kube-rs sends (method and URL) and every published analysis.
    Debug,
    /// Everything ome-top and kube-rs report, short of the capped targets (docs/logs.md).
    Trace,
}

impl LogLevel {
    /// Every level, quietest first.
    pub const ALL: [LogLevel; 6] = [
        LogLevel::Off,
        LogLevel::Error,
        LogLevel::Warn,
        LogLevel::Info,
        LogLevel::Debug,
        LogLevel::Trace,
    ];

    /// The name used in config.toml, on the command line and in filter directives.
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Off => "off",
            LogLevel::Error => "error",
            LogLevel::Warn => "warn",
            LogLevel::Info => "info",
            LogLevel::Debug => "debug",
            LogLevel::Trace => "trace",
        }
    }

    /// The level named `name` (lower case, as `as_str` spells it).
    pub fn from_name(name: &str) -> Option<LogLevel> {
        LogLevel::ALL.into_iter().find(|l| l.as_str() == name)
    }
}

/// The settings of `config.toml`, defaults filled in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// The theme's name (default `default`).
    pub theme: String,
    /// The keymap's name (default `default`).
    pub keymap: String,
    /// Upper bound on redraws per second, 1..=120 (default 10). Updates arriving faster
    /// are coalesced.
    pub max_redraws_per_second: u32,
    /// Days of local history kept, 1..=3650 (default 30).
    pub history_retention_days: u32,
    /// Alfred's namespace when `--alfred-namespace` is not given (default `ome`).
    pub alfred_namespace: String,
    /// The OME scheduler's namespace when `--scheduler-namespace` is not given (default `ome`).
    pub scheduler_namespace: String,
    /// Kubeconfig context name → read-only. Contexts not listed are writable unless
    /// `--readonly` is given.
    pub read_only: BTreeMap<String, bool>,
    /// Whether the TUI captures the mouse (clicks select rows, the wheel scrolls). Off by
    /// default, as in k9s, so the terminal's own text selection and copy keep working.
    pub mouse: bool,
    /// `log-level`, when the file sets it (`--log-level` and the environment beat it).
    pub log_level: Option<LogLevel>,
    /// `instance-type-map`: the instance-type shape → GPU product table that names the pools
    /// of nodes without a product label, as Alfred's `INSTANCE_TYPE_MAP` (a JSON object in a
    /// string, or a TOML table); it replaces Alfred's built-in table. `None`: the built-in one.
    pub instance_type_map: Option<ShapeMap>,
    /// `[fleet]`: the contexts `ome-top fleet` watches when `--contexts` is not given.
    pub fleet: super::fleet::FleetSettings,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            theme: "default".into(),
            keymap: "default".into(),
            max_redraws_per_second: 10,
            history_retention_days: 30,
            alfred_namespace: "ome".into(),
            scheduler_namespace: "ome".into(),
            read_only: BTreeMap::new(),
            mouse: false,
            log_level: None,
            instance_type_map: None,
            fleet: super::fleet::FleetSettings::default(),
        }
    }
}

impl Settings {
    /// Whether `context` is configured read-only.
    pub fn read_only_for(&self, context: &str) -> bool {
        self.read_only.get(context).copied().unwrap_or(false)
    }
}

/// Parses `config.toml`; absent keys keep their defaults.
pub fn parse_settings(file: &str, table: &toml::Table) -> Result<Settings, ConfigError> {
    reject_unknown_keys(file, "", table, KEYS)?;
    let mut s = Settings::default();
    let name = "a name like \"default\"";
    if let Some(v) = table.get("theme") {
        s.theme = string(file, "theme", v, name)?;
    }
    if let Some(v) = table.get("keymap") {
        s.keymap = string(file, "keymap", v, name)?;
    }
    if let Some(v) = table.get("max-redraws-per-second") {
        s.max_redraws_per_second = integer(file, "max-redraws-per-second", v, 1, 120)?;
    }
    if let Some(v) = table.get("history-retention-days") {
        s.history_retention_days = integer(file, "history-retention-days", v, 1, 3650)?;
    }
    if let Some(v) = table.get("alfred-namespace") {
        s.alfred_namespace = namespace(file, "alfred-namespace", v)?;
    }
    if let Some(v) = table.get("scheduler-namespace") {
        s.scheduler_namespace = namespace(file, "scheduler-namespace", v)?;
    }
    if let Some(v) = table.get("read-only") {
        s.read_only = read_only(file, v)?;
    }
    if let Some(v) = table.get("instance-type-map") {
        s.instance_type_map = Some(instance_type_map(file, v)?);
    }
    if let Some(v) = table.get("fleet") {
        s.fleet = super::fleet::parse_fleet(file, v)?;
    }
    if let Some(v) = table.get("mouse") {
        s.mouse = v
            .as_bool()
            .ok_or_else(|| wrong(file, "mouse", v, "boolean", "true or false"))?;
    }
    if let Some(v) = table.get("log-level") {
        let expected = "one of \"off\", \"error\", \"warn\", \"info\", \"debug\", \"trace\"";
        let level = v.as_str().and_then(LogLevel::from_name);
        s.log_level = Some(level.ok_or_else(|| wrong(file, "log-level", v, "string", expected))?);
    }
    Ok(s)
}

/// A non-empty string.
fn string(file: &str, key: &str, v: &toml::Value, expected: &str) -> Result<String, ConfigError> {
    match v.as_str() {
        Some(text) if !text.trim().is_empty() => Ok(text.to_string()),
        _ => Err(wrong(file, key, v, "string", expected)),
    }
}

/// An integer in `min..=max`.
fn integer(file: &str, key: &str, v: &toml::Value, min: u32, max: u32) -> Result<u32, ConfigError> {
    let expected = format!("an integer from {min} to {max}");
    v.as_integer()
        .and_then(|i| u32::try_from(i).ok())
        .filter(|i| (min..=max).contains(i))
        .ok_or_else(|| wrong(file, key, v, "integer", &expected))
}

/// A Kubernetes namespace name (an RFC 1123 label).
fn namespace(file: &str, key: &str, v: &toml::Value) -> Result<String, ConfigError> {
    let expected = "a namespace name (lowercase letters, digits and '-', at most 63)";
    let name = string(file, key, v, expected)?;
    let valid = name.len() <= 63
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !name.starts_with('-')
        && !name.ends_with('-');
    if valid {
        Ok(name)
    } else {
        Err(wrong(file, key, v, "string", expected))
    }
}

/// Instance type → GPU product.
type ShapeMap = BTreeMap<String, String>;

/// `instance-type-map`: Alfred's `INSTANCE_TYPE_MAP` JSON object in a string, or the same
/// map as a TOML table; shapes and products non-empty.
fn instance_type_map(file: &str, v: &toml::Value) -> Result<ShapeMap, ConfigError> {
    const KEY: &str = "instance-type-map";
    let expected = "Alfred's INSTANCE_TYPE_MAP, a JSON object of instance type to GPU product                     such as '{\"BM.GPU.H100.8\": \"H100\"}', or a table of the same";
    let map: Option<ShapeMap> = match v {
        toml::Value::String(text) => serde_json::from_str(text).ok(),
        toml::Value::Table(t) => t
            .iter()
            .map(|(k, p)| p.as_str().map(|p| (k.clone(), p.to_string())))
            .collect(),
        _ => return Err(wrong(file, KEY, v, "string", expected)),
    };
    match map {
        Some(m)
            if m.iter()
                .all(|(k, p)| !k.trim().is_empty() && !p.trim().is_empty()) =>
        {
            Ok(m)
        }
        _ => Err(ConfigError::new(
            file,
            format!("{KEY} = {}", show_value(v)),
            "not an object of non-empty instance types and products".to_string(),
            expected,
        )),
    }
}

/// `[read-only]`: context name → bool.
fn read_only(file: &str, v: &toml::Value) -> Result<BTreeMap<String, bool>, ConfigError> {
    let expected = "a table of context name = true/false, like `[read-only]` `prod = true`";
    let Some(table) = v.as_table() else {
        return Err(wrong(file, "read-only", v, "table", expected));
    };
    table
        .iter()
        .map(|(context, value)| match value.as_bool() {
            Some(b) => Ok((context.clone(), b)),
            None => {
                let key = format!("read-only.{context}");
                Err(wrong(file, &key, value, "boolean", "true or false"))
            }
        })
        .collect()
}

/// The error for a value of the wrong type (`want` is the TOML type expected) or range.
fn wrong(file: &str, key: &str, v: &toml::Value, want: &str, expected: &str) -> ConfigError {
    let problem = if v.type_str() == want {
        "out of range or malformed".to_string()
    } else {
        kind_of(v)
    };
    ConfigError::new(
        file,
        format!("{key} = {}", show_value(v)),
        problem,
        expected,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Settings, ConfigError> {
        parse_settings("config.toml", &text.parse().unwrap())
    }

    #[test]
    fn instance_type_map_reads_alfreds_json_or_a_table() {
        let json = parse(r#"instance-type-map = '{"BM.GPU.H100.8": "NVIDIA-H100"}'"#).unwrap();
        let want = BTreeMap::from([("BM.GPU.H100.8".to_string(), "NVIDIA-H100".to_string())]);
        assert_eq!(json.instance_type_map.as_ref(), Some(&want));
        let table = parse("[instance-type-map]\n\"BM.GPU.H100.8\" = \"NVIDIA-H100\"\n").unwrap();
        assert_eq!(table.instance_type_map, Some(want));
        let bad = parse(r#"instance-type-map = '["BM.GPU.H100.8"]'"#).unwrap_err();
        assert!(bad.to_string().contains("instance-type-map"), "{bad}");
        assert!(parse("instance-type-map = 3").is_err());
    }

    #[test]
    fn empty_file_gives_the_defaults() {
        let s = parse("").unwrap();
        assert_eq!(s, Settings::default());
        assert_eq!(s.max_redraws_per_second, 10);
        assert_eq!(s.history_retention_days, 30);
        assert!(!s.mouse, "the terminal keeps its text selection by default");
    }

    #[test]
    fn mouse_capture_is_a_boolean_setting() {
        assert!(parse("mouse = true").unwrap().mouse);
        assert!(!parse("mouse = false").unwrap().mouse);
        let e = parse("mouse = \"yes\"").unwrap_err().to_string();
        assert!(e.contains("mouse") && e.contains("true or false"), "{e}");
    }

    #[test]
    fn every_key_is_read() {
        let s = parse(
            r#"
theme = "light"
keymap = "vim"
max-redraws-per-second = 30
history-retention-days = 7
alfred-namespace = "alfred-system"
scheduler-namespace = "ome-scheduler"
[read-only]
prod-east = true
staging = false
"#,
        )
        .unwrap();
        assert_eq!((s.theme.as_str(), s.keymap.as_str()), ("light", "vim"));
        assert_eq!(
            (s.max_redraws_per_second, s.history_retention_days),
            (30, 7)
        );
        assert_eq!(s.alfred_namespace, "alfred-system");
        assert_eq!(s.scheduler_namespace, "ome-scheduler");
        assert!(s.read_only_for("prod-east"));
        assert!(!s.read_only_for("staging"));
        assert!(!s.read_only_for("unlisted"));
    }

    #[test]
    fn the_log_level_is_a_level_name() {
        assert_eq!(parse("").unwrap().log_level, None);
        assert_eq!(
            parse("log-level = \"debug\"").unwrap().log_level,
            Some(LogLevel::Debug)
        );
        let e = parse("log-level = \"verbose\"").unwrap_err().to_string();
        assert_eq!(
            e,
            "config.toml: log-level = \"verbose\": out of range or malformed; expected one of \
             \"off\", \"error\", \"warn\", \"info\", \"debug\", \"trace\""
        );
        for level in LogLevel::ALL {
            assert_eq!(LogLevel::from_name(level.as_str()), Some(level));
        }
    }

    #[test]
    fn out_of_range_values_name_the_key() {
        let err = parse("max-redraws-per-second = 0").unwrap_err();
        assert_eq!(
            err.to_string(),
            "config.toml: max-redraws-per-second = 0: out of range or malformed; \
             expected an integer from 1 to 120"
        );
        let err = parse("alfred-namespace = \"Ome_NS\"").unwrap_err();
        assert_eq!(err.path, "alfred-namespace = \"Ome_NS\"");
        let err = parse("[read-only]\nprod = \"yes\"").unwrap_err();
        assert_eq!(err.path, "read-only.prod = \"yes\"");
    }
}
