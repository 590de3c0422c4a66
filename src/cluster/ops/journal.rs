//! Clearing one stalled entry from Alfred's dispatch journal (ConfigMap
//! `alfred-dispatch-state`, key `state.json`), following alfred.md §2.4: re-read the ConfigMap,
//! insist on the resourceVersion the operator saw, parse strictly, remove exactly that entry
//! (`engine::journal::remove_entry_checked`), and `replace` (PUT) the ConfigMap carrying
//! the same resourceVersion, so a concurrent writer makes the PUT fail with 409 instead of being
//! overwritten. Every other key, label and annotation of the ConfigMap is sent back unchanged.
//!
//! Never writes a document that fails Alfred's strict reader.

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::Api;

use super::event::{EventTarget, EventText};
use super::outcome::{classify, conflict, failure, CurrentState};
use super::reread::{after_failure, Written};
use super::{finish, OpContext};
use crate::engine::journal::{parse_journal, remove_entry_checked, EditError, JournalError, Phase};
use crate::protocol::OpOutcome;

/// Name of Alfred's journal ConfigMap (fixed by the chart).
pub const JOURNAL_CONFIGMAP: &str = "alfred-dispatch-state";
/// The journal's only key.
pub const JOURNAL_KEY: &str = "state.json";

const UPDATE_CONFIGMAPS: &str = "update configmaps";
const GET_CONFIGMAPS: &str = "get configmaps";

/// A clear request, from `Op::ClearJournalEntry`.
#[derive(Debug, Clone, Copy)]
pub struct Clear<'a> {
    /// Namespace of the ConfigMap (must be Alfred's).
    pub namespace: &'a str,
    /// UUID of the entry to remove (exact match).
    pub uuid: &'a str,
    /// The ConfigMap's resourceVersion the operator saw.
    pub seen_rv: &'a str,
    /// The operator overrode failing §2.4 checks (recorded in the Event note).
    pub override_checks: bool,
}

/// Why a journal document may not be edited; nothing is written in any case.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClearRefused {
    /// The document fails Alfred's strict reader.
    #[error("{JOURNAL_KEY} fails Alfred's strict reader ({0}); nothing written")]
    Unreadable(JournalError),
    /// No entry has the uuid.
    #[error("no journal entry {0}; nothing written")]
    NoEntry(String),
    /// The entry is not stalled.
    #[error(
        "journal entry {uuid} is {}, not stalled; only stalled entries may be cleared",
        phase.as_str()
    )]
    NotStalled {
        /// The entry.
        uuid: String,
        /// Its phase.
        phase: Phase,
    },
    /// The edit's own check refused the output.
    #[error("refused to edit {JOURNAL_KEY}: {0}")]
    Edit(EditError),
}

/// Why a document may not be edited, or the edited `state.json`.
pub fn edited_state(state_json: &str, uuid: &str) -> Result<String, ClearRefused> {
    let journal = parse_journal(state_json.as_bytes()).map_err(ClearRefused::Unreadable)?;
    let entry = journal
        .entries
        .iter()
        .find(|e| e.uuid == uuid)
        .ok_or_else(|| ClearRefused::NoEntry(uuid.to_string()))?;
    if entry.phase != Phase::Stalled {
        return Err(ClearRefused::NotStalled {
            uuid: uuid.to_string(),
            phase: entry.phase,
        });
    }
    remove_entry_checked(state_json, uuid).map_err(ClearRefused::Edit)
}

/// Executes the clear. Sends one GET, then one PUT, then one Event create.
pub async fn clear_entry(client: &kube::Client, ctx: &OpContext, c: Clear<'_>) -> OpOutcome {
    let object = format!("configmap/{}/{JOURNAL_CONFIGMAP}", c.namespace);
    if c.namespace != ctx.alfred_namespace {
        return OpOutcome::Refused {
            message: format!(
                "{object}: the journal lives in Alfred's namespace {}",
                ctx.alfred_namespace
            ),
        };
    }
    let api: Api<ConfigMap> = Api::namespaced(client.clone(), c.namespace);
    let mut cm = match api.get(JOURNAL_CONFIGMAP).await {
        Ok(cm) => cm,
        Err(e) => return failure(&object, GET_CONFIGMAPS, classify(&e)),
    };
    let rv = cm.metadata.resource_version.clone().unwrap_or_default();
    if rv != c.seen_rv {
        return conflict(&object, c.seen_rv, &CurrentState::At(rv));
    }
    let Some(state) = cm.data.as_ref().and_then(|d| d.get(JOURNAL_KEY)) else {
        return OpOutcome::Refused {
            message: format!("{object} has no {JOURNAL_KEY}; nothing written"),
        };
    };
    let edited = match edited_state(state, c.uuid) {
        Ok(text) => text,
        Err(why) => {
            return OpOutcome::Refused {
                message: format!("{object}: {why}"),
            }
        }
    };
    if let Some(data) = cm.data.as_mut() {
        data.insert(JOURNAL_KEY.to_string(), edited);
    }
    // The PUT carries metadata.resourceVersion == seen_rv: the compare-and-swap.
    let written = match api
        .replace(JOURNAL_CONFIGMAP, &super::post_params(), &cm)
        .await
    {
        Ok(cm) => cm,
        Err(e) => {
            let target = Written {
                object: &object,
                name: JOURNAL_CONFIGMAP,
                uid: None,
                seen_rv: c.seen_rv,
                permission: UPDATE_CONFIGMAPS,
            };
            return after_failure(&api, &target, classify(&e)).await;
        }
    };
    let new_rv = written.metadata.resource_version.clone();
    let target = EventTarget {
        api_version: "v1",
        kind: "ConfigMap",
        namespace: Some(c.namespace.to_string()),
        name: JOURNAL_CONFIGMAP.to_string(),
        uid: written.metadata.uid.clone().unwrap_or_default(),
        resource_version: new_rv.clone(),
    };
    let checks = if c.override_checks {
        "the operator overrode failing clearing checks"
    } else {
        "clearing checks passed"
    };
    let text = EventText {
        action: "ClearJournalEntry",
        reason: "OmeTopClearJournalEntry",
        note: format!(
            "stalled journal entry {} removed by {} with ome-top ({checks})",
            c.uuid, ctx.actor
        ),
    };
    let done = format!("journal entry {} cleared from {object}", c.uuid);
    finish(client, ctx, &target, &text, done, new_rv).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::journal::fixtures as fx;

    #[test]
    fn only_stalled_entries_are_removed() {
        let doc = fx::full();
        let out = edited_state(&doc, &fx::uuid(5)).unwrap();
        let journal = parse_journal(out.as_bytes()).unwrap();
        assert_eq!(journal.entries.len(), 5);
        assert!(journal.entries.iter().all(|e| e.uuid != fx::uuid(5)));
        for i in 0..5 {
            let why = edited_state(&doc, &fx::uuid(i)).unwrap_err().to_string();
            assert!(why.contains("not stalled"), "{why}");
        }
        assert!(edited_state(&doc, &fx::uuid(9))
            .unwrap_err()
            .to_string()
            .contains("no journal entry"));
    }

    #[test]
    fn unreadable_documents_are_never_edited() {
        let doc = fx::journal(vec![fx::entry(0, "stalled")]);
        let unknown = doc.replacen(r#""phase""#, r#""extra":1,"phase""#, 1);
        let why = edited_state(&unknown, &fx::uuid(0))
            .unwrap_err()
            .to_string();
        assert!(why.contains("strict reader"), "{why}");
        assert!(edited_state("{", &fx::uuid(0)).is_err());
    }
}
