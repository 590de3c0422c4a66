//! Plugs the configured keymap (`config::Keymap`, loaded from `keymaps/*.toml` and the user's
//! overrides) into the reducer's `KeyResolver` seam, so every action is remappable.
//!
//! Owns: `ConfigKeys`. May import `config` values and crossterm key *types*; must not import
//! `ratatui`, `tokio` or `kube`.

use std::str::FromStr;

use crossterm::event::KeyEvent;

use crate::app::keys::{Binding, Chord, KeyResolution, KeyResolver, Mode};
use crate::config::{Key, Keymap, Mode as TableMode, Resolution};

/// A loaded keymap behind the reducer's resolver trait.
pub struct ConfigKeys(pub Keymap);

fn table(mode: Mode) -> TableMode {
    match mode {
        Mode::Global => TableMode::Global,
        Mode::Pools => TableMode::Pools,
        Mode::Nodes => TableMode::Nodes,
        Mode::Moves => TableMode::Moves,
        Mode::Journal => TableMode::Journal,
        Mode::Gangs => TableMode::Gangs,
        Mode::Lints => TableMode::Lints,
        Mode::Confirm => TableMode::Confirm,
        Mode::Help => TableMode::Help,
    }
}

/// `g g` / `<C-c>` as written in keymaps → chords; `None` if a key does not parse.
fn chords(keys: &str) -> Option<Vec<Chord>> {
    keys.split_whitespace()
        .map(|k| Key::from_str(k).ok().map(|k| Chord::of(&k.to_event())))
        .collect()
}

impl KeyResolver for ConfigKeys {
    fn resolve(&self, mode: Mode, seq: &[Chord]) -> KeyResolution {
        let events: Vec<KeyEvent> = seq.iter().map(|c| KeyEvent::new(c.code, c.mods)).collect();
        match self.0.resolve(table(mode), &events) {
            Resolution::Action(a) => KeyResolution::Action(a),
            Resolution::Prefix => KeyResolution::Pending,
            Resolution::Unbound => KeyResolution::Unbound,
        }
    }

    /// The bindings that work in `mode`; for a view, its own and the shared `[table]` ones
    /// (the footer adds `[global]` hints itself).
    fn bindings(&self, mode: Mode) -> Vec<Binding> {
        self.0
            .bindings(table(mode))
            .into_iter()
            .filter(|b| mode == Mode::Global || b.mode != TableMode::Global)
            .filter_map(|b| {
                Some(Binding {
                    keys: chords(&b.keys)?,
                    action: b.action,
                    desc: b.desc,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Action;
    use crossterm::event::{KeyCode, KeyModifiers};

    fn ch(c: char) -> Chord {
        Chord::of(&KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
    }

    #[test]
    fn shipped_keymaps_resolve_through_the_seam() {
        let paths = crate::config::ConfigPaths::builtin_only();
        let overrides = crate::config::Overrides {
            theme: None,
            keymap: Some("vim".into()),
        };
        let vim = ConfigKeys(crate::config::load(&paths, &overrides).unwrap().keymap);
        assert_eq!(vim.resolve(Mode::Nodes, &[ch('g')]), KeyResolution::Pending);
        assert_eq!(
            vim.resolve(Mode::Nodes, &[ch('g'), ch('g')]),
            KeyResolution::Action(Action::Top)
        );
        assert!(vim
            .bindings(Mode::Nodes)
            .iter()
            .any(|b| b.action == Action::CordonNode));
    }
}
