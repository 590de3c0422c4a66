//! Why a pending gang is Pending (gangpack.md §3.3, lineage C member room): per node the
//! first refusing check, and a node that fits a member but whose domain lacks room for the
//! rest says so; the gang's domains carry their room.

use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::explain::{Explainer, Verdict};
use ome_top::engine::gangs::FitCheck;

use super::*;

/// Per node: its name, verdict, and the gang's domains with their room.
type Row = (String, Verdict, Vec<(String, u32)>);

fn explained(edit: impl FnOnce(&mut Value)) -> Vec<Row> {
    let mut doc: Value = serde_json::from_str(FIXTURE).unwrap();
    edit(&mut doc);
    let (snap, _) = read_snapshot(serde_json::to_string(&doc).unwrap().as_bytes()).unwrap();
    let a = analyze(
        &snap,
        &AnalysisOptions {
            now: now(),
            alfred_namespace: "ome".into(),
            executor: ExecutorSetting::Auto,
            placement: PlacementOptions::default(),
            instance_types: Default::default(),
        },
    );
    let ex = Explainer::new(a.pending_input(&snap));
    let leader = snap.pods.iter().position(|p| &*p.name == LEADER).unwrap();
    let e = ex.explain(leader).unwrap();
    let gang = e.gang.clone().unwrap();
    assert_eq!((gang.key.as_str(), gang.remaining), (GANG, 2));
    let domains: Vec<(String, u32)> = gang
        .domains
        .iter()
        .map(|d| (d.value.clone(), d.room))
        .collect();
    e.nodes
        .iter()
        .map(|n| {
            (
                snap.nodes[n.node].name.to_string(),
                n.verdict.clone(),
                domains.clone(),
            )
        })
        .collect()
}

#[test]
fn an_unlabelled_node_has_no_domain_and_both_racks_have_room() {
    let got = explained(|_| {});
    let x1 = got.iter().find(|(n, _, _)| n == "x1").unwrap();
    assert_eq!(x1.1, Verdict::DomainFull);
    let fits = got.iter().filter(|(_, v, _)| *v == Verdict::Fits).count();
    assert_eq!(fits, 5);
    assert_eq!(got[0].2, vec![("a".into(), 2), ("b".into(), 2)]);
}

#[test]
fn a_full_node_leaves_its_rack_without_room_for_the_gang() {
    // a1 runs an 8-GPU pod: rack a has room for one member of two, so a2 is "domain full".
    let got = explained(|doc| items(doc).push(member("other", "other-gang", 8, Some("a1"))));
    let verdict = |name: &str| got.iter().find(|(n, _, _)| n == name).unwrap().1.clone();
    assert_eq!(verdict("a1"), Verdict::Refused(FitCheck::TooFewFreeGpus));
    assert_eq!(verdict("a2"), Verdict::DomainFull);
    assert_eq!(verdict("b1"), Verdict::Fits);
    assert_eq!(got[0].2, vec![("a".into(), 1), ("b".into(), 2)]);
}
