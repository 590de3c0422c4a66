//! The detail of one merged move: both outcomes and whether they disagree, ome-top's verdict,
//! the what-if (the pool's fragmentation before and after, the candidate targets and their
//! free GPUs against the Instance's footprint when none has room), the eligibility checklist
//! in words, and the move's progress once requested.
//!
//! Owns: `move_detail`. Plain data.

use crate::app::detail::{check_line, DetailKind, DetailModel, Lines};
use crate::app::table::Tone;
use crate::app::views::context::ViewContext;
use crate::app::views::moves::flight::{flight, flight_words, progress_lines, Flight};
use crate::app::views::moves::held::{holder, holder_words, JOURNAL_HOLDS};
use crate::app::views::moves::landing::{landing, landing_words, Landing};
use crate::app::views::moves::pacing::{pacing, pacing_words};
use crate::app::views::moves::requested::requested_detail;
use crate::app::views::moves::words::{
    advisory_words, check_words, dispatch_words, outcome_words, reject_words,
};
use crate::app::views::moves::{instance_of, verdict, verdict_line, Merged, MoveFields, MoveRef};
use crate::engine::analysis::Analysis;
use crate::engine::model::vocab::Policy;
use crate::engine::model::ClusterSnapshot;
use crate::engine::planning::{CanRun, Verdict};
use crate::engine::planning::{WhatIf, MOVE_COST};
use crate::engine::workloads::{baseline_checklist, defrag_checklist, DeploymentMode};
use crate::fmt::{relative, when};
use crate::protocol::Feed;

/// The outcome of one side and why, in words with the wire reason.
fn side_words(m: MoveRef<'_>) -> String {
    let (outcome, advisory, reject, dispatch) = match m {
        MoveRef::Alfred(r) => (
            &r.outcome,
            r.advisory_reason.as_ref(),
            r.reject_reason.as_ref(),
            r.dispatch_reason.as_ref(),
        ),
        MoveRef::Computed(c) => (
            &c.outcome,
            c.advisory_reason.as_ref(),
            c.reject_reason.as_ref(),
            c.dispatch_reason.as_ref(),
        ),
    };
    let why = match (advisory, reject, dispatch) {
        (Some(r), _, _) => format!(" — {} ({r})", advisory_words(r)),
        (_, Some(r), _) => format!(" — {} ({r})", reject_words(r)),
        (_, _, Some(r)) => format!(" — {} ({r})", dispatch_words(r)),
        _ => String::new(),
    };
    format!("{}{why}", outcome_words(outcome))
}

fn outcomes(
    (snap, a): (&ClusterSnapshot, &Analysis),
    m: &Merged<'_>,
    (published, flight, landed): (bool, Option<&Flight>, Option<&Landing>),
    out: &mut Lines,
) {
    out.heading("ome-top and Alfred");
    match m.computed {
        Some(c) => out.line(format!(
            "ome-top computes: {}",
            side_words(MoveRef::Computed(c))
        )),
        None => out.push("ome-top computes no move for it now", Tone::Muted),
    }
    match (m.alfred, published) {
        (Some(r), _) => {
            let when = a
                .published
                .as_ref()
                .and_then(|p| p.last_cycle.as_ref())
                .and_then(|c| c.as_ref().ok())
                .and_then(|c| c.timestamp);
            out.line(format!(
                "Alfred published: {} ({})",
                side_words(MoveRef::Alfred(r)),
                when.map_or_else(|| "when unknown".to_string(), |t| relative(a.now, t))
            ));
        }
        (None, true) => out.push(
            "Alfred published no row for it in its last pass",
            Tone::Muted,
        ),
        (None, false) => out.push("Alfred publishes no recommendations", Tone::Muted),
    }
    if let Some(f) = flight {
        // Our own request makes the Instance ineligible: neither a verdict nor a "≠" would
        // tell the operator anything but that.
        match landed {
            Some(l) if l.ended() => {
                let tone = match l {
                    Landing::Failed { .. } => Tone::Failed,
                    _ => Tone::Ok,
                };
                out.push(landing_words(l, a.now), tone);
            }
            _ => out.push(
                "while it is in flight the Instance is migrating: ome-top weighs it again once it ends",
                Tone::Muted,
            ),
        }
        return out.push(flight_words(f, a.now), Tone::Accent);
    }
    let held = [
        m.computed.map(MoveRef::Computed),
        m.alfred.map(MoveRef::Alfred),
    ]
    .into_iter()
    .flatten()
    .any(|r| r.fields().why.is_some_and(|w| JOURNAL_HOLDS.contains(&w)));
    if let Some(e) = holder(a).filter(|_| held) {
        out.push(holder_words(e), Tone::Accent);
    }
    if published && m.disagree() {
        out.push("≠ Alfred and ome-top disagree", Tone::Degraded);
    } else if published {
        out.push("= Alfred and ome-top agree", Tone::Ok);
    }
    let (words, tone) = verdict_line(&verdict(snap, a, m));
    out.push(format!("verdict: {words}"), tone);
}

/// `1 pod of 8 GPUs`, `1 pod of 1 GPU`, `2 pods of 4 + 4 GPUs`.
fn footprint_words(footprints: &[u32]) -> String {
    let gpus: Vec<String> = footprints.iter().map(u32::to_string).collect();
    let total: u32 = footprints.iter().sum();
    let unit = if total == 1 { "GPU" } else { "GPUs" };
    match footprints.len() {
        1 => format!("1 pod of {} {unit}", gpus[0]),
        n => format!("{n} pods of {} {unit}", gpus.join(" + ")),
    }
}

fn what_if_lines(snap: &ClusterSnapshot, w: &WhatIf, out: &mut Lines) {
    let name = |n: usize| snap.nodes.get(n).map_or("?", |x| x.name.as_ref());
    let from = w.from.map_or("-", name);
    match (&w.placements, w.after) {
        (Some(pl), Some(after)) => {
            out.line(format!(
                "pool {}: weighted fragmentation {:.4} now → {after:.4} after the move ({:+.4})",
                w.pool,
                w.before,
                after - w.before
            ));
            let mut targets: Vec<&str> = pl.iter().map(|(_, t)| name(*t)).collect();
            targets.dedup();
            out.line(format!(
                "moves {} from {from} to {}",
                footprint_words(&w.footprints),
                targets.join(", ")
            ));
        }
        (Some(_), None) => out.line(format!(
            "pool {}: weighted fragmentation {:.4} now; a target is not one of the pool's bins",
            w.pool, w.before
        )),
        (None, _) => {
            out.line(format!(
                "pool {}: weighted fragmentation {:.4} now; no target has room, so it stays",
                w.pool, w.before
            ));
            candidates(snap, w, from, out);
        }
    }
}

fn candidates(snap: &ClusterSnapshot, w: &WhatIf, from: &str, out: &mut Lines) {
    let largest = w.footprints.first().copied().unwrap_or(0);
    out.line(format!(
        "the Instance ({} on {from}) needs {largest} free GPUs on one node for its largest pod",
        footprint_words(&w.footprints)
    ));
    if w.candidate_count == 0 {
        out.push(
            "no candidate target: every other node of the pool is excluded, cordoned or full",
            Tone::Failed,
        );
        return;
    }
    out.line(format!(
        "candidate targets, most free GPUs first ({} of {}):",
        w.candidates.len(),
        w.candidate_count
    ));
    for (n, free) in &w.candidates {
        let node = snap.nodes.get(*n);
        let total = node.map_or(0, |x| x.gpu_allocatable);
        let fits = *free >= largest;
        let mark = if fits { "✓ room" } else { "✗ too few" };
        out.push(
            format!(
                "  {mark:<10} {:<28} {free} of {total} GPUs free",
                node.map_or("?", |x| x.name.as_ref())
            ),
            if fits { Tone::Ok } else { Tone::Failed },
        );
    }
}

fn push_check(out: &mut Lines, ok: Option<bool>, text: &str) {
    let (t, tone) = check_line(ok, text);
    out.push(t, tone);
}

fn eligibility(
    (snap, a): (&ClusterSnapshot, &Analysis),
    at: Option<(usize, usize)>,
    f: &MoveFields<'_>,
    w: Option<&WhatIf>,
    out: &mut Lines,
) {
    let Some((c, i)) = at else {
        out.heading("Eligibility");
        let text = if f.instance < 0 {
            "a component-wide row: no single Instance to check"
        } else {
            "the Instance is not in the current snapshot"
        };
        return out.push(text, Tone::Muted);
    };
    let comp = &a.workloads.components[c];
    if comp.mode != DeploymentMode::OMENative {
        out.heading("Eligibility (1 not met)");
        let text = format!(
            "the Instance runs in OMENative mode (it is {:?}: OME migrates only OMENative Instances)",
            comp.mode
        );
        push_check(out, Some(false), &text);
        return;
    }
    let rules = a.eligibility_rules();
    let defrag = *f.policy == Policy::Defragmentation;
    let mut checks: Vec<(Option<bool>, String)> = Vec::new();
    if defrag {
        let list = defrag_checklist(snap, &a.workloads, comp, &rules, a.now);
        checks.extend(
            list.into_iter()
                .map(|(c, ok)| (ok, check_words(c).to_string())),
        );
    }
    let list = baseline_checklist(snap, &a.workloads, comp, &comp.instances[i], &rules);
    checks.extend(
        list.into_iter()
            .map(|(c, ok)| (ok, check_words(c).to_string())),
    );
    checks.extend(planning_checks(a, w, defrag));
    let failing = checks.iter().filter(|(ok, _)| *ok != Some(true)).count();
    out.heading(match failing {
        0 => format!("Eligibility (all {} met)", checks.len()),
        n => format!("Eligibility ({n} of {} not met)", checks.len()),
    });
    for (ok, text) in &checks {
        push_check(out, *ok, text);
    }
}

/// The checks of planning around the baseline: the threshold, room for the surge copy, the
/// benefit against the cost, the maintenance windows (defragmentation only, but room).
fn planning_checks(a: &Analysis, w: Option<&WhatIf>, defrag: bool) -> Vec<(Option<bool>, String)> {
    let mut out = Vec::new();
    let pool = w.and_then(|w| a.pools.iter().find(|p| p.name == w.pool));
    if let (true, Some(p)) = (defrag, pool) {
        let threshold = a.config.policies.defragmentation.fragmentation_threshold;
        out.push((
            Some(p.above_threshold),
            format!(
                "the pool's fragmentation score is above Alfred's threshold ({:.3} vs {threshold:.3})",
                p.score
            ),
        ));
    }
    let placed = w.map(|w| w.placements.is_some());
    out.push((
        placed,
        "a node in the pool has room for the surge copy".into(),
    ));
    if defrag {
        let cost = a
            .config
            .policies
            .defragmentation
            .aggressiveness
            .cost_weight()
            * MOVE_COST;
        let benefit = w.and_then(|w| w.after.map(|after| w.before - after));
        let text = match benefit {
            Some(b) => format!("the benefit covers the move's cost ({b:.4} vs {cost:.4})"),
            None => format!("the benefit covers the move's cost ({cost:.4})"),
        };
        out.push((benefit.map(|b| b - cost > 0.0), text));
        out.push((
            Some(a.config.defrag_window_open_at(a.now)),
            "defragmentation may act now (inside a maintenance window, or none configured)".into(),
        ));
    }
    out
}

/// The detail pane of the move on the Moves row keyed `key`.
pub fn move_detail(cx: &ViewContext<'_>, feed: &Feed, key: &str) -> Option<DetailModel> {
    let (snap, a) = (&feed.snapshot, &feed.analysis);
    let index = &cx.models.move_index;
    let Some(pair) = index.pair_of_key(&cx.models.moves.rows, key) else {
        let r = index.request_of_key(&cx.models.moves.rows, key)?;
        return Some(requested_detail(cx, feed, cx.requested.get(r)?));
    };
    let m = Merged::of(a, pair)?;
    let f = m.primary()?.fields();
    let mut out = Lines::default();
    out.heading("Move");
    out.line(format!(
        "{} / {} / instance {}",
        f.workload, f.component, f.instance
    ));
    out.line(format!(
        "policy {} · reason {} · score {:.4}",
        f.policy, f.reason, f.score
    ));
    out.line(format!(
        "from {} → target {} · hints [{}]",
        f.from_node.unwrap_or("-"),
        f.target.unwrap_or("-"),
        f.hints.join(", ")
    ));
    let flying = flight(
        cx.requested,
        cx.phases,
        feed,
        (f.workload, f.component, f.instance),
    );
    let published = cx.models.move_index.published;
    let landed = flying
        .as_ref()
        .filter(|f| f.mine)
        .and_then(|f| cx.requested.iter().find(|r| r.uuid == f.uuid))
        .map(|r| landing(snap, r, cx.phases.get(&r.uuid)));
    let facts = (published, flying.as_ref(), landed.as_ref());
    outcomes((snap, a), &m, facts, &mut out);
    let at = instance_of(&m).and_then(|i| a.locate_instance(snap, i));
    if let (None, Verdict::CanRun(CanRun::OnlyPacing(gate))) = (&flying, verdict(snap, a, &m)) {
        if let Some(p) = pacing(snap, a, &gate, at) {
            let shown = |t| when(a.now, t, cx.utc_offset);
            out.push(pacing_words(&p, a.now, shown), Tone::Accent);
        }
    }
    out.heading("Pool fragmentation (what-if)");
    let w = at.and_then(|(c, i)| a.what_if(snap, c, i));
    match &w {
        Some(w) => what_if_lines(snap, w, &mut out),
        None => out.push(
            "no GPUs of the Instance in one pool: no what-if",
            Tone::Muted,
        ),
    }
    out.heading("Progress");
    progress_lines(cx, feed, (at, f.workload), &mut out);
    eligibility((snap, a), at, &f, w.as_ref(), &mut out);
    Some(DetailModel {
        kind: DetailKind::Move(key.to_string()),
        title: format!("move {}", f.workload),
        lines: out.0,
    })
}
