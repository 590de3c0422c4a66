//! Undoing a rejection (`U` in Moves): the selected move's dismissal is forgotten (the move
//! shows again, here and after a restart; the history store audits it), or its workload,
//! opted out of Alfred's moves, is opted back in through the usual confirm dialog (a JSON
//! Patch that removes the two opt-out annotations, tested on uid and resourceVersion).
//!
//! Owns: `undo_reject`, `start_opt_in`. Plain data.

use crate::app::dialogs::Modal;
use crate::app::effect::Effect;
use crate::app::state::{AppState, NoticeLevel};
use crate::app::table::Tone;
use crate::app::update::ops::{allowed, dialog};
use crate::app::update::rows;
use crate::app::views::moves::decided::opted_out_words;
use crate::app::views::moves::{action_move, identity_key, Merged};
use crate::engine::model::InferenceService;
use crate::engine::workloads::opt_out;
use crate::protocol::{Capability, Op};

/// `undo-reject` on the selected move (or the open move detail): forget its dismissal, else
/// open the opt-in dialog of its opted-out workload, else say there is nothing to undo.
pub fn undo_reject(state: &mut AppState) -> Vec<Effect> {
    let Some(pair) = action_move(state) else {
        let text = "undo: select a dismissed or opted-out move (a group row holds many)";
        state
            .notices
            .push(text, NoticeLevel::Error, state.session.now);
        return vec![Effect::Redraw];
    };
    let Some(feed) = state.shown().cloned() else {
        return Vec::new();
    };
    let Some(f) = Merged::of(&feed.analysis, pair)
        .and_then(|m| m.primary())
        .map(|m| m.fields())
    else {
        return Vec::new();
    };
    let what = format!("{} instance {}", f.workload, f.instance);
    let key = identity_key(&f);
    if state.ops.dismissed.remove(&key).is_some() {
        let text = format!("dismissal undone: {what} shows again");
        state
            .notices
            .push(text, NoticeLevel::Info, state.session.now);
        rows::rebuild_models(state);
        let at = state.session.now;
        return vec![Effect::ForgetDismissal { key, at }, Effect::Redraw];
    }
    match feed.snapshot.isvcs.iter().find(|w| w.key() == f.workload) {
        Some(w) if opt_out(w).is_some() => start_opt_in(state, w),
        _ => {
            let text = format!("undo: {what} is neither dismissed nor opted out");
            state
                .notices
                .push(text, NoticeLevel::Error, state.session.now);
        }
    }
    vec![Effect::Redraw]
}

/// The confirm dialog of opting `w` back in to Alfred's moves.
pub fn start_opt_in(state: &mut AppState, w: &InferenceService) {
    if !allowed(state, Capability::OptOut, "opt in") {
        return;
    }
    let Some(o) = opt_out(w) else {
        return;
    };
    let workload = w.key();
    let default_movable = state
        .shown()
        .is_some_and(|f| f.analysis.config.default_movable);
    let mut lines = vec![(
        format!("inferenceservice/{workload}: {}", opted_out_words(&o)),
        Tone::Normal,
    )];
    lines.push((
        "remove alfred.ome.io/movable and alfred.ome.io/opt-out-reason".to_string(),
        Tone::Danger,
    ));
    lines.push(if default_movable {
        (
            "Alfred may move its Instances again".to_string(),
            Tone::Normal,
        )
    } else {
        (
            "Alfred's defaultMovable is false: it still leaves this workload in place".to_string(),
            Tone::Degraded,
        )
    });
    lines.push((
        format!(
            "JSON Patch with test on uid {} and resourceVersion {}",
            w.uid, w.resource_version
        ),
        Tone::Normal,
    ));
    let op = Op::OptIn {
        namespace: w.namespace().clone(),
        name: w.name().clone(),
        uid: w.uid.clone(),
        resource_version: w.resource_version.clone(),
    };
    let title = format!("Opt {workload} back in");
    state
        .overlays
        .modals
        .push(Modal::Confirm(Box::new(dialog(title, lines, Some(op)))));
}
