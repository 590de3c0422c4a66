//! One decision pass as Alfred would run it on this snapshot: the journal's state, both
//! policies, and (in execute mode) the arbiter and dispatcher view.
//!
//! Owns: `JournalView`, `decision_pass`. Pure.

use crate::engine::alfred_config::Mode;
use crate::engine::fast::{descending_score_key, identity_keys, permute, IdentityKey};
use crate::engine::journal::{blocking_state, journal_unavailable_message, Blocking};
use crate::engine::journal::{parse_journal, Journal};
use crate::engine::model::vocab::{DispatchReason, Outcome, Policy, RejectReason};
use crate::engine::model::ClusterSnapshot;
use crate::engine::planning::arbiter::{arbitrate_in, ArbiterState};
use crate::engine::planning::defrag::defrag_rows_keyed;
use crate::engine::planning::health::health_rows_keyed;
use crate::engine::planning::moves::MoveRow;
use crate::engine::planning::PlanContext;

/// The dispatch journal as read from `alfred-dispatch-state`.
#[derive(Debug, Clone, PartialEq)]
pub enum JournalView {
    /// The ConfigMap does not exist (migration API off).
    Absent,
    /// The ConfigMap exists but has no `state.json` key.
    MissingKey,
    /// `state.json` fails Alfred's strict rules: every admitted move is withheld.
    Unreadable(String),
    /// A strictly valid journal and what blocks Alfred because of it.
    Valid(Journal, Blocking),
}

impl JournalView {
    /// Reads the journal from the ConfigMap `namespace/alfred-dispatch-state`.
    pub fn read(snap: &ClusterSnapshot, namespace: &str) -> Self {
        let Some(cm) = snap.config_map(namespace, "alfred-dispatch-state") else {
            return JournalView::Absent;
        };
        let Some(text) = cm.data.get("state.json") else {
            return JournalView::MissingKey;
        };
        match parse_journal(text.as_bytes()) {
            Ok(j) => {
                let blocking = blocking_state(&j);
                JournalView::Valid(j, blocking)
            }
            Err(e) => JournalView::Unreadable(journal_unavailable_message(&e)),
        }
    }

    /// The parsed journal, when valid.
    pub fn journal(&self) -> Option<&Journal> {
        match self {
            JournalView::Valid(j, _) => Some(j),
            _ => None,
        }
    }
}

/// Any InferenceService carries a `cooldown-minutes` annotation that is not a whole number
/// ≥ 0: in execute mode Alfred withholds every submission (`InvalidCooldown`).
fn invalid_cooldown(snap: &ClusterSnapshot) -> bool {
    snap.isvcs.iter().any(|w| {
        w.annotation("alfred.ome.io/cooldown-minutes")
            .is_some_and(|v| v.parse::<i64>().map_or(true, |m| m < 0))
    })
}

/// The arbiter's reconstructed state, with the dispatcher's pass-wide withhold reason.
fn arbiter_state(ctx: &PlanContext<'_>, journal: &JournalView) -> ArbiterState {
    let mut state = ArbiterState::from_journal(journal.journal(), ctx.now);
    state.pass_withhold = match journal {
        JournalView::Absent | JournalView::MissingKey => Some(DispatchReason::JournalUnavailable),
        JournalView::Unreadable(_) => Some(DispatchReason::JournalUnavailable),
        JournalView::Valid(j, blocking) => blocking
            .withhold_reason()
            .or_else(|| invalid_cooldown(ctx.snap).then_some(DispatchReason::InvalidCooldown))
            .or_else(|| {
                j.backoff_until
                    .filter(|until| ctx.now < *until)
                    .map(|_| DispatchReason::FailureBackoff)
            }),
    };
    let any_request = ctx.workloads.migrations.iter().any(|m| m.active > 0);
    state.first_preflight = any_request.then_some(DispatchReason::Gate(RejectReason::InFlightCap));
    state
}

/// Runs both policies and, in execute mode, the arbiter. Rows are in Alfred's arbitration
/// order: class, executable first, score desc, footprint asc, identity.
pub fn decision_pass(ctx: &PlanContext<'_>, journal: &JournalView) -> Vec<MoveRow> {
    pass(ctx, journal, false).0
}

/// `decision_pass`, with the component each row was built for (aligned with the rows; `None`
/// for a health row of pods no component covers).
pub fn decision_pass_owned(
    ctx: &PlanContext<'_>,
    journal: &JournalView,
) -> (Vec<MoveRow>, Vec<Option<usize>>) {
    pass(ctx, journal, true)
}

/// The pass, with each row's component when `track` is set (else no list).
fn pass(
    ctx: &PlanContext<'_>,
    journal: &JournalView,
    track: bool,
) -> (Vec<MoveRow>, Vec<Option<usize>>) {
    let (health_rows, health_known, health_owners) = health_rows_keyed(ctx);
    let defrag = defrag_rows_keyed(ctx, track);
    let (mut rows, defrag_keys, defrag_order) = (defrag.rows, defrag.keys, defrag.order);
    let mut owners = defrag.owners;
    owners.extend(health_owners);
    // Defrag rows (many large rows) stay where they were generated and the few
    // health rows (ranked) follow them; the pass order lists the health rows first, then the
    // defrag rows ranked. Every later step goes by index, so where a row sits does not matter.
    let (defrag, health) = (rows.len(), health_rows.len());
    let mut pass_order: Vec<usize> = (defrag..defrag + health).collect();
    pass_order.extend(defrag_order.iter().copied());
    rows.extend(health_rows);
    let mut known: Vec<Option<IdentityKey>> = defrag_keys.into_iter().map(Some).collect();
    known.extend(health_known);
    if ctx.cfg.mode == Mode::Execute {
        let state = arbiter_state(ctx, journal);
        arbitrate_in(ctx, &state, &mut rows, &pass_order);
    }
    let keys = identity_keys(&rows, known);
    // Class desc, executable first, score desc, footprint, identity, then policy text — one
    // integer key per row; a stable sort keeps the pass order (each policy's ranked order)
    // among equal keys.
    let policy_ranks = policy_ranks(&rows);
    let advisory = |i: &usize| rows[*i].outcome == Outcome::Advisory;
    // The defrag rows, executable ones first, are already in key order (one class, ranked by
    // score, footprint and identity): the sort then merges long runs. Rows with equal keys
    // share the executable flag, so this keeps their pass order.
    let (defrag_exec, defrag_advice): (Vec<usize>, Vec<usize>) =
        pass_order[health..].iter().partition(|i| !advisory(i));
    let mut keyed: Vec<(SortKey, usize)> = pass_order[..health]
        .iter()
        .chain(&defrag_exec)
        .chain(&defrag_advice)
        .map(|i| {
            let r = &rows[*i];
            let key = (
                u8::MAX - r.class(),
                advisory(i),
                descending_score_key(r.score),
                r.footprint,
                keys[*i],
                policy_ranks[*i],
            );
            (key, *i)
        })
        .collect();
    keyed.sort_by_key(|(key, _)| *key);
    let order: Vec<usize> = keyed.into_iter().map(|(_, i)| i).collect();
    let owners = match track {
        true => order
            .iter()
            .map(|i| owners.get(*i).copied().flatten())
            .collect(),
        false => Vec::new(),
    };
    (permute(rows, &order), owners)
}

/// A row's pass sort key: class desc, advisory last, score desc, footprint, identity, policy.
type SortKey = (u8, bool, u64, u32, IdentityKey, u32);

/// A row's place in the pass's final order, read from the row alone: the pass's sort key with
/// the identity `(ns/name, component, instance)` and the policy as text (their ranks order
/// like the texts). Rows with different keys are in key order; rows with equal keys (one
/// identity and policy twice) keep their pass order.
pub type RowOrderKey<'r> = (u8, bool, u64, u32, (&'r str, &'r str, i64), &'r str);

/// The `RowOrderKey` of `row`.
pub fn row_order_key(row: &MoveRow) -> RowOrderKey<'_> {
    (
        u8::MAX - row.class(),
        row.outcome == Outcome::Advisory,
        descending_score_key(row.score),
        row.footprint,
        row.identity(),
        row.policy.as_str(),
    )
}

/// The rank of each row's policy text among the policies of `rows` (text order).
fn policy_ranks(rows: &[MoveRow]) -> Vec<u32> {
    // Policies are a handful of known values, compared by variant before any text is.
    let mut policies: Vec<&Policy> = Vec::new();
    for r in rows {
        if !policies.contains(&&r.policy) {
            policies.push(&r.policy);
        }
    }
    policies.sort_unstable_by(|a, b| a.as_str().cmp(b.as_str()));
    let rank = |p: &Policy| policies.iter().position(|q| *q == p).unwrap_or(0) as u32;
    rows.iter().map(|r| rank(&r.policy)).collect()
}
