//! The `:` command palette: what it lists for the typed line (k9s' command words, the
//! kubeconfig's contexts after `ctx`, the data's namespaces after `ns`, themes, then every
//! action whose name or description matches), which entry is selected, Tab completion, and
//! what Enter runs — the selected entry when the line names it or the operator chose it with
//! ↑/↓, else the typed line itself (an unknown word, or one a name only starts, says so).
//!
//! Owns: `PaletteEntry`, `palette_entries`, `default_selection`, `key`. Plain data.

pub mod words;

use crossterm::event::{KeyCode, KeyEvent};

use crate::action::Action;
use crate::app::dialogs::Modal;
use crate::app::effect::Effect;
use crate::app::keys::{Chord, KeyResolution, Mode};
use crate::app::line::edit;
use crate::app::msg::{redraw, Msg};
use crate::app::namespace::{self, CLEAR_WORDS};
use crate::app::query::contexts::unavailable;
use crate::app::query::fleet;
use crate::app::state::{AppState, NoticeLevel};
use words::{split, word, Verb, Word, WORDS};

/// A palette entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PaletteEntry {
    /// Run an action.
    Action(Action),
    /// Switch to a theme by name.
    Theme(String),
    /// A command word (Enter runs it, or asks for its argument).
    Word(&'static Word),
    /// A kubeconfig context (Enter switches to it).
    Context {
        /// Its name.
        name: String,
        /// The one the shown data comes from.
        current: bool,
        /// Marked read-only in config.toml.
        read_only: bool,
    },
    /// A namespace to scope the workload views to (`None`: every namespace).
    Namespace {
        /// Its name.
        name: Option<String>,
        /// The scope in force.
        current: bool,
        /// Seen in the data (a typed name may not be).
        seen: bool,
    },
    /// Why a command lists nothing here (Enter shows it as a notice).
    Unavailable(String),
}

impl PaletteEntry {
    /// The text shown.
    pub fn label(&self) -> String {
        match self {
            PaletteEntry::Action(a) => format!("{:<22} {}", a.name(), a.description()),
            PaletteEntry::Theme(t) => format!("theme {t:<16} Switch theme"),
            PaletteEntry::Word(w) => format!("{:<22} {}", w.usage, w.help),
            PaletteEntry::Context {
                name,
                current,
                read_only,
            } => {
                let marks: Vec<&str> = [(*current, "current"), (*read_only, "read-only")]
                    .into_iter()
                    .filter_map(|(on, word)| on.then_some(word))
                    .collect();
                format!("ctx {name:<18} {}", marks.join(" · "))
            }
            PaletteEntry::Namespace {
                name,
                current,
                seen,
            } => {
                let (shown, what) = match name {
                    Some(n) if *seen => (n.as_str(), ""),
                    Some(n) => (n.as_str(), "not seen in the data"),
                    None => ("all", "every namespace"),
                };
                let mark = if *current { "current" } else { "" };
                let sep = if !mark.is_empty() && !what.is_empty() {
                    " · "
                } else {
                    ""
                };
                format!("ns {shown:<19} {what}{sep}{mark}")
            }
            PaletteEntry::Unavailable(why) => why.clone(),
        }
    }

    /// The line Tab fills in (`None`: nothing to complete).
    pub fn completion(&self) -> Option<String> {
        Some(match self {
            PaletteEntry::Action(a) => a.name().to_string(),
            PaletteEntry::Theme(t) => format!("theme {t}"),
            PaletteEntry::Word(w) if w.verb.takes_argument() => format!("{} ", w.names[0]),
            PaletteEntry::Word(w) => w.names[0].to_string(),
            PaletteEntry::Context { name, .. } => format!("ctx {name}"),
            PaletteEntry::Namespace { name, .. } => {
                format!("ns {}", name.as_deref().unwrap_or("all"))
            }
            PaletteEntry::Unavailable(_) => return None,
        })
    }
}

/// Case-insensitive substring match of `typed` in `text` (everything matches nothing typed).
fn matches(text: &str, typed: Option<&str>) -> bool {
    typed.is_none_or(|t| text.to_lowercase().contains(&t.to_lowercase()))
}

fn context_entries(state: &AppState, typed: Option<&str>) -> Vec<PaletteEntry> {
    if let Some(why) = unavailable(state) {
        return vec![PaletteEntry::Unavailable(why.to_string())];
    }
    let current = state.current_context();
    let mut out: Vec<PaletteEntry> = state
        .clusters
        .contexts
        .list
        .iter()
        .filter(|c| matches(&c.name, typed))
        .map(|c| PaletteEntry::Context {
            name: c.name.clone(),
            current: current == Some(c.name.as_str()),
            read_only: c.read_only,
        })
        .collect();
    // The exact name first, so Enter on a whole name never picks a longer one.
    out.sort_by_key(
        |e| !matches!(e, PaletteEntry::Context { name, .. } if Some(name.as_str()) == typed),
    );
    out
}

fn namespace_entries(state: &AppState, typed: Option<&str>) -> Vec<PaletteEntry> {
    let scope = state.views.namespace_scope.as_deref();
    let seen = state
        .shown()
        .map(|f| namespace::seen(f))
        .unwrap_or_default();
    let mut out = Vec::new();
    if typed.is_none_or(|t| CLEAR_WORDS.contains(&t) || "all".starts_with(t)) {
        out.push(PaletteEntry::Namespace {
            name: None,
            current: scope.is_none(),
            seen: true,
        });
    }
    let mut listed: Vec<String> = seen.into_iter().filter(|n| matches(n, typed)).collect();
    listed.sort_by_key(|n| Some(n.as_str()) != typed);
    // Only a namespace the data holds is offered (a typed name it lacks is refused on Enter);
    // the scope in force is listed even when nothing of it is seen any more.
    let unseen = scope
        .filter(|n| matches(n, typed))
        .filter(|t| !listed.iter().any(|n| n == t));
    out.extend(listed.into_iter().map(|n| PaletteEntry::Namespace {
        current: scope == Some(n.as_str()),
        name: Some(n),
        seen: true,
    }));
    out.extend(unseen.map(|t| PaletteEntry::Namespace {
        name: Some(t.to_string()),
        current: scope == Some(t),
        seen: false,
    }));
    out
}

/// Palette entries for the typed line `input`: a whole command word lists what it takes;
/// otherwise the command words starting with it, then the actions and themes whose label
/// contains it.
pub fn palette_entries(state: &AppState, input: &str) -> Vec<PaletteEntry> {
    let (typed_word, arg, spaced) = split(input);
    if let Some(w) = word(typed_word) {
        return match w.verb {
            Verb::Context => context_entries(state, arg),
            Verb::Namespace => namespace_entries(state, arg),
            Verb::Theme => themes(state, arg),
            Verb::View(_) | Verb::Quit => vec![PaletteEntry::Word(w)],
        };
    }
    if spaced {
        return Vec::new();
    }
    let needle = typed_word.to_lowercase();
    let words: Vec<&'static Word> = WORDS
        .iter()
        .filter(|w| w.names.iter().any(|n| n.starts_with(&needle)))
        .collect();
    // An action a listed word already runs is listed once, as the word.
    let by_word = |a: &Action| {
        words.iter().any(|w| match w.verb {
            Verb::View(v) => v.action() == *a,
            Verb::Quit => *a == Action::Quit,
            Verb::Context | Verb::Namespace | Verb::Theme => false,
        })
    };
    let rest = Action::ALL
        .iter()
        .filter(|a| !matches!(a, Action::Confirm | Action::Cancel | Action::CommandPalette))
        .filter(|a| !by_word(a))
        // Not offered where it cannot act (no kubeconfig contexts: demo, snapshot).
        .filter(|a| **a != Action::ViewFleet || fleet::unavailable(state).is_none())
        .map(|a| PaletteEntry::Action(*a))
        .chain(
            state
                .settings
                .themes
                .iter()
                .map(|t| PaletteEntry::Theme(t.clone())),
        )
        .filter(|e| e.label().to_lowercase().contains(&needle))
        .collect::<Vec<_>>();
    words
        .into_iter()
        .map(PaletteEntry::Word)
        .chain(rest)
        .collect()
}

fn themes(state: &AppState, typed: Option<&str>) -> Vec<PaletteEntry> {
    state
        .settings
        .themes
        .iter()
        .filter(|t| matches(t, typed))
        .map(|t| PaletteEntry::Theme(t.clone()))
        .collect()
}

/// The entry selected when the list changes: what is in force now (the current context, the
/// namespace scope) when nothing narrower is typed, else the first.
pub fn default_selection(entries: &[PaletteEntry], input: &str) -> usize {
    if split(input).1.is_some() {
        return 0;
    }
    entries
        .iter()
        .position(|e| {
            matches!(
                e,
                PaletteEntry::Context { current: true, .. }
                    | PaletteEntry::Namespace { current: true, .. }
            )
        })
        .unwrap_or(0)
}

/// Runs `entry` (the palette is already closed).
fn run(state: &AppState, entry: PaletteEntry) -> Vec<Msg> {
    let msg = match entry {
        // The reducer's switch and scope say what they did, and redraw.
        PaletteEntry::Action(a) => return vec![Msg::Action(a)],
        PaletteEntry::Context { name, .. } => return vec![Msg::Context(name)],
        PaletteEntry::Namespace { name, .. } => return vec![Msg::Namespace(name)],
        PaletteEntry::Theme(t) => Msg::Theme(t),
        PaletteEntry::Word(w) => match w.verb {
            Verb::View(v) => return vec![Msg::Action(v.action())],
            Verb::Quit => return vec![Msg::Action(Action::Quit)],
            // A word that takes an argument lists its choices.
            Verb::Context | Verb::Namespace | Verb::Theme => {
                open_with(state, format!("{} ", w.names[0]))
            }
        },
        PaletteEntry::Unavailable(why) => Msg::Notice(why, NoticeLevel::Error),
    };
    vec![msg, Msg::Effect(Effect::Redraw)]
}

/// Runs a typed line that lists nothing: an unknown word, or an argument nothing matches.
fn run_typed(input: &str) -> Vec<Msg> {
    let (typed_word, arg, _) = split(input);
    let text = match (word(typed_word), arg) {
        _ if typed_word.is_empty() => return redraw(),
        (None, _) => format!("unknown command: {}", input.trim()),
        (Some(w), Some(name)) if w.verb == Verb::Context => {
            return vec![Msg::Context(name.to_string())]
        }
        (Some(w), Some(name)) if w.verb == Verb::Namespace => {
            return vec![Msg::Namespace(Some(name.to_string()))]
        }
        (Some(w), Some(name)) if w.verb == Verb::Theme => format!("no theme {name}"),
        (Some(w), _) if w.verb == Verb::Context => "no context in the kubeconfig".to_string(),
        (Some(w), _) => format!("{}: nothing to choose", w.names[0]),
    };
    vec![
        Msg::Notice(text, NoticeLevel::Error),
        Msg::Effect(Effect::Redraw),
    ]
}

/// The key as the keymap's `[palette]` table names it (the vim keymap's `<C-n>` chooses like
/// ↓, `<C-c>` closes like Esc); a key the table leaves unbound is itself.
fn bound_code(state: &AppState, k: &KeyEvent) -> KeyCode {
    match state.settings.keys.resolve(Mode::Palette, &[Chord::of(k)]) {
        KeyResolution::Action(Action::Down) => KeyCode::Down,
        KeyResolution::Action(Action::Up) => KeyCode::Up,
        KeyResolution::Action(Action::Confirm) => KeyCode::Enter,
        KeyResolution::Action(Action::Cancel) => KeyCode::Esc,
        _ => k.code,
    }
}

/// Opens the palette on `input` with the default selection.
fn open_with(state: &AppState, input: String) -> Msg {
    let selected = default_selection(&palette_entries(state, &input), &input);
    Msg::PushModal(Modal::Palette {
        input,
        selected,
        chosen: false,
    })
}

/// Whether the typed line names `entry` itself, so that Enter runs it without the operator
/// choosing it: a whole command word, an action's or a theme's whole name, a word's argument
/// spelt out (a bare `ctx`, `ns` or `theme` runs what its list selects: what is in force). A
/// line that only starts a name (`po` of `pools`) does not, as in k9s.
fn named(entry: &PaletteEntry, input: &str) -> bool {
    let (typed, arg, _) = split(input);
    let line = input.trim();
    match entry {
        PaletteEntry::Word(w) => arg.is_none() && word(typed).is_some_and(|x| x == *w),
        PaletteEntry::Action(a) => line.eq_ignore_ascii_case(a.name()),
        PaletteEntry::Theme(t) => {
            let listed = word(typed).is_some_and(|w| w.verb == Verb::Theme);
            line == t || (listed && arg.is_none_or(|a| a == t))
        }
        PaletteEntry::Context { name, .. } => arg.is_none_or(|a| a == name),
        PaletteEntry::Namespace { name: Some(n), .. } => arg.is_none_or(|a| a == n),
        PaletteEntry::Namespace { name: None, .. } => arg.is_none_or(|a| CLEAR_WORDS.contains(&a)),
        PaletteEntry::Unavailable(_) => true,
    }
}

/// A key in the open palette: Enter runs the selected entry when the line names it or the
/// operator chose it with ↑/↓, else the typed line itself; Tab completes, Esc closes; other
/// keys edit the line.
pub fn key(
    state: &AppState,
    k: KeyEvent,
    mut input: String,
    (selected, chosen): (usize, bool),
) -> Vec<Msg> {
    let entries = palette_entries(state, &input);
    let (selected, chosen) = match bound_code(state, &k) {
        KeyCode::Esc => return vec![Msg::PopModal, Msg::Effect(Effect::Redraw)],
        KeyCode::Enter => {
            let picked = entries.get(selected).filter(|e| chosen || named(e, &input));
            let mut msgs = vec![Msg::PopModal];
            msgs.extend(match picked {
                Some(e) => run(state, e.clone()),
                None => run_typed(&input),
            });
            return msgs;
        }
        KeyCode::Tab => {
            if let Some(line) = entries.get(selected).and_then(PaletteEntry::completion) {
                input = line;
            }
            let selected = default_selection(&palette_entries(state, &input), &input);
            (selected, false)
        }
        KeyCode::Down => ((selected + 1).min(entries.len().saturating_sub(1)), true),
        KeyCode::Up => (selected.saturating_sub(1), true),
        _ if edit(&mut input, &k) => {
            let selected = default_selection(&palette_entries(state, &input), &input);
            (selected, false)
        }
        _ => return Vec::new(),
    };
    let palette = Modal::Palette {
        input,
        selected,
        chosen,
    };
    vec![Msg::SetModal(palette), Msg::Effect(Effect::Redraw)]
}
