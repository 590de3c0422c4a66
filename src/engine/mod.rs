//! The pure engine: turns a `ClusterSnapshot` into the numbers OME's Alfred and scheduler
//! would compute — pools, fragmentation, node health, eligibility, gang pins, placement
//! lints — deterministically.
//!
//! Promises: no I/O, no clock (time is an argument), no async, no randomness, no UI, and no
//! panics on any input. Must not import `tokio`, `kube`, `k8s_openapi`, `ratatui`,
//! `crossterm`, `tui_tree_widget`, `directories`, `anyhow` or any other module of the crate
//! (enforced by `tests/architecture.rs`).

pub mod alfred_config;
pub mod alfred_pass;
pub mod analysis;
pub mod arbiter;
pub mod benefit;
pub mod compare;
pub mod defrag_policy;
pub mod eligibility;
pub mod fit;
pub mod fragmentation;
pub mod gang;
pub mod gang_capacity;
pub mod gang_classify;
pub mod gang_fit;
pub mod gang_predict;
pub mod gang_reasons;
pub mod gang_score;
pub mod gang_state;
pub mod go_yaml;
pub mod gpu;
pub mod health;
pub mod health_policy;
pub mod index;
pub mod indexset;
pub mod intern;
pub mod irstatus;
pub mod isvc_order;
pub mod journal;
pub mod journal_blocking;
pub mod journal_clearing;
pub mod journal_edit;
pub mod journal_entry;
pub mod journal_error;
pub mod journal_facts;
pub mod journal_fields;
pub mod journal_history;
pub mod journal_snapshot;
pub mod journal_strict;
pub mod k8s_names;
pub mod lints;
pub mod lints_nodes;
pub mod lints_pods;
pub mod lints_small_pods;
pub mod member_set;
pub mod migration_request;
pub mod migration_request_build;
pub mod migration_state;
pub mod model;
pub mod model_check;
pub mod model_node;
pub mod model_pod;
pub mod model_pods;
pub mod moves;
pub mod name_order;
pub mod node_index;
pub mod nodes;
pub mod omenative;
pub mod omenative_pods;
pub mod placement;
pub mod planning;
pub mod pod_groups;
pub mod pod_key;
pub mod pool_members;
pub mod pool_score;
pub mod pools;
pub mod quantity;
pub mod recommendations;
pub mod recommendations_node;
pub mod row_order;
pub mod scheduler_config;
pub mod scheduling_gate;
pub mod scoring;
pub mod small_key_sort;
pub mod surge;
pub mod workloads;

#[cfg(test)]
pub(crate) mod journal_fixtures;
#[cfg(test)]
pub mod testkit;
