//! Where a pool's pending GPU pods find room, in the words both the pool map (the TUI) and
//! `analyze -o table` print: per requested size, room for how many now, only after the repack,
//! none even after it, or a pod larger than every node of the pool. One wording for both, so
//! the headless answer says what the screen says.
//!
//! Owns: `Room`, `room_of`, `count`, `gpus`. Reads engine results only.

use crate::fmt::count;
use std::fmt;

use crate::engine::pools::PendingSize;

/// Where the pending pods of one size find room.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Room {
    /// Room now for this many pods of the size (one node each).
    Now(u64),
    /// No room now; room for this many after the repack.
    AfterRepack(u64),
    /// No room, even after the repack.
    None,
    /// The size is larger than every node of the pool (`largest` GPUs): never runs here.
    TooLarge {
        /// The size asked, GPUs.
        gpus: u32,
        /// The most GPUs any node of the pool has.
        largest: u32,
    },
}

/// Where pods of `size` find room in a pool whose largest node has `largest_node` GPUs.
pub fn room_of(size: &PendingSize, largest_node: u32) -> Room {
    if size.gpus > largest_node {
        Room::TooLarge {
            gpus: size.gpus,
            largest: largest_node,
        }
    } else if size.room_now > 0 {
        Room::Now(size.room_now)
    } else if size.room_after > 0 {
        Room::AfterRepack(size.room_after)
    } else {
        Room::None
    }
}

impl fmt::Display for Room {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Room::Now(n) => write!(f, "room for {} now", count(*n)),
            Room::AfterRepack(n) => write!(f, "room for {} after repack", count(*n)),
            Room::None => f.write_str("no room, even after repack"),
            Room::TooLarge { gpus, largest } => {
                write!(f, "larger than any node of the pool: {gpus} > {largest}")
            }
        }
    }
}

/// `1 GPU`, `12,596 GPUs`.
pub fn gpus(n: u64) -> String {
    if n == 1 {
        "1 GPU".into()
    } else {
        format!("{} GPUs", count(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(gpus: u32, room_now: u64, room_after: u64) -> PendingSize {
        PendingSize {
            gpus,
            pods: 2,
            oldest_minutes: 45.0,
            room_now,
            room_after,
        }
    }

    #[test]
    fn each_room_is_worded_once() {
        let words = |s: &PendingSize| room_of(s, 8).to_string();
        assert_eq!(words(&size(8, 3, 5)), "room for 3 now");
        assert_eq!(words(&size(8, 0, 1_200)), "room for 1,200 after repack");
        assert_eq!(words(&size(8, 0, 0)), "no room, even after repack");
        assert_eq!(
            words(&size(16, 0, 0)),
            "larger than any node of the pool: 16 > 8"
        );
        assert_eq!(
            (gpus(1), gpus(12_596)),
            ("1 GPU".into(), "12,596 GPUs".into())
        );
    }
}
