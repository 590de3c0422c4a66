//! Seeded simulated OME clusters for benchmarks, tests and `ome-top demo`. Deterministic for a seed;
//! no I/O and no clock (time is handed in).

pub mod cluster;
pub mod demo;
pub mod events;
pub mod gang_heavy;
pub mod published;
pub mod replica;
pub mod rng;
