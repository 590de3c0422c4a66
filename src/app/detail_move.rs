//! Move detail: the row's fields, the eligibility checklist from `Analysis::verdicts`, the
//! pool's fragmentation before and after the move (what-if, from the planned move), and the
//! progress of a requested migration from the InferenceReplica's `status.migrations`.
//!
//! Owns: `move_detail`. Plain data; must not import `ratatui`, `tokio` or `kube`.

use crate::app::approve::locate_instance;
use crate::app::detail::{check_line, DetailKind, DetailModel, Lines};
use crate::app::rows::age;
use crate::app::rows_moves::{identity_key, move_ref, MoveRef};
use crate::app::state::AppState;
use crate::app::table::Tone;
use crate::protocol::Feed;

/// The detail pane of the move with identity `key`.
pub fn move_detail(state: &AppState, feed: &Feed, key: &str) -> Option<DetailModel> {
    let (snap, a) = (&feed.snapshot, &feed.analysis);
    let source = state
        .models
        .moves
        .rows
        .iter()
        .find(|r| r.key == key)
        .map(|r| r.source)?;
    let m = move_ref(a, source)?;
    let f = m.fields();
    if identity_key(&f) != key {
        return None;
    }
    let mut out = Lines::default();
    out.heading(format!("Move ({})", f.source));
    out.line(format!(
        "{} / {} / instance {}",
        f.workload, f.component, f.instance
    ));
    out.line(format!(
        "policy {} · reason {} · outcome {}",
        f.policy, f.reason, f.outcome
    ));
    out.line(format!(
        "from {} → target {} · hints [{}]",
        f.from_node.unwrap_or("-"),
        f.target.unwrap_or("-"),
        f.hints.join(", ")
    ));
    out.line(format!(
        "score {:.4} · why {}",
        f.score,
        f.why.unwrap_or("-")
    ));
    out.heading("Eligibility");
    let at = locate_instance(snap, a, f.workload, f.component, f.instance);
    let verdict = at.and_then(|(c, i)| {
        a.verdicts
            .iter()
            .find(|v| v.component == c && v.instance == i)
    });
    match verdict {
        Some(v) => {
            for (name, r) in [
                ("baseline (§5.4)", v.baseline),
                ("defragmentation", v.defrag),
            ] {
                let (text, tone) = match r {
                    Ok(()) => check_line(Some(true), name),
                    Err(why) => check_line(Some(false), &format!("{name}: {why}")),
                };
                out.push(text, tone);
            }
        }
        None => out.push("not an OMENative Instance: advice only", Tone::Muted),
    }
    out.heading("Pool fragmentation (what-if)");
    match m {
        MoveRef::Computed(row) => match &row.plan {
            Some(p) => {
                let after = p.after.map_or("-".to_string(), |x| format!("{x:.4}"));
                out.line(format!(
                    "pool {}: score {:.4} before → {after} after",
                    p.pool, p.before
                ));
            }
            None => out.push("no plan (advice or health move)", Tone::Muted),
        },
        MoveRef::Alfred(_) => out.push(
            "published row: see the matching computed row for the what-if",
            Tone::Muted,
        ),
    }
    out.heading("Progress");
    progress(state, feed, (at, f.workload), &mut out);
    Some(DetailModel {
        kind: DetailKind::Move(key.to_string()),
        title: format!("move {}", f.workload),
        lines: out.0,
    })
}

fn progress(
    state: &AppState,
    feed: &Feed,
    (at, workload): (Option<(usize, usize)>, &str),
    out: &mut Lines,
) {
    let (snap, a) = (&feed.snapshot, &feed.analysis);
    let ir = at
        .and_then(|(c, _)| a.workloads.components[c].ir)
        .and_then(|i| snap.replicas.get(i));
    let Some(ir) = ir else {
        out.push("no InferenceReplica", Tone::Muted);
        return;
    };
    let mine = |u: &str| state.requested.iter().any(|r| r.uuid == u);
    if ir.status.migrations.is_empty() {
        out.push("no migrations in status", Tone::Muted);
    }
    for m in &ir.status.migrations {
        let tone = match m.phase.as_ref() {
            "Completed" | "Relocated" => Tone::Ok,
            "Failed" => Tone::Failed,
            _ => Tone::Degraded,
        };
        out.push(
            format!(
                "{} {} phase {} · trigger {} · started {} · deadline {}{}",
                if mine(&m.request_uuid) { "★" } else { "·" },
                m.request_uuid,
                m.phase,
                m.trigger,
                age(a.now, m.started_at),
                age(a.now, m.deadline),
                if mine(&m.request_uuid) {
                    " (requested here)"
                } else {
                    ""
                }
            ),
            tone,
        );
    }
    for r in state.requested.iter().filter(|r| {
        r.workload == workload
            && !ir
                .status
                .migrations
                .iter()
                .any(|m| *m.request_uuid == *r.uuid)
    }) {
        out.push(
            format!(
                "★ {} requested here: waiting for the IR to acknowledge",
                r.uuid
            ),
            Tone::Degraded,
        );
    }
}
