//! The rest of the app's state, by concern: the feeds received (`FeedState`), what sits over
//! the views (`Overlays`), the clusters watched (`Clusters`), the operator's settings
//! (`Settings`) and this run's clock and terminal (`Session`).
//!
//! Owns: `FeedState`, `Overlays`, `Clusters`, `Settings`, `Session`. Plain data.

use std::sync::Arc;

use chrono::Offset;

use crate::app::contexts::Contexts;
use crate::app::dialogs::Modal;
use crate::app::keys::{Chord, KeyResolver};
use crate::engine::model::Time;
use crate::protocol::Feed;

/// The newest feed and the frozen copy.
#[derive(Debug, Clone, Default)]
pub struct FeedState {
    /// The newest feed received.
    pub(in crate::app) latest: Option<Arc<Feed>>,
    /// The feed the views show while frozen (`None` = live).
    pub(in crate::app) frozen: Option<Arc<Feed>>,
}

/// Overlays and dialogs over the views, and a key sequence being typed.
#[derive(Debug, Clone, Default)]
pub struct Overlays {
    /// Overlays and dialogs, top last.
    pub(in crate::app) modals: Vec<Modal>,
    /// Keys typed so far of an unfinished sequence.
    pub(in crate::app) pending_keys: Vec<Chord>,
}

/// The clusters the operator can see.
#[derive(Debug, Default)]
pub struct Clusters {
    /// The kubeconfig's contexts and a switch in progress (`:ctx`; `app::contexts`).
    pub(in crate::app) contexts: Contexts,
    /// The watched fleet (`ome-top fleet`, `:fleet`; `app::fleet`), `None` with one cluster.
    pub(in crate::app) fleet: Option<crate::app::fleet::Fleet>,
}

/// How the operator set ome-top up: keys, themes, time zone.
pub struct Settings {
    /// Key → action resolution.
    pub(in crate::app) keys: Box<dyn KeyResolver>,
    /// Theme names (palette, `next-theme`), and the current one's index.
    pub(in crate::app) themes: Vec<String>,
    /// Index into `themes`.
    pub(in crate::app) theme: usize,
    /// The operator's time zone for shown times (the run layer sets the local one; UTC until
    /// then, so tests read the same everywhere).
    pub(in crate::app) utc_offset: chrono::FixedOffset,
}

impl Settings {
    /// `keys`, the default theme, UTC.
    pub fn new(keys: Box<dyn KeyResolver>) -> Self {
        Settings {
            keys,
            themes: vec!["default".into()],
            theme: 0,
            utc_offset: chrono::Utc.fix(),
        }
    }
}

/// This run's clock and terminal.
#[derive(Debug, Clone)]
pub struct Session {
    /// The last time the reducer saw.
    pub(in crate::app) now: Time,
    /// Terminal size (columns, rows).
    pub(in crate::app) size: (u16, u16),
    /// Set by `quit`.
    pub(in crate::app) quitting: bool,
}

impl Session {
    /// At `now` on an 80×24 terminal.
    pub fn new(now: Time) -> Self {
        Session {
            now,
            size: (80, 24),
            quitting: false,
        }
    }
}
