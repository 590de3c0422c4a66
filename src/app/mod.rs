//! The app: state and a pure reducer. `update(&mut AppState, Event, now) -> Vec<Effect>` is the
//! only mutation; the UI reads `AppState`; `run.rs` feeds events in and carries effects out.
//! One way (docs/architecture.md): leaf types (`state`, `notices`, `areas`, `dialogs`,
//! `detail`, `contexts`, `model`, …) below views (`views`, `layout`), below the reducer
//! (`update`), which alone holds `&mut AppState` handlers; `input` and `palette` answer with
//! `msg::Msg`s the reducer carries out.

pub mod areas;
pub mod banner;
pub mod contexts;
pub mod detail;
pub mod dialogs;
pub mod effect;
pub mod event;
pub mod filter;
pub mod fleet;
pub mod input;
pub mod keys;
pub mod layout;
pub mod line;
pub mod model;
pub mod msg;
pub mod namespace;
pub mod notices;
pub mod palette;
pub mod query;
pub mod setup;
pub mod state;
pub mod table;
pub mod update;
pub mod views;
pub mod wrap;

pub use effect::Effect;
pub use event::Event;
pub use state::AppState;
pub use update::update;
