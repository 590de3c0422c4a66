//! The operator's vocabulary: every intent a key, a mouse click or the `:` palette can express,
//! and the views they act in. Keymaps name actions by their kebab-case names and views by their
//! table names; the help screen and footer describe them.
//!
//! Owns: `Action`, its names and descriptions; `View`, its titles, keymap tables and the action
//! that shows it.

use std::fmt;
use std::str::FromStr;

/// Declares `Action` with its kebab-case name and default description, in one table.
macro_rules! actions {
    ($($(#[$doc:meta])* $variant:ident => $name:literal, $desc:literal;)+) => {
        /// What the operator wants. Names are stable: keymaps and the palette use them.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Action {
            $($(#[$doc])* $variant,)+
        }

        impl Action {
            /// Every action, in help-screen order.
            pub const ALL: &'static [Action] = &[$(Action::$variant,)+];

            /// The kebab-case name used in keymaps and the palette.
            pub fn name(self) -> &'static str {
                match self {
                    $(Action::$variant => $name,)+
                }
            }

            /// A one-line description (the keymap's `desc` overrides it).
            pub fn description(self) -> &'static str {
                match self {
                    $(Action::$variant => $desc,)+
                }
            }
        }
    };
}

actions! {
    /// Leave ome-top at once (Ctrl-C, `:q`).
    Quit => "quit", "Quit at once";
    /// Go back one level (as `back`); on a list view with nothing to go back from, ask
    /// "Quit ome-top? y/n".
    BackOrQuit => "back-or-quit", "Back; on a list, ask to quit";
    /// Show the key help overlay.
    Help => "help", "Show keys";
    /// Open the `:` command palette.
    CommandPalette => "command-palette", "Command palette";
    /// Start a `/` filter on the current table.
    Filter => "filter", "Filter rows";
    /// Close the overlay, detail or filter; go back.
    Back => "back", "Back";
    /// Move the selection down.
    Down => "down", "Down";
    /// Move the selection up.
    Up => "up", "Up";
    /// Page down.
    PageDown => "page-down", "Page down";
    /// Page up.
    PageUp => "page-up", "Page up";
    /// First row.
    Top => "top", "First row";
    /// Last row.
    Bottom => "bottom", "Last row";
    /// Open the selected row (detail, or drill down).
    Open => "open", "Open / drill down";
    /// Next view.
    NextView => "next-view", "Next view";
    /// Previous view.
    PrevView => "prev-view", "Previous view";
    /// Pools view.
    ViewPools => "view-pools", "Pools";
    /// Nodes view.
    ViewNodes => "view-nodes", "Nodes";
    /// Moves view.
    ViewMoves => "view-moves", "Moves";
    /// Journal view.
    ViewJournal => "view-journal", "Journal";
    /// Gangs view.
    ViewGangs => "view-gangs", "Gangs";
    /// Lints view.
    ViewLints => "view-lints", "Lints";
    /// Fleet view: every watched cluster's pools on one screen (opens the fleet of the
    /// configured contexts when only one cluster is watched).
    ViewFleet => "view-fleet", "Fleet";
    /// Sort by the next column.
    SortNext => "sort-next", "Sort by next column";
    /// Reverse the sort order.
    SortReverse => "sort-reverse", "Reverse sort";
    /// Copy the selected row's name to the terminal's clipboard.
    CopyName => "copy-name", "Copy name";
    /// Wide layout (more columns, long text uncut) or compact.
    ToggleWide => "toggle-wide", "Wide / compact columns";
    /// Freeze rows (updates keep arriving but do not move the table).
    Freeze => "freeze", "Freeze / unfreeze";
    /// Expand or collapse a tree node.
    Toggle => "toggle", "Expand / collapse";
    /// Show the selected node's YAML, read from the cluster now (a read, never a write).
    ShowYaml => "show-yaml", "Node YAML";
    /// Scroll an open node detail to its health timeline.
    NodeTimeline => "node-timeline", "Health timeline";
    /// Show the selected pool's map full-size, or go back to the pool table.
    PoolMap => "pool-map", "Pool map full-size";
    /// Move the selection one cell left (the full-size pool map).
    Left => "left", "Cell to the left";
    /// Move the selection one cell right (the full-size pool map).
    Right => "right", "Cell to the right";
    /// Cordon the selected node.
    CordonNode => "cordon-node", "Cordon node";
    /// Uncordon the selected node.
    UncordonNode => "uncordon-node", "Uncordon node";
    /// Approve the selected move (writes a migration request).
    ApproveMove => "approve-move", "Approve move";
    /// Reject the selected move (dismiss locally or opt the workload out).
    RejectMove => "reject-move", "Reject move";
    /// Undo the selected move's dismissal, or opt its workload back in (confirmed, like
    /// every write to the cluster).
    UndoReject => "undo-reject", "Undo dismissal or opt-out";
    /// Clear the selected stalled journal entry.
    ClearJournalEntry => "clear-journal-entry", "Clear stalled entry";
    /// Go to the journal entry that holds the selected move back (withheld by an unresolved
    /// request).
    JumpToJournal => "jump-to-journal", "Go to the move's journal entry";
    /// The Pending list under Pools: every pending GPU pod or gang, why it waits and what
    /// frees room for it (`:pending`).
    Pending => "pending", "Pending GPU pods: why each waits";
    /// Approve the open unblock plan's moves one by one, each through the usual confirm dialog.
    ApprovePlan => "approve-plan", "Approve the plan's moves one by one";
    /// What if the selected node were cordoned, evacuated or labelled for maintenance (again:
    /// the next); nothing is written.
    WhatIf => "what-if", "What if (nothing is written)";
    /// Confirm the open dialog.
    Confirm => "confirm", "Confirm";
    /// Cancel the open dialog.
    Cancel => "cancel", "Cancel";
    /// Cycle to the next theme.
    NextTheme => "next-theme", "Next theme";
}

/// Declares `View` with its tab title, keymap table name and `view-…` action, in one table.
macro_rules! views {
    ($($(#[$doc:meta])* $variant:ident => $title:literal, $table:literal, $action:ident;)+) => {
        /// The views, in tab order. The app shows one; the keymap has a table for each.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum View {
            $($(#[$doc])* $variant,)+
        }

        impl View {
            /// How many views there are.
            pub const COUNT: usize = [$(View::$variant),+].len();

            /// Every view, in tab order.
            pub const ALL: [View; View::COUNT] = [$(View::$variant),+];

            /// Tab title.
            pub fn title(self) -> &'static str {
                match self {
                    $(View::$variant => $title,)+
                }
            }

            /// The view's table name in keymap files (`[nodes]`, …).
            pub fn table(self) -> &'static str {
                match self {
                    $(View::$variant => $table,)+
                }
            }

            /// The action that shows the view.
            pub fn action(self) -> Action {
                match self {
                    $(View::$variant => Action::$action,)+
                }
            }

            /// The view an action shows, if it is a `view-…` action.
            pub fn shown_by(action: Action) -> Option<View> {
                match action {
                    $(Action::$action => Some(View::$variant),)+
                    _ => None,
                }
            }
        }
    };
}

views! {
    /// Pools: fragmentation per pool.
    Pools => "Pools", "pools", ViewPools;
    /// Nodes: health, cordon, GPUs.
    Nodes => "Nodes", "nodes", ViewNodes;
    /// Moves: Alfred's rows and computed rows.
    Moves => "Moves", "moves", ViewMoves;
    /// Journal: Alfred's dispatch journal.
    Journal => "Journal", "journal", ViewJournal;
    /// Gangs: topology key → domain → gang → pods.
    Gangs => "Gangs", "gangs", ViewGangs;
    /// Lints: placement lints.
    Lints => "Lints", "lints", ViewLints;
    /// Fleet: one row per (cluster, pool) of every watched context.
    Fleet => "Fleet", "fleet", ViewFleet;
}

impl View {
    /// Position in `ALL` (tab order is declaration order).
    pub fn index(self) -> usize {
        self as usize
    }
}

/// An action name that is not in the vocabulary.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown action `{0}`")]
pub struct UnknownAction(pub String);

impl FromStr for Action {
    type Err = UnknownAction;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Action::ALL
            .iter()
            .copied()
            .find(|a| a.name() == s)
            .ok_or_else(|| UnknownAction(s.to_string()))
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_round_trips_and_is_kebab_case() {
        for a in Action::ALL {
            assert_eq!(a.name().parse::<Action>(), Ok(*a));
            assert!(a.name().chars().all(|c| c.is_ascii_lowercase() || c == '-'));
        }
    }

    #[test]
    fn names_are_unique() {
        let mut names: Vec<_> = Action::ALL.iter().map(|a| a.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Action::ALL.len());
    }

    #[test]
    fn views_index_their_tab_order_and_own_one_action_each() {
        for (i, v) in View::ALL.iter().enumerate() {
            assert_eq!(v.index(), i);
            assert_eq!(View::shown_by(v.action()), Some(*v));
            assert_eq!(v.action().name(), format!("view-{}", v.table()));
        }
        let view_actions = Action::ALL.iter().filter(|a| a.name().starts_with("view-"));
        assert_eq!(view_actions.count(), View::COUNT);
        assert_eq!(View::shown_by(Action::Quit), None);
    }

    #[test]
    fn unknown_names_are_errors() {
        assert_eq!(
            "cordon".parse::<Action>(),
            Err(UnknownAction("cordon".into()))
        );
    }
}
