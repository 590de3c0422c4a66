//! Every row of the FailedScheduling table (gangpack.md §5), in the framework-wrapped shapes
//! the scheduler writes, plus unknown messages kept verbatim.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns

use ome_top::engine::gangs::{classify, primary, ReasonCode};

/// `0/N nodes are available: <message>.`, the PreFilter rejection shape.
fn prefilter(message: &str) -> String {
    format!("0/6 nodes are available: {message}.")
}

#[test]
fn every_prefilter_row_is_recognised_with_what_it_names() {
    let g = Some("serving/llm-engine-0".to_string());
    type Case<'a> = (u8, &'a str, ReasonCode, Option<String>, Option<&'a str>);
    let cases: Vec<Case> = vec![
        (1, "PodGroup reader is unavailable", ReasonCode::ReaderUnavailable, None, None),
        (2, "PodGroup serving/llm-engine-0 not resolvable yet", ReasonCode::PodGroupNotResolvable, g.clone(), None),
        (3, "PodGroup serving/llm-engine-0 must declare a positive minMember", ReasonCode::MinMemberNotPositive, g.clone(), None),
        (4, "scheduler must configure topologyKey or podGroupTopologyKeyAnnotation for gang pods", ReasonCode::TopologyNotConfigured, None, None),
        (5, "PodGroup serving/llm-engine-0 must declare ome.io/topology-key or the scheduler must configure topologyKey", ReasonCode::TopologyKeyMissing, g.clone(), None),
        (6, "partner placement groups are not supported", ReasonCode::PlacementGroupUnsupported, None, None),
        (7, "PodGroup serving/llm-engine-0 must set scheduleTimeoutSeconds or the scheduler must configure defaultPermitTimeoutSeconds", ReasonCode::PermitTimeoutMissing, g.clone(), None),
        (8, "released commitment owned by a previous PodGroup instance serving/llm-engine-0", ReasonCode::OwnerChanged, g.clone(), None),
        (9, "released commitment after topology key changed for serving/llm-engine-0", ReasonCode::TopologyKeyChanged, g.clone(), None),
        (10, "gang serving/llm-engine-0 already has members in multiple topology domains", ReasonCode::Split, g.clone(), None),
        (12, "waiting for all PodGroup member templates for serving/llm-engine-0", ReasonCode::TemplatesIncomplete, g.clone(), None),
        (15, "pinned domain rack-b cannot fit all remaining gang members serving/llm-engine-0", ReasonCode::PinnedDomainFull, g.clone(), Some("rack-b")),
        (16, "adopted domain rack-b cannot fit remaining gang members serving/llm-engine-0", ReasonCode::AdoptedDomainFull, g.clone(), Some("rack-b")),
        (17, "no domain has room for gang serving/llm-engine-0", ReasonCode::NoDomainRoom, g.clone(), None),
        (18, "no domain has room for gang serving/llm-engine-0: every fitting domain is reserved for a forming gang", ReasonCode::DomainsReserved, g.clone(), None),
        (19, "no domain has candidate nodes for gang serving/llm-engine-0", ReasonCode::NoCandidateNodes, g.clone(), None),
        (20, "pinned domain rack.b_1 has no node feasible for gang member serving/llm-engine-0", ReasonCode::NoFeasibleNode, g.clone(), Some("rack.b_1")),
    ];
    for (row, text, code, gang, domain) in cases {
        let reasons = classify(&prefilter(text), Some("Unschedulable"));
        assert_eq!(reasons.len(), 1, "row {row}: {reasons:?}");
        let r = &reasons[0];
        assert_eq!((r.code, r.code.row()), (code, row), "{text}");
        assert_eq!(r.gang, gang, "row {row}");
        assert_eq!(r.domain.as_deref(), domain, "row {row}");
    }
}

#[test]
fn pod_naming_rows_capture_the_sibling() {
    for (row, text, code) in [
        (
            13,
            "waiting for gang spread anchor serving/llm-engine-0-leader-0 to be placed",
            ReasonCode::SpreadAnchorWait,
        ),
        (
            14,
            "waiting for gang sibling serving/llm-engine-0-leader-0 to be placed",
            ReasonCode::SiblingWait,
        ),
    ] {
        let r = primary(&classify(&prefilter(text), None));
        assert_eq!((r.code, r.code.row()), (code, row));
        assert_eq!(r.pod.as_deref(), Some("serving/llm-engine-0-leader-0"));
    }
}

#[test]
fn scheduler_error_condition_is_row_11_and_keeps_the_text() {
    let text = "0/6 nodes are available: list pods: etcdserver: request timed out.";
    let reasons = classify(text, Some("SchedulerError"));
    assert_eq!(reasons[0].code, ReasonCode::SchedulerError);
    assert_eq!(reasons[0].code.row(), 11);
    assert!(classify(text, Some("Unschedulable")).is_empty());
}

#[test]
fn filter_histogram_rows_capture_counts() {
    let text = "0/10 nodes are available: 2 Insufficient nvidia.com/gpu, 3 node is reserved for a \
                forming gang, 4 node not in gang's pinned domain rack-a, 1 node(s) didn't satisfy \
                plugin(s) [OMEGangPack].";
    let reasons = classify(text, Some("Unschedulable"));
    let got: Vec<(ReasonCode, u8, Option<u32>)> = reasons
        .iter()
        .map(|r| (r.code, r.code.row(), r.nodes))
        .collect();
    assert_eq!(
        got,
        vec![
            (ReasonCode::NodeReserved, 21, Some(3)),
            (ReasonCode::OutsidePinnedDomain, 22, Some(4)),
            (ReasonCode::ExcludedByPreFilter, 23, Some(1)),
        ]
    );
    assert_eq!(reasons[1].domain.as_deref(), Some("rack-a"));
    // The pinned-domain reason explains the message best among Filter reasons.
    assert_eq!(primary(&reasons).code, ReasonCode::OutsidePinnedDomain);
    // Another plugin's PreFilter exclusion is not OMEGangPack's.
    let other = "0/4 nodes are available: 4 node(s) didn't satisfy plugin(s) [NodeAffinity].";
    assert!(classify(other, None).is_empty());
}

#[test]
fn postfilter_and_permit_rows() {
    let post = "0/6 nodes are available: 2 node(s) didn't satisfy plugin(s) [OMEGangPack], 4 \
                node(s) didn't match pod topology spread constraints. gang reservation released \
                after all candidate nodes were filtered.";
    let reasons = classify(post, Some("Unschedulable"));
    let r = primary(&reasons);
    assert_eq!(
        (r.code, r.code.row()),
        (ReasonCode::ReservationReleased, 24)
    );
    assert!(r.code.unwound());
    for (row, text, code) in [
        (
            25,
            "selected node is outside the deferred gang plan",
            ReasonCode::DeferredPinRace,
        ),
        (
            25,
            "selected gang domain became unavailable before Reserve",
            ReasonCode::DeferredPinRace,
        ),
        (
            26,
            "labeled gang pod reached Permit without validated PreFilter state",
            ReasonCode::MissingPreFilterState,
        ),
        (
            27,
            "gang permit timeout is not configured",
            ReasonCode::PermitTimeoutUnset,
        ),
        (
            28,
            "gang serving/llm-engine-0 unwound after a member failed to schedule",
            ReasonCode::Unwound,
        ),
    ] {
        let r = primary(&classify(text, None));
        assert_eq!((r.code, r.code.row()), (code, row), "{text}");
    }
    let timeout = primary(&classify(
        "rejected due to timeout after waiting 10m0s at plugin OMEGangPack",
        None,
    ));
    assert_eq!(
        (timeout.code, timeout.code.row()),
        (ReasonCode::PermitTimeout, 29)
    );
    assert_eq!(timeout.detail.as_deref(), Some("10m0s"));
    assert!(timeout.code.unwound());
}

#[test]
fn row_5_captures_the_annotation_name_and_row_18_shadows_17() {
    let r = primary(&classify(
        &prefilter("PodGroup ns/g must declare example.com/rack or the scheduler must configure topologyKey"),
        None,
    ));
    assert_eq!(r.detail.as_deref(), Some("example.com/rack"));
    let reasons = classify(
        &prefilter(
            "no domain has room for gang ns/g: every fitting domain is reserved for a forming gang",
        ),
        None,
    );
    assert_eq!(reasons.len(), 1);
    assert_eq!(reasons[0].code, ReasonCode::DomainsReserved);
}

#[test]
fn unknown_messages_are_unknown_and_odd_text_never_panics() {
    let r = primary(&classify(
        "0/5 nodes are available: 5 Insufficient nvidia.com/gpu.",
        None,
    ));
    assert_eq!((r.code, r.code.row()), (ReasonCode::Unknown, 0));
    for odd in [
        "",
        "gang ",
        "pinned domain ",
        "pinned domain  cannot fit all remaining gang members ",
        "é node is reserved for a forming gang",
        "ü3 node is reserved for a forming gang",
        "node(s) didn't satisfy plugin(s) [OMEGangPack",
        "PodGroup 日本/語 not resolvable yet",
    ] {
        let _ = primary(&classify(odd, Some("SchedulerError")));
    }
}
