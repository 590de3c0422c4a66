//! Why a gang waits: a message naming the domain pins it (an event pin), a current reason
//! without a domain is Waiting and a later unwind releases the pin, a stale reason leaves it
//! Forming, too few member pods wait for templates, and PodGroup facts block it with the
//! scheduler's reason.

use serde_json::{json, Value};

use ome_top::engine::analysis::Analysis;
use ome_top::engine::gangs::ReasonCode;
use ome_top::engine::gangs::ReasonSource;
use ome_top::engine::gangs::{GangState, PinSource, Reservation};

use super::{event, gang, item, items, run, unschedulable, GANG, LEADER, WORKER};

#[test]
fn a_message_naming_the_domain_is_an_event_pin() {
    let a = run(|doc| {
        unschedulable(
            doc,
            WORKER,
            "2026-09-28T10:05:00Z",
            "0/6 nodes are available: pinned domain b cannot fit all remaining gang members serving/llm-engine-0.",
        );
    });
    let g = gang(&a, GANG);
    assert_eq!(g.state, GangState::Pinned);
    assert_eq!(
        (g.domain.as_deref(), g.pin_source),
        (Some("b"), Some(PinSource::Event))
    );
    assert_eq!(g.pin_as_of, Some("2026-09-28T10:05:00Z".parse().unwrap()));
    assert_eq!(g.reservation, Some(Reservation::Inferred));
    let r = g.pending_reason.as_ref().unwrap();
    assert_eq!(
        (r.source, r.primary.code),
        (ReasonSource::Condition, ReasonCode::PinnedDomainFull)
    );
}

#[test]
fn a_current_reason_without_a_domain_is_waiting_and_unwinds_release_the_pin() {
    let a = run(|doc| {
        items(doc).push(event(
            LEADER,
            "2026-09-28T10:06:00.000000Z",
            "0/6 nodes are available: no domain has room for gang serving/llm-engine-0.",
        ));
    });
    let g = gang(&a, GANG);
    assert_eq!(g.state, GangState::Waiting);
    let r = g.pending_reason.as_ref().unwrap();
    assert_eq!((r.source, r.primary.code.row()), (ReasonSource::Event, 17));
    // A later unwind replaces an earlier event pin: no pin, Waiting.
    let a = run(|doc| {
        unschedulable(doc, WORKER, "2026-09-28T10:05:00Z", "0/6 nodes are available: pinned domain b cannot fit all remaining gang members serving/llm-engine-0.");
        items(doc).push(event(
            LEADER,
            "2026-09-28T10:07:00.000000Z",
            "gang serving/llm-engine-0 unwound after a member failed to schedule",
        ));
    });
    let g = gang(&a, GANG);
    assert_eq!(g.state, GangState::Waiting);
    assert_eq!(
        g.pin_source,
        Some(PinSource::Predicted),
        "only a prediction remains"
    );
    assert!(g.pending_reason.as_ref().unwrap().primary.code.unwound());
}

#[test]
fn a_reason_older_than_the_newest_member_is_stale_so_the_gang_is_forming() {
    let a = run(|doc| {
        unschedulable(
            doc,
            WORKER,
            "2026-09-28T09:00:00Z",
            "0/6 nodes are available: no domain has room for gang serving/llm-engine-0.",
        );
    });
    assert_eq!(gang(&a, GANG).state, GangState::Forming);
}

#[test]
fn too_few_member_pods_wait_for_templates() {
    let a = run(|doc| item(doc, "PodGroup", "llm-engine-0")["spec"]["minMember"] = 3.into());
    let g = gang(&a, GANG);
    assert_eq!(g.state, GangState::Waiting);
    let r = g.pending_reason.as_ref().unwrap();
    assert_eq!(
        (r.source, r.primary.code.row()),
        (ReasonSource::Inferred, 12)
    );
    assert!(g.prediction.is_none());
}

fn blocked_row(a: &Analysis) -> u8 {
    let g = gang(a, GANG);
    assert_eq!(g.state, GangState::Blocked);
    assert!(g.prediction.is_none() && g.pin_source.is_none());
    g.pending_reason.as_ref().unwrap().primary.code.row()
}

#[test]
fn podgroup_facts_block_gangs_with_the_schedulers_reason() {
    let drop_pg = |doc: &mut Value| items(doc).retain(|i| i["kind"] != "PodGroup");
    assert_eq!(
        blocked_row(&run(drop_pg)),
        2,
        "pods naming a missing PodGroup"
    );
    let no_min = |doc: &mut Value| {
        item(doc, "PodGroup", "llm-engine-0")["spec"]
            .as_object_mut()
            .unwrap()
            .remove("minMember");
    };
    assert_eq!(blocked_row(&run(no_min)), 3, "PodGroup without minMember");
    assert_eq!(gang(&run(no_min), GANG).remaining, None);
    let no_key = |doc: &mut Value| {
        item(doc, "PodGroup", "llm-engine-0")["metadata"]["annotations"] = json!({})
    };
    assert_eq!(blocked_row(&run(no_key)), 5);
    let no_annotation_arg = |doc: &mut Value| {
        no_key(doc);
        let cm = item(doc, "ConfigMap", "ome-scheduler-config");
        let text = cm["data"]["config.yaml"].as_str().unwrap().replace(
            "podGroupTopologyKeyAnnotation: \"ome.io/topology-key\"",
            "podGroupTopologyKeyAnnotation: \"\"",
        );
        cm["data"]["config.yaml"] = text.into();
    };
    assert_eq!(blocked_row(&run(no_annotation_arg)), 4);
    let pod_label = |doc: &mut Value| {
        item(doc, "Pod", WORKER)["metadata"]["labels"]["ome.io/placement-group"] = "".into();
    };
    assert_eq!(blocked_row(&run(pod_label)), 6);
    let pg_label = |doc: &mut Value| {
        item(doc, "PodGroup", "llm-engine-0")["metadata"]["labels"] =
            json!({"ome.io/placement-group": "x"});
    };
    assert_eq!(blocked_row(&run(pg_label)), 6);
    let no_timeout = |doc: &mut Value| {
        item(doc, "PodGroup", "llm-engine-0")["spec"]["scheduleTimeoutSeconds"] = 0.into();
        let cm = item(doc, "ConfigMap", "ome-scheduler-config");
        let text = cm["data"]["config.yaml"]
            .as_str()
            .unwrap()
            .replace("          defaultPermitTimeoutSeconds: 600\n", "");
        cm["data"]["config.yaml"] = text.into();
    };
    assert_eq!(blocked_row(&run(no_timeout)), 7);
}

#[test]
fn a_min_member_that_is_not_a_whole_number_has_its_own_reason() {
    use ome_top::engine::gangs::ReasonCode;
    for (raw, shown) in [
        (json!(1e12), "1000000000000.0"),
        (json!("two"), "\"two\""),
        (json!(2.5), "2.5"),
        (json!(3_000_000_000u64), "3000000000"),
    ] {
        let a = run(|doc| item(doc, "PodGroup", "llm-engine-0")["spec"]["minMember"] = raw.clone());
        let g = gang(&a, GANG);
        assert_eq!(g.state, GangState::Blocked, "{raw}");
        let reason = &g.pending_reason.as_ref().unwrap().primary;
        assert_eq!(reason.code, ReasonCode::MinMemberNotAnInteger, "{raw}");
        assert_eq!(reason.code.name(), "MinMemberNotAnInteger");
        let text = &g.pending_reason.as_ref().unwrap().message;
        assert!(
            text.contains(&format!("spec.minMember {shown} is not a whole number")),
            "{text}"
        );
    }
    // Zero and negative numbers keep the scheduler's own reason.
    let a = run(|doc| item(doc, "PodGroup", "llm-engine-0")["spec"]["minMember"] = 0.into());
    assert_eq!(blocked_row(&a), 3);
}
