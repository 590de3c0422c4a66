//! The engine's speed mechanisms, kept in one guarded place: shared names compared by address,
//! address-keyed lookups, integer sort keys and linear-time sorts. Each has a plain reference
//! and a property test that fast == reference.

pub mod indexset;
pub mod intern;
pub mod isvc_order;
pub mod name_order;
pub mod node_index;
pub mod pod_key;
pub mod row_order;
pub mod small_key_sort;
