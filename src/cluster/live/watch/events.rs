//! Which API the scheduler's `FailedScheduling` Events are watched through. kube-scheduler
//! writes them as `events.k8s.io/v1` Events; the API server serves every Event through both
//! `events.k8s.io/v1` and `v1` (one stored object, two views). The watcher asks once whether
//! `events.k8s.io/v1` is served and readable with its field selector, watches it if so and the
//! `v1` view otherwise, into the one store of scheduling events: an Event is held once, by
//! its `namespace/name`, whichever API brought it.
//!
//! Owns: `EventsApi`, `events_api`, `POD_EVENTS_V1`.

use k8s_openapi::api::events::v1 as events;
use kube::api::{Api, ListParams};
use kube::Client;

use crate::cluster::live::watch::Scope;

/// Field selector of the scheduler's `FailedScheduling` events about pods, in the field names
/// of `events.k8s.io/v1` (the `v1` names are `sources::POD_EVENTS`).
pub const POD_EVENTS_V1: &str = "regarding.kind=Pod,reason=FailedScheduling";

/// The API the scheduling events are watched through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventsApi {
    /// `events.k8s.io/v1` (the shape the scheduler writes).
    EventsV1,
    /// `v1`: the server does not serve `events.k8s.io/v1`, refuses its selector, or this
    /// identity may not read it.
    Core,
}

/// What an answer to the probe says, `None` while it says nothing yet (an outage).
fn answer(result: Result<(), &kube::Error>) -> Option<EventsApi> {
    match result {
        Ok(()) => Some(EventsApi::EventsV1),
        // Not served (404), selector refused (400), not readable (401/403).
        Err(kube::Error::Api(s)) if matches!(s.code, 400 | 401 | 403 | 404) => {
            Some(EventsApi::Core)
        }
        Err(_) => None,
    }
}

/// Asks the server (one list of at most one object) which API to watch; `None` on an outage,
/// to be asked again.
pub async fn events_api(client: &Client, scope: &Scope) -> Option<EventsApi> {
    let api: Api<events::Event> = scope.typed(client);
    let params = ListParams::default().fields(POD_EVENTS_V1).limit(1);
    let result = api.list(&params).await;
    answer(result.as_ref().map(drop))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_falls_back_to_core_events_and_an_outage_asks_again() {
        let status = |code| {
            kube::Error::Api(Box::new(kube::core::Status {
                code,
                ..kube::core::Status::default()
            }))
        };
        assert_eq!(answer(Ok(())), Some(EventsApi::EventsV1));
        for code in [400, 401, 403, 404] {
            assert_eq!(answer(Err(&status(code))), Some(EventsApi::Core), "{code}");
        }
        assert_eq!(answer(Err(&status(503))), None);
    }
}
