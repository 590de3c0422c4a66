//! Kubeconfig contexts as the app holds them: the list the `:ctx` palette shows (the read-only
//! ones marked) and the switch in progress. Plain data; `app::update::contexts` changes it.

use crate::engine::model::Time;

/// One context of the kubeconfig.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextEntry {
    /// The context's name.
    pub name: String,
    /// Marked read-only in config.toml's `[read-only]` table.
    pub read_only: bool,
}

/// A switch the run layer is connecting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Switching {
    /// The context asked for.
    pub to: String,
    /// When it was asked for.
    pub since: Time,
}

/// The kubeconfig's contexts and the switch in progress.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Contexts {
    /// Every context, in kubeconfig order (empty outside live mode).
    pub list: Vec<ContextEntry>,
    /// The switch being connected, if any.
    pub switching: Option<Switching>,
}
