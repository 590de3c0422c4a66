//! The keymap: per mode, key sequences bound to actions, and the pure resolver the event loop
//! calls with the keys pressed so far. A user file overrides the base keymap per (mode, key
//! sequence); conflicts are load errors, so no key can silently reach the wrong action.
//!
//! Owns: `Keymap`, `Binding`, `BindingHelp`, `Resolution`, `PALETTE_ONLY`. Must not import the
//! engine, cluster, app, ui, tokio or kube; from crossterm only the key event *types*.

use std::collections::BTreeMap;

use crossterm::event::KeyEvent;

use crate::action::Action;

use super::error::ConfigError;
use super::key::{display_sequence, Key};
use super::keymap_file::{check_conflicts, Entry, KeymapFile, Mode};

/// Actions reachable only from the `:` palette, deliberately without a default key. Every
/// other action must be bound in the default keymap (a test checks it).
pub const PALETTE_ONLY: &[Action] = &[];

/// What the keys pressed so far mean in a mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    /// The sequence is bound: do this and clear the pending keys.
    Action(Action),
    /// The sequence is the start of a longer binding: keep the keys and wait for the next.
    Prefix,
    /// Nothing is bound: clear the pending keys (prompts treat a lone key as typed text).
    Unbound,
}

/// One binding of a mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The key sequence, at least one key.
    pub keys: Vec<Key>,
    /// The action it triggers.
    pub action: Action,
    /// Help text: the entry's `desc`, else the action's description.
    pub desc: String,
}

/// A binding as the help screen and footer show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BindingHelp {
    /// The mode table it comes from (a view's help also lists `table` and `global`).
    pub mode: Mode,
    /// The keys as written in keymaps, e.g. `g g` or `<C-c>`.
    pub keys: String,
    /// The action.
    pub action: Action,
    /// The description.
    pub desc: String,
}

/// A complete keymap: bindings per mode, with no conflicts within a mode.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Keymap {
    /// The keymap's name (its file name without `.toml`).
    pub name: String,
    /// Entries per mode, in file order (base entries first, user additions after).
    modes: BTreeMap<Mode, Vec<Entry>>,
}

impl Keymap {
    /// A keymap from one file (a shipped keymap).
    pub fn from_file(name: &str, file: &KeymapFile) -> Keymap {
        // A file was conflict-checked when parsed, and it starts from nothing.
        let modes = file
            .modes
            .iter()
            .map(|(mode, entries)| (*mode, merge_mode(&[], entries)))
            .collect();
        Keymap {
            name: name.to_string(),
            modes,
        }
    }

    /// `base` with the entries of `user` replacing it per (mode, key sequence); `action =
    /// "none"` removes a binding. Fails when a user entry is the start of, or starts with, a
    /// binding left from the base.
    pub fn overlay(name: &str, base: &Keymap, user: &KeymapFile) -> Result<Keymap, ConfigError> {
        let mut modes = base.modes.clone();
        for (mode, entries) in &user.modes {
            let kept: Vec<Entry> = base
                .entries(*mode)
                .iter()
                .filter(|b| !entries.iter().any(|u| u.keys == b.keys))
                .cloned()
                .collect();
            check_conflicts(entries, &kept)?;
            modes.insert(*mode, merge_mode(base.entries(*mode), entries));
        }
        Ok(Keymap {
            name: name.to_string(),
            modes,
        })
    }

    /// The entries of one mode table (unbinding entries included).
    fn entries(&self, mode: Mode) -> &[Entry] {
        self.modes.get(&mode).map_or(&[], Vec::as_slice)
    }

    /// The bindings of one mode table alone, in file order.
    pub fn own_bindings(&self, mode: Mode) -> Vec<Binding> {
        self.entries(mode)
            .iter()
            .filter_map(|e| {
                let action = e.action?;
                Some(Binding {
                    keys: e.keys.clone(),
                    action,
                    desc: e
                        .desc
                        .clone()
                        .unwrap_or_else(|| action.description().into()),
                })
            })
            .collect()
    }

    /// What `pending` (the keys pressed so far, oldest first) means in `mode`. The mode's
    /// tables are consulted in `Mode::chain` order; the first that binds the sequence or a
    /// longer one starting with it decides.
    pub fn resolve(&self, mode: Mode, pending: &[KeyEvent]) -> Resolution {
        let keys: Option<Vec<Key>> = pending.iter().map(Key::from_event).collect();
        match keys {
            Some(keys) => self.resolve_keys(mode, &keys),
            None => Resolution::Unbound,
        }
    }

    /// `resolve` on keys already normalised.
    pub fn resolve_keys(&self, mode: Mode, pending: &[Key]) -> Resolution {
        if pending.is_empty() {
            return Resolution::Unbound;
        }
        for table in mode.chain() {
            let mut longer = false;
            for entry in self.entries(*table) {
                let Some(action) = entry.action else { continue };
                if entry.keys == pending {
                    return Resolution::Action(action);
                }
                longer |= entry.keys.starts_with(pending);
            }
            if longer {
                return Resolution::Prefix;
            }
        }
        Resolution::Unbound
    }

    /// The bindings that work in `mode`, its own table first, then the fallback tables minus
    /// what the mode shadows. For the help overlay and the footer.
    pub fn bindings(&self, mode: Mode) -> Vec<BindingHelp> {
        let mut out: Vec<BindingHelp> = Vec::new();
        for table in mode.chain() {
            for binding in self.own_bindings(*table) {
                let seen = out
                    .iter()
                    .any(|b| b.keys == display_sequence(&binding.keys));
                if !seen && self.reaches(mode, &binding) {
                    out.push(BindingHelp {
                        mode: *table,
                        keys: display_sequence(&binding.keys),
                        action: binding.action,
                        desc: binding.desc,
                    });
                }
            }
        }
        out
    }

    /// The key sequences that trigger `action` in `mode`, e.g. `["c"]`, for footer hints.
    pub fn keys_for(&self, mode: Mode, action: Action) -> Vec<String> {
        self.bindings(mode)
            .into_iter()
            .filter(|b| b.action == action)
            .map(|b| b.keys)
            .collect()
    }

    /// Whether pressing `binding`'s keys in `mode` triggers it (no higher table shadows it).
    fn reaches(&self, mode: Mode, binding: &Binding) -> bool {
        let keys = &binding.keys;
        let prefixes_wait =
            (1..keys.len()).all(|n| self.resolve_keys(mode, &keys[..n]) == Resolution::Prefix);
        prefixes_wait && self.resolve_keys(mode, keys) == Resolution::Action(binding.action)
    }
}

/// `base` entries with `user` entries replacing those with the same keys (in place), new ones
/// appended; unbinding entries drop the base entry and are not kept.
fn merge_mode(base: &[Entry], user: &[Entry]) -> Vec<Entry> {
    let mut merged: Vec<Entry> = base
        .iter()
        .filter_map(|b| match user.iter().find(|u| u.keys == b.keys) {
            None => Some(b.clone()),
            Some(u) if u.action.is_some() => Some(u.clone()),
            Some(_) => None,
        })
        .collect();
    for entry in user {
        if entry.action.is_some() && !base.iter().any(|b| b.keys == entry.keys) {
            merged.push(entry.clone());
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::error::parse_toml;
    use crate::config::keymap_file::parse_keymap;

    fn file(label: &str, text: &str) -> KeymapFile {
        parse_keymap(label, &parse_toml(label, text).unwrap()).unwrap()
    }

    fn keys(s: &str) -> Vec<Key> {
        s.split(' ').map(|k| k.parse().unwrap()).collect()
    }

    const BASE: &str = r#"
[global]
keymap = [
  { on = "q", action = "quit" },
  { on = ["g", "t"], action = "next-view" },
  { on = "?", action = "help" },
]
[table]
keymap = [
  { on = "j", action = "down", desc = "Down a row" },
  { on = ["g", "g"], action = "top" },
  { on = "G", action = "bottom" },
]
[nodes]
keymap = [{ on = "q", action = "back" }]
"#;

    #[test]
    fn multi_key_sequences_wait_then_resolve() {
        let km = Keymap::from_file("base", &file("base.toml", BASE));
        assert_eq!(km.resolve_keys(Mode::Nodes, &keys("g")), Resolution::Prefix);
        assert_eq!(
            km.resolve_keys(Mode::Nodes, &keys("g g")),
            Resolution::Action(Action::Top)
        );
        // The table's `g g` makes `g` a prefix there, so `g t` falls through to global.
        assert_eq!(
            km.resolve_keys(Mode::Nodes, &keys("g t")),
            Resolution::Action(Action::NextView)
        );
        assert_eq!(
            km.resolve_keys(Mode::Nodes, &keys("g x")),
            Resolution::Unbound
        );
        assert_eq!(km.resolve_keys(Mode::Nodes, &[]), Resolution::Unbound);
    }

    #[test]
    fn a_mode_table_shadows_its_fallbacks() {
        let km = Keymap::from_file("base", &file("base.toml", BASE));
        assert_eq!(
            km.resolve_keys(Mode::Nodes, &keys("q")),
            Resolution::Action(Action::Back)
        );
        assert_eq!(
            km.resolve_keys(Mode::Pools, &keys("q")),
            Resolution::Action(Action::Quit)
        );
        // Global alone: `g` only starts `g t` there.
        assert_eq!(
            km.resolve_keys(Mode::Global, &keys("g")),
            Resolution::Prefix
        );
        assert_eq!(
            km.resolve_keys(Mode::Global, &keys("g g")),
            Resolution::Unbound
        );
        // Modal tables do not fall back.
        assert_eq!(
            km.resolve_keys(Mode::Confirm, &keys("q")),
            Resolution::Unbound
        );
    }

    #[test]
    fn terminal_events_resolve_like_keys() {
        let km = Keymap::from_file("base", &file("base.toml", BASE));
        let events: Vec<KeyEvent> = keys("G").iter().map(|k| k.to_event()).collect();
        assert_eq!(
            km.resolve(Mode::Table, &events),
            Resolution::Action(Action::Bottom)
        );
    }

    #[test]
    fn help_lists_reachable_bindings_with_descriptions() {
        let km = Keymap::from_file("base", &file("base.toml", BASE));
        let help = km.bindings(Mode::Nodes);
        let shown: Vec<(&str, Action)> = help.iter().map(|b| (b.keys.as_str(), b.action)).collect();
        assert_eq!(
            shown,
            vec![
                ("q", Action::Back),
                ("j", Action::Down),
                ("g g", Action::Top),
                ("G", Action::Bottom),
                ("g t", Action::NextView),
                ("?", Action::Help),
            ]
        );
        assert_eq!(help[1].desc, "Down a row");
        assert_eq!(help[2].desc, Action::Top.description());
        assert_eq!(
            km.keys_for(Mode::Nodes, Action::Top),
            vec!["g g".to_string()]
        );
    }

    #[test]
    fn user_entries_replace_per_mode_and_sequence() {
        let base = Keymap::from_file("base", &file("base.toml", BASE));
        let user = file(
            "user.toml",
            r#"
[table]
keymap = [
  { on = "j", action = "page-down" },
  { on = "G", action = "none" },
  { on = "<C-e>", action = "down" },
]
"#,
        );
        let km = Keymap::overlay("base", &base, &user).unwrap();
        let table = |s: &str| km.resolve_keys(Mode::Table, &keys(s));
        assert_eq!(table("j"), Resolution::Action(Action::PageDown));
        assert_eq!(table("G"), Resolution::Unbound);
        assert_eq!(table("<C-e>"), Resolution::Action(Action::Down));
        assert_eq!(table("g g"), Resolution::Action(Action::Top));
        assert_eq!(table("q"), Resolution::Action(Action::Quit));
        // The base is untouched.
        assert_eq!(
            base.resolve_keys(Mode::Table, &keys("G")),
            Resolution::Action(Action::Bottom)
        );
    }

    #[test]
    fn a_user_key_that_starts_a_base_sequence_is_an_error() {
        let base = Keymap::from_file("base", &file("base.toml", BASE));
        let user = file(
            "user.toml",
            "[table]\nkeymap = [{ on = \"g\", action = \"top\" }]\n",
        );
        let err = Keymap::overlay("base", &base, &user).unwrap_err();
        assert_eq!(
            err.to_string(),
            "user.toml: [table] entry 1: on = \"g\": is the start of \"g g\", bound by \
             base.toml entry 2 (top); expected each key sequence bound once per mode, and \
             none the start of another"
        );
        // Unbinding the longer sequence first makes room for it.
        let user = file(
            "user.toml",
            "[table]\nkeymap = [{ on = [\"g\", \"g\"], action = \"none\" }, \
             { on = \"g\", action = \"top\" }]\n",
        );
        let km = Keymap::overlay("base", &base, &user).unwrap();
        assert_eq!(
            km.resolve_keys(Mode::Table, &keys("g")),
            Resolution::Action(Action::Top)
        );
    }
}
