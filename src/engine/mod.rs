//! The pure engine: turns a `ClusterSnapshot` into the numbers OME's Alfred and scheduler
//! would compute — pools, fragmentation, node health, eligibility, gang pins, placement
//! lints — deterministically.
//!
//! Promises: no I/O, no clock (time is an argument), no async, no randomness, no UI, and no panics
//! on any input.

pub mod alfred_config;
pub mod analysis;
pub mod explain;
pub mod fast;
pub mod formats;
pub mod gangs;
pub mod index;
pub mod journal;
pub mod lints;
pub mod migration;
pub mod model;
pub mod nodes;
pub mod planning;
pub mod pools;
pub mod recommendations;
pub mod timeline;
pub mod unblock;
pub mod workloads;
