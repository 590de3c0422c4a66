//! The scheduling gate of Alfred's policies in recommend-only mode (`alfred.md` §6.4): why an
//! otherwise executable move stays advice, and the source checks the dispatcher repeats.
//!
//! Owns: `PlanContext::recommend_only_reason`, `PlanContext::scheduling_problem`. Pure.

use crate::engine::alfred_config::Mode;
use crate::engine::model::vocab::AdvisoryReason;
use crate::engine::planning::PlanContext;
use crate::engine::workloads::Instance;

impl PlanContext<'_> {
    /// The scheduling gate in recommend-only mode: the reason an otherwise executable move is
    /// advice. Without simulation results ome-top can only check the profile configuration:
    /// mixed schedulers, a missing profile, or a multi-pod Instance without gang support.
    pub fn recommend_only_reason(&self, inst: &Instance) -> Option<AdvisoryReason> {
        if self.cfg.mode == Mode::Execute {
            return None;
        }
        Some(
            self.scheduling_problem(inst)
                .unwrap_or(AdvisoryReason::SimulationRecommendOnly),
        )
    }

    /// `MixedSchedulers`, `ProfileNotConfigured` or `GangUnsupported` for an Instance.
    pub fn scheduling_problem(&self, inst: &Instance) -> Option<AdvisoryReason> {
        let scheduler = |p: &usize| {
            let s = self.snap.pods[*p].scheduler_name.as_ref();
            if s.is_empty() {
                "default-scheduler"
            } else {
                s
            }
        };
        let first = inst.pods.first().map(scheduler)?;
        if inst.pods.iter().map(scheduler).any(|s| s != first) {
            return Some(AdvisoryReason::MixedSchedulers);
        }
        match self.cfg.scheduling.profiles.get(first) {
            None => Some(AdvisoryReason::ProfileNotConfigured),
            Some(p) if inst.pods.len() > 1 && !p.gang_scheduling => {
                Some(AdvisoryReason::GangUnsupported)
            }
            Some(_) => None,
        }
    }
}
