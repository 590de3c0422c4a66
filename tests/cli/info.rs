//! `ome-top info` through the real binary with `HOME` and the XDG directories pointed at a
//! fresh temporary tree: it reports the paths the program uses (config.toml, keymaps, themes,
//! history, logs, state and cache), marks which exist, names the keymap, theme and log level
//! in force and where each was chosen, and its JSON parses. `Home` is shared with `logs`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// A home directory of its own for one test, with every XDG directory in a separate place so
/// a path reported from the wrong one shows.
pub struct Home {
    _dir: tempfile::TempDir,
    /// `HOME`.
    pub home: PathBuf,
    /// `XDG_CONFIG_HOME`.
    pub config: PathBuf,
    /// `XDG_DATA_HOME`.
    pub data: PathBuf,
    /// `XDG_STATE_HOME`.
    pub state: PathBuf,
    /// `XDG_CACHE_HOME`.
    pub cache: PathBuf,
}

impl Home {
    pub fn new() -> Home {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        Home {
            home: root.join("home"),
            config: root.join("xdg-config"),
            data: root.join("xdg-data"),
            state: root.join("xdg-state"),
            cache: root.join("xdg-cache"),
            _dir: dir,
        }
    }

    /// `ome-top args` in this home, with no log or config variable of the caller's.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = crate::command::ome_top();
        cmd.args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", &self.config)
            .env("XDG_DATA_HOME", &self.data)
            .env("XDG_STATE_HOME", &self.state)
            .env("XDG_CACHE_HOME", &self.cache)
            .env_remove("OME_TOP_CONFIG")
            .env_remove("OME_TOP_LOG")
            .env_remove("RUST_LOG")
            .env_remove("KUBECONFIG");
        cmd
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    /// `ome-top info -o json`, parsed.
    pub fn info(&self, extra: &[&str]) -> Value {
        let mut args = extra.to_vec();
        args.extend(["info", "-o", "json"]);
        let out = self.run(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }

    /// The log directory the program uses in this home.
    pub fn log_dir(&self) -> PathBuf {
        self.state.join("ome-top").join("log")
    }
}

fn path_of(v: &Value) -> PathBuf {
    PathBuf::from(
        v["path"]
            .as_str()
            .unwrap_or_else(|| panic!("no path in {v}")),
    )
}

#[test]
fn info_reports_the_platform_paths_and_that_nothing_exists_yet() {
    let h = Home::new();
    let app = |base: &Path| base.join("ome-top");
    let v = h.info(&[]);
    let expected = [
        ("config_file", app(&h.config).join("config.toml")),
        ("keymaps_dir", app(&h.config).join("keymaps")),
        ("themes_dir", app(&h.config).join("themes")),
        ("history_db", app(&h.data).join("history.sqlite3")),
        ("log_dir", h.log_dir()),
        ("state_dir", app(&h.state)),
        ("cache_dir", app(&h.cache)),
    ];
    for (key, path) in &expected {
        assert_eq!(path_of(&v[key]), *path, "{key}");
        assert_eq!(v[key]["exists"], false, "{key}");
    }
    assert_eq!(v["log_file"]["path"], Value::Null);
    assert_eq!(v["keymap"]["name"], "default");
    assert_eq!(v["keymap"]["file"], Value::Null);
    assert_eq!(v["theme"]["name"], "default");
    assert_eq!(v["log_level"]["filter"], "info");
    assert_eq!(v["log_level"]["source"], "default");
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
    assert!(
        v["kube"].as_str().unwrap().starts_with(char::is_numeric),
        "{v}"
    );
    assert!(
        v["kubernetes_api"].as_str().unwrap().starts_with("1."),
        "{v}"
    );
    // `info` itself writes nothing, not even a log.
    assert!(!h.state.exists() && !h.data.exists() && !h.cache.exists());

    let out = h.run(&["info"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for (_, path) in &expected {
        let shown = path.display().to_string();
        let line = text
            .lines()
            .find(|l| l.split_whitespace().any(|w| w == shown))
            .unwrap_or_else(|| panic!("{shown} not in\n{text}"));
        assert!(line.contains(" absent "), "{line}");
    }
    assert!(
        text.contains("keymap                 default (built-in)"),
        "{text}"
    );
    assert!(
        text.contains("log level              info (default)"),
        "{text}"
    );
}

#[test]
fn info_names_the_user_files_in_force_and_where_the_log_level_comes_from() {
    let h = Home::new();
    let dir = h.config.join("ome-top");
    std::fs::create_dir_all(dir.join("themes")).unwrap();
    std::fs::create_dir_all(dir.join("keymaps")).unwrap();
    std::fs::write(
        dir.join("config.toml"),
        "theme = \"mine\"\nkeymap = \"vim\"\nlog-level = \"debug\"\n",
    )
    .unwrap();
    std::fs::write(dir.join("themes/mine.toml"), "extends = \"light\"\n").unwrap();
    std::fs::write(dir.join("keymaps/other.toml"), "").unwrap();

    let v = h.info(&[]);
    assert_eq!(v["config_file"]["exists"], true);
    assert_eq!(v["themes_dir"]["exists"], true);
    assert_eq!(v["theme"]["name"], "mine");
    let theme_file = v["theme"]["file"].as_str().unwrap();
    assert_eq!(Path::new(theme_file), dir.join("themes/mine.toml"));
    assert_eq!(v["keymap"]["name"], "vim");
    assert_eq!(
        v["keymap"]["file"],
        Value::Null,
        "vim is shipped, not a user file"
    );
    assert_eq!(
        v["log_level"],
        serde_json::json!({"filter": "debug", "source": "config.toml"})
    );

    let v = h.info(&["--keymap", "other"]);
    assert_eq!(v["keymap"]["name"], "other");
    assert!(
        v["keymap"]["file"]
            .as_str()
            .unwrap()
            .ends_with("keymaps/other.toml"),
        "{v}"
    );

    let mut cmd = h.command(&["info", "-o", "json"]);
    let out = cmd
        .env("OME_TOP_LOG", "kube_runtime=trace")
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let want = serde_json::json!({"filter": "kube_runtime=trace", "source": "OME_TOP_LOG"});
    assert_eq!(v["log_level"], want);

    let mut cmd = h.command(&["info", "--log-level", "warn", "-o", "json"]);
    let out = cmd.env("RUST_LOG", "trace").output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["log_level"],
        serde_json::json!({"filter": "warn", "source": "--log-level"})
    );
}

#[test]
fn a_config_file_that_does_not_load_is_reported_not_fatal() {
    let h = Home::new();
    let dir = h.config.join("ome-top");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), "log-level = \"loud\"\n").unwrap();
    let v = h.info(&[]);
    assert_eq!(v["config_file"]["exists"], true);
    let error = v["config_error"].as_str().unwrap();
    assert!(error.contains("log-level = \"loud\""), "{error}");
    assert_eq!(v["keymap"], Value::Null);
    assert_eq!(v["log_level"]["source"], "default");
}

/// The instance-type table of config.toml is the one in force: `info` prints it and `analyze`
/// names pools with it (it replaces Alfred's built-in table).
#[test]
fn the_instance_type_map_of_config_toml_names_pools() {
    let home = Home::new();
    let built_in = home.info(&[]);
    assert_eq!(built_in["instance_types"]["built_in"], true);
    assert_eq!(built_in["instance_types"]["map"]["BM.GPU.H100.8"], "H100");
    let dir = home.config.join("ome-top");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("config.toml"),
        "instance-type-map = '{\"BM.GPU.H100.8\": \"H100-80GB\"}'\n",
    )
    .unwrap();
    let set = home.info(&[]);
    assert_eq!(set["instance_types"]["built_in"], false);
    assert_eq!(
        set["instance_types"]["map"],
        serde_json::json!({"BM.GPU.H100.8": "H100-80GB"})
    );
    let text = String::from_utf8(home.run(&["info"]).stdout).unwrap();
    assert!(text.contains("instance-type-map in config.toml"), "{text}");
    let snapshot = home.home.join("one-node.json");
    std::fs::create_dir_all(&home.home).unwrap();
    std::fs::write(
        &snapshot,
        r#"{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": "gpu-a", "uid": "u",
                "labels": {"node.kubernetes.io/instance-type": "BM.GPU.H100.8"}},
            "status": {"allocatable": {"nvidia.com/gpu": "8"}}}]}"#,
    )
    .unwrap();
    let snapshot = snapshot.to_str().unwrap();
    let out = home.run(&["analyze", "--snapshot", snapshot, "-o", "json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["pools"][0]["name"], "H100-80GB");
}
