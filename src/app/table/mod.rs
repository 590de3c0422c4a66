//! Table row models shared by every list view: columns, cells with a sort key and a semantic
//! tone, and the per-view table state (selection by stable key, scroll offset, sort, filter,
//! the visible row order). Rows are built once per feed; filtering and sorting only reorder
//! indices, so neither a keystroke nor a frame re-reads the analysis.
//!
//! Column widths fitted to the visible rows' content are `columns`'s.
//!
//! Owns: `Tone`, `ColWidth`, `Column`, `Cell`, `RowModel`, `TableModel`, `TableView`. Plain data.

pub mod columns;

use std::cmp::Ordering;

use crate::app::filter::Filter;
use crate::app::table::columns::content_widths;

/// A semantic colour slot; the theme maps it to a style. Every toned cell also carries a word
/// or symbol, so nothing depends on colour alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Tone {
    /// Ordinary text.
    #[default]
    Normal,
    /// Healthy (`Clear`, completed, met).
    Ok,
    /// Degraded (`Suspect`, waiting, advisory).
    Degraded,
    /// Failed (`Unhealthy`, failed, not met).
    Failed,
    /// Unknown state.
    Unknown,
    /// Fragmentation below half the threshold.
    FragLow,
    /// Fragmentation between half the threshold and the threshold.
    FragMid,
    /// Fragmentation above the threshold.
    FragHigh,
    /// Something that blocks or will write.
    Danger,
    /// De-emphasised text.
    Muted,
    /// Section headings and highlighted values.
    Accent,
}

/// How a column gives way when the terminal is narrow (`app::table::columns::fit`). Every column is
/// first as wide as its title and widest visible cell; the number is the floor it may shrink
/// to (a numeric column never shrinks below its content).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColWidth {
    /// A short word or state: shrinks last, down to this many cells.
    Fixed(u16),
    /// A name or list: shrinks before `Fixed` columns, down to this many cells.
    Min(u16),
    /// The one column that takes the room left over, and gives way first.
    Flex(u16),
}

/// A column header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// Upper-case title.
    pub title: &'static str,
    /// Width rule.
    pub width: ColWidth,
    /// Numeric columns align right.
    pub numeric: bool,
    /// Shown only in the wide layout (`toggle-wide`).
    pub wide_only: bool,
    /// Left out first when the row does not fit, before any other column is narrowed (a
    /// detail the detail pane repeats).
    pub optional: bool,
    /// Which columns a narrow terminal drops first: the highest number first (rightmost among
    /// equals); `KEEP` (the identifiers and the columns a decision reads) is never dropped.
    pub priority: u8,
}

/// The priority of a column a narrow terminal never drops (`Column::keep`).
pub const KEEP: u8 = 0;

/// The priority a column has unless its view says otherwise.
pub const DEFAULT_PRIORITY: u8 = 3;

impl Column {
    /// A text column.
    pub const fn text(title: &'static str, width: ColWidth) -> Self {
        Column {
            title,
            width,
            numeric: false,
            wide_only: false,
            optional: false,
            priority: DEFAULT_PRIORITY,
        }
    }

    /// The same column, left out first when the terminal is too narrow for every column.
    pub const fn optional(mut self) -> Self {
        self.optional = true;
        self
    }

    /// The same column, never dropped on a narrow terminal (an identifier or a column the
    /// operator decides by); it is narrowed, with `…`, only once every other column is gone.
    pub const fn keep(mut self) -> Self {
        self.priority = KEEP;
        self
    }

    /// The same column with drop priority `p` (higher is dropped sooner; 1 is kept longest).
    pub const fn priority(mut self, p: u8) -> Self {
        self.priority = p;
        self
    }

    /// The same column, shown only in the wide layout.
    pub const fn wide(mut self) -> Self {
        self.wide_only = true;
        self
    }

    /// A numeric column.
    pub const fn num(title: &'static str, width: u16) -> Self {
        Column {
            title,
            width: ColWidth::Fixed(width),
            numeric: true,
            wide_only: false,
            optional: false,
            priority: DEFAULT_PRIORITY,
        }
    }
}

/// What a cell sorts by.
#[derive(Debug, Clone, PartialEq)]
pub enum SortKey {
    /// Numeric order (NaN sorts last).
    Num(f64),
    /// Lexicographic order of the text.
    Text,
}

/// One cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// What is printed (already includes a symbol or word for any toned state).
    pub text: String,
    /// Sort key.
    pub sort: SortKey,
    /// Colour slot.
    pub tone: Tone,
}

impl Cell {
    /// A plain text cell.
    pub fn text(text: impl Into<String>) -> Self {
        Cell {
            text: text.into(),
            sort: SortKey::Text,
            tone: Tone::Normal,
        }
    }

    /// A numeric cell printed as `text`.
    pub fn num(value: f64, text: impl Into<String>) -> Self {
        Cell {
            text: text.into(),
            sort: SortKey::Num(value),
            tone: Tone::Normal,
        }
    }

    /// The same cell with a tone.
    pub fn tone(mut self, tone: Tone) -> Self {
        self.tone = tone;
        self
    }
}

/// One row of a view.
#[derive(Debug, Clone, PartialEq)]
pub struct RowModel {
    /// Stable identity across feeds (selection follows it).
    pub key: String,
    /// Cells in column order.
    pub cells: Vec<Cell>,
    /// Index of the source item (pool, node, move, entry, lint) in its analysis array.
    pub source: usize,
    /// Lower-cased text of every cell, for filtering.
    pub haystack: String,
}

impl RowModel {
    /// A row; the haystack is derived from the cells.
    pub fn new(key: String, source: usize, cells: Vec<Cell>) -> Self {
        // One allocation per row; ASCII text (nearly every cell) is lower-cased in place
        // instead of through a temporary `to_lowercase` String per cell.
        let len = cells.iter().map(|c| c.text.len() + 1).sum();
        let mut haystack = String::with_capacity(len);
        for c in &cells {
            if c.text.is_ascii() {
                let start = haystack.len();
                haystack.push_str(&c.text);
                haystack[start..].make_ascii_lowercase();
            } else {
                haystack.push_str(&c.text.to_lowercase());
            }
            haystack.push('\u{1f}');
        }
        RowModel {
            key,
            cells,
            source,
            haystack,
        }
    }
}

/// Every row of a view for one feed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TableModel {
    /// Column headers.
    pub columns: Vec<Column>,
    /// Rows in the engine's order.
    pub rows: Vec<RowModel>,
}

/// Per-view table state. Invariant: `visible` indexes `rows` of the current model and
/// `selected < visible.len()` unless `visible` is empty; `offset ≤ selected`.
#[derive(Debug, Clone, Default)]
pub struct TableView {
    /// Key of the selected row; survives feeds, sorting and filtering.
    pub selected_key: Option<String>,
    /// Position of the selection in `visible`.
    pub selected: usize,
    /// First visible position (scroll).
    pub offset: usize,
    /// Sort column and descending flag; `None` = engine order.
    pub sort: Option<(usize, bool)>,
    /// Row filter.
    pub filter: Filter,
    /// Row indices after filtering and sorting.
    pub visible: Vec<usize>,
    /// Per column, the widest cell of the `visible` rows, in terminal cells.
    pub widths: Vec<u16>,
    /// The wide layout: wide-only columns shown, text columns uncapped (`toggle-wide` sets
    /// it on every view at once).
    pub wide: bool,
    /// The key of the row the operator had selected when a feed took it out of the list (the
    /// cursor then sits on a row nobody chose, `app::update::slid`); `None` once the operator
    /// moves or presses a key.
    pub slid: Option<String>,
}

fn compare(a: &Cell, b: &Cell) -> Ordering {
    match (&a.sort, &b.sort) {
        (SortKey::Num(x), SortKey::Num(y)) => x.total_cmp(y),
        _ => a.text.cmp(&b.text),
    }
}

impl TableView {
    /// Recomputes `visible` from `model` (the rows `in_scope` keeps that match the filter) and
    /// re-finds the selection by key.
    pub fn refresh(&mut self, model: &TableModel, in_scope: impl Fn(&RowModel) -> bool) {
        self.visible = (0..model.rows.len())
            .filter(|i| {
                let row = &model.rows[*i];
                in_scope(row) && self.filter.matches(&row.haystack)
            })
            .collect();
        if let Some((col, desc)) = self.sort {
            self.visible.sort_by(|a, b| {
                let (x, y) = (&model.rows[*a].cells, &model.rows[*b].cells);
                let ord = match (x.get(col), y.get(col)) {
                    (Some(x), Some(y)) => compare(x, y),
                    _ => Ordering::Equal,
                };
                if desc {
                    ord.reverse()
                } else {
                    ord
                }
            });
        }
        self.widths = content_widths(model.columns.len(), &model.rows, &self.visible);
        let found = self
            .selected_key
            .as_ref()
            .and_then(|k| self.visible.iter().position(|i| model.rows[*i].key == *k));
        match found {
            Some(p) => self.selected = p,
            None => {
                self.selected = self.selected.min(self.visible.len().saturating_sub(1));
                self.selected_key = self
                    .visible
                    .get(self.selected)
                    .map(|i| model.rows[*i].key.clone());
            }
        }
    }

    /// Moves the selection to position `pos` (clamped) and keeps it inside a viewport of
    /// `height` rows.
    pub fn select(&mut self, model: &TableModel, pos: usize, height: usize) {
        if self.visible.is_empty() {
            self.selected = 0;
            self.offset = 0;
            return;
        }
        self.selected = pos.min(self.visible.len() - 1);
        self.selected_key = Some(model.rows[self.visible[self.selected]].key.clone());
        self.slid = None;
        self.scroll_into_view(height);
    }

    /// Adjusts `offset` so that the selection is visible in `height` rows.
    pub fn scroll_into_view(&mut self, height: usize) {
        let height = height.max(1);
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + height {
            self.offset = self.selected + 1 - height;
        }
        let max_offset = self.visible.len().saturating_sub(height);
        self.offset = self.offset.min(max_offset).min(self.selected);
    }

    /// The selected row's index into the model's rows.
    pub fn selected_row(&self) -> Option<usize> {
        self.visible.get(self.selected).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_haystack_lower_cases_every_cell_ascii_or_not() {
        let row = RowModel::new(
            "k".into(),
            0,
            vec![
                Cell::text("GPU-H100-07"),
                Cell::text("✖ Ünhealthy"),
                Cell::text(""),
            ],
        );
        assert_eq!(row.haystack, "gpu-h100-07\u{1f}✖ ünhealthy\u{1f}\u{1f}");
        assert!(Filter::new("ÜNHEALTHY").matches(&row.haystack));
        assert!(Filter::new("h100-07").matches(&row.haystack));
    }
}
