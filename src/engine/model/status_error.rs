//! Why an InferenceReplica's instance status was not read: the codec's nine catalogue
//! failures (`CodecError`), Alfred's row checks (`RowError`), and the two as one
//! (`StatusError`), which `ReplicaStatus::rows` keeps. They live in the model, beside the
//! status that keeps them; `workloads::irstatus` produces them and re-exports them.

/// Alfred's row bound: the ColumnarV2 `max` it decodes with and the §5.3 step 8 row limit.
pub const MAX_ROWS: usize = 10_000;

/// Prefix of every [`RowError`] message; Alfred reports any codec or row failure this way.
pub const STATUS_INVALID: &str = "status is invalid";

/// A codec failure: exactly the nine reasons of the OME error catalogue. Each has a fixed reason
/// token and message, and never carries status data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{}", self.message())]
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

/// What §5.3 step 8 found wrong with one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowProblem {
    NegativeIndex,
    UnknownPhase,
    NegativeIncarnation,
    NegativeCount,
    ActiveOrdinal,
    DuplicateIndex,
}

impl RowProblem {
    /// Short human detail; never echoes status strings.
    pub fn detail(self) -> &'static str {
        match self {
            Self::NegativeIndex => "a negative index",
            Self::UnknownPhase => "an unknown phase",
            Self::NegativeIncarnation => "a negative incarnation",
            Self::NegativeCount => "a negative pod count",
            Self::ActiveOrdinal => "an activeOrdinal other than 0 or 1",
            Self::DuplicateIndex => "a duplicate index",
        }
    }
}

/// Why §5.3 step 8 refused a row set; `position` is the row's place in stored order. Display is
/// [`STATUS_INVALID`] plus a short detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RowError {
    #[error("{STATUS_INVALID}: {rows} rows exceed the limit of {MAX_ROWS}")]
    TooManyRows { rows: usize },
    #[error("{STATUS_INVALID}: row {position} (index {index}) has {}", problem.detail())]
    InvalidRow {
        position: usize,
        index: i64,
        problem: RowProblem,
    },
}

/// Why the instance rows of a status could not be used: the codec refused the payload, or
/// the decoded rows failed Alfred's checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum StatusError {
    /// The payload does not decode.
    #[error(transparent)]
    Codec(#[from] CodecError),
    /// The rows break a row check.
    #[error(transparent)]
    Rows(#[from] RowError),
}
