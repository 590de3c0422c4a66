//! Read-only questions about the state that input, the reducer and the UI all ask: which key
//! table applies (`mode`), why a key cannot act here (`refuse`), the columns shown and the one
//! a letter sorts by (`columns`), whether contexts or the fleet can be shown (`contexts`,
//! `fleet`). Nothing here changes the state; it sits below the reducer and input, so the UI
//! can ask without reaching them.

pub mod columns;
pub mod contexts;
pub mod fleet;
pub mod map;
pub mod mode;
pub mod refuse;
