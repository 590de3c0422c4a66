//! Which columns a table shows and how wide: the shown columns are chosen from the terminal's
//! width and the columns' planned widths (title or floor) alone, so a column never appears or
//! vanishes between two frames of one size as the rows change; a narrow terminal drops the
//! optional columns first, then the least important (`Column::priority`), so that the
//! identifiers and the columns an operator decides by stay at every size. The widths then fit
//! the content: each column as wide as its title and the widest cell of the visible rows
//! (capped unless the table is wide), the flexible column takes what is left, and when space
//! runs short the text columns give way, widest first. Numeric columns never shrink below
//! their content, so no number loses digits; a cut text ends in `…`.
//!
//! Owns: `content_widths`, `shown_columns`, `visible_columns`, `fit`, `CAP`. Plain data.

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

/// The width a column is planned at when the shown columns are chosen: its floor (for a
/// numeric column, the width its view declares its numbers take) or its title, whichever is
/// wider. It reads no row, so which columns show depends on the terminal's width and the view
/// alone.
fn planned(c: &Column) -> u16 {
    floor(c).max(text_width(c.title))
}

/// The columns shown (indices into `columns`) in `room` cells with one cell between columns,
/// chosen from the planned widths alone, never from the rows: while the planned row does not
/// fit, the optional columns go first (rightmost first), then the least important (highest
/// `priority`, rightmost among equals); the kept columns (`KEEP`) always stay. So a column
/// never comes and goes between two frames of one terminal size as the rows change.
pub fn shown_columns(columns: &[Column], room: u16) -> Vec<usize> {
    let mut shown: Vec<usize> = (0..columns.len()).collect();
    loop {
        let plan: Vec<u16> = shown.iter().map(|i| planned(&columns[*i])).collect();
        if used(&plan) <= u32::from(room) || shown.len() <= 1 {
            return shown;
        }
        let optional = shown.iter().rposition(|i| columns[*i].optional);
        let least = || {
            (shown.iter().enumerate())
                .filter(|(_, i)| columns[**i].priority != KEEP)
                .max_by_key(|(pos, i)| (columns[**i].priority, *pos))
                .map(|(pos, _)| pos)
        };
        match optional.or_else(least) {
            Some(pos) => {
                shown.remove(pos);
            }
            None => return shown,
        }
    }
}

/// The columns (indices into `columns`) a table of `room` cells shows in the compact or wide
/// layout: the layout's columns (wide-only ones when `wide`), then `shown_columns`' choice (a
/// table that keeps no column by name keeps its first two). What `fit` shows, without widths.
pub fn visible_columns(columns: &[Column], wide: bool, room: u16) -> Vec<usize> {
    let layout: Vec<usize> = (0..columns.len())
        .filter(|i| wide || !columns[*i].wide_only)
        .collect();
    let none_kept = !layout.iter().any(|i| columns[*i].priority == KEEP);
    let cols: Vec<Column> = (layout.iter().enumerate())
        .map(|(k, i)| {
            let c = columns[*i];
            if none_kept && k < 2 {
                c.keep()
            } else {
                c
            }
        })
        .collect();
    shown_columns(&cols, room)
        .into_iter()
        .map(|k| layout[k])
        .collect()
}

/// The widest a column wants to be: its title and its widest cell, a text column capped in
/// the compact layout.
fn natural(c: &Column, content: u16, wide: bool) -> u16 {
    let want = content.max(text_width(c.title));
    match c.width {
        ColWidth::Flex(_) => want,
        _ if wide || c.numeric => want,
        _ => want.min(CAP.max(floor(c))),
    }
}

/// The shown columns (indices into `columns`) and their widths, for `columns` (their content
/// widths `content`, header marks included by the caller) in `room` cells with one cell between
/// columns. Which columns show is `shown_columns`' choice (the room and the columns, never the
/// rows); their widths then fit the content: the non-kept text columns give way down to their
/// floors, widest first, then the kept ones, and when numbers wider than planned still leave
/// the row too long, the text columns go below their floors (a cut text ends in `…`; a number
/// never loses digits). A table that keeps no column by name keeps its first two.
pub fn fit(columns: &[Column], content: &[u16], room: u16, wide: bool) -> Vec<(usize, u16)> {
    // A table that keeps nothing by name keeps its first two columns, as before priorities.
    let none_kept = !columns.iter().any(|c| c.priority == KEEP);
    let n = columns.len().min(content.len());
    let columns: Vec<Column> = (columns[..n].iter().enumerate())
        .map(|(i, c)| if none_kept && i < 2 { c.keep() } else { *c })
        .collect();
    let shown = shown_columns(&columns, room);
    let cols: Vec<Column> = shown.iter().map(|i| columns[*i]).collect();
    let mut widths: Vec<u16> = (shown.iter())
        .map(|i| natural(&columns[*i], content[*i], wide))
        .collect();
    if !squeeze(&cols, &mut widths, room, false) && !squeeze(&cols, &mut widths, room, true) {
        below_floors(&cols, &mut widths, room);
    }
    grow_flex(&cols, &mut widths, room);
    shown.into_iter().zip(widths).collect()
}

/// Narrows the widest text column a cell at a time, below its floor, down to one cell, until
/// the row fits `room` or no text column can give more (numbers wider than planned).
fn below_floors(columns: &[Column], widths: &mut [u16], room: u16) {
    while used(widths) > u32::from(room) {
        let widest = (0..widths.len())
            .filter(|&i| !columns[i].numeric && widths[i] > 1)
            .max_by_key(|&i| (widths[i], std::cmp::Reverse(i)));
        match widest {
            Some(i) => widths[i] -= 1,
            None => return,
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
