//! The Lints view: one row per placement lint (rule, object, message). Plain data.

use crate::app::table::{Cell, ColWidth, Column, RowModel, TableModel, Tone};
use crate::engine::analysis::Analysis;

/// One row per placement lint: the rule it breaks, the object, the message (with the fix).
pub fn lint_rows(a: &Analysis) -> TableModel {
    let rows = a
        .lints
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let cells = vec![
                Cell::text(l.rule.id()).tone(Tone::Degraded),
                Cell::text(l.object.clone()),
                Cell::text(l.message.clone()),
            ];
            RowModel::new(
                format!("{}|{}|{}", l.rule.id(), l.object, l.message),
                i,
                cells,
            )
        })
        .collect();
    TableModel {
        columns: vec![
            Column::text("RULE", ColWidth::Fixed(22)).keep(),
            Column::text("OBJECT", ColWidth::Min(18)).keep(),
            Column::text("MESSAGE", ColWidth::Flex(24)).keep(),
        ],
        rows,
    }
}
