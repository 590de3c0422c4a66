//! The engine's speed mechanisms, kept in one guarded place: shared names compared by address,
//! address-keyed lookups, integer sort keys and linear-time sorts. Each has a plain reference
//! and a property test that fast == reference.

mod intern;
mod isvc_order;
mod name_order;
mod node_index;
mod pod_key;
mod row_order;
pub mod small_key_sort;

pub use intern::{address, same, same_opt, Interner, LastAnswer, PairsByAddress};
pub use isvc_order::{by_namespace_name_known, key_orders};
pub use name_order::name_order;
pub use node_index::NodeIndex;
pub use pod_key::PodKey;
pub use row_order::{
    descending_score_key, identity_key, identity_keys, permute, rank_by_score, workload_ranks,
    IdentityKey,
};
