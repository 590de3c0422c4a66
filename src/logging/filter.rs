//! Which events reach the log file: the level chosen from the flag, the environment and
//! config.toml (`choose`, pure: every source is an argument), the filter directives a level
//! stands for, and the caps that keep request headers out of the file whatever was chosen.
//!
//! Owns: `Choice`, `Chosen`, `Source`, `choose`, `directives`, `caps`. Reads no environment
//! itself (`logging::start` passes the values in).

use tracing_subscriber::filter::{EnvFilter, LevelFilter, Targets};

use crate::config::LogLevel;

/// The environment variable holding ome-top's own log filter (a level name or directives).
pub const ENV_VAR: &str = "OME_TOP_LOG";
/// The conventional Rust log filter variable, below `OME_TOP_LOG`.
pub const RUST_LOG: &str = "RUST_LOG";

/// The targets a level applies to: ome-top itself and kube-rs (client, runtime, core).
pub const TARGETS: [&str; 5] = [
    "ome_top",
    "kube",
    "kube_client",
    "kube_runtime",
    "kube_core",
];

/// What was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Chosen {
    /// A level for `TARGETS`; other crates log at most warnings.
    Level(LogLevel),
    /// Filter directives as written in the environment (`kube_runtime=trace,ome_top=debug`).
    Directives(String),
}

/// Where the choice came from, in precedence order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `--log-level`.
    Flag,
    /// `OME_TOP_LOG`.
    OmeTopLog,
    /// `RUST_LOG`.
    RustLog,
    /// `log-level` in config.toml.
    ConfigFile,
    /// Nothing set: `info`.
    Default,
}

impl Source {
    /// How `ome-top info` and the start line name the source.
    pub fn describe(self) -> &'static str {
        match self {
            Source::Flag => "--log-level",
            Source::OmeTopLog => "OME_TOP_LOG",
            Source::RustLog => "RUST_LOG",
            Source::ConfigFile => "config.toml",
            Source::Default => "default",
        }
    }
}

/// The outcome of `choose`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The filter in force.
    pub chosen: Chosen,
    /// Where it came from.
    pub source: Source,
    /// Environment values that did not parse and were passed over, one sentence each.
    pub ignored: Vec<String>,
}

impl Choice {
    /// Whether nothing at all is logged (no log file is created).
    pub fn is_off(&self) -> bool {
        self.chosen == Chosen::Level(LogLevel::Off)
    }

    /// The filter as one line: the level name, or the directives.
    pub fn describe(&self) -> String {
        match &self.chosen {
            Chosen::Level(l) => l.as_str().to_string(),
            Chosen::Directives(d) => d.clone(),
        }
    }
}

/// Chooses the filter: `--log-level` (`flag`), else `OME_TOP_LOG`, else `RUST_LOG`, else
/// `log-level` in config.toml (`file`), else `info`. An environment value that is a level
/// name means that level (for `TARGETS`); anything else is read as filter directives, and
/// one that does not parse (or is empty) is passed over and reported in `ignored`.
pub fn choose(
    flag: Option<LogLevel>,
    ome_top_log: Option<&str>,
    rust_log: Option<&str>,
    file: Option<LogLevel>,
) -> Choice {
    let mut ignored = Vec::new();
    if let Some(level) = flag {
        return Choice {
            chosen: Chosen::Level(level),
            source: Source::Flag,
            ignored,
        };
    }
    let env = [
        (Source::OmeTopLog, ome_top_log),
        (Source::RustLog, rust_log),
    ];
    for (source, value) in env {
        let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else {
            continue;
        };
        if let Some(level) = LogLevel::from_name(&value.to_ascii_lowercase()) {
            return Choice {
                chosen: Chosen::Level(level),
                source,
                ignored,
            };
        }
        match EnvFilter::builder().parse(value) {
            Ok(_) => {
                return Choice {
                    chosen: Chosen::Directives(value.to_string()),
                    source,
                    ignored,
                }
            }
            Err(e) => ignored.push(format!("{} {value:?} ignored: {e}", source.describe())),
        }
    }
    let (level, source) = match file {
        Some(level) => (level, Source::ConfigFile),
        None => (LogLevel::Info, Source::Default),
    };
    Choice {
        chosen: Chosen::Level(level),
        source,
        ignored,
    }
}

/// The filter directives `chosen` stands for. A level applies to `TARGETS`; every other
/// crate logs at most warnings (and nothing when the level is quieter).
pub fn directives(chosen: &Chosen) -> String {
    match chosen {
        Chosen::Directives(d) => d.clone(),
        Chosen::Level(level) => {
            let others = (*level).min(LogLevel::Warn).as_str();
            let mut out = others.to_string();
            for target in TARGETS {
                out.push_str(&format!(",{target}={}", level.as_str()));
            }
            out
        }
    }
}

/// Upper bounds applied after any filter, so no choice writes request or response headers.
/// `kube_client::client` prints response headers and Status bodies at trace; the transport
/// crates (hyper, h2, rustls, tower-http) report frames and handshakes at trace, where header
/// blocks pass. Everything else is unbounded here (the chosen filter decides).
pub fn caps() -> Targets {
    let debug = LevelFilter::DEBUG;
    Targets::new()
        .with_default(LevelFilter::TRACE)
        .with_target("kube_client::client", debug)
        .with_target("hyper", debug)
        .with_target("hyper_util", debug)
        .with_target("h2", debug)
        .with_target("rustls", debug)
        .with_target("tower_http", debug)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing::Level;

    #[test]
    fn the_flag_beats_the_environment_beats_the_file() {
        let c = choose(Some(LogLevel::Off), Some("trace"), Some("debug"), None);
        assert_eq!(
            (c.chosen, c.source),
            (Chosen::Level(LogLevel::Off), Source::Flag)
        );
        let c = choose(
            None,
            Some("kube=trace"),
            Some("debug"),
            Some(LogLevel::Warn),
        );
        assert_eq!(c.chosen, Chosen::Directives("kube=trace".into()));
        assert_eq!(c.source, Source::OmeTopLog);
        let c = choose(None, None, Some("DEBUG"), Some(LogLevel::Warn));
        assert_eq!(
            (c.chosen, c.source),
            (Chosen::Level(LogLevel::Debug), Source::RustLog)
        );
        let c = choose(None, Some(" "), None, Some(LogLevel::Warn));
        let want = (Chosen::Level(LogLevel::Warn), Source::ConfigFile);
        assert_eq!((c.chosen, c.source), want);
        let c = choose(None, None, None, None);
        let want = (Chosen::Level(LogLevel::Info), Source::Default);
        assert_eq!((c.chosen, c.source), want);
        assert!(c.ignored.is_empty());
    }

    #[test]
    fn a_malformed_variable_is_passed_over_and_named() {
        let c = choose(None, Some("kube=loud"), Some("warn"), None);
        assert_eq!(
            (c.chosen, c.source),
            (Chosen::Level(LogLevel::Warn), Source::RustLog)
        );
        assert_eq!(c.ignored.len(), 1);
        assert!(
            c.ignored[0].starts_with("OME_TOP_LOG \"kube=loud\" ignored"),
            "{:?}",
            c.ignored
        );
    }

    #[test]
    fn a_level_covers_ome_top_and_kube_and_holds_other_crates_at_warnings() {
        let d = directives(&Chosen::Level(LogLevel::Trace));
        assert_eq!(
            d,
            "warn,ome_top=trace,kube=trace,kube_client=trace,kube_runtime=trace,kube_core=trace"
        );
        let d = directives(&Chosen::Level(LogLevel::Error));
        assert!(d.starts_with("error,ome_top=error,"), "{d}");
        assert!(EnvFilter::builder().parse(&d).is_ok());
    }

    #[test]
    fn headers_never_pass_the_caps() {
        let caps = caps();
        assert!(!caps.would_enable("kube_client::client", &Level::TRACE));
        assert!(caps.would_enable("kube_client::client", &Level::DEBUG));
        assert!(caps.would_enable("kube_client::client::builder", &Level::DEBUG));
        assert!(!caps.would_enable("hyper_util::client", &Level::TRACE));
        assert!(!caps.would_enable("h2::codec", &Level::TRACE));
        assert!(caps.would_enable("kube_runtime::watcher", &Level::TRACE));
        assert!(caps.would_enable("ome_top::cluster", &Level::TRACE));
    }
}
