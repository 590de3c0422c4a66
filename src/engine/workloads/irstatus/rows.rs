//! The logical Instance row both encodings decode into, and Alfred's row checks (spec §5.3
//! step 8); their error type, `RowError`, is the model's (`ReplicaStatus` keeps it).

use std::collections::HashSet;

use super::{RowError, RowProblem, MAX_ROWS, PHASES};

pub use crate::engine::model::InstanceRow;

/// The first problem of one row in Alfred's order, ignoring uniqueness.
fn row_problem(row: &InstanceRow) -> Option<RowProblem> {
    let min_count = row
        .pod_count
        .min(row.serving_pod_count)
        .min(row.available_pod_count);
    if row.index < 0 {
        Some(RowProblem::NegativeIndex)
    } else if !PHASES.contains(&row.phase.as_str()) {
        Some(RowProblem::UnknownPhase)
    } else if row.incarnation < 0 {
        Some(RowProblem::NegativeIncarnation)
    } else if min_count < 0 {
        Some(RowProblem::NegativeCount)
    } else if !matches!(row.active_ordinal, 0 | 1) {
        Some(RowProblem::ActiveOrdinal)
    } else {
        None
    }
}

/// Alfred's row checks (§5.3 step 8) for rows of either encoding, first failure wins: at most
/// [`MAX_ROWS`] rows; then row by row in stored order: index ≥ 0, phase one of [`PHASES`],
/// incarnation ≥ 0, the three counts ≥ 0, activeOrdinal ∈ {0, 1}, index not on an earlier row.
pub fn check_rows(rows: &[InstanceRow]) -> Result<(), RowError> {
    if rows.len() > MAX_ROWS {
        return Err(RowError::TooManyRows { rows: rows.len() });
    }
    let mut seen = HashSet::with_capacity(rows.len());
    for (position, row) in rows.iter().enumerate() {
        let duplicate = || (!seen.insert(row.index)).then_some(RowProblem::DuplicateIndex);
        if let Some(problem) = row_problem(row).or_else(duplicate) {
            let index = row.index;
            return Err(RowError::InvalidRow {
                position,
                index,
                problem,
            });
        }
    }
    Ok(())
}
