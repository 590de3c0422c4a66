//! Seeded simulated OME fleets for benchmarks, tests and `ome-top demo`. Deterministic for a seed;
//! no I/O and no clock (time is handed in).

pub mod demo;
pub mod events;
pub mod fleet;
pub mod gang_heavy;
pub mod published;
pub mod replica;
pub mod rng;
