//! What the reducer asks the composition root to do: send a command, fetch an object, quit,
//! redraw, copy to the clipboard, switch kubeconfig context, open or show a fleet member, and record dismissals and audit
//! rows in the history store. Plain data.
//!
//! Owns: `Effect`.

use crate::engine::model::Time;
use crate::protocol::{Command, Fetch, Op, OpOutcome};

/// Side work requested by `app::update`.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Send a confirmed command to the data source.
    Send(Command),
    /// Ask the data source for a read (never a write: read-only sessions answer it too); the
    /// answer comes back as `Event::Fetched`.
    Fetch(Fetch),
    /// Leave ome-top (restore the terminal).
    Quit,
    /// The state changed: draw a frame (rate-limited by `run.rs`).
    Redraw,
    /// Put this text on the terminal's clipboard (OSC 52).
    Copy(String),
    /// Connect to this kubeconfig context and, once it has synced, show it instead (answered
    /// by `Event::ContextSwitched` or `Event::ContextFailed`).
    SwitchContext(String),
    /// Show this fleet member's views: its session is open already, so the run layer swaps
    /// the shown channels at once (answered by `Event::ContextSwitched`, or
    /// `Event::ContextFailed` when it is not open). The other members stay watched.
    ShowContext(String),
    /// Watch the configured fleet's contexts beside the shown one (`:fleet` in a
    /// single-context run; answered by `Event::Fleet(FleetEvent::Started)`).
    OpenFleet,
    /// Remember a dismissed move (history store, §5): hidden until its content changes.
    RecordDismissal {
        /// The move's identity key.
        key: String,
        /// The content fingerprint at dismissal.
        fingerprint: String,
        /// The operator's reason.
        reason: String,
        /// When.
        at: Time,
    },
    /// Forget a dismissal (the operator undid it): the move shows again after a restart too;
    /// the store audits it.
    ForgetDismissal {
        /// The move's identity key.
        key: String,
        /// When.
        at: Time,
    },
    /// Record an operator action and its result (history store audit, §5).
    RecordAudit {
        /// The op.
        op: Op,
        /// How it ended.
        outcome: OpOutcome,
        /// When the outcome arrived.
        at: Time,
    },
}
