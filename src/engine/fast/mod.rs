//! The engine's speed mechanisms, kept in one guarded place: shared names compared by address,
//! address-keyed lookups, integer sort keys and linear-time sorts. Each has a plain reference
//! and a property test that fast == reference.

mod address;
mod intern;
mod isvc_keys;
mod isvc_order;
mod name_order;
mod pod_key;
mod row_order;
pub mod small_key_sort;
mod sorted_replace;
mod text_index;

pub use address::{
    same, same_allocation, same_opt, same_shared, same_str, ByAddress, LastAnswer, PairsByAddress,
};
pub use intern::Interner;
pub use isvc_keys::IsvcKeys;
pub use name_order::name_order;
pub use pod_key::PodKey;
pub use row_order::{
    descending_score_key, identity_key, identity_keys, permute, rank_by_score, workload_ranks,
    IdentityKey,
};
pub use sorted_replace::{replace_sorted, replace_sorted_reference};
pub use text_index::{NameRanks, TextIndex};
