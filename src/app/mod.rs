//! The app: state and a pure reducer. `update(&mut AppState, Event, now) -> Vec<Effect>` is the
//! only mutation; the UI reads `AppState`; `run.rs` feeds events in and carries effects out.

pub mod banner;
pub mod columns;
pub mod contexts;
pub mod copy;
pub mod detail;
pub mod dialogs;
pub mod effect;
pub mod event;
pub mod filter;
pub mod input;
pub mod keys;
pub mod keys_config;
pub mod layout;
pub mod namespace;
pub mod nav;
pub mod ops;
pub mod palette;
pub mod state;
pub mod table;
pub mod times;
pub mod update;
pub mod views;
pub mod yaml;

pub use effect::Effect;
pub use event::Event;
pub use state::AppState;
pub use update::update;
