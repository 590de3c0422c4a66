//! The full-size pool map (`pool-map`): one tile per node, its name and its cell, domain by
//! domain after the domain's value, as many tiles on a line as the width holds; one tile is
//! selected (arrows move it, Enter opens its node). Built with the layout when the feed, the
//! pool or the size changes (`MapNav::sync`), never per frame.
//!
//! Owns: `NamedLine`, `NamedLayout`, the selection's moves on `MapNav`. Plain data.

use crate::app::model::map::layout::{MapNav, LABEL_MAX};
use crate::app::model::map::PoolMap;

/// Widest node name a tile prints; longer names end in `…`.
pub const NAME_MAX: usize = 40;
/// Columns between two tiles.
const GAP: usize = 2;

/// One line of the full-size map: `len` tiles from cell `start`, after the label of group
/// `label` on a domain's first line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NamedLine {
    /// The group whose domain the line's label column shows (`None`: blank).
    pub label: Option<usize>,
    /// First cell (index into `PoolMap::cells`).
    pub start: usize,
    /// Tiles on the line.
    pub len: usize,
}

/// The full-size map at one width.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NamedLayout {
    /// Columns before the tiles: the longest domain value and a gap (0 without a topology key).
    pub label_width: usize,
    /// Columns of a node name in a tile (names are padded or cut to it).
    pub name_width: usize,
    /// Columns from one tile to the next: name, a space, the cell, the gap.
    pub tile: usize,
    /// Columns from one domain to the next when small domains sit side by side (0: one
    /// domain a line).
    pub block: usize,
    /// Every line, top to bottom.
    pub lines: Vec<NamedLine>,
}

impl NamedLayout {
    /// Lays `map` out in `width` columns: each domain from a new line, its value in the label
    /// column of its first line, then its nodes' tiles, as many on a line as fit.
    pub fn new(map: &PoolMap, width: u16) -> NamedLayout {
        let width = usize::from(width).max(1);
        let label_width = if map.key.is_some() {
            let longest = map.groups.iter().map(|g| g.domain.chars().count()).max();
            (longest.unwrap_or(0).min(LABEL_MAX) + GAP).min(width / 3)
        } else {
            0
        };
        let room = width - label_width;
        let longest = map.names.iter().map(|n| n.chars().count()).max();
        let name_width = longest
            .unwrap_or(1)
            .clamp(1, NAME_MAX)
            .min(room.saturating_sub(2).max(1));
        let tile = name_width + 2 + GAP;
        let per_line = ((room + GAP) / tile).max(1);
        let longest = map.groups.iter().map(|g| g.len).max().unwrap_or(0);
        let block = label_width + longest * tile + GAP;
        let side_by_side = (width + GAP) / block.max(1);
        if label_width > 0 && longest <= per_line && side_by_side >= 2 {
            // Small domains side by side, each in a block of the widest one's size.
            let lines = map
                .groups
                .chunks(side_by_side)
                .enumerate()
                .map(|(i, gs)| NamedLine {
                    label: Some(i * side_by_side),
                    start: gs[0].start,
                    len: gs.iter().map(|g| g.len).sum(),
                })
                .collect();
            return NamedLayout {
                label_width,
                name_width,
                tile,
                block,
                lines,
            };
        }
        let mut lines = Vec::new();
        for (g, group) in map.groups.iter().enumerate() {
            let end = group.start + group.len;
            for start in (group.start..end).step_by(per_line) {
                lines.push(NamedLine {
                    label: (start == group.start && label_width > 0).then_some(g),
                    start,
                    len: per_line.min(end - start),
                });
            }
        }
        NamedLayout {
            label_width,
            name_width,
            tile,
            block: 0,
            lines,
        }
    }

    /// Where cell `cell` of line `line` is drawn: its column within the line, and the group
    /// whose label goes before it when it is its domain's first cell on the line.
    pub fn column(&self, map: &PoolMap, line: &NamedLine, cell: usize) -> (usize, Option<usize>) {
        let j = cell - line.start;
        if self.block == 0 {
            let label = line.label.filter(|_| j == 0);
            return (self.label_width + j * self.tile, label);
        }
        let first = line.label.unwrap_or(0);
        let g = map.groups[first..]
            .iter()
            .position(|g| (g.start..g.start + g.len).contains(&cell))
            .map_or(first, |i| first + i);
        let group = &map.groups[g];
        let x = (g - first) * self.block + self.label_width + (cell - group.start) * self.tile;
        (x, (cell == group.start).then_some(g))
    }

    /// The line and column (tile position) of cell `cell`.
    pub fn place(&self, cell: usize) -> Option<(usize, usize)> {
        self.lines
            .iter()
            .position(|l| (l.start..l.start + l.len).contains(&cell))
            .map(|i| (i, cell - self.lines[i].start))
    }

    /// The cell at tile `col` of line `line`, the line's last tile when it is shorter.
    fn cell_on(&self, line: usize, col: usize) -> Option<usize> {
        let l = self.lines.get(line)?;
        (l.len > 0).then(|| l.start + col.min(l.len - 1))
    }
}

impl MapNav {
    /// The selected cell of the full-size map (index into `PoolMap::cells`), if the pool has one.
    pub fn selected_cell(&self) -> Option<usize> {
        self.named.place(self.selected).map(|_| self.selected)
    }

    /// Moves the selection `lines` tiles lines down (up when negative), keeping its column
    /// where the line is long enough; the view follows it.
    pub fn select_lines(&mut self, lines: isize) {
        let Some((line, col)) = self.named.place(self.selected) else {
            return;
        };
        let last = self.named.lines.len().saturating_sub(1);
        let to = line.saturating_add_signed(lines).min(last);
        if let Some(cell) = self.named.cell_on(to, col) {
            self.selected = cell;
        }
        self.follow_selection();
    }

    /// Moves the selection `delta` cells along the pool's order (left when negative).
    pub fn select_cells(&mut self, delta: isize, cells: usize) {
        let last = cells.saturating_sub(1);
        self.selected = self.selected.saturating_add_signed(delta).min(last);
        self.follow_selection();
    }

    /// Scrolls so the selected tile's line is visible.
    pub fn follow_selection(&mut self) {
        let Some((line, _)) = self.named.place(self.selected) else {
            return;
        };
        let page = self.page.max(1);
        if line < self.offset {
            self.offset = line;
        } else if line >= self.offset + page {
            self.offset = line + 1 - page;
        }
    }
}
