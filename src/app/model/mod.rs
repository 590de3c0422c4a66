//! The view models `AppState` stores, and their builders from one feed: the Fleet view's rows
//! (from every watched cluster's feed, `fleet`), the Gangs tree and its
//! navigation, the Pools view's map and its layout, what each Moves row stands for, the
//! requests written this session, the Pending list's and the plan walk's state (`pending`). A leaf: depends only on `engine`, `protocol`, `report`'s
//! fleet rows, the fleet state (`app::fleet`) and the table types (`app::table`,
//! `app::areas`), never on a view, the state or a handler.

pub mod fleet;
pub mod gangs;
pub mod map;
pub mod moves;
pub mod pending;
