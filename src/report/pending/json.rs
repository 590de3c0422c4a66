//! The JSON of pending pods (docs/analyze-json.md, `pending[]`): camelCase keys, verdict and
//! reason codes as stable strings, times in RFC 3339.
//!
//! Owns: `pending_json`, `entry_json`. Reads engine results only.

use serde::Serialize;
use serde_json::Value;

use crate::engine::analysis::Analysis;
use crate::engine::explain::{Explanation, GangNeed, Verdict};
use crate::engine::gangs::FitCheck;
use crate::engine::model::ClusterSnapshot;
use crate::engine::unblock::{NoPlan, PlanTarget, Unblock};
use crate::report::pending::PendingEntry;
use crate::report::rfc3339;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GroupJson {
    verdict: &'static str,
    detail: Option<String>,
    words: String,
    nodes: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct NodeJson<'a> {
    name: &'a str,
    verdict: &'static str,
    detail: Option<String>,
    unhealthy: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DomainJson<'a> {
    value: &'a str,
    nodes: usize,
    room: u32,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GangJson<'a> {
    gang: &'a str,
    remaining: u32,
    topology_key: Option<&'a str>,
    pinned_domain: Option<&'a str>,
    domains: Vec<DomainJson<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ExplainJson<'a> {
    fits: bool,
    groups: Vec<GroupJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<Vec<NodeJson<'a>>>,
    gang: Option<GangJson<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MoveJson<'a> {
    workload: &'a str,
    component: &'a str,
    instance: i64,
    from_node: Option<&'a str>,
    frees_gpus: u32,
    hold: &'static str,
    hold_reason: Option<&'a str>,
    can_run_at: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PlanJson<'a> {
    status: &'static str,
    target_node: Option<&'a str>,
    target_domain: Option<&'a str>,
    moves: Vec<MoveJson<'a>>,
    reason: Option<&'static str>,
    reason_words: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EntryJson<'a> {
    namespace: &'a str,
    name: &'a str,
    gang: Option<&'a str>,
    pool: Option<&'a str>,
    gpus: u32,
    explain: ExplainJson<'a>,
    plan: PlanJson<'a>,
}

/// The detail a verdict carries (a taint's key, a resource's name).
fn detail(v: &Verdict) -> Option<String> {
    match v {
        Verdict::Refused(FitCheck::Taint(key)) => Some(key.to_string()),
        Verdict::Refused(FitCheck::OtherResource(name)) => Some(name.to_string()),
        _ => None,
    }
}

fn gang_json(g: &GangNeed) -> GangJson<'_> {
    GangJson {
        gang: &g.key,
        remaining: g.remaining,
        topology_key: g.topology_key.as_deref(),
        pinned_domain: g.pinned_domain.as_deref(),
        domains: g
            .domains
            .iter()
            .map(|d| DomainJson {
                value: &d.value,
                nodes: d.nodes,
                room: d.room,
            })
            .collect(),
    }
}

fn explain_json<'a>(snap: &'a ClusterSnapshot, e: &'a Explanation, nodes: bool) -> ExplainJson<'a> {
    ExplainJson {
        fits: e.fits_somewhere(),
        groups: e
            .groups
            .iter()
            .map(|g| GroupJson {
                verdict: g.verdict.code(),
                detail: detail(&g.verdict),
                words: g.verdict.words(),
                nodes: g.nodes,
            })
            .collect(),
        nodes: nodes.then(|| {
            e.nodes
                .iter()
                .map(|n| NodeJson {
                    name: &snap.nodes[n.node].name,
                    verdict: n.verdict.code(),
                    detail: detail(&n.verdict),
                    unhealthy: n.unhealthy,
                })
                .collect()
        }),
        gang: e.gang.as_ref().map(gang_json),
    }
}

fn plan_json<'a>(snap: &'a ClusterSnapshot, a: &'a Analysis, u: &'a Unblock) -> PlanJson<'a> {
    let empty = |status, reason: Option<NoPlan>| PlanJson {
        status,
        target_node: None,
        target_domain: None,
        moves: Vec::new(),
        reason: reason.map(NoPlan::code),
        reason_words: reason.map(NoPlan::words),
    };
    let plan = match u {
        Unblock::FitsNow => return empty("fitsNow", None),
        Unblock::NoPlan(why) => return empty("noPlan", Some(*why)),
        Unblock::Plan(p) => p,
    };
    let (target_node, target_domain) = match &plan.target {
        PlanTarget::Node(n) => (snap.nodes.get(*n).map(|n| n.name.as_ref()), None),
        PlanTarget::Domain(d) => (None, Some(d.as_str())),
    };
    let moves = plan
        .moves
        .iter()
        .filter_map(|m| {
            let row = a.moves.get(m.row)?;
            let from = row.plan.as_deref().and_then(|p| snap.nodes.get(p.from));
            Some(MoveJson {
                workload: &row.workload,
                component: &row.component,
                instance: row.instance,
                from_node: from.map(|n| n.name.as_ref()),
                frees_gpus: m.frees,
                hold: m.hold.code(),
                hold_reason: m.hold.reason(),
                can_run_at: m.hold.until().map(rfc3339),
            })
        })
        .collect();
    PlanJson {
        status: "plan",
        target_node,
        target_domain,
        moves,
        reason: None,
        reason_words: None,
    }
}

/// One entry as JSON; `nodes`: with the per-node verdicts (`ome-top explain`), else only the
/// groups (`analyze`'s `pending[]`).
pub fn entry_json(
    snap: &ClusterSnapshot,
    a: &Analysis,
    entry: &PendingEntry,
    nodes: bool,
) -> Value {
    let e = &entry.explanation;
    let pod = &snap.pods[e.pod];
    let doc = EntryJson {
        namespace: &pod.namespace,
        name: &pod.name,
        gang: e.gang.as_ref().map(|g| g.key.as_str()),
        pool: e.pool.as_deref(),
        gpus: e.gpus,
        explain: explain_json(snap, e, nodes),
        plan: plan_json(snap, a, &entry.unblock),
    };
    serde_json::to_value(doc).unwrap_or(Value::Null)
}

/// `pending[]` of `analyze -o json`.
pub fn pending_json(snap: &ClusterSnapshot, a: &Analysis, entries: &[PendingEntry]) -> Vec<Value> {
    entries
        .iter()
        .map(|e| entry_json(snap, a, e, false))
        .collect()
}
