//! Column widths fitted to content: each column is as wide as its title and the widest cell
//! of the visible rows (capped unless the table is wide), the flexible column takes what is
//! left, and when the terminal is too narrow the text columns give way, widest first, down to
//! their floors, before columns are dropped, least important first (`Column::priority`), so
//! that the identifiers and the columns an operator decides by stay at every size. Numeric
//! columns never shrink below their content, so no number loses digits; a cut text ends in `…`.
//!
//! Owns: `content_widths`, `fit`, `CAP`. Plain data.

use unicode_width::UnicodeWidthStr;

use crate::app::table::{ColWidth, Column, RowModel, KEEP};

/// The widest a non-flexible text column grows in the compact layout, in cells.
pub const CAP: u16 = 56;

/// Display width of `text` in terminal cells (ASCII: its length).
pub fn text_width(text: &str) -> u16 {
    let w = if text.is_ascii() {
        text.len()
    } else {
        text.width()
    };
    u16::try_from(w).unwrap_or(u16::MAX)
}

/// The widest cell of each column over `visible` rows of `rows` (`columns` long).
pub fn content_widths(columns: usize, rows: &[RowModel], visible: &[usize]) -> Vec<u16> {
    let mut widths = vec![0u16; columns];
    for row in visible.iter().filter_map(|i| rows.get(*i)) {
        for (w, cell) in widths.iter_mut().zip(&row.cells) {
            *w = (*w).max(text_width(&cell.text));
        }
    }
    widths
}

/// Which columns give way first when space runs short (lower first); `None` never shrinks.
fn tier(c: &Column) -> Option<u8> {
    match (c.numeric, c.width) {
        (true, _) => None,
        (false, ColWidth::Flex(_)) => Some(0),
        (false, ColWidth::Min(_)) => Some(1),
        (false, ColWidth::Fixed(_)) => Some(2),
    }
}

fn floor(c: &Column) -> u16 {
    match c.width {
        ColWidth::Fixed(w) | ColWidth::Min(w) | ColWidth::Flex(w) => w,
    }
}

/// The shown columns (indices into `columns`) and their widths, for `columns` (their content
/// widths `content`, header marks included by the caller) in `room` cells with one cell between
/// columns. While the row does not fit, the non-kept text columns give way down to their floors,
/// then the least important column is dropped (highest `priority`, rightmost among equals) and
/// the rest tried again; the kept columns (`KEEP`) are narrowed only once nothing else is left,
/// so an identifier or a decision column is the last thing a narrow terminal loses (a table
/// that keeps no column keeps its first two).
pub fn fit(columns: &[Column], content: &[u16], room: u16, wide: bool) -> Vec<(usize, u16)> {
    // A table that keeps nothing by name keeps its first two columns, as before priorities.
    let none_kept = !columns.iter().any(|c| c.priority == KEEP);
    let columns: Vec<Column> = (columns.iter().enumerate())
        .map(|(i, c)| if none_kept && i < 2 { c.keep() } else { *c })
        .collect();
    let natural: Vec<u16> = columns
        .iter()
        .zip(content)
        .map(|(c, w)| {
            let want = (*w).max(text_width(c.title));
            match c.width {
                ColWidth::Flex(_) => want,
                _ if wide || c.numeric => want,
                _ => want.min(CAP.max(floor(c))),
            }
        })
        .collect();
    let mut shown: Vec<usize> = (0..columns.len().min(content.len())).collect();
    loop {
        let cols: Vec<Column> = shown.iter().map(|i| columns[*i]).collect();
        let mut widths: Vec<u16> = shown.iter().map(|i| natural[*i]).collect();
        let droppable = shown
            .iter()
            .enumerate()
            .filter(|(_, i)| columns[**i].priority != KEEP)
            .max_by_key(|(pos, i)| (columns[**i].priority, *pos))
            .map(|(pos, _)| pos);
        let last = droppable.is_none() || shown.len() <= 1;
        if squeeze(&cols, &mut widths, room, last) || last {
            grow_flex(&cols, &mut widths, room);
            return shown.into_iter().zip(widths).collect();
        }
        if let Some(pos) = droppable {
            shown.remove(pos);
        }
    }
}

fn used(widths: &[u16]) -> u32 {
    widths.iter().map(|w| u32::from(*w)).sum::<u32>() + widths.len().saturating_sub(1) as u32
}

/// Shrinks the shrinkable columns, lowest tier first and widest first within it, until the
/// row fits `room`; false when even the floors do not fit. Kept columns other than the
/// flexible one shrink only when `kept_too` (nothing else is left to drop).
fn squeeze(columns: &[Column], widths: &mut [u16], room: u16, kept_too: bool) -> bool {
    let room = u32::from(room);
    let may = |c: &Column| kept_too || c.priority != KEEP || matches!(c.width, ColWidth::Flex(_));
    for t in 0..=2u8 {
        while used(widths) > room {
            let widest = (0..widths.len())
                .filter(|&i| tier(&columns[i]) == Some(t) && may(&columns[i]))
                .filter(|&i| widths[i] > floor(&columns[i]))
                .max_by_key(|&i| (widths[i], std::cmp::Reverse(i)));
            match widest {
                Some(i) => widths[i] -= 1,
                None => break,
            }
        }
    }
    used(widths) <= room
}

/// Gives the room left over to the flexible column, if the table has one.
fn grow_flex(columns: &[Column], widths: &mut [u16], room: u16) {
    let left = u32::from(room).saturating_sub(used(widths));
    if let Some(i) = columns
        .iter()
        .position(|c| matches!(c.width, ColWidth::Flex(_)))
    {
        widths[i] = widths[i].saturating_add(u16::try_from(left).unwrap_or(u16::MAX));
    }
}

/// `text` cut to `width` cells with `…` as its last cell when it does not fit.
pub fn clip(text: &str, width: u16) -> std::borrow::Cow<'_, str> {
    if text_width(text) <= width {
        return text.into();
    }
    if width == 0 {
        return "".into();
    }
    let mut out = String::new();
    let mut w = 0u16;
    for ch in text.chars() {
        let cw =
            u16::try_from(unicode_width::UnicodeWidthChar::width(ch).unwrap_or(0)).unwrap_or(1);
        if w + cw > width - 1 {
            break;
        }
        out.push(ch);
        w += cw;
    }
    out.push('…');
    out.into()
}

#[cfg(test)]
mod tests;
