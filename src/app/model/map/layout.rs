//! The pool map laid out for its pane: cells per line follow the width; small domains sit side by
//! side on a grid, each under its label, larger ones start a line and wrap; the map scrolls. When
//! one cell per node would need more than `MAX_PAGES` pages, the map aggregates: one cell per
//! topology domain (its best node: the most GPUs free on one schedulable node, else its most common
//! exclusion), or, without a topology key, one cell per block of consecutive nodes in name order,
//! the block the smallest power of two that fits. Rebuilt when the feed, the pool, the width or the
//! height changes (`MapNav::sync`), never per frame, so a frame draws only visible cells.
//!
//! Owns: `Level`, `MapSegment`, `MapLayout`, `MapNav`, `cell_area`, `MAX_PAGES`. Plain data.

use crate::app::areas::Area;
use crate::app::model::map::named::NamedLayout;
use crate::app::model::map::{MapCell, PoolMap};

/// Pages of node cells beyond which the map aggregates.
pub const MAX_PAGES: usize = 4;
/// Lines of the answer above the cells.
pub const ANSWER_LINES: u16 = 2;
/// Panes at least this wide show the legend on one line, narrower ones on two.
pub const WIDE_LEGEND: u16 = 120;
/// Widest domain label, in columns.
pub const LABEL_MAX: usize = 24;

/// Lines of the legend below the cells in a pane `width` columns wide.
pub fn legend_lines(width: u16) -> u16 {
    if width >= WIDE_LEGEND {
        1
    } else {
        2
    }
}

/// The rectangle of the cells inside the map pane `pane` (borders, answer and legend off).
pub fn cell_area(pane: Area) -> Area {
    let chrome = 2 + ANSWER_LINES + legend_lines(pane.width);
    Area {
        x: pane.x + 1,
        y: pane.y + 1 + ANSWER_LINES,
        width: pane.width.saturating_sub(2),
        height: pane.height.saturating_sub(chrome),
    }
}

/// What one cell stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Level {
    /// One node.
    #[default]
    Nodes,
    /// One topology domain (its summary cell).
    Domains,
    /// A block of this many consecutive nodes in name order (its summary cell).
    Blocks(usize),
}

/// A run of cells on a line: `len` cells of the level from `start`, drawn from column `x`
/// of the line after the label of group `label`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapSegment {
    /// The group whose domain the label shows (`None`: a blank label, or no label column).
    pub label: Option<usize>,
    /// Column of the segment (its label) within the line.
    pub x: u16,
    /// First cell (index into the level's cells).
    pub start: usize,
    /// Cells in the segment.
    pub len: usize,
}

/// The map at one width.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MapLayout {
    /// What a cell stands for.
    pub level: Level,
    /// Columns before a segment's cells (domain label and a space; 0 without labels).
    pub label_width: u16,
    /// Every segment, line by line.
    pub segments: Vec<MapSegment>,
    /// Each line's segments (a range of `segments`), top to bottom.
    pub lines: Vec<std::ops::Range<usize>>,
    /// The block cells of `Level::Blocks`.
    pub blocks: Vec<MapCell>,
}

/// Columns between two domains side by side.
const GAP: usize = 2;

impl MapLayout {
    /// Lays `map` out in `width` columns with `page` lines visible.
    pub fn new(map: &PoolMap, width: u16, page: usize) -> MapLayout {
        let width = usize::from(width).max(1);
        let budget = MAX_PAGES * page.max(1);
        let keyed = map.key.is_some();
        let label_width = if keyed {
            let longest = map.groups.iter().map(|g| g.label.chars().count());
            (longest.max().unwrap_or(0).min(LABEL_MAX) + 1).min(width / 2)
        } else {
            0
        };
        let nodes = MapLayout::nodes(map, label_width, width);
        if nodes.lines.len() <= budget {
            return nodes;
        }
        if keyed {
            return MapLayout::domains(map, label_width, width);
        }
        MapLayout::blocks(map, width, budget)
    }

    /// A layout of `level` from its lines of segments.
    fn of(level: Level, label_width: usize, segs: Vec<Vec<MapSegment>>) -> MapLayout {
        let mut segments = Vec::with_capacity(segs.len());
        let mut lines = Vec::with_capacity(segs.len());
        for line in segs {
            let from = segments.len();
            segments.extend(line);
            lines.push(from..segments.len());
        }
        MapLayout {
            level,
            label_width: label_width as u16,
            segments,
            lines,
            blocks: Vec::new(),
        }
    }

    /// One cell per node: small domains side by side on a grid when two or more fit on a
    /// line, else each domain from a new line, wrapping.
    fn nodes(map: &PoolMap, label_width: usize, width: usize) -> MapLayout {
        let cols = width.saturating_sub(label_width).max(1);
        let longest = map.groups.iter().map(|g| g.len).max().unwrap_or(0);
        let tile = label_width + longest + GAP;
        let per_line = (width + GAP) / tile.max(1);
        let segment = |g: usize, x: usize, at: usize, len: usize| MapSegment {
            label: (at == 0 && label_width > 0).then_some(g),
            x: x as u16,
            start: map.groups[g].start + at,
            len,
        };
        let mut lines = Vec::new();
        if map.key.is_some() && per_line >= 2 {
            for first in (0..map.groups.len()).step_by(per_line) {
                let last = (first + per_line).min(map.groups.len());
                let line = (first..last)
                    .map(|g| segment(g, (g - first) * tile, 0, map.groups[g].len))
                    .collect();
                lines.push(line);
            }
        } else {
            for (g, group) in map.groups.iter().enumerate() {
                let mut at = 0;
                while at < group.len {
                    let len = cols.min(group.len - at);
                    lines.push(vec![segment(g, 0, at, len)]);
                    at += len;
                }
            }
        }
        MapLayout::of(Level::Nodes, label_width, lines)
    }

    /// One cell per domain, each line labelled with its first domain.
    fn domains(map: &PoolMap, label_width: usize, width: usize) -> MapLayout {
        let cols = width.saturating_sub(label_width).max(1);
        let n = map.groups.len();
        let lines = (0..n)
            .step_by(cols)
            .map(|start| {
                vec![MapSegment {
                    label: Some(start),
                    x: 0,
                    start,
                    len: cols.min(n - start),
                }]
            })
            .collect();
        MapLayout::of(Level::Domains, label_width, lines)
    }

    /// One cell per block of consecutive nodes, the smallest power of two that fits.
    fn blocks(map: &PoolMap, width: usize, budget: usize) -> MapLayout {
        let n = map.cells.len();
        let mut size = 2;
        while n.div_ceil(size).div_ceil(width) > budget {
            size *= 2;
        }
        let blocks: Vec<MapCell> = map.cells.chunks(size).map(MapCell::summary).collect();
        let lines = (0..blocks.len())
            .step_by(width)
            .map(|start| {
                vec![MapSegment {
                    label: None,
                    x: 0,
                    start,
                    len: width.min(blocks.len() - start),
                }]
            })
            .collect();
        let mut layout = MapLayout::of(Level::Blocks(size), 0, lines);
        layout.blocks = blocks;
        layout
    }

    /// The segments of line `i`.
    pub fn line(&self, i: usize) -> &[MapSegment] {
        self.lines
            .get(i)
            .and_then(|r| self.segments.get(r.clone()))
            .unwrap_or_default()
    }

    /// The cell `i` of the level.
    pub fn cell(&self, map: &PoolMap, i: usize) -> Option<MapCell> {
        match self.level {
            Level::Nodes => map.cells.get(i).copied(),
            Level::Domains => map.groups.get(i).map(|g| g.summary),
            Level::Blocks(_) => self.blocks.get(i).copied(),
        }
    }

    /// What a cell stands for, in words: "one cell per node", "one cell per ome.io/rack
    /// domain: its best node", "one cell per 8 nodes in name order: the best of them".
    pub fn describe(&self, map: &PoolMap) -> String {
        match (self.level, &map.key) {
            (Level::Nodes, _) => "one cell per node".into(),
            (Level::Domains, Some(k)) => format!("one cell per {k} domain: its best node"),
            (Level::Domains, None) => "one cell per domain: its best node".into(),
            (Level::Blocks(n), _) => format!("one cell per {n} nodes in name order: the best"),
        }
    }
}

/// The map pane's state: full size or not, the scroll, the layout of the selected pool and,
/// full size, the named layout and its selected cell (`named`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MapNav {
    /// The map fills the view (`pool-map`).
    pub full: bool,
    /// First visible line.
    pub offset: usize,
    /// Lines visible at once.
    pub page: usize,
    /// The selected pool (index into the analysis's pools) the layout is of.
    pub pool: Option<usize>,
    /// The layout.
    pub layout: MapLayout,
    /// The full-size layout, with node names (built while `full`).
    pub named: NamedLayout,
    /// The selected cell of the full-size map (index into `PoolMap::cells`).
    pub selected: usize,
    /// What the layout was built for: feed generation, pool, cell width, page, full size.
    built: Option<BuiltFor>,
}

/// What a layout was built for: feed generation, pool, cell width, page, full size.
type BuiltFor = (Option<u64>, Option<usize>, u16, usize, bool);

impl MapNav {
    /// Rebuilds the layout when the feed, the pool or the cell area changed (`cells`: the
    /// cell rectangle, empty when the pane shows only its answer).
    pub fn sync(
        &mut self,
        maps: &[PoolMap],
        generation: Option<u64>,
        pool: Option<usize>,
        cells: Area,
    ) {
        let page = usize::from(cells.height);
        let key = (generation, pool, cells.width, page, self.full);
        if self.built == Some(key) {
            return;
        }
        if self.pool != pool {
            self.offset = 0;
            self.selected = 0;
        }
        self.pool = pool;
        self.page = page;
        let map = pool.and_then(|p| maps.get(p));
        self.layout = map
            .map(|m| MapLayout::new(m, cells.width, page))
            .unwrap_or_default();
        self.named = match map {
            Some(m) if self.full => {
                self.selected = self.selected.min(m.cells.len().saturating_sub(1));
                NamedLayout::new(m, cells.width)
            }
            _ => NamedLayout::default(),
        };
        self.built = Some(key);
        self.scroll(0);
    }

    /// Lines of the map as shown: the full-size one's with names, else the layout's.
    pub fn line_count(&self) -> usize {
        if self.full {
            self.named.lines.len()
        } else {
            self.layout.lines.len()
        }
    }

    /// Scrolls by `delta` lines, kept within the map.
    pub fn scroll(&mut self, delta: isize) {
        let max = self.line_count().saturating_sub(self.page);
        self.offset = self.offset.saturating_add_signed(delta).min(max);
    }

    /// Lines below the visible ones.
    pub fn below(&self) -> usize {
        self.line_count().saturating_sub(self.offset + self.page)
    }
}
