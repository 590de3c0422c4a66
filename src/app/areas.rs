//! The screen's rectangles: an `Area` in terminal cells and the `Screen` of one frame. A leaf
//! of plain arithmetic; `app::layout` computes them from the state.

/// A rectangle in terminal cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Area {
    /// Left column.
    pub x: u16,
    /// Top row.
    pub y: u16,
    /// Width in columns.
    pub width: u16,
    /// Height in rows.
    pub height: u16,
}

impl Area {
    /// Whether the cell `(col, row)` is inside.
    pub fn contains(&self, col: u16, row: u16) -> bool {
        col >= self.x && col < self.x + self.width && row >= self.y && row < self.y + self.height
    }

    pub(crate) fn rows(x: u16, y: u16, width: u16, height: u16) -> Area {
        Area {
            x,
            y,
            width,
            height,
        }
    }
}

/// Where everything goes on one frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Screen {
    /// Context / API / Alfred line and the source freshness line.
    pub header: Area,
    /// The view tabs line.
    pub tabs: Area,
    /// The API-unreachable banner (height 0 when connected).
    pub banner: Area,
    /// The view body (table, tree or detail, plus panels).
    pub body: Area,
    /// The bordered table block (header row + rows), or the Gangs tree, inside `body`.
    pub table: Area,
    /// The Pools panel, the journal blocking banner or the gang pin reasoning (height 0
    /// otherwise).
    pub panel: Area,
    /// The Pools view's map of the selected pool (height 0 otherwise).
    pub map: Area,
    /// Notice or filter input line.
    pub notice: Area,
    /// Key hints.
    pub footer: Area,
}

impl Screen {
    /// Rows of data the table shows (block borders and header row excluded).
    pub fn table_rows(&self) -> usize {
        usize::from(self.table.height.saturating_sub(3))
    }

    /// The screen row of the first data row.
    pub fn first_row_y(&self) -> u16 {
        self.table.y + 2
    }
}
