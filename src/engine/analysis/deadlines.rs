//! When an analysis changes by time alone. `Deadlines::of` collects, from each stage that reads
//! `now`, the instants after `analysis.now` at which one of its rules flips: a node's
//! `suspectUntil` and maintenance start labels, every cooldown, cap, backoff, emergency age
//! and window the decision pass compares (`planning::plan_deadlines`), and when Alfred's
//! published pass turns stale (what the views show from `analysis.now`). Each instant comes
//! from the function beside its rule, built on the rule's own constant.
//!
//! Between `now` and the first instant, `analyze(snap, t)` equals `analyze(snap, now)` but for
//! `now` itself and, when `drifts`, the pools' figures that read a pending pod's wait at every
//! millisecond (its age, the pressure, the score: `pools::retime_pool` moves them). The set
//! may hold more instants than flip anything: one too many costs a needless re-run, never a
//! stale answer.
//!
//! Owns: `Deadlines`. Pure.

use std::collections::BTreeSet;

use crate::engine::alfred_config::maintenance_deadline;
use crate::engine::analysis::Analysis;
use crate::engine::model::{ClusterSnapshot, Node, Pod, Time};
use crate::engine::planning::{arbitrated, plan_deadlines, pod_deadlines, TimedInputs};
use crate::engine::pools::drifts;
use crate::engine::recommendations::stale_at;

/// The instants after an analysis's time at which it can change, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Deadlines {
    at: BTreeSet<Time>,
    now: Time,
    // Whether the arbiter judged a row: its gates' instants are counted only then.
    arbitrated: bool,
}

impl Deadlines {
    /// Every instant after `analysis.now` at which `analysis` (of `snap`) can change.
    pub fn of(snap: &ClusterSnapshot, analysis: &Analysis) -> Self {
        let now = analysis.now;
        let mut at: Vec<Time> = Vec::new();
        for (node, state) in snap.nodes.iter().zip(&analysis.nodes) {
            at.extend(state.health.deadline());
            at.extend(maintenance_deadline(&analysis.config, node, now));
        }
        let rules = analysis.eligibility_rules();
        let input = TimedInputs {
            snap,
            workloads: &analysis.workloads,
            pools: &analysis.pools,
            journal: &analysis.journal,
            cfg: &analysis.config,
            rules: &rules,
            moves: &analysis.moves,
        };
        plan_deadlines(&input, now, &mut at);
        at.extend(published_stale_at(analysis));
        let mut deadlines = Deadlines {
            at: BTreeSet::new(),
            now,
            arbitrated: arbitrated(&analysis.moves),
        };
        deadlines.extend(at);
        deadlines
    }

    /// Whether these deadlines leave out the arbiter's gates while `analysis` (the same
    /// snapshot's, brought up to date by changes) has the arbiter judge a row: then they must
    /// be collected again.
    pub fn miss_gates(&self, analysis: &Analysis) -> bool {
        !self.arbitrated && arbitrated(&analysis.moves)
    }

    /// The first instant after the analysis's time at which it can change (`None`: never, by
    /// time alone).
    pub fn next(&self) -> Option<Time> {
        self.at.first().copied()
    }

    /// How many instants are ahead.
    pub fn len(&self) -> usize {
        self.at.len()
    }

    /// Whether no instant is ahead.
    pub fn is_empty(&self) -> bool {
        self.at.is_empty()
    }

    /// The analysis moved to `now` before the first instant (`retime`): later additions are
    /// counted from it.
    pub(crate) fn move_to(&mut self, now: Time) {
        self.now = now;
    }

    /// Adds the instants after the analysis's time among `at`.
    pub fn extend(&mut self, at: impl IntoIterator<Item = Time>) {
        let now = self.now;
        self.at.extend(at.into_iter().filter(|t| *t > now));
    }

    /// Adds what pod `pod` brings (its placement cooldowns, its emergency age), for a pod
    /// added or changed after the analysis was built.
    pub fn note_pod(&mut self, pod: &Pod, analysis: &Analysis) {
        let mut at = Vec::new();
        pod_deadlines(pod, (&analysis.config, self.arbitrated), &mut at);
        self.extend(at);
    }

    /// Adds what node `node` brings (its maintenance start labels) and its health state's
    /// `suspect` deadline, `until`.
    pub fn note_node(&mut self, node: &Node, until: Option<Time>, analysis: &Analysis) {
        let at = maintenance_deadline(&analysis.config, node, self.now);
        self.extend(at.into_iter().chain(until));
    }
}

/// Whether any pool of `analysis` reads a pending pod's wait, which moves at every millisecond.
pub fn analysis_drifts(snap: &ClusterSnapshot, analysis: &Analysis) -> bool {
    analysis.pools.iter().any(|p| drifts(snap, p))
}

/// When the pass Alfred published turns stale for the views (`recommendations::freshness` at
/// `analysis.now`).
fn published_stale_at(analysis: &Analysis) -> Option<Time> {
    let cycle = analysis
        .published
        .as_ref()?
        .last_cycle
        .as_ref()?
        .as_ref()
        .ok()?;
    stale_at(cycle.timestamp?, analysis.config.decision_loop_interval)
}
