//! Strict JSON reading for Alfred's wire documents: a small, total tokenizer that keeps every
//! object member (duplicates included) in document order and every number as its raw text, plus
//! the syntax helpers Alfred's Go readers apply (Go-style case folding of member names, strict
//! RFC 3339 timestamps, RFC 4122 UUID syntax).
//!
//! Why not serde_json: it silently keeps the last of two duplicate members and normalises numbers,
//! and Alfred rejects duplicates. Everything here is total on arbitrary bytes (no panics, nesting
//! bounded by [`MAX_DEPTH`]).
//!
//! This file owns the value and error types; `parser` the tokenizer ([`parse_strict`]) and
//! `syntax` the Go-compatible name folding, UUID and RFC 3339 checks.

mod parser;
mod syntax;
#[cfg(test)]
mod tests;

pub use parser::parse_strict;
pub use syntax::{fold_key, is_uuid_syntax, parse_rfc3339};

/// Deepest nesting accepted. A valid journal nests 4 levels; deeper input can only sit inside
/// a member Alfred rejects anyway, so the cap changes no verdict, only bounds recursion.
pub const MAX_DEPTH: usize = 64;

/// One parsed JSON value. Invariants: `Number` holds text matching the JSON number grammar;
/// `Object` keeps members in document order and may contain duplicate names (callers decide).
#[derive(Debug, Clone, PartialEq)]
pub enum StrictValue {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number, exactly as written (e.g. `"-0"`, `"1e2"`).
    Number(String),
    /// A decoded string (escapes resolved; a lone surrogate escape becomes U+FFFD like Go).
    String(String),
    /// An array in order.
    Array(Vec<StrictValue>),
    /// An object's members in order, duplicates kept.
    Object(Vec<(String, StrictValue)>),
}

impl StrictValue {
    /// Short description of the value's kind for error messages (`null`, `array`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            StrictValue::Null => "null",
            StrictValue::Bool(_) => "a boolean",
            StrictValue::Number(_) => "a number",
            StrictValue::String(_) => "a string",
            StrictValue::Array(_) => "an array",
            StrictValue::Object(_) => "an object",
        }
    }
}

/// Why a byte sequence is not one strict JSON document. `offset` is a byte offset into the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StrictError {
    /// The input is not UTF-8 (a ConfigMap `data` value always is; Go would substitute U+FFFD).
    #[error("invalid UTF-8 at byte {offset}")]
    InvalidUtf8 {
        /// First invalid byte.
        offset: usize,
    },
    /// The JSON grammar is violated at `offset`.
    #[error("invalid JSON at byte {offset}: {why}")]
    Syntax {
        /// Where.
        offset: usize,
        /// What was expected or found.
        why: &'static str,
    },
    /// Nesting deeper than [`MAX_DEPTH`].
    #[error("JSON nested deeper than {MAX_DEPTH} levels at byte {offset}")]
    TooDeep {
        /// The bracket that went too deep.
        offset: usize,
    },
    /// A complete value is followed by more non-whitespace input.
    #[error("trailing data after the JSON document at byte {offset}")]
    Trailing {
        /// First byte after the value and its whitespace.
        offset: usize,
    },
}
