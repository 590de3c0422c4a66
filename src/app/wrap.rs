//! Word wrap in terminal columns, shared by the reducer and the UI so that both count the same
//! rows: a confirm dialog taller than the screen scrolls exactly to its last row, and a notice
//! longer than its line is drawn whole on as many rows as it takes.
//!
//! Owns: `wrap`. Plain data.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// `text` broken into rows of at most `width` columns: at spaces where it can, inside a word
/// longer than a row where it must (an annotation value, a UUID); never an empty result.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    // The first row keeps the line's indentation (`  = value`).
    let words = text.trim_start_matches(' ');
    let mut row = text[..text.len() - words.len()].to_string();
    let mut fresh = true;
    let mut rows = Vec::new();
    for word in words.split(' ') {
        let w = word.width();
        let gap = usize::from(!fresh);
        if row.width() + gap + w <= width {
            if !fresh {
                row.push(' ');
            }
            row.push_str(word);
            fresh = false;
            continue;
        }
        if !row.is_empty() {
            rows.push(std::mem::take(&mut row));
        }
        // A word longer than a row: cut it where the row is full.
        for ch in word.chars() {
            if row.width() + ch.width().unwrap_or(0) > width {
                rows.push(std::mem::take(&mut row));
            }
            row.push(ch);
        }
        fresh = false;
    }
    rows.push(row);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_stay_whole_and_rows_fit() {
        let rows = wrap("uncordoning lets new pods land on it", 12);
        assert_eq!(rows, ["uncordoning", "lets new", "pods land on", "it"]);
        assert!(rows.iter().all(|r| r.width() <= 12));
        assert_eq!(wrap("", 10), [""]);
        assert_eq!(wrap("short", 10), ["short"]);
        assert_eq!(wrap("  = a long value", 9), ["  = a", "long", "value"]);
    }

    #[test]
    fn a_word_longer_than_a_row_is_cut_where_the_row_is_full() {
        let rows = wrap("value: abcdefghijklmnop", 8);
        assert_eq!(rows, ["value:", "abcdefgh", "ijklmnop"]);
        assert_eq!(wrap("⚠ ééé", 3), ["⚠", "ééé"]);
    }
}
