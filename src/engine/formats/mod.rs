//! The text formats OME's Go components write and read, read here with their rules: Go's
//! strict JSON (case-folded member names, duplicates refused, exact numbers) for Alfred's
//! journal, recommendations and request annotations, and YAML as Go's YAML libraries read it
//! for Alfred's config, the scheduler's configuration and snapshot files.
//!
//! Owns: `strict_json`, `go_yaml`. Pure.

pub mod go_yaml;
pub mod strict_json;
