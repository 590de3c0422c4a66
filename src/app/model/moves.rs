//! What the Moves view's rows stand for beyond their cells (a merged move or an advisory
//! group header, the counts its title shows, the shape it was built in), and the migration
//! requests this session wrote. Plain data, built by `app::views::moves`.

use std::collections::{BTreeSet, HashMap};

use crate::engine::model::Time;

/// One (Instance, policy): the index of Alfred's published row and of ome-top's computed row
/// (into `alfred_rows` and `Analysis::moves`); at least one is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MovePair {
    /// Alfred's row.
    pub alfred: Option<usize>,
    /// ome-top's row.
    pub computed: Option<usize>,
}

/// What one row of the Moves table stands for (`RowModel::source` indexes `MoveIndex::entries`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveEntry {
    /// A merged move.
    Move(MovePair),
    /// A move this session requested whose move row is gone (a completed move removes the
    /// source Instance): where it ended.
    Requested {
        /// Index into the session's requests.
        index: usize,
        /// `ns/name` of the workload.
        workload: String,
    },
    /// The header of the advisory rows of one reason.
    Group {
        /// The advisory reason (wire string), the group's key.
        reason: String,
        /// Advisory moves in it.
        count: usize,
    },
}

/// The Moves rows beyond their cells: what each stands for, the counts the title shows, and
/// the shape they were built in.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MoveIndex {
    /// Per table row, in `TableModel::rows` order.
    pub entries: Vec<MoveEntry>,
    /// Moves listed before the advisory groups.
    pub actionable: usize,
    /// Advisory moves.
    pub advisory: usize,
    /// Advisory groups (reasons).
    pub groups: usize,
    /// Every row listed, no group rows (a filter or a sort is on).
    pub flat: bool,
    /// Built for a terminal of 120 columns or more.
    pub wide: bool,
    /// The groups built open.
    pub open: BTreeSet<String>,
    /// Row key of each advisory move in a closed group → its group's row key.
    pub collapsed: HashMap<String, String>,
    /// Row key of each advisory move in a closed group → the move (an open detail keeps
    /// showing a move that went into a closed group).
    pub hidden: HashMap<String, MovePair>,
    /// Whether Alfred published a readable pass (else its column is empty, never "≠").
    pub published: bool,
    /// Moves marked `•`: changed since the operator took the order (`app::update::order`).
    pub changed: usize,
}

/// A dismissed move: what it was when dismissed (a change there shows it as a move again),
/// and who dismissed it, why and when (the Moves row says so).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dismissed {
    /// The move's content fingerprint at dismissal.
    pub fingerprint: String,
    /// Who (`None`: this session's operator).
    pub by: Option<String>,
    /// The operator's reason.
    pub reason: String,
    /// When.
    pub at: Time,
}

/// A migration request this session wrote, tracked to its end in the move detail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestedMove {
    /// The request UUID.
    pub uuid: String,
    /// `ns/name`.
    pub workload: String,
    /// Component name.
    pub component: String,
    /// Instance index.
    pub instance: i64,
    /// The move's policy: with the Instance, the Moves row it came from.
    pub policy: crate::engine::model::vocab::Policy,
    /// The node the Instance ran on when approved.
    pub from_node: Option<String>,
    /// When it was approved (the reducer's time).
    pub at: Time,
}

/// The order of the Moves rows the operator has been looking at: rows keep their place across
/// feeds (a new row joins the end of its section) and changed rows are marked, not moved,
/// until the operator asks for a new order (a sort key, or leaving and re-entering the view).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HeldOrder {
    /// The row key of each block (a move, or an advisory group with its open rows), in order.
    pub keys: Vec<String>,
    /// What each move showed when the order was taken (outcomes and WHY): a row that shows
    /// something else since, or is new, is marked.
    pub prints: HashMap<String, String>,
}

impl MoveIndex {
    /// The merged move of the row built from `source` (`None` for a group row).
    pub fn pair(&self, source: usize) -> Option<MovePair> {
        match self.entries.get(source)? {
            MoveEntry::Move(pair) => Some(*pair),
            MoveEntry::Requested { .. } | MoveEntry::Group { .. } => None,
        }
    }

    /// The request of a `Requested` row keyed `key` (its index into the session's requests).
    pub fn request_of_key(&self, rows: &[crate::app::table::RowModel], key: &str) -> Option<usize> {
        let row = rows.iter().find(|r| r.key == key)?;
        match self.entries.get(row.source)? {
            MoveEntry::Requested { index, .. } => Some(*index),
            _ => None,
        }
    }

    /// The merged move keyed `key` among `rows`, or hidden in a closed group.
    pub fn pair_of_key(&self, rows: &[crate::app::table::RowModel], key: &str) -> Option<MovePair> {
        match rows.iter().find(|r| r.key == key) {
            Some(row) => self.pair(row.source),
            None => self.hidden.get(key).copied(),
        }
    }
}
