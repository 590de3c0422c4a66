//! The Fleet view's model: one row per (cluster, pool) of every watched context, in the order
//! of what needs a hand first, and a line per ladder size saying where a request of that size
//! fits now and after a repack. The rows and lines are `report::fleet`'s (the same as
//! `ome-top fleet -o table`); this module turns every member's newest feed into its input and
//! the rows into table cells, with drop priorities that keep an 80-column screen readable.
//!
//! Owns: `FleetModel`, `fleet_model`. Plain data.

use unicode_width::UnicodeWidthStr;

use crate::app::fleet::{Fleet, MemberState};
use crate::app::table::{Cell, ColWidth, Column, RowModel, TableModel, Tone};
use crate::engine::alfred_config::Mode;
use crate::engine::model::Time;
use crate::protocol::{ApiStatus, Feed};
use crate::report::fleet::table::{not_clear_words, pending_words};
use crate::report::fleet::{
    fits_lines, fleet_rows, Answer, Attention, ClusterInput, ClusterState, FleetRow, Link,
    RowStatus,
};

/// The Fleet view's rows and answer lines, and what each row stands for.
#[derive(Debug, Clone, Default)]
pub struct FleetModel {
    /// The table (row `source` indexes `contexts`).
    pub table: TableModel,
    /// The context of each row, by source index: Enter opens it.
    pub contexts: Vec<String>,
    /// One line per ladder size: "8 GPUs: fits now in: …; after repack also: …".
    pub fits: Vec<String>,
    /// One line per context not answering or stale: `lab: cluster unreachable: … · next
    /// try in 20s` (the table's ATTENTION cell cuts it on a narrow terminal).
    pub troubles: Vec<String>,
    /// The fleet generation the rows were built from (0: never).
    pub built: u64,
}

impl FleetModel {
    /// The context the row built from `source` stands for.
    pub fn context_of(&self, source: usize) -> Option<&str> {
        self.contexts.get(source).map(String::as_str)
    }

    /// The box below the table, wrapped at word boundaries to `width` cells (a continued
    /// line is indented): the contexts not answering, then the fits lines.
    pub fn panel_lines(&self, width: u16) -> Vec<String> {
        let width = usize::from(width.max(8));
        let mut out = Vec::new();
        for line in self.troubles.iter().chain(&self.fits) {
            wrap_into(line, width, &mut out);
        }
        if self.fits.is_empty() && !self.troubles.is_empty() {
            out.push("no GPU pool of an answering cluster to fit a request in".to_string());
        }
        out
    }
}

/// Appends `text` wrapped at spaces to `width` cells; a word longer than a line is cut.
fn wrap_into(text: &str, width: usize, out: &mut Vec<String>) {
    let mut line = String::new();
    for word in text.split(' ') {
        let taken = line.width();
        if taken > 0 && taken + 1 + word.width() > width {
            out.push(std::mem::replace(&mut line, "  ".to_string()));
        }
        if !line.trim().is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.trim().is_empty() {
        out.push(line);
    }
}

/// What a member that did not answer says, with when it is tried again.
fn failed_words(error: &str, retry_at: Time, now: Time) -> String {
    let when = if retry_at > now {
        let minutes = (retry_at - now).num_seconds() as f64 / 60.0;
        format!("next try in {}", crate::fmt::wait(minutes))
    } else {
        "trying again now".to_string()
    };
    format!("{error} · {when}")
}

/// When the feed's data was last known current: the newest of its analysis and its sources'
/// last changes.
fn as_of(feed: &Feed) -> Time {
    let changes = feed.sources.iter().filter_map(|s| s.last_change);
    changes.fold(feed.analysis.now, Time::max)
}

/// A member's feed as the fleet's rows read it: not answered until its first lists are
/// complete, refused when the API refuses the identity.
fn feed_state<'a>(feed: &'a Feed, words: &'a str) -> ClusterState<'a> {
    let link = match &feed.api {
        ApiStatus::Connecting => return ClusterState::Connecting,
        ApiStatus::Forbidden { .. } => return ClusterState::Failed(words),
        ApiStatus::Reconnecting { since, error } => Link::Reconnecting {
            since: *since,
            error,
        },
        // A simulated cluster is as current as a connected one.
        ApiStatus::Connected | ApiStatus::Simulated => Link::Connected,
        ApiStatus::Offline => Link::OneShot,
    };
    ClusterState::Answered(Answer {
        snapshot: &feed.snapshot,
        analysis: &feed.analysis,
        link,
        read_only: feed.permissions.read_only.is_some(),
        as_of: as_of(feed),
    })
}

/// The Fleet view's model of `fleet` at `now`.
pub fn fleet_model(fleet: &Fleet, now: Time) -> FleetModel {
    // The words of a member that did not answer, owned here so the inputs can borrow them.
    let words: Vec<String> = (fleet.members.iter())
        .map(|m| match &m.state {
            MemberState::Failed { error, retry_at } => failed_words(error, *retry_at, now),
            MemberState::Answered(f) => match &f.api {
                ApiStatus::Forbidden { what } => format!("forbidden: {what}"),
                _ => String::new(),
            },
            MemberState::Connecting { .. } => String::new(),
        })
        .collect();
    let inputs: Vec<ClusterInput<'_>> = (fleet.members.iter().zip(&words))
        .map(|(m, w)| ClusterInput {
            context: &m.context,
            state: match &m.state {
                MemberState::Connecting { .. } => ClusterState::Connecting,
                MemberState::Failed { .. } => ClusterState::Failed(w),
                MemberState::Answered(feed) => feed_state(feed, w),
            },
        })
        .collect();
    let rows = fleet_rows(&inputs, now);
    let fits = fits_lines(&inputs)
        .iter()
        .map(ToString::to_string)
        .collect();
    let contexts = rows.iter().map(|r| r.context.clone()).collect();
    let mut troubles: Vec<String> = Vec::new();
    for t in rows.iter().filter_map(trouble) {
        if !troubles.contains(&t) {
            troubles.push(t);
        }
    }
    let table_rows = rows.iter().enumerate().map(|(i, r)| row(i, r)).collect();
    FleetModel {
        table: TableModel {
            columns: columns(),
            rows: table_rows,
        },
        contexts,
        fits,
        troubles,
        built: fleet.generation,
    }
}

/// `context: why` for a context that does not answer or whose data is stale.
fn trouble(r: &FleetRow) -> Option<String> {
    match &r.status {
        RowStatus::Failed(why) => Some(format!("{}: {why}", r.context)),
        RowStatus::Stale { error, .. } => Some(format!("{}: reconnecting: {error}", r.context)),
        RowStatus::Connecting => Some(format!(
            "{}: connecting, first lists not complete",
            r.context
        )),
        RowStatus::Current => None,
    }
}

/// The columns: the identifiers and what needs a hand are kept; at 80 columns the free GPUs
/// and the largest fit go last. The floors are the widths a terminal plans for (which columns
/// show depends on them, never on the rows): a pool's name and a pending answer (`2×≤8 44m`)
/// whole.
fn columns() -> Vec<Column> {
    vec![
        Column::text("CONTEXT", ColWidth::Min(10)).keep(),
        Column::text("POOL", ColWidth::Min(16)).keep(),
        Column::num("NODES", 5).priority(5),
        Column::text("GPU USED", ColWidth::Fixed(8)).priority(4),
        Column::num("FREE", 4).priority(1),
        Column::num("WHOLE", 5).priority(4),
        Column::num("SCORE", 5).priority(3),
        Column::num("FIT", 3).priority(1),
        Column::num("REPACK", 6).priority(2),
        Column::text("PENDING", ColWidth::Fixed(8)).priority(2),
        Column::text("NOT CLEAR", ColWidth::Fixed(9)).priority(3),
        Column::text("ALFRED", ColWidth::Fixed(6)).priority(3),
        Column::num("STALLED", 7).priority(4),
        Column::num("AGE", 3).priority(5),
        Column::text("RO", ColWidth::Fixed(2)).priority(5),
        Column::text("ATTENTION", ColWidth::Flex(12)).keep(),
    ]
}

/// The tone of a row's attention word.
fn attention_tone(a: Attention) -> Tone {
    match a {
        Attention::Unreachable | Attention::AlfredBlocked | Attention::NodesFailing => Tone::Failed,
        Attention::Stale | Attention::Connecting => Tone::Unknown,
        Attention::PodsWaiting | Attention::Fragmented | Attention::NodesSuspect => Tone::Degraded,
        Attention::Fine => Tone::Ok,
    }
}

/// The attention cell: its words, and for a context that is not answering why.
fn attention_cell(r: &FleetRow) -> Cell {
    let words = r.attention.words();
    let text = match &r.status {
        // `cluster unreachable: …` says it already.
        RowStatus::Failed(why) if why.contains(words) => why.clone(),
        RowStatus::Failed(why) => format!("{words}: {why}"),
        RowStatus::Stale { error, .. } => format!("{}: {error}", r.attention.words()),
        RowStatus::Connecting => "connecting: first lists not complete".to_string(),
        RowStatus::Current => r.attention.words().to_string(),
    };
    Cell::text(text).tone(attention_tone(r.attention))
}

fn dash() -> Cell {
    Cell::text("-").tone(Tone::Muted)
}

fn row(i: usize, r: &FleetRow) -> RowModel {
    let pool = r.pool.clone().unwrap_or_else(|| "-".to_string());
    let key = format!("{}|{pool}", r.context);
    let mut cells = vec![Cell::text(r.context.clone()), Cell::text(pool)];
    if r.as_of.is_none() {
        // No data: every number would be a guess.
        cells.extend((0..13).map(|_| dash()));
    } else {
        cells.extend(numbers(r));
    }
    if r.as_of.is_some() && r.pool.is_none() {
        // A cluster without a GPU pool: only its nodes, Alfred, freshness and RO apply.
        for c in &mut cells[3..11] {
            *c = dash();
        }
    }
    cells.push(attention_cell(r));
    RowModel::new(key, i, cells)
}

/// The cells between POOL and ATTENTION of a row with data.
fn numbers(r: &FleetRow) -> Vec<Cell> {
    let n = |v: u64| Cell::num(v as f64, v.to_string());
    let pending = match r.pending.pods {
        0 => Cell::num(0.0, "0"),
        p => Cell::num(p as f64, pending_words(r)).tone(Tone::Degraded),
    };
    let nc = &r.not_clear;
    let not_clear = not_clear_words(r);
    let nc_tone = match (nc.unhealthy + nc.unknown, nc.suspect + nc.maintenance) {
        (0, 0) => Tone::Normal,
        (0, _) => Tone::Degraded,
        _ => Tone::Failed,
    };
    let (alfred, alfred_tone) = alfred_words(r);
    let stalled = r.alfred.map_or(0, |a| a.stalled_entries);
    let score = format!("{:.2}{}", r.score, if r.above_threshold { "▲" } else { "" });
    let score_tone = if r.above_threshold {
        Tone::FragHigh
    } else {
        Tone::Normal
    };
    vec![
        n(r.nodes as u64),
        Cell::num(
            r.gpus_used as f64,
            format!("{}/{}", r.gpus_used, r.gpus_total),
        ),
        n(r.schedulable_free),
        n(r.whole_free_nodes),
        Cell::num(r.score, score).tone(score_tone),
        n(u64::from(r.largest_fit_now)),
        n(u64::from(r.largest_fit_after_repack)),
        pending,
        Cell::num(f64::from(nc.unclear() + nc.maintenance), not_clear).tone(nc_tone),
        Cell::text(alfred).tone(alfred_tone),
        n(u64::from(stalled)).tone(if stalled > 0 {
            Tone::Failed
        } else {
            Tone::Normal
        }),
        Cell::num(
            r.age_seconds as f64,
            crate::fmt::wait(r.age_seconds as f64 / 60.0),
        ),
        Cell::text(if r.read_only { "RO" } else { "" }).tone(Tone::Degraded),
    ]
}

/// Alfred's mode in one word (`exec`, `recom`, `none`), `brk` when its breaker is open.
fn alfred_words(r: &FleetRow) -> (String, Tone) {
    let Some(a) = r.alfred else {
        return ("-".to_string(), Tone::Muted);
    };
    let mode = match a.mode {
        None => "none",
        Some(Mode::Execute) => "exec",
        Some(Mode::RecommendOnly) => "recom",
    };
    match a.breaker_open {
        true => (format!("{mode} brk"), Tone::Failed),
        false => (mode.to_string(), Tone::Normal),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panel_lines_wrap_at_spaces_and_indent_what_continues() {
        let model = FleetModel {
            troubles: vec!["lab: cluster unreachable: connection refused".into()],
            fits: vec!["8 GPUs: fits now in: prod-eu/H100 (3), prod-us/H100 (1)".into()],
            ..FleetModel::default()
        };
        let lines = model.panel_lines(24);
        assert!(lines.iter().all(|l| l.width() <= 24), "{lines:?}");
        assert_eq!(lines[0], "lab: cluster");
        assert!(lines[1].starts_with("  unreachable:"), "{lines:?}");
        let joined: Vec<&str> = lines.iter().flat_map(|l| l.split_whitespace()).collect();
        assert_eq!(
            joined.join(" "),
            format!("{} {}", model.troubles[0], model.fits[0])
        );
    }

    #[test]
    fn a_context_not_answering_is_worded_with_its_next_try() {
        let now = Time::default();
        let later = now + chrono::TimeDelta::seconds(20);
        assert_eq!(
            failed_words("refused", later, now),
            "refused · next try in 20s"
        );
        assert_eq!(
            failed_words("refused", now, now),
            "refused · trying again now"
        );
    }
}
