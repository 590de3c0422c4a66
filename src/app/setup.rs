//! How the composition root sets the app's state up before the first event (the local time
//! zone, themes, the kubeconfig's contexts, what the history store kept, a configured keymap)
//! and the test seams; every other change goes through the reducer.

use crate::app::keys::KeyResolver;
use crate::app::state::AppState;
use crate::engine::model::Time;

impl AppState {
    /// Set up by the composition root before the first event: the local time zone.
    pub fn set_zone(&mut self, offset: chrono::FixedOffset) {
        self.settings.utc_offset = offset;
    }

    /// Set up before the first event: the theme names and the one in use (the first when
    /// `current` is not among them).
    pub fn set_themes(&mut self, names: Vec<String>, current: &str) {
        self.settings.theme = names.iter().position(|t| t == current).unwrap_or(0);
        self.settings.themes = names;
    }

    /// Set up before the first event: the kubeconfig's contexts.
    pub fn set_contexts(&mut self, list: Vec<crate::app::contexts::ContextEntry>) {
        self.clusters.contexts.list = list;
    }

    /// Set up before the first event: the dismissals the history store kept, and the demo
    /// run it records under.
    pub fn restore_history(
        &mut self,
        dismissed: impl IntoIterator<Item = (String, crate::app::state::Dismissed)>,
        run_started: Option<Time>,
    ) {
        self.ops.dismissed.extend(dismissed);
        self.history.history_run_started = run_started;
    }

    /// Replaces the key resolver (a configured keymap).
    pub fn set_keys(&mut self, keys: Box<dyn KeyResolver>) {
        self.settings.keys = keys;
    }

    /// Test seam: scrolls the open detail pane (the reducer scrolls it by keys).
    #[doc(hidden)]
    pub fn set_detail_scroll(&mut self, lines: usize) {
        self.views.detail_scroll = lines;
    }

    /// Test seam: scopes the Nodes view to a pool without opening it from the Pools view.
    #[doc(hidden)]
    pub fn set_pool_scope(&mut self, pool: Option<String>) {
        self.views.pool_scope = pool;
    }
}
