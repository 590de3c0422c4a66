//! What the gang engine reads, for those who keep its report up to date: whether a report
//! read every node's free resources, and whether two versions of a pod read alike.
//!
//! Owns: `reads_node_capacity`, `same_gang_inputs`. Pure.

use crate::engine::gangs::GangReport;
use crate::engine::model::{OmeLabels, Pod};

/// Whether `compute_gangs` read the free resources of every node for `report` (it does when a
/// gang gets a predicted pin): every pod bound to a node then counts toward the report, not
/// only gang members and unbound pods. The fields `wanted` reads are set before the
/// prediction and never changed by it.
pub fn reads_node_capacity(report: &GangReport) -> bool {
    report
        .gangs
        .iter()
        .any(crate::engine::gangs::predict::wanted)
}

/// Whether the gang engine reads the same of pods `a` and `b` (two versions of one pod): they
/// differ at most in fields it never reads (readiness, start time, UID, controller, the OME
/// labels other than the pod group). Every field is named, so a new `Pod` field does not
/// compile here until it is sorted in.
pub fn same_gang_inputs(a: &Pod, b: &Pod) -> bool {
    let Pod {
        node,
        phase,
        namespace,
        gpus,
        ready: _,
        terminating,
        scheduled_condition,
        ome,
        controller: _,
        placement,
        node_selector,
        other_requests,
        scheduler_name,
        cpu_milli,
        memory,
        name,
        gpu_resource,
        created,
        started: _,
        unschedulable_since,
    } = a;
    let OmeLabels {
        isvc: _,
        component: _,
        managed_by: _,
        pod_group,
        runner: _,
        instance_index: _,
        incarnation: _,
        pod_ordinal: _,
    } = ome;
    (
        node,
        phase,
        namespace,
        gpus,
        terminating,
        scheduled_condition,
    ) == (
        &b.node,
        &b.phase,
        &b.namespace,
        &b.gpus,
        &b.terminating,
        &b.scheduled_condition,
    ) && (placement, node_selector, scheduler_name, cpu_milli, memory)
        == (
            &b.placement,
            &b.node_selector,
            &b.scheduler_name,
            &b.cpu_milli,
            &b.memory,
        )
        && other_requests == &b.other_requests
        && (name, gpu_resource, created, unschedulable_since, pod_group)
            == (
                &b.name,
                &b.gpu_resource,
                &b.created,
                &b.unschedulable_since,
                &b.ome.pod_group,
            )
}
