//! Safe calls into mimalloc, the process allocator of ome-top (`ome_top`'s `#[global_allocator]`):
//! returning a thread's freed memory to the operating system (`collect`) and how long freed
//! memory waits before it is returned (`set_purge_delay`). The ome-top crate forbids `unsafe`;
//! the calls live here, each a plain C function of mimalloc's public API with no pointer
//! argument, so nothing the caller passes can break memory safety.
//!
//! Owns: `collect`, `set_purge_delay`.

use std::os::raw::{c_int, c_long};

// Links the static mimalloc these functions are declared from (the one `mimalloc` builds).
use libmimalloc_sys as _;

// mimalloc's `mi_option_t` values (include/mimalloc.h of the bundled v3 sources).
const MI_OPTION_PURGE_DELAY: c_int = 15;

extern "C" {
    fn mi_collect(force: bool);
    fn mi_option_set(option: c_int, value: c_long);
}

/// Frees the calling thread's empty pages and, with `force`, returns every freed range of
/// the process's arenas to the operating system now instead of after the purge delay.
/// Touches only allocator metadata: blocks in use are never moved or freed.
pub fn collect(force: bool) {
    // SAFETY: `mi_collect` takes a plain flag, may be called on any thread at any time
    // (mimalloc's documented API) and only frees memory no live allocation holds.
    unsafe { mi_collect(force) }
}

/// Sets how many milliseconds memory freed to mimalloc's arenas waits before it is returned
/// to the operating system (0: at once; mimalloc's default is 1,000).
pub fn set_purge_delay(millis: u32) {
    let value = c_long::from(millis.min(i32::MAX as u32) as i32);
    // SAFETY: `mi_option_set` stores a number in mimalloc's option table (an atomic store);
    // any value is valid for this option and it may be changed at any time.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, value) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collecting_and_setting_the_delay_leave_allocation_working() {
        let kept: Vec<Vec<u8>> = (0..1000).map(|i| vec![i as u8; 100]).collect();
        set_purge_delay(0);
        collect(true);
        collect(false);
        set_purge_delay(1000);
        assert!(kept.iter().enumerate().all(|(i, v)| v[99] == i as u8));
    }
}
