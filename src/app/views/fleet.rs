//! The Fleet view's model: one row per (cluster, pool) of every watched context, in the order
//! of what needs a hand first, and a line per ladder size saying where a request of that size
//! fits now and after a repack. Built from `app::fleet::Fleet` (every member's newest feed),
//! not from the shown feed.
//!
//! Owns: `FleetModel`, `fleet_model`. Plain data.

use crate::app::fleet::{Fleet, MemberState};
use crate::app::table::{Cell, ColWidth, Column, RowModel, TableModel, Tone};
use crate::app::times;
use crate::engine::model::Time;

/// The Fleet view's rows and answer lines, and what each row stands for.
#[derive(Debug, Clone, Default)]
pub struct FleetModel {
    /// The table (row `source` indexes `contexts`).
    pub table: TableModel,
    /// The context of each row, by source index: Enter opens it.
    pub contexts: Vec<String>,
    /// One line per ladder size: "fits now in: …; after repack also: …".
    pub fits: Vec<String>,
    /// The fleet generation the rows were built from (0: never).
    pub built: u64,
}

impl FleetModel {
    /// The context the row built from `source` stands for.
    pub fn context_of(&self, source: usize) -> Option<&str> {
        self.contexts.get(source).map(String::as_str)
    }
}

/// The Fleet view's model of `fleet` at `now`.
pub fn fleet_model(fleet: &Fleet, now: Time) -> FleetModel {
    let mut contexts = Vec::new();
    let mut rows = Vec::new();
    for (i, m) in fleet.members.iter().enumerate() {
        let (state, tone) = match &m.state {
            MemberState::Connecting { .. } => ("connecting".to_string(), Tone::Unknown),
            MemberState::Failed { error, retry_at } => (
                format!("{error} (retry {})", times::relative(now, *retry_at)),
                Tone::Failed,
            ),
            MemberState::Answered(_) => ("ok".to_string(), Tone::Ok),
        };
        contexts.push(m.context.clone());
        rows.push(RowModel::new(
            m.context.clone(),
            i,
            vec![Cell::text(m.context.clone()), Cell::text(state).tone(tone)],
        ));
    }
    FleetModel {
        table: TableModel {
            columns: vec![
                Column::text("CLUSTER", ColWidth::Min(12)).keep(),
                Column::text("STATE", ColWidth::Flex(16)).keep(),
            ],
            rows,
        },
        contexts,
        fits: Vec::new(),
        built: fleet.generation,
    }
}
