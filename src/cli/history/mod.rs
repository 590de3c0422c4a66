//! The headless `ome-top history` command, for people and scripts: a node's health episodes
//! (from → to with durations, the open one "since …") and the audit rows about it; the audit
//! rows of any object (`KIND/NAME`, `KIND/NAMESPACE/NAME`); without a target, every node's
//! episodes (of a pool, of a state, since a time) and the health answers (flapping nodes, mean
//! time to repair per pool). Human times in the local zone by default, or JSON.
//!
//! Owns: `HistoryArgs`, `run_history`, the target, filter and time parsing; what is read is
//! `sections`', the renderings `table`'s and `json`'s. Holds no business logic of its own. Reads no
//! clock (the wall clock is an argument).

mod json;
mod sections;
mod table;

use sections::{ClusterSection, NodeEpisodes, Section};

use std::io::Write;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Result};
use chrono::{DateTime, Duration, FixedOffset, Offset, TimeZone, Utc};
use clap::Args;

use crate::cli::{Output, EXIT_BAD_INPUT, EXIT_OK};
use crate::engine::model::Time;
use crate::engine::timeline::{Episode, DEFAULT_FLAPS};
use crate::history::audit::AuditEntry;
use crate::history::{default_path, ClusterKey, HistoryStore, StoreOptions};

/// Arguments of `history`.
#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// A node (`NAME`, `node/NAME`), or any object whose audit rows to print (`KIND/NAME`,
    /// `KIND/NAMESPACE/NAME`, e.g. `isvc/prod/chat`, `configmap/ome/alfred-dispatch-state`).
    /// Without it: every node's episodes and the health answers.
    pub target: Option<String>,
    /// Only nodes last recorded in this pool (without a target).
    #[arg(long, value_name = "POOL")]
    pub pool: Option<String>,
    /// Only episodes of this state: Unhealthy, Suspect, Unknown, Maintenance, Cordoned.
    #[arg(long, value_name = "STATE")]
    pub state: Option<String>,
    /// Only what lasted until this time or later: RFC 3339, or an age (`30m`, `12h`, `7d`).
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// The health answers' flap threshold: a node flaps with more than this many health
    /// episodes in the window.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_FLAPS)]
    pub flaps: usize,
    /// The health answers' window, ending now (`24h`, `7d`).
    #[arg(long, value_name = "AGE", default_value = "7d")]
    pub window: String,
    /// Print times in UTC instead of the local zone.
    #[arg(long)]
    pub utc: bool,
    /// Only this cluster (a key as printed: `<server URL>#<context>`, `demo:<seed>@<start>`,
    /// `snapshot:<path>`); all clusters by default.
    #[arg(long, value_name = "KEY")]
    pub cluster: Option<String>,
    /// The history file; defaults to `history.sqlite3` in ome-top's data directory.
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value = "table")]
    pub output: Output,
    /// The current time (RFC 3339): open episodes' durations, ages, and the name of a corrupt
    /// file moved aside.
    #[arg(long, value_name = "RFC3339", hide = true)]
    pub now: Option<String>,
}

/// What `history` prints.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    /// One node's episodes and audit rows.
    Node(String),
    /// One object's audit rows.
    Object {
        kind: String,
        namespace: Option<String>,
        name: String,
    },
    /// Every node, and the health answers.
    AllNodes,
}

/// `KIND` as stored: the short names kubectl knows for the kinds ome-top writes, else as
/// given (the store matches kinds in any case).
fn kind_of(word: &str) -> String {
    match word.to_ascii_lowercase().as_str() {
        "no" | "node" | "nodes" => "Node".into(),
        "isvc" | "inferenceservice" | "inferenceservices" => "InferenceService".into(),
        "cm" | "configmap" | "configmaps" => "ConfigMap".into(),
        _ => word.into(),
    }
}

fn target(text: Option<&str>) -> Result<Target> {
    let Some(text) = text else {
        return Ok(Target::AllNodes);
    };
    let parts: Vec<&str> = text.split('/').collect();
    if parts.iter().any(|p| p.is_empty()) {
        bail!("{text:?} is not NAME, KIND/NAME or KIND/NAMESPACE/NAME");
    }
    Ok(match parts.as_slice() {
        [name] => Target::Node((*name).into()),
        [kind, name] if kind_of(kind) == "Node" => Target::Node((*name).into()),
        [kind, name] => Target::Object {
            kind: kind_of(kind),
            namespace: None,
            name: (*name).into(),
        },
        [kind, ns, name] => Target::Object {
            kind: kind_of(kind),
            namespace: Some((*ns).into()),
            name: (*name).into(),
        },
        _ => bail!("{text:?} is not NAME, KIND/NAME or KIND/NAMESPACE/NAME"),
    })
}

/// An age such as `30m`, `12h`, `7d`, `90s`.
fn age(text: &str) -> Option<Duration> {
    let (digits, unit) = text.split_at(text.find(|c: char| !c.is_ascii_digit())?);
    let n: i64 = digits.parse().ok()?;
    match unit {
        "s" => Duration::try_seconds(n),
        "m" => Duration::try_minutes(n),
        "h" => Duration::try_hours(n),
        "d" => Duration::try_days(n),
        _ => None,
    }
}

fn rfc3339(flag: &str, text: &str) -> Result<Time> {
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| anyhow!("{flag} {text:?} is neither RFC 3339 nor an age like 7d: {e}"))
}

/// `--since`: a time, or an age before `now`.
fn since(text: &str, now: Time) -> Result<Time> {
    match age(text) {
        Some(d) => Ok(now - d),
        None => rfc3339("--since", text),
    }
}

/// The state words `--state` takes, as `EpisodeKind::state` spells them.
const STATES: [&str; 5] = ["Unhealthy", "Suspect", "Unknown", "Maintenance", "Cordoned"];

fn state(text: &str) -> Result<&'static str> {
    STATES
        .iter()
        .find(|s| s.eq_ignore_ascii_case(text))
        .copied()
        .ok_or_else(|| anyhow!("--state {text:?}: one of {}", STATES.join(", ")))
}

/// The choices every mode applies.
struct Filters {
    state: Option<&'static str>,
    since: Option<Time>,
    pool: Option<String>,
}

impl Filters {
    fn episode(&self, e: &Episode) -> bool {
        self.state.is_none_or(|s| e.kind.state() == s) && self.since.is_none_or(|t| e.reaches(t))
    }

    fn audit(&self, a: &AuditEntry) -> bool {
        self.since.is_none_or(|t| a.at >= t)
    }
}

/// How times are printed: the zone and the time open episodes last until.
#[derive(Debug, Clone, Copy)]
struct Clock {
    now: Time,
    tz: FixedOffset,
}

/// Runs `history`, writing the result to `out` and notices and errors to `err`; returns the
/// exit code. A missing file is an empty history, not an error, and is not created.
pub fn run_history(
    args: &HistoryArgs,
    wall_clock: DateTime<Utc>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    match history(args, wall_clock, out, err) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            let _ = writeln!(err, "ome-top: {e:#}");
            EXIT_BAD_INPUT
        }
    }
}

fn history(
    args: &HistoryArgs,
    wall_clock: DateTime<Utc>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<()> {
    let now = match &args.now {
        None => wall_clock,
        Some(s) => rfc3339("--now", s)?,
    };
    let target = target(args.target.as_deref())?;
    let filters = Filters {
        state: args.state.as_deref().map(state).transpose()?,
        since: args.since.as_deref().map(|s| since(s, now)).transpose()?,
        pool: args.pool.clone(),
    };
    let window = age(&args.window)
        .ok_or_else(|| anyhow!("--window {:?} is not an age like 7d", args.window))?;
    check_flags(&target, &filters)?;
    let path = match &args.db {
        Some(p) => p.clone(),
        None => default_path().ok_or_else(|| anyhow!("no home directory: pass --db"))?,
    };
    let sections = if path.exists() {
        let opened = HistoryStore::open_at(&path, StoreOptions::keep_everything(), now)?;
        for notice in &opened.notices {
            writeln!(err, "ome-top: {notice}")?;
        }
        let q = sections::Query {
            store: &opened.store,
            target: &target,
            filters: &filters,
            now,
            window: (window, args.flaps),
        };
        q.sections(args.cluster.as_deref().map(ClusterKey::raw))?
    } else {
        Vec::new()
    };
    let tz = if args.utc {
        Utc.fix()
    } else {
        chrono::Local
            .offset_from_utc_datetime(&now.naive_utc())
            .fix()
    };
    let clock = Clock { now, tz };
    match args.output {
        Output::Json => {
            let doc = json::document(&target, &sections, now);
            serde_json::to_writer_pretty(&mut *out, &doc)?;
            writeln!(out)?;
        }
        Output::Table => write!(out, "{}", table::text(&target, &sections, clock, &path))?,
    }
    Ok(())
}

/// Flags that make no sense for the target are refused rather than ignored.
fn check_flags(target: &Target, f: &Filters) -> Result<()> {
    match target {
        Target::Node(_) if f.pool.is_some() => {
            bail!("--pool selects nodes: give it without a node name")
        }
        Target::Object { .. } if f.pool.is_some() || f.state.is_some() => {
            bail!("--pool and --state select node episodes: not with an object's audit rows")
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_name_a_node_or_any_object() {
        assert_eq!(target(Some("gpu-a")).unwrap(), Target::Node("gpu-a".into()));
        assert_eq!(
            target(Some("no/gpu-a")).unwrap(),
            Target::Node("gpu-a".into())
        );
        assert_eq!(
            target(Some("isvc/prod/chat")).unwrap(),
            Target::Object {
                kind: "InferenceService".into(),
                namespace: Some("prod".into()),
                name: "chat".into()
            }
        );
        assert_eq!(
            target(Some("PodGroup/x")).unwrap(),
            Target::Object {
                kind: "PodGroup".into(),
                namespace: None,
                name: "x".into()
            }
        );
        assert!(target(Some("a/b/c/d")).is_err());
        assert!(target(Some("cm//x")).is_err());
        assert_eq!(target(None).unwrap(), Target::AllNodes);
    }

    #[test]
    fn since_takes_an_age_or_a_time() {
        let now: Time = "2026-09-28T10:00:00Z".parse().unwrap();
        assert_eq!(since("7d", now).unwrap(), now - Duration::days(7));
        assert_eq!(since("90s", now).unwrap(), now - Duration::seconds(90));
        assert_eq!(
            since("2026-09-27T00:00:00Z", now).unwrap(),
            "2026-09-27T00:00:00Z".parse::<Time>().unwrap()
        );
        assert!(since("yesterday", now).is_err());
        assert!(since("7w", now).is_err());
        assert_eq!(state("unhealthy").unwrap(), "Unhealthy");
        assert!(state("broken").is_err());
    }
}
