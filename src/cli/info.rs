//! `ome-top info`: where ome-top keeps its files (config.toml, keymaps, themes, the history
//! database, the logs, the state and cache directories), which keymap, theme and log level
//! are in force, whether each file exists, and the versions ome-top was built with. Every
//! path comes from the function the program itself uses, so `info` cannot disagree with it.
//!
//! Owns: `InfoArgs`, `Info`, `run_info`. Holds no path logic of its own.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::{json, Value};

use crate::cli::{Output, TuiArgs, EXIT_BAD_INPUT, EXIT_OK};
use crate::config::{load, ConfigPaths, LogLevel, Overrides};
use crate::engine::nodes::ShapeTable;
use crate::logging::{self, paths};

/// Arguments of `info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value = "table")]
    pub output: Output,
}

/// The lock file and manifest ome-top was built from: the exact versions of its
/// dependencies (a dependency's version is not otherwise visible to the program).
const CARGO_LOCK: &str = include_str!("../../Cargo.lock");
const CARGO_TOML: &str = include_str!("../../Cargo.toml");

/// A path and whether something exists there; `path` is `None` when the platform gives none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The path.
    pub path: Option<PathBuf>,
    /// Whether a file or directory exists at `path`.
    pub exists: bool,
}

impl Place {
    fn of(path: Option<PathBuf>) -> Place {
        let exists = path.as_deref().is_some_and(Path::exists);
        Place { path, exists }
    }

    fn json(&self) -> Value {
        json!({
            "path": self.path.as_ref().map(|p| p.display().to_string()),
            "exists": self.exists,
        })
    }
}

/// A keymap or theme in force: its name and the user file it came from (`None`: shipped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen {
    /// Its name.
    pub name: String,
    /// The user file, if one defines it.
    pub file: Option<PathBuf>,
}

impl Chosen {
    fn describe(&self) -> String {
        match &self.file {
            Some(f) => format!("{} ({})", self.name, f.display()),
            None => format!("{} (built-in)", self.name),
        }
    }

    fn json(&self) -> Value {
        json!({
            "name": self.name,
            "file": self.file.as_ref().map(|p| p.display().to_string()),
        })
    }
}

/// Everything `info` reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    /// `config.toml`.
    pub config_file: Place,
    /// Whether `--config` or `OME_TOP_CONFIG` named the file (else the platform default).
    pub config_named: bool,
    /// The user's keymaps directory.
    pub keymaps_dir: Place,
    /// The user's themes directory.
    pub themes_dir: Place,
    /// The keymap and theme in force; `None` when the configuration does not load.
    pub keymap: Option<Chosen>,
    /// See `keymap`.
    pub theme: Option<Chosen>,
    /// Why the configuration does not load, if it does not.
    pub config_error: Option<String>,
    /// The history database.
    pub history_db: Place,
    /// The log directory.
    pub log_dir: Place,
    /// The newest log file in it.
    pub log_file: Place,
    /// The log filter in force and where it was chosen.
    pub log_filter: String,
    /// See `log_filter`.
    pub log_source: &'static str,
    /// The platform's state directory (`None` on macOS and Windows).
    pub state_dir: Place,
    /// The platform's cache directory (ome-top keeps nothing there yet).
    pub cache_dir: Place,
    /// The instance-type table naming the pools of nodes without a GPU product label
    /// (`instance-type-map` in config.toml replaces Alfred's built-in one).
    pub instance_types: ShapeTable,
}

impl Info {
    /// Gathers the report for the command line's `--config`, `--theme`, `--keymap` and
    /// `--log-level`.
    pub fn gather(tui: &TuiArgs, log_flag: Option<LogLevel>) -> Info {
        let paths = ConfigPaths::discover(tui.config.as_deref());
        let overrides = Overrides {
            theme: tui.theme.clone(),
            keymap: tui.keymap.clone(),
        };
        let loaded = load(&paths, &overrides);
        let instance_types = loaded
            .as_ref()
            .ok()
            .and_then(|c| ShapeTable::configured(c.settings.instance_type_map.as_ref()).ok())
            .map_or_else(ShapeTable::default, |t| (*t).clone());
        let (keymap, theme, config_error) = match loaded {
            Ok(c) => (
                Some(Chosen {
                    name: c.keymap.name.clone(),
                    file: c.keymap_file.clone(),
                }),
                Some(Chosen {
                    name: c.theme.name.clone(),
                    file: c.theme_file.clone(),
                }),
                None,
            ),
            Err(e) => (None, None, Some(e.to_string())),
        };
        let (choice, _) = logging::choose_for(log_flag, &paths);
        let log_dir = paths::log_dir();
        let log_file = log_dir.as_deref().and_then(paths::newest_log_file);
        let cache =
            directories::ProjectDirs::from("", "", "ome-top").map(|d| d.cache_dir().to_path_buf());
        Info {
            config_file: Place::of(paths.config_file.clone()),
            config_named: paths.required,
            keymaps_dir: Place::of(paths.keymaps_dir()),
            themes_dir: Place::of(paths.themes_dir()),
            keymap,
            theme,
            config_error,
            history_db: Place::of(crate::history::default_path()),
            log_dir: Place::of(log_dir),
            log_file: Place::of(log_file),
            log_filter: choice.describe(),
            log_source: choice.source.describe(),
            state_dir: Place::of(paths::state_dir()),
            cache_dir: Place::of(cache),
            instance_types,
        }
    }

    /// The report for people: one aligned line per item.
    pub fn text(&self) -> String {
        let v = versions();
        let mut out = format!(
            "ome-top {}\n  built with kube {}, k8s-openapi {} (Kubernetes API {}), for {}\n\n",
            env!("CARGO_PKG_VERSION"),
            v.kube,
            v.k8s_openapi,
            v.kubernetes_api,
            v.platform
        );
        let named = if self.config_named {
            " (named by --config or OME_TOP_CONFIG)"
        } else {
            ""
        };
        let mut line = |label: &str, place: Option<&Place>, text: String| {
            let status = match place {
                Some(Place { path: None, .. }) | None => "",
                Some(p) if p.exists => "exists",
                Some(_) => "absent",
            };
            out.push_str(format!("{label:<14} {status:<7} {text}").trim_end());
            out.push('\n');
        };
        let shown = |p: &Place, none: &str| {
            p.path
                .as_ref()
                .map_or_else(|| none.to_string(), |p| p.display().to_string())
        };
        let c = &self.config_file;
        line(
            "config file",
            Some(c),
            format!("{}{named}", shown(c, "no home directory")),
        );
        if let Some(e) = &self.config_error {
            line("config error", None, e.clone());
        }
        line(
            "keymaps dir",
            Some(&self.keymaps_dir),
            shown(&self.keymaps_dir, ""),
        );
        if let Some(k) = &self.keymap {
            line("keymap", None, k.describe());
        }
        line(
            "themes dir",
            Some(&self.themes_dir),
            shown(&self.themes_dir, ""),
        );
        if let Some(t) = &self.theme {
            line("theme", None, t.describe());
        }
        line(
            "history db",
            Some(&self.history_db),
            shown(&self.history_db, ""),
        );
        line("log dir", Some(&self.log_dir), shown(&self.log_dir, ""));
        let log_file = shown(&self.log_file, "none written yet");
        line("log file", Some(&self.log_file), log_file);
        line(
            "log level",
            None,
            format!("{} ({})", self.log_filter, self.log_source),
        );
        let state = shown(
            &self.state_dir,
            "none on this platform (logs go to the data directory)",
        );
        line("state dir", Some(&self.state_dir), state);
        let cache = format!("{} (unused so far)", shown(&self.cache_dir, ""));
        line("cache dir", Some(&self.cache_dir), cache);
        let from = if self.instance_types.is_built_in() {
            "Alfred's built-in table"
        } else {
            "instance-type-map in config.toml"
        };
        line("instance types", None, format!("{from}:"));
        for (shape, product) in self.instance_types.entries() {
            out.push_str(&format!("  {shape:<28} → {product}\n"));
        }
        out
    }

    /// The report as JSON (`info -o json`).
    pub fn json(&self) -> Value {
        let v = versions();
        json!({
            "version": env!("CARGO_PKG_VERSION"),
            "kube": v.kube,
            "k8s_openapi": v.k8s_openapi,
            "kubernetes_api": v.kubernetes_api,
            "platform": v.platform,
            "config_file": self.config_file.json(),
            "config_named": self.config_named,
            "config_error": self.config_error,
            "keymaps_dir": self.keymaps_dir.json(),
            "keymap": self.keymap.as_ref().map(Chosen::json),
            "themes_dir": self.themes_dir.json(),
            "theme": self.theme.as_ref().map(Chosen::json),
            "history_db": self.history_db.json(),
            "log_dir": self.log_dir.json(),
            "log_file": self.log_file.json(),
            "log_level": {"filter": self.log_filter, "source": self.log_source},
            "state_dir": self.state_dir.json(),
            "cache_dir": self.cache_dir.json(),
            "instance_types": {
                "built_in": self.instance_types.is_built_in(),
                "map": self.instance_types.entries().collect::<std::collections::BTreeMap<_, _>>(),
            },
        })
    }
}

/// The versions ome-top was built with.
struct Versions {
    kube: String,
    k8s_openapi: String,
    kubernetes_api: String,
    platform: String,
}

/// Reads `CARGO_LOCK` and `CARGO_TOML`; `unknown` for anything they do not say.
fn versions() -> Versions {
    let lock: toml::Table = CARGO_LOCK.parse().unwrap_or_default();
    let locked = |name: &str| {
        lock.get("package")
            .and_then(toml::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(toml::Value::as_table)
            .find(|p| p.get("name").and_then(toml::Value::as_str) == Some(name))
            .and_then(|p| p.get("version")?.as_str().map(str::to_string))
            .unwrap_or_else(|| "unknown".to_string())
    };
    let manifest: toml::Table = CARGO_TOML.parse().unwrap_or_default();
    let api = manifest
        .get("dependencies")
        .and_then(|d| d.get("k8s-openapi")?.get("features")?.as_array().cloned())
        .into_iter()
        .flatten()
        .find_map(|f| Some(f.as_str()?.strip_prefix("v")?.replacen('_', ".", 1)))
        .unwrap_or_else(|| "unknown".to_string());
    Versions {
        kube: locked("kube"),
        k8s_openapi: locked("k8s-openapi"),
        kubernetes_api: api,
        platform: format!("{}-{}", std::env::consts::ARCH, std::env::consts::OS),
    }
}

/// Runs `info`: prints the report as text or JSON; returns the exit code.
pub fn run_info(
    args: &InfoArgs,
    tui: &TuiArgs,
    log_flag: Option<LogLevel>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let info = Info::gather(tui, log_flag);
    let written = match args.output {
        Output::Table => write!(out, "{}", info.text()),
        Output::Json => serde_json::to_writer_pretty(&mut *out, &info.json())
            .map_err(std::io::Error::other)
            .and_then(|()| writeln!(out)),
    };
    match written {
        Ok(()) => EXIT_OK,
        Err(e) => {
            let _ = writeln!(err, "ome-top: cannot write output: {e}");
            EXIT_BAD_INPUT
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_versions_come_from_the_lock_file_and_manifest() {
        let v = versions();
        assert!(
            v.kube.starts_with(|c: char| c.is_ascii_digit()),
            "{}",
            v.kube
        );
        assert!(v.k8s_openapi.starts_with("0."), "{}", v.k8s_openapi);
        assert!(v.kubernetes_api.starts_with("1."), "{}", v.kubernetes_api);
    }
}
