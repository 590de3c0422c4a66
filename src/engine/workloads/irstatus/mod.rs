//! InferenceReplica instance-status codec (spec `inferencereplica.md` §3 and §5.3 steps 7–8):
//! decides the DenseV1 / ColumnarV2 representation union, validates a ColumnarV2 payload in the
//! exact order of the reference decoder (first failure wins, no partial rows), expands it into the
//! same logical rows DenseV1 stores, and applies Alfred's row checks to rows of either encoding.
//!
//! This file owns the shared constants and the codec error catalogue, and re-exports the public
//! API of its children: `columns` (the ColumnarV2 wire types), `decode` (the representation union
//! and DenseV1 rows), `columnar` (ColumnarV2 validation and expansion) and `rows` (the logical
//! row and Alfred's row checks).
//!
//! Pure: no I/O, no clock, no randomness.

use std::fmt;

mod columnar;
mod columns;
mod decode;
mod indexset;
mod rows;
#[cfg(test)]
mod tests;

pub use decode::decode_rows;
pub use rows::{check_rows, InstanceRow};

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

/// Alfred's row bound: the ColumnarV2 `max` it decodes with and the §5.3 step 8 row limit.
pub const MAX_ROWS: usize = 10_000;

/// Prefix of every [`RowError`] message; Alfred reports any codec or row failure this way.
pub const STATUS_INVALID: &str = "status is invalid";

/// A codec failure: exactly the nine reasons of the OME error catalogue. Each has a fixed reason
/// token and message, and never carries status data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CodecError {
    UnknownEncoding,
    RepresentationUnion,
    RangeSyntax,
    RangeOrder,
    RangeOverflow,
    CardinalityLimit,
    Coverage,
    CanonicalOrder,
    ValueDomain,
}

impl CodecError {
    /// The snake_case reason token (the `reason` label of the manager's error counter).
    pub fn reason(self) -> &'static str {
        match self {
            Self::UnknownEncoding => "unknown_encoding",
            Self::RepresentationUnion => "representation_union",
            Self::RangeSyntax => "range_syntax",
            Self::RangeOrder => "range_order",
            Self::RangeOverflow => "range_overflow",
            Self::CardinalityLimit => "cardinality_limit",
            Self::Coverage => "coverage",
            Self::CanonicalOrder => "canonical_order",
            Self::ValueDomain => "value_domain",
        }
    }

    /// The fixed operator-facing catalogue message; also what `Display` prints.
    pub fn message(self) -> &'static str {
        match self {
            Self::UnknownEncoding => "instance status encoding is unknown",
            Self::RepresentationUnion => "instance status representation is invalid",
            Self::RangeSyntax => "instance index set syntax is invalid",
            Self::RangeOrder => "instance index set order is invalid",
            Self::RangeOverflow => "instance index set exceeds the supported index domain",
            Self::CardinalityLimit => "instance status cardinality limit is invalid",
            Self::Coverage => "instance status column coverage is invalid",
            Self::CanonicalOrder => "instance status column order is not canonical",
            Self::ValueDomain => "instance status value is outside its supported domain",
        }
    }
}

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for CodecError {}
