//! The API server's audit log as the scale bench reads it: which requests ome-top's
//! User-Agent sent after a moment, and how many of them listed a collection (a LIST, or a
//! WATCH asking for the initial state: a streaming list). The log of a loaded cluster is large,
//! so it is read line by line and only ome-top's lines are parsed.
//!
//! Owns: `Lists`, `lists_since`, `status_writes`.

use std::io::{BufRead, BufReader};
use std::path::Path;

use anyhow::Result;
use chrono::{DateTime, Utc};
use serde_json::Value;

use ome_top::cluster::live::USER_AGENT;

/// ome-top's requests in a window of the audit log.
#[derive(Debug, Clone, Default)]
pub struct Lists {
    /// Every request (a watch counted when it starts).
    pub requests: usize,
    /// `verb requestURI` of those that listed a collection.
    pub lists: Vec<String>,
}

/// ome-top's requests received at or after `since`.
pub fn lists_since(log: &Path, since: DateTime<Utc>) -> Result<Lists> {
    let mut out = Lists::default();
    let marker = format!("\"userAgent\":\"{USER_AGENT}\"");
    for line in BufReader::new(std::fs::File::open(log)?).lines() {
        let line = line?;
        if !line.contains(&marker) {
            continue;
        }
        let Ok(e) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let verb = e["verb"].as_str().unwrap_or_default();
        let counted = match verb {
            "watch" => e["stage"] == "ResponseStarted",
            _ => e["stage"] == "ResponseComplete",
        };
        let received = e["requestReceivedTimestamp"]
            .as_str()
            .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
            .is_some_and(|t| t.with_timezone(&Utc) >= since);
        if !counted || !received {
            continue;
        }
        out.requests += 1;
        let uri = e["requestURI"].as_str().unwrap_or_default();
        if verb == "list" || uri.contains("sendInitialEvents=true") {
            out.lists.push(format!("{verb} {uri}"));
        }
    }
    Ok(out)
}

/// Status writes (update or patch of `<resource>/status`: kwok's node heartbeats with
/// `nodes`, kwok marking pods Running with `pods`) received in `[since, until)`, from any
/// client.
pub fn status_writes(
    log: &Path,
    resource: &str,
    (since, until): (DateTime<Utc>, DateTime<Utc>),
) -> Result<usize> {
    let mut count = 0;
    let resource = format!("\"resource\":\"{resource}\"");
    for line in BufReader::new(std::fs::File::open(log)?).lines() {
        let line = line?;
        if !line.contains("\"subresource\":\"status\"") || !line.contains(&resource) {
            continue;
        }
        let Ok(e) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let write = matches!(e["verb"].as_str(), Some("update" | "patch"));
        let at = e["requestReceivedTimestamp"]
            .as_str()
            .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
            .map(|t| t.with_timezone(&Utc));
        let inside = at.is_some_and(|t| t >= since && t < until);
        if write && inside && e["stage"] == "ResponseComplete" {
            count += 1;
        }
    }
    Ok(count)
}
