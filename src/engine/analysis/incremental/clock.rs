//! Moving the incremental analysis to another time without a full pass when the time alone
//! changes nothing: before the next deadline (`Deadlines`) the analysis at `now` equals the one
//! it holds but for `now` and the pools' drifting figures, which `pools::retime_pool` moves by
//! the functions `score_pool` computes them with. A passed deadline, a threshold a drifting
//! score crosses, or time going back runs the full analysis at the new time.
//!
//! Owns: `Incremental::{advance, retime, next_deadline, drifts}`, `Advance`, and the deadlines
//! a change brings (`note_change`, `check_gates`). Pure.

use std::sync::Arc;

use crate::engine::alfred_config::ScoringRules;
use crate::engine::analysis::deadlines::analysis_drifts;
use crate::engine::analysis::incremental::{Change, Incremental, MovesRerun};
use crate::engine::analysis::Deadlines;
use crate::engine::model::Time;
use crate::engine::nodes::node_state;
use crate::engine::pools::retime_pool;

/// What `Incremental::advance` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Advance {
    /// Nothing: the analysis keeps its time (no deadline passed, nothing drifts).
    Kept,
    /// Only `now` and the pools' drifting figures moved.
    Retimed,
    /// A full analysis at the new time.
    Full,
}

impl Incremental {
    /// The first instant after the analysis's time at which it can change by time alone.
    pub fn next_deadline(&self) -> Option<Time> {
        self.deadlines.next()
    }

    /// The deadlines ahead.
    pub fn deadlines(&self) -> &Deadlines {
        &self.deadlines
    }

    /// Whether some pool's figures read a pending pod's wait (they move at every millisecond;
    /// `retime` moves them).
    pub fn drifts(&self) -> bool {
        analysis_drifts(&self.snap, &self.analysis)
    }

    /// Brings the analysis to `now` at the least cost: nothing before the next deadline when
    /// nothing drifts; `retime` when only drifting figures move; else a full analysis at `now`.
    /// Afterwards the analysis equals `analyze(snapshot(), options())` (the options' time is
    /// `now` unless `Kept`).
    pub fn advance(&mut self, now: Time) -> Advance {
        if !self.due(now) && !self.drifts() {
            return Advance::Kept;
        }
        self.retime(now)
    }

    /// Moves the analysis to `now`: before the next deadline only `now` and the pools'
    /// drifting figures change (exact: they are recomputed by the functions that computed
    /// them); a passed deadline, a crossed score threshold or an earlier `now` is a full
    /// analysis.
    pub fn retime(&mut self, now: Time) -> Advance {
        if now == self.opts.now {
            return Advance::Kept;
        }
        self.opts.now = now;
        if now < self.analysis.now || self.due(now) {
            self.rebuild();
            return Advance::Full;
        }
        let analysis = Arc::make_mut(&mut self.analysis);
        analysis.now = now;
        self.deadlines.move_to(now);
        let rules = ScoringRules::from_config(&analysis.config);
        let mut flipped = false;
        for pool in &mut analysis.pools {
            flipped |= retime_pool(&self.snap, pool, &rules, now);
        }
        if flipped {
            // The decision pass reads `above_threshold`: the pass runs again.
            self.rebuild();
            return Advance::Full;
        }
        Advance::Retimed
    }

    /// Whether a deadline passed by `now`.
    fn due(&self, now: Time) -> bool {
        self.next_deadline().is_some_and(|d| d <= now)
    }

    /// Collects the deadlines again when the change made the arbiter judge a row while the
    /// set left its gates out (called after each change). Only a decision pass run in full
    /// can make it judge one: reused rows are the same, and the component rows `refresh_moves`
    /// swaps in replace advice with advice (`moves.rs`), so the scan of every row waits for a
    /// full pass; a full analysis collects the set anew.
    pub(super) fn check_gates(&mut self) {
        let passed = self.rerun.moves == MovesRerun::Full && !self.rerun.full;
        if passed && self.deadlines.miss_gates(&self.analysis) {
            let mut deadlines = Deadlines::of(&self.snap, &self.analysis);
            deadlines.move_to(self.opts.now);
            self.deadlines = deadlines;
        }
    }

    /// Adds the deadlines `change` brings to the set (called after it was applied: a node's
    /// health state is read at the analysis's time).
    pub(super) fn note_change(&mut self, change: &Change) {
        match change {
            Change::Pod(pod) => self.deadlines.note_pod(pod, &self.analysis),
            Change::Node(node) => {
                let table = &self.opts.instance_types;
                let state = node_state(node, &self.analysis.config, table, self.opts.now);
                let until = state.health.deadline();
                self.deadlines.note_node(node, until, &self.analysis);
            }
            _ => {}
        }
    }
}
