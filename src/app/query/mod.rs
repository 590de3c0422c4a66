//! Read-only questions about the state that input, the reducer and the UI all ask: which key
//! table applies (`mode`) and why a key cannot act here (`refuse`). Nothing here changes the
//! state; it sits below the reducer and input, so the UI can ask without reaching them.

pub mod fleet;
pub mod map;
pub mod mode;
pub mod refuse;
