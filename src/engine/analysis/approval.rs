//! The queries behind an operator's approval of a move, on one analysis: where the move's
//! Instance is (`Analysis::locate_instance`), ome-top's verdict on the move
//! (`Analysis::move_verdict`) and the pre-checks `kubectl ome migration start` runs
//! (`Analysis::approval_checks`). The rules they apply are `planning`'s (`row_verdict`,
//! `PreCheck::refusal`, `override_reasons`).

use crate::engine::analysis::Analysis;
use crate::engine::model::vocab::Policy;
use crate::engine::model::ClusterSnapshot;
use crate::engine::planning::{
    row_verdict, uncomputed_verdict, CheckResult, MoveRow, PreCheck, Verdict,
};
use crate::engine::workloads::{is_movable, DeploymentMode};

/// A move's Instance as its rows name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstanceRef<'a> {
    /// `ns/name` of the workload.
    pub workload: &'a str,
    /// Component name.
    pub component: &'a str,
    /// Instance index.
    pub instance: i64,
}

/// What ome-top's verdict on a move reads: its computed row, what Alfred published of it, and
/// the Instance it moves.
#[derive(Debug, Clone, Copy)]
pub struct MoveQuery<'a> {
    /// ome-top's row, when it computes one.
    pub computed: Option<&'a MoveRow>,
    /// The policy of Alfred's published row, when there is one.
    pub published: Option<&'a Policy>,
    /// The Instance, when a row names a target or hints (`None`: no room can be asked).
    pub instance: Option<InstanceRef<'a>>,
}

impl Analysis {
    /// `(component index, instance index)` in `workloads` of the Instance `at` names.
    pub fn locate_instance(
        &self,
        snap: &ClusterSnapshot,
        at: InstanceRef<'_>,
    ) -> Option<(usize, usize)> {
        self.workloads
            .components
            .iter()
            .enumerate()
            .find_map(|(c, comp)| {
                let isvc = snap.isvcs.get(comp.isvc)?;
                if comp.name() != at.component || isvc.key() != at.workload {
                    return None;
                }
                let i = comp.instances.iter().position(|x| x.index == at.instance)?;
                Some((c, i))
            })
    }

    /// Whether a target has room for the Instance `at` now (the what-if places it).
    fn room(&self, snap: &ClusterSnapshot, at: Option<InstanceRef<'_>>) -> Option<bool> {
        let (c, i) = self.locate_instance(snap, at?)?;
        Some(self.what_if(snap, c, i)?.placements.is_some())
    }

    /// ome-top's verdict on the move `q` in this analysis of `snap`.
    pub fn move_verdict(&self, snap: &ClusterSnapshot, q: MoveQuery<'_>) -> Verdict {
        let room = || self.room(snap, q.instance);
        if let Some(row) = q.computed {
            return row_verdict(row, room);
        }
        let defrag = q.published == Some(&Policy::Defragmentation);
        uncomputed_verdict(defrag && !self.config.defrag_window_open_at(self.now), room)
    }

    /// The pre-checks of approving a move of the Instance at `at` (`locate_instance`), in the
    /// order the dialog lists them: the ones nothing overrides (the Instance exists, runs
    /// OMENative, has no request in flight), then Ready, not opted out, the eligibility
    /// baseline.
    pub fn approval_checks(
        &self,
        snap: &ClusterSnapshot,
        at: Option<(usize, usize)>,
    ) -> Vec<CheckResult> {
        let result = |check, passed| CheckResult { check, passed };
        let Some((c, i)) = at else {
            let gone = || result(PreCheck::InstanceExists, Some(false));
            let isvc_unknown = [PreCheck::NotOptedOut, PreCheck::EligibilityBaseline(None)];
            return [gone(), gone()]
                .into_iter()
                .chain(isvc_unknown.map(|c| result(c, None)))
                .collect();
        };
        let comp = &self.workloads.components[c];
        let isvc = snap.isvcs.get(comp.isvc);
        let mut out = vec![result(
            PreCheck::OmeNative(comp.mode),
            Some(comp.mode == DeploymentMode::OMENative),
        )];
        let active = isvc
            .and(self.workloads.migrations.get(comp.isvc))
            .map(|m| m.active);
        out.push(result(
            PreCheck::NoRequestInFlight(active),
            active.map(|n| n == 0),
        ));
        let inst = &comp.instances[i];
        let ready = !inst.pods.is_empty()
            && inst.ready_pods == inst.pods.len() as i64
            && inst.observation.is_ok();
        out.push(result(
            PreCheck::InstanceReady(inst.ready_pods, inst.pods.len()),
            Some(ready),
        ));
        let movable = isvc.map(|w| is_movable(w, self.config.default_movable));
        out.push(result(PreCheck::NotOptedOut, movable));
        let baseline = self
            .verdicts
            .iter()
            .find(|v| v.component == c && v.instance == i)
            .map(|v| &v.baseline);
        out.push(match baseline {
            Some(Ok(())) => result(PreCheck::EligibilityBaseline(None), Some(true)),
            Some(Err(why)) => result(
                PreCheck::EligibilityBaseline(Some(why.clone())),
                Some(false),
            ),
            None => result(PreCheck::EligibilityBaseline(None), None),
        });
        out
    }
}
