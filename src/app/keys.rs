//! Key → action resolution for the reducer: the `KeyResolver` seam the config crate's keymap
//! plugs into, key-sequence state, and a built-in k9s-like default table.
//!
//! Owns: `Mode`, `KeyResolution`, `KeyResolver`, `Binding`, `DefaultKeys`, `key_label`. Plain
//! data on crossterm key *types*; must not import `ratatui`, `tokio` or `kube`.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::action::Action;

/// Which key table applies: the current view, or the modal on top. Names match the keymap
/// file's tables (`[global]`, `[nodes]`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Keys that work everywhere unless a more specific table binds them.
    Global,
    /// The Pools view.
    Pools,
    /// The Nodes view and node detail.
    Nodes,
    /// The Moves view and move detail.
    Moves,
    /// The Journal view and entry detail.
    Journal,
    /// The Gangs tree.
    Gangs,
    /// The Lints view.
    Lints,
    /// A confirm or choice dialog.
    Confirm,
    /// The help overlay.
    Help,
}

impl Mode {
    /// The keymap table name.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Global => "global",
            Mode::Pools => "pools",
            Mode::Nodes => "nodes",
            Mode::Moves => "moves",
            Mode::Journal => "journal",
            Mode::Gangs => "gangs",
            Mode::Lints => "lints",
            Mode::Confirm => "confirm",
            Mode::Help => "help",
        }
    }
}

/// A key with its modifiers (SHIFT is folded into upper-case characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chord {
    /// The key.
    pub code: KeyCode,
    /// CONTROL / ALT only.
    pub mods: KeyModifiers,
}

impl Chord {
    /// The chord of a crossterm key event.
    pub fn of(key: &KeyEvent) -> Self {
        Chord {
            code: key.code,
            mods: key.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT),
        }
    }

    const fn plain(code: KeyCode) -> Self {
        Chord {
            code,
            mods: KeyModifiers::NONE,
        }
    }

    const fn ch(c: char) -> Self {
        Chord::plain(KeyCode::Char(c))
    }

    const fn ctrl(c: char) -> Self {
        Chord {
            code: KeyCode::Char(c),
            mods: KeyModifiers::CONTROL,
        }
    }
}

/// What a key sequence means in a mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyResolution {
    /// The sequence is bound to this action.
    Action(Action),
    /// The sequence is a prefix of a longer binding: wait for the next key.
    Pending,
    /// Nothing is bound.
    Unbound,
}

/// One binding as help and the footer show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The key sequence (one or more chords).
    pub keys: Vec<Chord>,
    /// The action it triggers.
    pub action: Action,
    /// The description (the keymap's `desc`, else the action's).
    pub desc: String,
}

/// Resolves key sequences to actions. The config crate's `Keymap` implements this.
pub trait KeyResolver: Send {
    /// The meaning of `seq` (the keys typed since the last resolution) in `mode`; a mode's own
    /// table wins over `[global]`.
    fn resolve(&self, mode: Mode, seq: &[Chord]) -> KeyResolution;
    /// Every binding of `mode` (not including `[global]`), in display order.
    fn bindings(&self, mode: Mode) -> Vec<Binding>;
}

type Entry = (Mode, &'static [Chord], Action);

/// The built-in k9s-like table (`j/k`, `/`, `:`, `?`, `Esc`, `g g`, `G`).
const DEFAULT_TABLE: &[Entry] = &[
    (Mode::Global, &[Chord::ch('q')], Action::Quit),
    (Mode::Global, &[Chord::ctrl('c')], Action::Quit),
    (Mode::Global, &[Chord::ch('?')], Action::Help),
    (Mode::Global, &[Chord::ch(':')], Action::CommandPalette),
    (Mode::Global, &[Chord::ch('/')], Action::Filter),
    (Mode::Global, &[Chord::plain(KeyCode::Esc)], Action::Back),
    (Mode::Global, &[Chord::ch('j')], Action::Down),
    (Mode::Global, &[Chord::plain(KeyCode::Down)], Action::Down),
    (Mode::Global, &[Chord::ch('k')], Action::Up),
    (Mode::Global, &[Chord::plain(KeyCode::Up)], Action::Up),
    (
        Mode::Global,
        &[Chord::plain(KeyCode::PageDown)],
        Action::PageDown,
    ),
    (Mode::Global, &[Chord::ctrl('f')], Action::PageDown),
    (
        Mode::Global,
        &[Chord::plain(KeyCode::PageUp)],
        Action::PageUp,
    ),
    (Mode::Global, &[Chord::ctrl('b')], Action::PageUp),
    (Mode::Global, &[Chord::ch('g'), Chord::ch('g')], Action::Top),
    (Mode::Global, &[Chord::plain(KeyCode::Home)], Action::Top),
    (Mode::Global, &[Chord::ch('G')], Action::Bottom),
    (Mode::Global, &[Chord::plain(KeyCode::End)], Action::Bottom),
    (Mode::Global, &[Chord::plain(KeyCode::Enter)], Action::Open),
    (
        Mode::Global,
        &[Chord::plain(KeyCode::Tab)],
        Action::NextView,
    ),
    (
        Mode::Global,
        &[Chord::plain(KeyCode::BackTab)],
        Action::PrevView,
    ),
    (Mode::Global, &[Chord::ch('1')], Action::ViewPools),
    (Mode::Global, &[Chord::ch('2')], Action::ViewNodes),
    (Mode::Global, &[Chord::ch('3')], Action::ViewMoves),
    (Mode::Global, &[Chord::ch('4')], Action::ViewJournal),
    (Mode::Global, &[Chord::ch('5')], Action::ViewGangs),
    (Mode::Global, &[Chord::ch('6')], Action::ViewLints),
    (Mode::Global, &[Chord::ch('s')], Action::SortNext),
    (Mode::Global, &[Chord::ch('S')], Action::SortReverse),
    (Mode::Global, &[Chord::ch('f')], Action::Freeze),
    (Mode::Global, &[Chord::ch('T')], Action::NextTheme),
    (Mode::Nodes, &[Chord::ch('c')], Action::CordonNode),
    (Mode::Nodes, &[Chord::ch('u')], Action::UncordonNode),
    (Mode::Moves, &[Chord::ch('a')], Action::ApproveMove),
    (Mode::Moves, &[Chord::ch('r')], Action::RejectMove),
    (Mode::Journal, &[Chord::ch('x')], Action::ClearJournalEntry),
    (Mode::Gangs, &[Chord::ch(' ')], Action::Toggle),
    (Mode::Gangs, &[Chord::ch('l')], Action::Toggle),
    (Mode::Confirm, &[Chord::ch('y')], Action::Confirm),
    (
        Mode::Confirm,
        &[Chord::plain(KeyCode::Enter)],
        Action::Confirm,
    ),
    (Mode::Confirm, &[Chord::ch('n')], Action::Cancel),
    (Mode::Confirm, &[Chord::plain(KeyCode::Esc)], Action::Cancel),
    (Mode::Help, &[Chord::plain(KeyCode::Esc)], Action::Back),
    (Mode::Help, &[Chord::ch('?')], Action::Back),
    (Mode::Help, &[Chord::ch('q')], Action::Back),
];

/// The built-in default keymap, used until a configured keymap is plugged in.
#[derive(Debug, Clone, Copy, Default)]
pub struct DefaultKeys;

fn resolve_in(mode: Mode, seq: &[Chord]) -> KeyResolution {
    let mut pending = false;
    for (m, keys, action) in DEFAULT_TABLE.iter().filter(|(m, ..)| *m == mode) {
        debug_assert_eq!(*m, mode);
        if *keys == seq {
            return KeyResolution::Action(*action);
        }
        pending |= keys.len() > seq.len() && keys.starts_with(seq);
    }
    if pending {
        KeyResolution::Pending
    } else {
        KeyResolution::Unbound
    }
}

impl KeyResolver for DefaultKeys {
    fn resolve(&self, mode: Mode, seq: &[Chord]) -> KeyResolution {
        match resolve_in(mode, seq) {
            KeyResolution::Unbound if !matches!(mode, Mode::Global | Mode::Confirm) => {
                resolve_in(Mode::Global, seq)
            }
            other => other,
        }
    }

    fn bindings(&self, mode: Mode) -> Vec<Binding> {
        DEFAULT_TABLE
            .iter()
            .filter(|(m, ..)| *m == mode)
            .map(|(_, keys, action)| Binding {
                keys: keys.to_vec(),
                action: *action,
                desc: action.description().to_string(),
            })
            .collect()
    }
}

/// A chord as the help and footer print it: `j`, `G`, `ctrl-c`, `esc`, `enter`, `pgdn`.
pub fn chord_label(c: &Chord) -> String {
    let key = match c.code {
        KeyCode::Char(' ') => "space".to_string(),
        KeyCode::Char(ch) => ch.to_string(),
        KeyCode::Enter => "enter".into(),
        KeyCode::Esc => "esc".into(),
        KeyCode::Tab => "tab".into(),
        KeyCode::BackTab => "shift-tab".into(),
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::PageUp => "pgup".into(),
        KeyCode::PageDown => "pgdn".into(),
        KeyCode::Home => "home".into(),
        KeyCode::End => "end".into(),
        other => format!("{other:?}").to_lowercase(),
    };
    let mut out = String::new();
    if c.mods.contains(KeyModifiers::CONTROL) {
        out.push_str("ctrl-");
    }
    if c.mods.contains(KeyModifiers::ALT) {
        out.push_str("alt-");
    }
    out.push_str(&key);
    out
}

/// A key sequence as printed: chords separated by spaces (`g g`).
pub fn key_label(keys: &[Chord]) -> String {
    keys.iter().map(chord_label).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ch(c: char) -> Chord {
        Chord::ch(c)
    }

    #[test]
    fn view_tables_fall_back_to_global() {
        let k = DefaultKeys;
        assert_eq!(
            k.resolve(Mode::Nodes, &[ch('c')]),
            KeyResolution::Action(Action::CordonNode)
        );
        assert_eq!(
            k.resolve(Mode::Nodes, &[ch('j')]),
            KeyResolution::Action(Action::Down)
        );
        assert_eq!(k.resolve(Mode::Pools, &[ch('c')]), KeyResolution::Unbound);
    }

    #[test]
    fn multi_key_sequences_wait_for_the_next_key() {
        let k = DefaultKeys;
        assert_eq!(k.resolve(Mode::Lints, &[ch('g')]), KeyResolution::Pending);
        assert_eq!(
            k.resolve(Mode::Lints, &[ch('g'), ch('g')]),
            KeyResolution::Action(Action::Top)
        );
        assert_eq!(
            k.resolve(Mode::Lints, &[ch('g'), ch('x')]),
            KeyResolution::Unbound
        );
    }

    #[test]
    fn confirm_mode_does_not_leak_global_keys() {
        assert_eq!(
            DefaultKeys.resolve(Mode::Confirm, &[ch('q')]),
            KeyResolution::Unbound
        );
    }

    #[test]
    fn labels_read_like_the_keymap_file() {
        assert_eq!(key_label(&[ch('g'), ch('g')]), "g g");
        assert_eq!(chord_label(&Chord::ctrl('c')), "ctrl-c");
    }
}
