//! InferenceReplica instance-status codec (spec `inferencereplica.md` §3 and §5.3 steps 7–8):
//! decides the DenseV1 / ColumnarV2 representation union, validates a ColumnarV2 payload in the
//! exact order of the reference decoder (first failure wins, no partial rows), expands it into the
//! same logical rows DenseV1 stores, and applies Alfred's row checks to rows of either encoding.
//!
//! This file owns the shared constants and re-exports the codec error catalogue and the row
//! errors (they live in `engine::model`, beside the `ReplicaStatus` that keeps them) and the
//! public API of its children: `columns` (the ColumnarV2 wire types), `decode` (the representation union
//! and DenseV1 rows), `columnar` (ColumnarV2 validation and expansion) and `rows` (the logical
//! row and Alfred's row checks).
//!
//! Pure: no I/O, no clock, no randomness.

mod columnar;
mod columns;
mod decode;
mod indexset;
mod rows;
#[cfg(test)]
mod tests;

pub use decode::decode_rows;
pub use rows::{check_rows, InstanceRow};
// The errors live with `ReplicaStatus`, which keeps them (the model is below this domain).
pub use crate::engine::model::{CodecError, RowError, RowProblem, MAX_ROWS};

/// The eight Instance phases in byte order, which is also the canonical group order of the
/// ColumnarV2 `phases` column.
pub const PHASES: [&str; 8] = [
    "Creating",
    "Deleting",
    "Failed",
    "Migrating",
    "Pending",
    "Ready",
    "Restarting",
    "Updating",
];

/// The only `instanceStatusEncoding` marker value; an absent marker means DenseV1.
pub const ENCODING_COLUMNAR_V2: &str = "ColumnarV2";
