//! The TUI without a terminal: whole-screen insta snapshots (`ui_snapshots`, files in
//! `snapshots/`), the reducer's key handling and op tracking, the `:` palette's commands, and
//! the demo world the `demo` command runs (its ops and its simulation). One test binary: `cargo test --test tui`.

mod columns;
mod copy;
mod demo_ops;
mod demo_unblock;
mod demo_world;
mod filter;
mod fleet;
mod gang_scheduler;
mod header;
mod history_fixture;
mod k9s_habits;
mod kept;
mod keymap_safety;
mod legends;
mod map_unhealthy;
mod narrow;
mod node_yaml;
mod palette;
mod pending;
mod pool_map;
mod quit;
mod readiness;
mod reducer;
mod reducer_landing;
mod reducer_moves;
mod reducer_tracking;
mod reducer_truth;
mod steady_rows;
mod tui_support;
mod ui_snapshots;
mod ui_snapshots_truth;
mod undo;
mod unowned;
mod wide_numbers;
