//! The Moves table's columns, in the order an operator reads them, and how a row's class
//! (how close its move is to running) and outcome cell follow from an outcome.
//!
//! Owns: `Class`, `columns`, `computed_class`, `outcome_cell`. Plain data.

use crate::app::table::{Cell, ColWidth, Column, Tone};
use crate::engine::model::vocab::Outcome;

/// How close a move is to running; the table lists lower classes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    Admitted,
    Candidate,
    Withheld,
    /// Advice only because Alfred only recommends (it has a plan): the operator can run it.
    Recommended,
    InProgress,
    Rejected,
    Other,
    Advisory,
    /// The workload is opted out of Alfred's moves: listed under "opted out".
    OptedOut,
    /// Dismissed by an operator, unchanged since: listed under "dismissed", last.
    Dismissed,
}

pub fn computed_class(o: &Outcome, planned: bool) -> Class {
    match o {
        Outcome::Admitted => Class::Admitted,
        Outcome::Candidate => Class::Candidate,
        Outcome::Withheld => Class::Withheld,
        Outcome::Advisory if planned => Class::Recommended,
        Outcome::Advisory => Class::Advisory,
        Outcome::Rejected => Class::Rejected,
        Outcome::Submitted | Outcome::Acknowledged | Outcome::Stalled => Class::InProgress,
        _ => Class::Other,
    }
}

/// WHY on a wide terminal: the longest reason string (`NonExecutableObservedFragmentation`).
const WHY_WIDE: u16 = 34;
/// WHY on a narrow one, so that it still fits beside the targets and the score at 80 columns.
const WHY_NARROW: u16 = 16;

/// What an operator reads first comes first. A narrow terminal drops Alfred's outcome (`≠`
/// still says when it disagrees), then the source node, then the reason, then the Instance:
/// the Instance is what tells two rows of one workload apart, so it goes last; the workload,
/// ome-top's outcome, the targets and the score stay at every size.
pub fn columns(wide: bool) -> Vec<Column> {
    let why = if wide { WHY_WIDE } else { WHY_NARROW };
    vec![
        Column::text("≠", ColWidth::Fixed(1)).keep(),
        Column::text("OME-TOP", ColWidth::Fixed(10)).keep(),
        Column::text("ALFRED", ColWidth::Fixed(10)).priority(3),
        Column::text("WORKLOAD", ColWidth::Min(16)).keep(),
        // Before WHY: among equals the rightmost goes first.
        Column::text("INST", ColWidth::Fixed(9)).priority(1),
        Column::text("WHY", ColWidth::Min(why)).priority(1),
        // The policy is in the reason and the detail; the node names need the room first.
        Column::text("POLICY", ColWidth::Fixed(7)).optional(),
        // Wide enough for a node name such as gpu-gaudi-021: cut short, FROM tells nothing.
        Column::text("FROM", ColWidth::Min(13)).priority(2),
        Column::text("→ TARGETS", ColWidth::Min(10)).keep(),
        Column::num("SCORE", 6).keep(),
        Column::text("REASON", ColWidth::Fixed(15)).optional(),
        Column::text("FRESH", ColWidth::Fixed(9)).optional(),
    ]
}

pub fn outcome_cell(o: Option<&Outcome>) -> Cell {
    let Some(o) = o else {
        return Cell::text("-").tone(Tone::Muted);
    };
    let tone = match o {
        Outcome::Admitted | Outcome::Candidate | Outcome::Submitted | Outcome::Completed => {
            Tone::Ok
        }
        Outcome::Withheld | Outcome::Acknowledged | Outcome::Stalled => Tone::Degraded,
        Outcome::Rejected | Outcome::Failed => Tone::Failed,
        Outcome::Advisory => Tone::Muted,
        _ => Tone::Normal,
    };
    Cell::text(o.as_str()).tone(tone)
}
