//! A max segment tree answering "the first position whose room is ≥ g" in O(log n), so the
//! first-fit repack of 100,000 pods over 10,000 bins stays far inside the analysis budget.
//!
//! Owns: `FirstFit`. Pure data structure.

/// Positions `0..n` with a room value each; finds the leftmost position with room ≥ a value.
#[derive(Debug, Clone)]
pub struct FirstFit {
    /// Number of leaves (a power of two ≥ n).
    size: usize,
    /// Number of real positions.
    len: usize,
    /// Implicit binary tree: node `i` has children `2i` and `2i+1`; leaves at `size..2·size`.
    max: Vec<u32>,
}

impl FirstFit {
    /// Builds the tree over `room` (position `i` has room `room[i]`).
    pub fn new(room: &[u32]) -> Self {
        let size = room.len().next_power_of_two().max(1);
        let mut max = vec![0u32; 2 * size];
        max[size..size + room.len()].copy_from_slice(room);
        for i in (1..size).rev() {
            max[i] = max[2 * i].max(max[2 * i + 1]);
        }
        FirstFit {
            size,
            len: room.len(),
            max,
        }
    }

    /// Sets the room of position `pos` (ignored when out of range).
    pub fn set(&mut self, pos: usize, room: u32) {
        if pos >= self.size {
            return;
        }
        let mut i = pos + self.size;
        self.max[i] = room;
        while i > 1 {
            i /= 2;
            let max = self.max[2 * i].max(self.max[2 * i + 1]);
            // An unchanged maximum leaves every ancestor unchanged too.
            if self.max[i] == max {
                break;
            }
            self.max[i] = max;
        }
    }

    /// The leftmost position with room ≥ `need`, if any.
    pub fn first_at_least(&self, need: u32) -> Option<usize> {
        if self.max.get(1).copied().unwrap_or(0) < need {
            return None;
        }
        let mut i = 1;
        while i < self.size {
            i = if self.max[2 * i] >= need {
                2 * i
            } else {
                2 * i + 1
            };
        }
        Some(i - self.size).filter(|pos| *pos < self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn finds_leftmost_fit() {
        let mut f = FirstFit::new(&[1, 4, 2, 8]);
        assert_eq!(f.first_at_least(2), Some(1));
        assert_eq!(f.first_at_least(5), Some(3));
        assert_eq!(f.first_at_least(9), None);
        f.set(1, 0);
        assert_eq!(f.first_at_least(2), Some(2));
        assert_eq!(FirstFit::new(&[]).first_at_least(1), None);
        assert_eq!(FirstFit::new(&[]).first_at_least(0), None);
    }

    proptest! {
        #[test]
        fn agrees_with_a_linear_scan(room in proptest::collection::vec(0u32..10, 1..40), need in 1u32..10) {
            let f = FirstFit::new(&room);
            let linear = room.iter().position(|r| *r >= need);
            prop_assert_eq!(f.first_at_least(need), linear);
        }

        #[test]
        fn agrees_with_a_linear_scan_after_updates(
            mut room in proptest::collection::vec(0u32..10, 1..40),
            sets in proptest::collection::vec((0usize..40, 0u32..10), 0..60),
            need in 1u32..10,
        ) {
            let mut f = FirstFit::new(&room);
            for (pos, value) in sets {
                let pos = pos % room.len();
                room[pos] = value;
                f.set(pos, value);
                let linear = room.iter().position(|r| *r >= need);
                prop_assert_eq!(f.first_at_least(need), linear);
            }
        }
    }
}
