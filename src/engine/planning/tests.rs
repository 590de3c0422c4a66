//! Unit tests of `engine::planning`.

use super::*;

#[test]
fn workload_keys_are_the_services_own() {
    use crate::engine::model::testkit::isvc;
    let snap = ClusterSnapshot {
        isvcs: vec![isvc("prod", "chat"), isvc("prod", "chat")].into(),
        ..Default::default()
    };
    let workloads = Workloads::default();
    let cfg = AlfredConfig::default();
    let rules = EligibilityRules::from_config(&cfg, false);
    let index = SnapshotIndex::new(&snap);
    let ctx = PlanContext::new(
        &snap,
        &index,
        &[],
        &workloads,
        &[],
        &[],
        (&cfg, &rules, Time::default()),
    );
    let own = ctx.workload_key(0);
    assert!(crate::engine::fast::same_allocation(
        &own,
        snap.isvcs[0].ns_name()
    ));
    assert_eq!(ctx.workload_key(1).as_ref(), "prod/chat");
    assert_eq!(ctx.workload_key(2).as_ref(), "");
}
