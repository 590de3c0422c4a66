//! One key press as keymaps name it: parsing of key strings (`"c"`, `"G"`, `"<C-c>"`,
//! `"<S-Tab>"`, `"<Enter>"`, `"<F5>"`), their canonical display, and the normalisation of
//! crossterm's key events into the same form.
//!
//! Owns: `Key`, `KeyCode`, `KeyParseError`, `EXPECTED_KEY`. From crossterm only the key event
//! *types*.

use std::fmt;
use std::str::FromStr;

use crossterm::event::{KeyCode as TermCode, KeyEvent, KeyEventKind, KeyModifiers};

/// The expected form of a key string, quoted in error messages.
pub const EXPECTED_KEY: &str =
    "a key like \"c\", \"G\", \"?\", \"<C-c>\", \"<A-x>\", \"<S-Tab>\", \
     \"<Enter>\", \"<Esc>\", \"<Space>\", \"<Up>\" or \"<F5>\"";

/// A key without modifiers. Characters keep their case (`G` is shift-g), so shift is never
/// stored for a character; `BackTab` is shift-tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyCode {
    /// A printable character, including `' '` (shown as `<Space>`).
    Char(char),
    /// A function key, `F1`..=`F24`.
    F(u8),
    /// Enter / Return.
    Enter,
    /// Escape.
    Esc,
    /// Tab.
    Tab,
    /// Shift-Tab.
    BackTab,
    /// Backspace.
    Backspace,
    /// Delete.
    Delete,
    /// Insert.
    Insert,
    /// Home.
    Home,
    /// End.
    End,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
}

/// Named keys: (canonical name, code). Parsing is case-insensitive and accepts the aliases.
const NAMED: &[(&str, KeyCode)] = &[
    ("Enter", KeyCode::Enter),
    ("Esc", KeyCode::Esc),
    ("Tab", KeyCode::Tab),
    ("BackTab", KeyCode::BackTab),
    ("Backspace", KeyCode::Backspace),
    ("Delete", KeyCode::Delete),
    ("Insert", KeyCode::Insert),
    ("Home", KeyCode::Home),
    ("End", KeyCode::End),
    ("PageUp", KeyCode::PageUp),
    ("PageDown", KeyCode::PageDown),
    ("Up", KeyCode::Up),
    ("Down", KeyCode::Down),
    ("Left", KeyCode::Left),
    ("Right", KeyCode::Right),
    ("Space", KeyCode::Char(' ')),
    ("lt", KeyCode::Char('<')),
];

/// Accepted alternative spellings of named keys.
const ALIASES: &[(&str, KeyCode)] = &[
    ("cr", KeyCode::Enter),
    ("return", KeyCode::Enter),
    ("escape", KeyCode::Esc),
    ("bs", KeyCode::Backspace),
    ("del", KeyCode::Delete),
    ("ins", KeyCode::Insert),
    ("pgup", KeyCode::PageUp),
    ("pgdn", KeyCode::PageDown),
    ("pagedn", KeyCode::PageDown),
];

/// One key press: a code and its modifiers. Invariant: `shift` is false for characters
/// (their case carries it) and for `BackTab`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    /// The key.
    pub code: KeyCode,
    /// Control held.
    pub ctrl: bool,
    /// Alt (Meta) held.
    pub alt: bool,
    /// Shift held (named keys only, e.g. `<S-Up>`).
    pub shift: bool,
}

impl Key {
    /// A key with no modifiers.
    pub fn plain(code: KeyCode) -> Key {
        Key::new(code, false, false, false)
    }

    /// A key with modifiers, normalised: shift folds into a character's case, and shift-tab
    /// becomes `BackTab`.
    pub fn new(code: KeyCode, ctrl: bool, alt: bool, shift: bool) -> Key {
        let (code, shift) = match code {
            KeyCode::Char(c) if shift && c.is_ascii_lowercase() => {
                (KeyCode::Char(c.to_ascii_uppercase()), false)
            }
            KeyCode::Char(c) => (KeyCode::Char(c), false),
            KeyCode::Tab if shift => (KeyCode::BackTab, false),
            KeyCode::BackTab => (KeyCode::BackTab, false),
            other => (other, shift),
        };
        Key {
            code,
            ctrl,
            alt,
            shift,
        }
    }

    /// The key of a terminal event; `None` for key releases and for keys keymaps cannot name
    /// (media keys, lone modifiers, caps lock...).
    pub fn from_event(event: &KeyEvent) -> Option<Key> {
        if event.kind == KeyEventKind::Release {
            return None;
        }
        let code = match event.code {
            TermCode::Char(c) => KeyCode::Char(c),
            TermCode::F(n) => KeyCode::F(n),
            TermCode::Enter => KeyCode::Enter,
            TermCode::Esc => KeyCode::Esc,
            TermCode::Tab => KeyCode::Tab,
            TermCode::BackTab => KeyCode::BackTab,
            TermCode::Backspace => KeyCode::Backspace,
            TermCode::Delete => KeyCode::Delete,
            TermCode::Insert => KeyCode::Insert,
            TermCode::Home => KeyCode::Home,
            TermCode::End => KeyCode::End,
            TermCode::PageUp => KeyCode::PageUp,
            TermCode::PageDown => KeyCode::PageDown,
            TermCode::Up => KeyCode::Up,
            TermCode::Down => KeyCode::Down,
            TermCode::Left => KeyCode::Left,
            TermCode::Right => KeyCode::Right,
            _ => return None,
        };
        let m = event.modifiers;
        Some(Key::new(
            code,
            m.contains(KeyModifiers::CONTROL),
            m.contains(KeyModifiers::ALT),
            m.contains(KeyModifiers::SHIFT),
        ))
    }

    /// A terminal event for this key (tests and the demo's scripted input use it).
    pub fn to_event(self) -> KeyEvent {
        let code = match self.code {
            KeyCode::Char(c) => TermCode::Char(c),
            KeyCode::F(n) => TermCode::F(n),
            KeyCode::Enter => TermCode::Enter,
            KeyCode::Esc => TermCode::Esc,
            KeyCode::Tab => TermCode::Tab,
            KeyCode::BackTab => TermCode::BackTab,
            KeyCode::Backspace => TermCode::Backspace,
            KeyCode::Delete => TermCode::Delete,
            KeyCode::Insert => TermCode::Insert,
            KeyCode::Home => TermCode::Home,
            KeyCode::End => TermCode::End,
            KeyCode::PageUp => TermCode::PageUp,
            KeyCode::PageDown => TermCode::PageDown,
            KeyCode::Up => TermCode::Up,
            KeyCode::Down => TermCode::Down,
            KeyCode::Left => TermCode::Left,
            KeyCode::Right => TermCode::Right,
        };
        let mut mods = KeyModifiers::empty();
        mods.set(KeyModifiers::CONTROL, self.ctrl);
        mods.set(KeyModifiers::ALT, self.alt);
        mods.set(
            KeyModifiers::SHIFT,
            self.shift || self.code == KeyCode::BackTab,
        );
        KeyEvent::new(code, mods)
    }

    /// Whether the canonical form needs angle brackets.
    fn is_bracketed(self) -> bool {
        self.ctrl
            || self.alt
            || self.shift
            || !matches!(self.code, KeyCode::Char(c) if c != ' ' && c != '<')
    }
}

/// Why a key string is not a key. Displays as the problem; the caller adds file and path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyParseError {
    /// `""`.
    #[error("empty key")]
    Empty,
    /// One control character.
    #[error("control character; use a name like <Tab>")]
    Control,
    /// `" "`.
    #[error("a bare space; write <Space>")]
    BareSpace,
    /// Several characters outside brackets.
    #[error("several characters; a sequence is an array like [\"g\", \"g\"]")]
    Several,
    /// `<` without `>`.
    #[error("unclosed \"<\"")]
    Unclosed,
    /// A modifier other than `C-`, `A-`, `M-`, `S-`.
    #[error("unknown modifier \"{0}-\"")]
    Modifier(char),
    /// A blank character as the key inside brackets.
    #[error("a blank key name")]
    Blank,
    /// `<>` or only modifiers.
    #[error("missing key name inside \"<>\"")]
    NoName,
    /// `F0` or above `F24`.
    #[error("no function key F{0} (F1..F24)")]
    Function(u8),
    /// A name not in the table.
    #[error("unknown key name \"{0}\"")]
    UnknownName(String),
}

impl FromStr for Key {
    type Err = KeyParseError;

    fn from_str(s: &str) -> Result<Key, KeyParseError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (None, _) => Err(KeyParseError::Empty),
            (Some(c), None) if c.is_control() => Err(KeyParseError::Control),
            (Some(' '), None) => Err(KeyParseError::BareSpace),
            (Some(c), None) => Ok(Key::plain(KeyCode::Char(c))),
            (Some('<'), Some(_)) => parse_bracketed(s),
            _ => Err(KeyParseError::Several),
        }
    }
}

/// Parses `<...>`: modifiers `C-`, `A-`/`M-`, `S-`, then a named key or one character.
fn parse_bracketed(s: &str) -> Result<Key, KeyParseError> {
    let Some(inner) = s.strip_prefix('<').and_then(|r| r.strip_suffix('>')) else {
        return Err(KeyParseError::Unclosed);
    };
    let (mut ctrl, mut alt, mut shift) = (false, false, false);
    let mut rest = inner;
    loop {
        let mut it = rest.chars();
        let (Some(m), Some('-'), Some(_)) = (it.next(), it.next(), it.next()) else {
            break;
        };
        match m.to_ascii_uppercase() {
            'C' => ctrl = true,
            'A' | 'M' => alt = true,
            'S' => shift = true,
            _ => return Err(KeyParseError::Modifier(m)),
        }
        rest = &rest[2..];
    }
    let code = key_name(rest)?;
    Ok(Key::new(code, ctrl, alt, shift))
}

/// The code of a key name inside brackets: a single character, `F1`..`F24`, or a name.
fn key_name(name: &str) -> Result<KeyCode, KeyParseError> {
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return if c.is_control() || c == ' ' {
            Err(KeyParseError::Blank)
        } else {
            Ok(KeyCode::Char(c))
        };
    }
    if name.is_empty() {
        return Err(KeyParseError::NoName);
    }
    let lower = name.to_ascii_lowercase();
    if let Some(n) = lower.strip_prefix('f').and_then(|d| d.parse::<u8>().ok()) {
        return if (1..=24).contains(&n) {
            Ok(KeyCode::F(n))
        } else {
            Err(KeyParseError::Function(n))
        };
    }
    NAMED
        .iter()
        .chain(ALIASES)
        .find(|(n, _)| n.eq_ignore_ascii_case(&lower))
        .map(|(_, code)| *code)
        .ok_or_else(|| KeyParseError::UnknownName(name.to_string()))
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.is_bracketed() {
            if let KeyCode::Char(c) = self.code {
                return write!(f, "{c}");
            }
        }
        f.write_str("<")?;
        if self.ctrl {
            f.write_str("C-")?;
        }
        if self.alt {
            f.write_str("A-")?;
        }
        if self.shift {
            f.write_str("S-")?;
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("Space")?,
            KeyCode::Char('<') if !(self.ctrl || self.alt) => f.write_str("lt")?,
            KeyCode::Char(c) => write!(f, "{c}")?,
            KeyCode::F(n) => write!(f, "F{n}")?,
            KeyCode::BackTab => f.write_str("S-Tab")?,
            code => {
                let name = NAMED.iter().find(|(_, c)| *c == code).map(|(n, _)| *n);
                f.write_str(name.unwrap_or("?"))?;
            }
        }
        f.write_str(">")
    }
}

/// Displays a key sequence as keymaps and the help screen show it: keys joined by spaces.
pub fn display_sequence(keys: &[Key]) -> String {
    keys.iter()
        .map(Key::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> Key {
        s.parse().unwrap()
    }

    #[test]
    fn canonical_strings_round_trip() {
        for s in [
            "a",
            "G",
            "?",
            "/",
            ":",
            "1",
            "<C-c>",
            "<C-A-x>",
            "<A-j>",
            "<S-Tab>",
            "<Enter>",
            "<Esc>",
            "<Space>",
            "<F5>",
            "<F12>",
            "<S-Up>",
            "<PageDown>",
            "<lt>",
            "<C-<>",
            "<Backspace>",
            "<C-Space>",
        ] {
            assert_eq!(key(s).to_string(), s, "{s}");
        }
    }

    #[test]
    fn aliases_and_case_normalise() {
        assert_eq!(key("<cr>"), key("<Enter>"));
        assert_eq!(key("<ESC>"), key("<Esc>"));
        assert_eq!(key("<s-a>"), key("A"));
        assert_eq!(key("<S-Tab>").code, KeyCode::BackTab);
        assert_eq!(key("<BackTab>"), key("<S-Tab>"));
        assert_eq!(
            key("<c-C>"),
            Key::new(KeyCode::Char('C'), true, false, false)
        );
        assert_eq!(key("<M-x>"), key("<A-x>"));
        assert_eq!(key("<"), Key::plain(KeyCode::Char('<')));
    }

    #[test]
    fn malformed_strings_say_why() {
        let err = |s: &str| s.parse::<Key>().unwrap_err().to_string();
        assert_eq!(err("<C-"), "unclosed \"<\"");
        assert_eq!(err(""), "empty key");
        assert_eq!(
            err("gg"),
            "several characters; a sequence is an array like [\"g\", \"g\"]"
        );
        assert_eq!(err("<X-a>"), "unknown modifier \"X-\"");
        assert_eq!(err("<Enterr>"), "unknown key name \"Enterr\"");
        assert_eq!(err("<F25>"), "no function key F25 (F1..F24)");
        assert_eq!(err("<>"), "missing key name inside \"<>\"");
        assert_eq!(err(" "), "a bare space; write <Space>");
    }

    #[test]
    fn terminal_events_normalise_like_strings() {
        let shifted_g = KeyEvent::new(TermCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(Key::from_event(&shifted_g), Some(key("G")));
        let back_tab = KeyEvent::new(TermCode::BackTab, KeyModifiers::SHIFT);
        assert_eq!(Key::from_event(&back_tab), Some(key("<S-Tab>")));
        let ctrl_c = KeyEvent::new(TermCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(Key::from_event(&ctrl_c), Some(key("<C-c>")));
        let mut release = ctrl_c;
        release.kind = KeyEventKind::Release;
        assert_eq!(Key::from_event(&release), None);
        for s in ["<C-c>", "G", "<S-Tab>", "<S-Up>", "<F5>", "<Space>"] {
            assert_eq!(Key::from_event(&key(s).to_event()), Some(key(s)), "{s}");
        }
    }

    #[test]
    fn sequences_display_with_spaces() {
        assert_eq!(display_sequence(&[key("g"), key("g")]), "g g");
    }
}
