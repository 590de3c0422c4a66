//! The engine through the library, no binary and no cluster: Alfred's decisions (`moves`),
//! eligibility, gangs and their reason classification, lints, the golden analyses of the
//! `analyze` contract (`analysis_identity`), and the source tree's house rules
//! (`architecture`). One test binary: `cargo test --test engine`.

mod analysis_identity;
mod approval;
mod architecture;
mod eligibility;
mod fits;
mod gang;
mod incremental;
mod lints;
mod moves;
mod ome_samples;
mod pool_names;
mod unowned;
mod what_if;
