//! The keymap: per mode, key sequences bound to actions, and the pure resolver the event loop
//! calls with the keys pressed so far. A user file overrides the base keymap per (mode, key
//! sequence); conflicts are load errors, so no key can silently reach the wrong action.
//!
//! Owns: `Keymap`, `Binding`, `BindingHelp`, `Resolution`, `PALETTE_ONLY`. From crossterm only the
//! key event *types*.

use std::collections::BTreeMap;

use crossterm::event::KeyEvent;

use crate::action::Action;

use super::error::{ConfigError, Notice};
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

    /// Bindings a higher table hides in some mode by binding the start of their sequence, or
    /// a sequence starting with theirs (exact rebinds are deliberate and not reported). One
    /// notice per pair of bindings.
    pub fn shadow_notices(&self) -> Vec<Notice> {
        let mut notices: Vec<Notice> = Vec::new();
        for mode in Mode::ALL {
            for (i, high) in mode.chain().iter().enumerate() {
                for low in &mode.chain()[i + 1..] {
                    for notice in self.hidden(*high, *low) {
                        if !notices.contains(&notice) {
                            notices.push(notice);
                        }
                    }
                }
            }
        }
        notices
    }

    /// The bindings of `low` that a binding of `high` partly overlaps, as notices.
    fn hidden(&self, high: Mode, low: Mode) -> Vec<Notice> {
        let mut out = Vec::new();
        for h in self.entries(high) {
            let overlapping = self.entries(low).iter().filter(|l| {
                l.keys != h.keys && (h.keys.starts_with(&l.keys) || l.keys.starts_with(&h.keys))
            });
            for l in overlapping {
                out.push(Notice {
                    file: h.origin.file.clone(),
                    message: format!(
                        "[{high}] entry {} `{}` hides [{low}] `{}` ({}) wherever [{high}] applies",
                        h.origin.entry,
                        display_sequence(&h.keys),
                        display_sequence(&l.keys),
                        l.action.map_or("none", Action::name),
                    ),
                });
            }
        }
        out
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
mod tests;
