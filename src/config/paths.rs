//! Where the user's configuration lives. `resolve` is pure (the flag, the environment value and
//! the platform directory are arguments); `discover` reads the environment and the platform
//! directory and calls it.
//!
//! Owns: `ConfigPaths`, `ENV_VAR`.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The environment variable naming the config file, below `--config` in precedence.
pub const ENV_VAR: &str = "OME_TOP_CONFIG";

/// The config file name inside the platform directory.
pub const CONFIG_FILE: &str = "config.toml";

/// Where to read the user's configuration.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ConfigPaths {
    /// The `config.toml` to read; `None` when no place is known (no home directory).
    pub config_file: Option<PathBuf>,
    /// Whether `config_file` must exist: true when `--config` or `OME_TOP_CONFIG` named it,
    /// false for the platform default (a fresh install has none).
    pub required: bool,
    /// The directory holding the user's `themes/` and `keymaps/`: the config file's directory.
    pub user_dir: Option<PathBuf>,
}

impl ConfigPaths {
    /// No user files: the embedded defaults only.
    pub fn builtin_only() -> ConfigPaths {
        ConfigPaths::default()
    }

    /// Chooses the config file: `--config FILE` (`flag`), else `OME_TOP_CONFIG` (`env`, ignored
    /// when empty), else `config.toml` in `default_dir` (the platform config directory).
    pub fn resolve(
        flag: Option<&Path>,
        env: Option<&OsStr>,
        default_dir: Option<&Path>,
    ) -> ConfigPaths {
        let named = flag
            .map(Path::to_path_buf)
            .or_else(|| env.filter(|v| !v.is_empty()).map(PathBuf::from));
        let (config_file, required) = match named {
            Some(file) => (Some(file), true),
            None => (default_dir.map(|d| d.join(CONFIG_FILE)), false),
        };
        let user_dir = config_file.as_deref().map(|file| match file.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => PathBuf::from("."),
        });
        ConfigPaths {
            config_file,
            required,
            user_dir,
        }
    }

    /// The directory of the user's keymaps: `keymaps/` in `user_dir`.
    pub fn keymaps_dir(&self) -> Option<PathBuf> {
        self.user_dir.as_deref().map(|d| d.join("keymaps"))
    }

    /// The directory of the user's themes: `themes/` in `user_dir`.
    pub fn themes_dir(&self) -> Option<PathBuf> {
        self.user_dir.as_deref().map(|d| d.join("themes"))
    }

    /// `resolve` with `OME_TOP_CONFIG` and `ProjectDirs::from("", "", "ome-top")`'s config
    /// directory (e.g. `~/.config/ome-top` on Linux).
    pub fn discover(flag: Option<&Path>) -> ConfigPaths {
        let env = std::env::var_os(ENV_VAR);
        let dirs = directories::ProjectDirs::from("", "", "ome-top");
        ConfigPaths::resolve(
            flag,
            env.as_deref(),
            dirs.as_ref().map(directories::ProjectDirs::config_dir),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_beats_env_beats_platform_directory() {
        let flag = Path::new("/etc/team/ome-top.toml");
        let env = OsStr::new("/srv/env.toml");
        let dir = Path::new("/home/op/.config/ome-top");
        let p = ConfigPaths::resolve(Some(flag), Some(env), Some(dir));
        assert_eq!(p.config_file.as_deref(), Some(flag));
        assert!(p.required);
        assert_eq!(p.user_dir.as_deref(), Some(Path::new("/etc/team")));

        let p = ConfigPaths::resolve(None, Some(env), Some(dir));
        assert_eq!(p.config_file.as_deref(), Some(Path::new("/srv/env.toml")));
        assert!(p.required);

        let p = ConfigPaths::resolve(None, Some(OsStr::new("")), Some(dir));
        assert_eq!(p.config_file, Some(dir.join("config.toml")));
        assert!(!p.required);
        assert_eq!(p.user_dir.as_deref(), Some(dir));

        assert_eq!(
            ConfigPaths::resolve(None, None, None),
            ConfigPaths::builtin_only()
        );
    }

    #[test]
    fn a_bare_file_name_keeps_user_files_in_the_working_directory() {
        let p = ConfigPaths::resolve(Some(Path::new("my.toml")), None, None);
        assert_eq!(p.user_dir.as_deref(), Some(Path::new(".")));
    }
}
