//! What holds one move of an unblock plan back now, and when it could run, in the words the
//! Moves view uses for Alfred's reasons.
//!
//! Owns: `hold_words`. Plain data.

use chrono::FixedOffset;

use crate::app::table::Tone;
use crate::app::views::moves::words::{advisory_words, dispatch_words, reject_words};
use crate::engine::model::vocab::RejectReason;
use crate::engine::model::Time;
use crate::engine::unblock::Hold;
use crate::fmt::{local, span};

/// The hold of a plan's move as a line, and its tone.
pub fn hold_words(hold: &Hold, now: Time, zone: FixedOffset) -> (String, Tone) {
    match hold {
        Hold::Ready => (
            "nothing holds it back: Alfred would run it next".into(),
            Tone::Ok,
        ),
        Hold::Withheld(None) => ("Alfred's dispatcher holds it back".into(), Tone::Degraded),
        Hold::Withheld(Some(r)) => (
            format!("Alfred's dispatcher holds it back: {}", dispatch_words(r)),
            Tone::Degraded,
        ),
        Hold::Advice(r) => (
            format!("{}; your approval runs it", advisory_words(r)),
            Tone::Degraded,
        ),
        Hold::Paced { gate, until } => {
            let when = match until {
                Some(t) if *t > now => {
                    format!("could run from {} (in {})", local(*t, zone), span(*t - now))
                }
                Some(_) => "could run now".into(),
                None if *gate == RejectReason::InFlightCap => {
                    "could run once a migration in flight ends".into()
                }
                None => "could run once that clears".into(),
            };
            (format!("{}; {when}", reject_words(gate)), Tone::Degraded)
        }
        Hold::Gated(gate) => (
            format!(
                "refused: {} (approving takes an override)",
                reject_words(gate)
            ),
            Tone::Failed,
        ),
    }
}
