//! OME's migration requests: the request annotation and its rules, building one for an
//! operator's approval, a workload's migration state, and the durable audit history.

pub mod approval;
pub mod history;
pub mod request;
pub mod state;
