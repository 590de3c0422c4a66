//! A reason prompt finished: the confirm dialog beneath takes it, a dismissal is recorded with
//! it, an opt-out asks to confirm with it; a dismissal or an opt-out without one is refused.
//!
//! Owns: `finish_reason`. Plain data.

use crate::app::dialogs::{Modal, ReasonPurpose};
use crate::app::effect::Effect;
use crate::app::state::{AppState, Dismissed, NoticeLevel};
use crate::app::update::{ops, rows};

/// Carries out what the closed reason prompt was for, with the `reason` typed (trimmed).
pub fn finish_reason(state: &mut AppState, purpose: ReasonPurpose, reason: String) -> Vec<Effect> {
    match purpose {
        ReasonPurpose::WhatIfPolicy => crate::app::update::what_if::policy_typed(state, &reason),
        ReasonPurpose::ConfirmReason => {
            if let Some(Modal::Confirm(d)) = state.overlays.modals.last_mut() {
                d.reason = (!reason.is_empty()).then_some(reason);
            }
            vec![Effect::Redraw]
        }
        ReasonPurpose::Dismiss { .. } | ReasonPurpose::OptOut { .. } if reason.is_empty() => {
            state.notices.push(
                "a reason is required",
                NoticeLevel::Error,
                state.session.now,
            );
            vec![Effect::Redraw]
        }
        ReasonPurpose::Dismiss { key, fingerprint } => {
            let note = Dismissed {
                fingerprint: fingerprint.clone(),
                by: None,
                reason: reason.clone(),
                at: state.session.now,
            };
            state.ops.dismissed.insert(key.clone(), note);
            state.notices.push(
                format!("dismissed: {reason}"),
                NoticeLevel::Info,
                state.session.now,
            );
            rows::rebuild_models(state);
            vec![
                Effect::RecordDismissal {
                    key,
                    fingerprint,
                    reason,
                    at: state.session.now,
                },
                Effect::Redraw,
            ]
        }
        ReasonPurpose::OptOut { key } => {
            ops::start_opt_out(state, &key, reason);
            vec![Effect::Redraw]
        }
    }
}
