//! The view models `AppState` stores, and their builders from one feed: the Gangs tree and its
//! navigation, the Pools view's map and its layout, what each Moves row stands for, the
//! requests written this session. A leaf: depends only on `engine`, `protocol` and the table
//! types (`app::table`, `app::areas`), never on a view, the state or a handler.

pub mod gangs;
pub mod map;
pub mod moves;
