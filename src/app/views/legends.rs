//! What each view's columns and symbols mean, in the operator's words: the `?` help shows the
//! current view's legend above its keys, and docs/views.md carries the same lines (a test
//! keeps them equal). Every meaning is read from the code that computes the value (the
//! engine's pools, nodes, planning, journal, gangs and lints, and the views' cells).
//!
//! Owns: `Legend`, `legend`. Plain data.

use crate::app::state::View;

/// One legend line: a column title or a symbol, and what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Legend {
    /// The column title or symbol as the screen shows it.
    pub term: &'static str,
    /// What it means, in one or two sentences.
    pub meaning: &'static str,
}

const fn l(term: &'static str, meaning: &'static str) -> Legend {
    Legend { term, meaning }
}

const POOLS: &[Legend] = &[
    l("POOL", "The GPU pool: the nodes Alfred groups by their GPU product."),
    l("NODES", "Nodes in the pool."),
    l("GPU USED", "GPUs requested by the pool's pods / GPUs the pool's nodes offer."),
    l("FREE", "GPUs free on the nodes that take new pods (schedulable: not unhealthy, suspect or of unknown health, in maintenance, cordoned, being removed, or a spot node Alfred avoids). The map's \"N GPUs free\" is this number; its \"+N on unschedulable nodes\" counts the free GPUs of the other nodes."),
    l("WHOLE", "Schedulable nodes with every GPU free."),
    l("SCORE", "Alfred's pool score, 0 to 1: 1 − (1 − RECL) × (1 − PRESS). Alfred may execute moves in the pool only when it is above the threshold. low, mid, high: below half the threshold, up to it, above it."),
    l("▲", "The score is above Alfred's fragmentation threshold."),
    l("OBS", "Observed fragmentation: the share of free GPUs that cannot serve a request of each size, weighted by the pool's demand per size (0: every free GPU is usable)."),
    l("BEST", "Fragmentation after the best first-fit repack of the pods Alfred may move: the floor moves can reach."),
    l("RECL", "Reclaimable fragmentation, OBS − BEST: what moves can win back. 0 when Alfred can move nothing (no executor)."),
    l("STUCK", "Fragmentation no move fixes, OBS − RECL (pods Alfred may not move)."),
    l("PRESS", "Pending pressure, 0 to 1: grows with how long GPU pods have waited that fit only after a repack."),
    l("PENDING", "Pending GPU pods of the pool, and how long the oldest has waited."),
    l("· 1-9 +", "The map, one cell per node: · no GPU free, a digit the GPUs free (+ for 10 or more); a node with every GPU free has its own colour."),
    l("!", "The map's unhealthy node that still takes new pods: neither cordoned nor tainted NoSchedule, so the scheduler keeps placing pods there while Alfred evacuates it. Full size, its line names it and c cordons it."),
    l("✗ ? ~ M C R S", "A map cell whose node Alfred does not place on: unhealthy (cordoned or tainted), health unknown, suspect, maintenance, cordoned, being removed, spot (Alfred avoids spot nodes as targets)."),
    l("not ready", "In the map's legend: nodes whose kubelet reports Ready=False or stopped reporting; their cells keep the digit in the colour of unknown health, and their GPUs still count as free, as Alfred counts them."),
    l("without an Instance", "A line above the table: GPU pods of an InferenceService that no Instance holds (an OMENative-shaped service without its InferenceReplica, such as a MultiNode service OME runs as a LeaderWorkerSet); Alfred counts no demand for them."),
];

const NODES: &[Legend] = &[
    l("NAME", "The node."),
    l("POOL", "Its GPU pool (- when it has no GPUs)."),
    l("HEALTH", "Alfred's health state, from its trigger conditions (GpuUnhealthy by default)."),
    l("✓ Clear", "No trigger condition on the node, or all have been False longer than the suspicion window."),
    l("~ Suspect", "Every trigger condition is False, one turned False within the suspicion window: not a target, not evacuated."),
    l("? Unknown", "A trigger condition is Unknown or unreadable: not a target, not evacuated."),
    l("✗ Unhealthy", "A trigger condition is True: Alfred evacuates the node and never targets it."),
    l("CORDON", "cordoned: spec.unschedulable is set, the node takes no new pod."),
    l("SPOT", "spot: a preemptible node (one of Alfred's preemptible labels)."),
    l("GPU", "GPUs requested by the node's pods / GPUs it offers."),
    l("OME", "OME model pods using the node's GPUs."),
    l("COND", "Time since the node's last condition change."),
    l("RESOURCE", "Wide layout: the GPU resource the node offers (nvidia.com/gpu, habana.ai/gaudi)."),
    l("AGE", "Wide layout: the node's age."),
    l("MAINT", "Maintenance triggers of Alfred's config that match the node."),
    l("FLAPS", "Health episodes in the last 7 days (local history); ! when the node flaps (more than 3)."),
    l("MTTR", "Wide layout: mean time to repair of the node's pool."),
    l("⚑ cordoned", "In the node's timeline: a cordon episode."),
    l("· unreachable", "After HEALTH (or · not ready): the kubelet stopped reporting (Ready=Unknown, or the unreachable taint) or reports the node not ready. Alfred's health ignores it and still counts the node's free GPUs."),
];

const MOVES: &[Legend] = &[
    l("≠", "Alfred and ome-top disagree on the move: other outcomes or reasons, or only one of them lists it."),
    l("OME-TOP", "The outcome ome-top computes from the cluster now."),
    l("ALFRED", "The outcome Alfred published in its last cycle."),
    l("admitted", "The move Alfred's dispatcher would submit next."),
    l("withheld", "Admitted but not dispatched; WHY says what holds it."),
    l("rejected", "A safety gate refused it; WHY names the gate."),
    l("advisory", "Advice only: Alfred will not execute it (WHY: the advisory reason)."),
    l("submitted, acknowledged", "The migration request is written; the InferenceReplica acknowledged it."),
    l("stalled", "No progress: only the replica's terminal status or an operator clears it (Journal)."),
    l("completed, failed", "How the migration ended."),
    l("WORKLOAD", "namespace/InferenceService; ▸ N advisory: advisory moves grouped by reason (enter opens)."),
    l("INST", "component/instance that would move."),
    l("▸ / ▾", "An advisory group closed / open; ▸ in WHY: the migration's phase."),
    l("WHY", "Why it does not run: the reject, withhold or advisory reason; ▸ phase while a migration is requested or running."),
    l("POLICY", "defrag (fragmentation), health (node health), journal (dispatch)."),
    l("FROM", "The node the instance leaves."),
    l("→ TARGETS", "The chosen target node, else Alfred's first hint and how many more (+N)."),
    l("SCORE", "How worth the move is; higher runs first. Defragmentation: the drop in the pool's weighted fragmentation (its benefit) minus the move's cost, with boosts; node health: the workload's priority; advice: 0 or less. Not the pool's SCORE (Pools), which decides whether Alfred moves anything in the pool."),
    l("weighted fragmentation", "In the detail: the pool's OBS (Pools) now and after this move; the move pays off when the drop covers its cost."),
    l("REASON", "The policy's reason for the move (Fragmentation, NodeMaintenance, …)."),
    l("FRESH", "Age of Alfred's last cycle; stale when older than its decision loop."),
    l("★", "In the detail: a migration requested from this ome-top."),
    l("✓ / ✗", "In the detail: a check met or not met."),
];

const JOURNAL: &[Legend] = &[
    l("UUID", "The first 8 characters of the migration request's id."),
    l("WORKLOAD", "namespace/InferenceService of the request."),
    l("INST", "component/instance of the request."),
    l("PHASE", "prepared, submitted, acknowledged, completed, failed or stalled."),
    l("REASON", "Alfred's reason for the phase (AcknowledgementTimeout, TerminalStatusObserved, …)."),
    l("AGE", "Since the entry was written."),
    l("BLOCKS", "⊘ blocks: this stalled or unresolved entry holds every submission of Alfred; the moves it holds show in Moves as withheld, UnresolvedRequest."),
    l("⊘ banner", "Above the table: Alfred submits nothing until the blocking entry is resolved, with Alfred's reason."),
    l("CLEARING", "clearable: the documented checks pass and x clears the entry; wait: what must happen first; -: nothing to clear."),
];

const GANGS: &[Legend] = &[
    l("tree", "Topology key → domain → gang → member pods."),
    l(
        "n/m placed",
        "Members placed of the gang's minMember (? when it has none).",
    ),
    l(
        "Pinned",
        "All members placed in one domain, or the scheduler named its domain.",
    ),
    l(
        "BoundPartial",
        "Some members placed in one domain; the scheduler keeps it for the rest.",
    ),
    l(
        "Forming",
        "Members complete, none placed, no scheduling failure: most likely waiting at Permit.",
    ),
    l(
        "Waiting",
        "Nothing placed and the scheduler reports why (the reason that follows).",
    ),
    l(
        "Blocked",
        "The PodGroup or scheduler config makes a pin impossible (the reason that follows).",
    ),
    l("Split", "Placed members sit in two or more domains."),
    l(
        "reserved",
        "The domain is reserved for the missing members.",
    ),
    l(
        "⚠",
        "In the pin: members that do not use the OME scheduler's profile, so its gang plugin never sees them.",
    ),
];

const LINTS: &[Legend] = &[
    l(
        "RULE",
        "The placement rule broken; the detail says the fix.",
    ),
    l(
        "host-pinned-pod",
        "A model pod pinned to hosts: a hostname selector, required node affinity on a host list, or a nodeName set by hand.",
    ),
    l(
        "reservation-cordon",
        "A cordoned node with no health reason and no maintenance trigger.",
    ),
    l(
        "mixed-schedulers-pool",
        "Pods of two or more schedulers on one GPU pool.",
    ),
    l(
        "required-pod-anti-affinity",
        "Required (not preferred) pod anti-affinity on model pods.",
    ),
    l(
        "requests-not-proportional",
        "CPU or memory per GPU above the pool's per-GPU share.",
    ),
    l(
        "small-pods-hold-empty-node",
        "Small pods hold a node whose use is below the HighNodeUtilization threshold.",
    ),
    l("OBJECT", "The pod, node or pool the lint is about."),
    l("MESSAGE", "What is wrong, in one line; cut with … when longer than the column, whole (with its fix) in the lint's detail."),
];

const FLEET: &[Legend] = &[
    l("CONTEXT", "The kubeconfig context (the cluster) the row is about. Enter opens its own views (Pools, Nodes, Moves…, where actions happen under that context's read-only rules and RBAC); Esc there comes back here. Every context stays watched."),
    l("POOL", "The GPU pool; - for a context without data or without a GPU pool."),
    l("NODES", "Nodes in the pool."),
    l("GPU USED", "GPUs requested by the pool's pods / GPUs the pool's nodes offer."),
    l("FREE", "GPUs free on the nodes that take new pods (the Pools view's FREE)."),
    l("WHOLE", "Schedulable nodes with every GPU free."),
    l("SCORE", "Alfred's pool score, 0 to 1; ▲: above Alfred's fragmentation threshold (moves may execute)."),
    l("FIT", "The largest request, in GPUs, one node of the pool fits now."),
    l("REPACK", "The largest request one node fits after Alfred's best first-fit repack."),
    l("PENDING", "Pending GPU pods: count×≤largest request, and how long the oldest has waited."),
    l("NOT CLEAR", "Nodes unhealthy or of unknown health / suspect / with a maintenance trigger."),
    l("ALFRED", "Alfred's mode in the cluster: exec (execute), recom (recommend-only), none (alfred-config absent); brk: a move met the circuit breaker (recent moves failed)."),
    l("STALLED", "Alfred's dispatch-journal entries in phase stalled: only an operator or the Instance's terminal status resolves them, and they hold Alfred's submissions back."),
    l("AGE", "How long ago the cluster's data last changed (its newest analysis or watched event)."),
    l("RO", "RO: the context is read-only for this session (--readonly or config.toml [read-only])."),
    l("ATTENTION", "What needs a hand first, and the order of the rows: unreachable (with the error and the next retry), stale data, connecting, Alfred blocked, pods waiting with no room, nodes failing, fragmented, nodes suspect, ok."),
    l("fits now in", "The box below the table, one line per request size: the pools where one node fits it now, then those where it fits only after the repack (in brackets: how many requests of that size have room), then the clusters whose answer is not known."),
];

/// The legend of `view`: its columns, then its symbols, in screen order.
pub fn legend(view: View) -> &'static [Legend] {
    match view {
        View::Pools => POOLS,
        View::Nodes => NODES,
        View::Moves => MOVES,
        View::Journal => JOURNAL,
        View::Gangs => GANGS,
        View::Lints => LINTS,
        View::Fleet => FLEET,
    }
}
