//! The `gangs[]` and `lints[]` arrays of `ome-top analyze -o json` (product.md §7, documented
//! in docs/gangs-and-lints.md): camelCase keys, `null` for unknown values, sorted
//! deterministically (gangs by `ns/name`, lints by rule, object, message).
//!
//! Owns: `gangs_json`, `lints_json`. Reads engine results only.

use serde::Serialize;

use crate::engine::gangs::PendingReason;
use crate::engine::gangs::Reason;
use crate::engine::gangs::{Gang, GangReport};
use crate::engine::lints::Lint;

/// One `gangs[]` entry.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GangJson {
    gang: String,
    min_member: Option<i64>,
    topology_key: Option<String>,
    state: &'static str,
    domain: Option<String>,
    pin_source: Option<&'static str>,
    placed: u32,
    remaining: Option<u32>,
    pending_reason: Option<ReasonJson>,
    members: usize,
    on_ome_scheduler: bool,
    reservation: Option<&'static str>,
    split_domains: Vec<String>,
    pin_as_of: Option<String>,
    prediction: Option<PredictionJson>,
}

/// A classified Pending reason.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReasonJson {
    code: &'static str,
    row: u8,
    pod: String,
    source: &'static str,
    at: Option<String>,
    message: String,
    domain: Option<String>,
    nodes: Option<u32>,
}

/// A predicted pin.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PredictionJson {
    model: &'static str,
    current: String,
    need: u32,
    domain: Option<String>,
    capacity: u32,
    outcome: &'static str,
}

/// One `lints[]` entry.
#[derive(Debug, Serialize)]
pub struct LintJson<'a> {
    rule: &'static str,
    object: &'a str,
    message: &'a str,
}

fn reason_json(r: &PendingReason) -> ReasonJson {
    let p: &Reason = &r.primary;
    ReasonJson {
        code: p.code.name(),
        row: p.code.row(),
        pod: r.pod.clone(),
        source: r.source.name(),
        at: r.at.map(crate::report::rfc3339),
        message: r.message.clone(),
        domain: p.domain.clone(),
        nodes: p.nodes,
    }
}

fn gang_json(g: &Gang) -> GangJson {
    GangJson {
        gang: g.key(),
        min_member: g.min_member,
        topology_key: g.topology_key.clone(),
        state: g.state.name(),
        domain: g.domain.clone(),
        pin_source: g.pin_source.map(|s| s.name()),
        placed: g.placed,
        remaining: g.remaining,
        pending_reason: g.pending_reason.as_ref().map(reason_json),
        members: g.members.len(),
        on_ome_scheduler: g.on_ome_scheduler,
        reservation: g.reservation.map(|r| match r {
            crate::engine::gangs::Reservation::Inferred => "inferred",
            crate::engine::gangs::Reservation::Hinted => "hinted",
        }),
        split_domains: g.split_domains.clone(),
        pin_as_of: g.pin_as_of.map(crate::report::rfc3339),
        prediction: g.prediction.as_ref().map(|p| PredictionJson {
            model: p.model.name(),
            current: p.current.clone(),
            need: p.need,
            domain: p.domain.clone(),
            capacity: p.capacity,
            outcome: p.outcome.name(),
        }),
    }
}

/// `gangs[]`, sorted by `ns/name`.
pub fn gangs_json(report: &GangReport) -> Vec<GangJson> {
    let mut out: Vec<GangJson> = report.gangs.iter().map(gang_json).collect();
    out.sort_by(|a, b| a.gang.cmp(&b.gang));
    out
}

/// `lints[]`, sorted by rule id, object, message.
pub fn lints_json(lints: &[Lint]) -> Vec<LintJson<'_>> {
    let mut out: Vec<LintJson<'_>> = lints
        .iter()
        .map(|l| LintJson {
            rule: l.rule.id(),
            object: &l.object,
            message: &l.message,
        })
        .collect();
    out.sort_by(|a, b| (a.rule, a.object, a.message).cmp(&(b.rule, b.object, b.message)));
    out
}
