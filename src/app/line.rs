//! Line editing of the prompts (the palette, the filter, a reason), as shells do it: input and
//! the palette both edit their text with it.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Line editing of a prompt with its cursor at the end (see [`edit_at`]).
pub fn edit(buffer: &mut String, k: &KeyEvent) -> bool {
    let mut cursor = buffer.len();
    edit_at(buffer, &mut cursor, k)
}

/// Line editing of a prompt, as shells do it, at `cursor` (a byte offset on a character
/// boundary): characters insert, Backspace/Delete remove one before/at the cursor, ←/→ move,
/// Home/End and Ctrl-A/Ctrl-E jump, Ctrl-U deletes to the start, Ctrl-K to the end, Ctrl-W
/// the word before the cursor. Other Ctrl chords are not text.
pub fn edit_at(buffer: &mut String, cursor: &mut usize, k: &KeyEvent) -> bool {
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    let at = (*cursor).min(buffer.len());
    let before = |b: &str| b[..at].char_indices().next_back().map_or(0, |(i, _)| i);
    let after = |b: &str| b[at..].chars().next().map_or(at, |c| at + c.len_utf8());
    *cursor = match k.code {
        KeyCode::Char('u') if ctrl => {
            buffer.replace_range(..at, "");
            0
        }
        KeyCode::Char('k') if ctrl => {
            buffer.truncate(at);
            at
        }
        KeyCode::Char('w') if ctrl => {
            let kept = buffer[..at].trim_end().len();
            let start = buffer[..kept]
                .rfind(char::is_whitespace)
                .map_or(0, |i| i + 1);
            buffer.replace_range(start..at, "");
            start
        }
        KeyCode::Char('a') if ctrl => 0,
        KeyCode::Char('e') if ctrl => buffer.len(),
        KeyCode::Char(_) if ctrl => return false,
        KeyCode::Char(c) => {
            buffer.insert(at, c);
            at + c.len_utf8()
        }
        KeyCode::Backspace => {
            let start = before(buffer);
            buffer.replace_range(start..at, "");
            start
        }
        KeyCode::Delete => {
            let end = after(buffer);
            buffer.replace_range(at..end, "");
            at
        }
        KeyCode::Left => before(buffer),
        KeyCode::Right => after(buffer),
        KeyCode::Home => 0,
        KeyCode::End => buffer.len(),
        _ => return false,
    };
    true
}
