//! Unit tests of `Slot`: presence transitions, outages and the derived `ApiStatus`.

use chrono::{DateTime, Utc};
use k8s_openapi::api::core::v1::ConfigMap as K8sConfigMap;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::core::Status;
use kube::runtime::watcher::{self, Event};

use super::{classify, ErrorClass, Role, Slot, SourceStatus};
use crate::cluster::live::snapshot::api_status;
use crate::cluster::live::sources::CONFIG_MAPS;
use crate::engine::model::{ConfigMap, Time};
use crate::protocol::{ApiStatus, Presence};

fn at(s: u32) -> Time {
    DateTime::<Utc>::from_timestamp(1_790_000_000 + i64::from(s), 0).unwrap_or_default()
}

fn cm(name: &str) -> K8sConfigMap {
    K8sConfigMap {
        metadata: ObjectMeta {
            name: Some(name.to_string()),
            namespace: Some("ome".to_string()),
            ..ObjectMeta::default()
        },
        ..K8sConfigMap::default()
    }
}

fn api_error(code: u16, reason: &str) -> watcher::Error {
    let status = Status::failure("refused", reason).with_code(code);
    watcher::Error::InitialListFailed(kube::Error::Api(status.boxed()))
}

fn refused_connection() -> watcher::Error {
    watcher::Error::WatchFailed(kube::Error::Service("connection refused\nmore".into()))
}

fn list(slot: &Slot<ConfigMap>, names: &[&str], now: Time) {
    slot.on_event(Event::Init, &CONFIG_MAPS, now);
    for n in names {
        slot.on_event(Event::InitApply(cm(n)), &CONFIG_MAPS, now);
    }
    slot.on_event(Event::InitDone, &CONFIG_MAPS, now);
}

#[test]
fn errors_are_classified_by_status() {
    assert_eq!(classify(&api_error(404, "NotFound")), ErrorClass::NotFound);
    // An unknown resource answers "404 page not found" as plain text.
    let plain = api_error(404, "Failed to parse error data");
    assert_eq!(classify(&plain), ErrorClass::NotFound);
    assert_eq!(
        classify(&api_error(403, "Forbidden")),
        ErrorClass::Forbidden
    );
    assert_eq!(
        classify(&api_error(401, "Unauthorized")),
        ErrorClass::Forbidden
    );
    assert_eq!(classify(&api_error(410, "Expired")), ErrorClass::Gone);
    match classify(&refused_connection()) {
        ErrorClass::Transient(line) => {
            assert!(line.contains("connection refused"), "{line}");
            assert!(!line.contains('\n'));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_named_config_map_is_absent_until_it_exists() {
    let slot: Slot<ConfigMap> = Slot::new("journal", Role::Named, "list configmaps");
    assert_eq!(slot.source_state().presence, Presence::Pending);
    assert!(!slot.synced());
    list(&slot, &[], at(1));
    assert!(slot.synced());
    assert_eq!(slot.source_state().presence, Presence::Absent);
    assert_eq!(slot.source_state().last_change, Some(at(1)));
    assert!(slot.on_event(
        Event::Apply(cm("alfred-dispatch-state")),
        &CONFIG_MAPS,
        at(2)
    ));
    let state = slot.source_state();
    assert_eq!((state.presence, state.objects), (Presence::Present, 1));
    assert_eq!(state.last_change, Some(at(2)));
    slot.on_event(
        Event::Delete(cm("alfred-dispatch-state")),
        &CONFIG_MAPS,
        at(3),
    );
    assert_eq!(slot.source_state().presence, Presence::Absent);
}

#[test]
fn an_outage_keeps_the_data_and_ends_with_the_relist() {
    let slot: Slot<ConfigMap> = Slot::new("audit", Role::Optional, "list configmaps");
    list(
        &slot,
        &["a-ome-migration-audit", "b-ome-migration-audit"],
        at(1),
    );
    assert!(slot.on_error(&refused_connection(), at(5)));
    // A second failure keeps the start of the outage.
    slot.on_error(&refused_connection(), at(9));
    let (since, error) = slot.failure().unwrap();
    assert_eq!(since, at(5));
    assert!(error.contains("connection refused"));
    assert_eq!(slot.source_state().objects, 2, "last data kept");
    assert!(matches!(
        api_status(&[&slot as &dyn SourceStatus]),
        ApiStatus::Reconnecting { since, .. } if since == at(5)
    ));
    list(&slot, &["b-ome-migration-audit"], at(12));
    assert_eq!(slot.failure(), None);
    assert_eq!(slot.source_state().objects, 1);
    assert_eq!(
        api_status(&[&slot as &dyn SourceStatus]),
        ApiStatus::Connected
    );
}

#[test]
fn a_missing_crd_and_a_refusal_are_states_not_outages() {
    let crd: Slot<ConfigMap> = Slot::new("podgroups", Role::Optional, "list podgroups");
    list(&crd, &["x-ome-migration-audit"], at(1));
    assert_eq!(crd.source_state().objects, 1);
    crd.on_error(&api_error(404, "NotFound"), at(2));
    assert_eq!(crd.source_state().presence, Presence::CrdAbsent);
    assert_eq!(crd.source_state().objects, 0);
    assert_eq!(crd.failure(), None);
    let pods: Slot<ConfigMap> = Slot::new("pods", Role::Required, "list pods");
    assert_eq!(
        api_status(&[&crd as &dyn SourceStatus, &pods]),
        ApiStatus::Connecting
    );
    pods.on_error(&api_error(403, "Forbidden"), at(3));
    assert_eq!(
        api_status(&[&crd as &dyn SourceStatus, &pods]),
        ApiStatus::Forbidden {
            what: "list pods".to_string()
        }
    );
    // 410 Gone is the watcher's own business: no visible change.
    assert!(!crd.on_error(&api_error(410, "Expired"), at(4)));
}
