//! Fuzz target `keymap`: the checks of `fuzz/checks.rs` on arbitrary bytes.

#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::keymap(data));
