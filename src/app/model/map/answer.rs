//! The pool map's answer lines: free GPUs and the largest request one node fits now and
//! after Alfred's repack, and the pending GPU pods by size, age and room, in words a person
//! reads (the numbers are the engine's).
//!
//! Owns: `fits_line`, `pending_line`; the room's words are `report::room`'s
//! (shared with `analyze -o table`). Plain data.

use crate::app::model::map::Piece;
use crate::app::table::Tone;
use crate::engine::pools::{PendingSize, PoolReport};
use crate::report::room::{room_of, Room};

/// Counts and GPU amounts worded as the headless answer words them.
use crate::fmt::count;
pub use crate::report::room::gpus;

/// "260 GPUs free, +40 on unschedulable nodes · one node fits 4 now, 8 after repack" (free:
/// the Pools FREE column's count, on the nodes that take new pods; fits: the largest free
/// block on one such node, now and after the repack).
pub fn fits_line(p: &PoolReport) -> Vec<Piece> {
    let tone = |fits: u32| {
        if fits == 0 {
            Tone::Failed
        } else {
            Tone::Accent
        }
    };
    vec![
        (
            // "free" is the Pools FREE column's number; the GPUs free on nodes that take no
            // pod (the map's ! ✗ ? ~ M C R S cells) are counted apart.
            match p.free_gpus_all_nodes.saturating_sub(p.free_gpus) {
                0 => format!("{} free · one node fits ", gpus(p.free_gpus)),
                n => format!(
                    "{} free, +{} on unschedulable nodes · one node fits ",
                    gpus(p.free_gpus),
                    count(n)
                ),
            },
            Tone::Normal,
        ),
        (p.largest_fit_now.to_string(), tone(p.largest_fit_now)),
        (" now, ".into(), Tone::Normal),
        (p.largest_fit_after.to_string(), tone(p.largest_fit_after)),
        (" after repack".into(), Tone::Normal),
    ]
}

/// "pending: 8 GPUs ×2 waiting 45m: room for 3 after repack · 1 GPU ×1 waiting 5m: room for
/// 12 now" (room: pods of that size the nodes can run, one node each); a pod larger than every
/// node of the pool (`largest_node` GPUs) says so instead.
pub fn pending_line(sizes: &[PendingSize], largest_node: u32) -> Vec<Piece> {
    if sizes.is_empty() {
        return vec![("no pending GPU pods".into(), Tone::Muted)];
    }
    let mut out = vec![("pending: ".to_string(), Tone::Normal)];
    for (i, s) in sizes.iter().enumerate() {
        let room = room_of(s, largest_node);
        let (verdict, tone) = (room.to_string(), room_tone(room));
        let sep = if i == 0 { "" } else { " · " };
        out.push((
            format!(
                "{sep}{} ×{} waiting {}: ",
                gpus(u64::from(s.gpus)),
                count(s.pods),
                crate::fmt::wait(s.oldest_minutes)
            ),
            Tone::Normal,
        ));
        out.push((verdict, tone));
    }
    out
}

/// How the map colours where a size finds room.
fn room_tone(room: Room) -> Tone {
    match room {
        Room::Now(_) => Tone::Ok,
        Room::AfterRepack(_) => Tone::Degraded,
        Room::None | Room::TooLarge { .. } => Tone::Failed,
    }
}
