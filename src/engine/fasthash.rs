//! A fast, non-cryptographic hasher (the Fx hash of rustc) for the engine's short string and
//! integer keys: node names are looked up once per pod, where SipHash dominated the cost.
//! Keys come from one cluster's objects, so flooding resistance is not needed.
//!
//! Owns: `FxHasher`, `FastMap`. Pure; must not import anything outside `std`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` with [`FxHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// The Fx hash: per 8-byte word, `h = (h.rotl(5) ^ word) · SEED`.
#[derive(Debug, Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(c);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_work_with_string_keys() {
        let mut m: FastMap<&str, usize> = FastMap::default();
        for (i, k) in ["a", "node-000123456789", "", "node-000123456788"]
            .iter()
            .enumerate()
        {
            m.insert(k, i);
        }
        assert_eq!(m.get("node-000123456788"), Some(&3));
        assert_eq!(m.get(""), Some(&2));
        assert_eq!(m.get("b"), None);
    }
}
