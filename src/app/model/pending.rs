//! What the Pending list, the explanation of a pending pod and the what-if screens keep
//! across feeds: whether the list is shown (under Pools), its rows and selection, the walk
//! through an unblock plan's moves (one confirm dialog at a time) and the what-if last
//! computed. Plain data; built by `app::views::pending`, changed by `app::update::pending`.

use crate::app::detail::DetailModel;
use crate::app::table::{TableModel, TableView};

/// One move of an unblock plan, by what names it across feeds (the rows' indices change).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanStep {
    /// `ns/name` of the workload.
    pub workload: String,
    /// `engine`, `decoder` or `router`.
    pub component: String,
    /// Instance index.
    pub instance: i64,
}

/// The operator approving an unblock plan's moves one by one: each opens the usual approve
/// confirm dialog; confirming opens the next, cancelling stops the walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanWalk {
    /// The pending pod the plan frees room for (`namespace/name`).
    pub pod: String,
    /// The plan's moves, in the order to approve them.
    pub steps: Vec<PlanStep>,
    /// The step whose dialog is open (index into `steps`).
    pub at: usize,
    /// Requests sent so far.
    pub sent: usize,
}

/// The hypothetical change a node what-if shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhatIfKind {
    /// The node cordoned.
    Cordon,
    /// The node cordoned and every pod on it put back to Pending (a drain).
    Evacuate,
    /// The node labelled with Alfred's maintenance trigger.
    Maintenance,
    /// New values of Alfred's policy (threshold, caps, windows), typed into a dialog.
    Policy,
}

impl WhatIfKind {
    /// The next kind `what-if` shows when pressed again.
    pub fn next(self) -> Self {
        match self {
            WhatIfKind::Cordon => WhatIfKind::Evacuate,
            WhatIfKind::Evacuate => WhatIfKind::Maintenance,
            WhatIfKind::Maintenance => WhatIfKind::Cordon,
            // Pressed again, the policy what-if asks for the values again.
            WhatIfKind::Policy => WhatIfKind::Policy,
        }
    }
}

/// A what-if computed once when asked (a whole second analysis; a feed does not redo it).
#[derive(Debug, Clone, PartialEq)]
pub struct WhatIfShown {
    /// The node (`policy` for new policy values).
    pub node: String,
    /// The change.
    pub kind: WhatIfKind,
    /// The pane as built.
    pub pane: DetailModel,
}

/// The Pending list's and the plan walk's state.
#[derive(Debug, Clone, Default)]
pub struct PendingNav {
    /// The Pending list is shown in the Pools view.
    pub open: bool,
    /// Its rows, one per pending GPU pod or gang.
    pub rows: TableModel,
    /// Its selection and scroll.
    pub table: TableView,
    /// The feed generation the rows were built from.
    pub built: Option<u64>,
    /// A plan walk in progress.
    pub walk: Option<PlanWalk>,
    /// The what-if shown in the detail pane, if one is.
    pub what_if: Option<WhatIfShown>,
}
