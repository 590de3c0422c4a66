//! The ome-top binary as tests run it: HOME and the XDG directories point into one private
//! directory per test process, so no test reads the developer's config.toml or writes to
//! their log, history store or state. A test that needs its own sets them again afterwards
//! (a later `env` wins).
//!
//! Owns: `ome_top`.

#![allow(clippy::expect_used)] // Tests may fail loudly.

use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

/// The private home of this test process (removed when the process exits).
fn home() -> &'static Path {
    static HOME: OnceLock<tempfile::TempDir> = OnceLock::new();
    HOME.get_or_init(|| tempfile::tempdir().expect("a temporary home"))
        .path()
}

/// `ome-top` with a private HOME and XDG directories.
pub fn ome_top() -> Command {
    let home = home();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ome-top"));
    cmd.env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_CACHE_HOME", home.join("cache"));
    cmd
}
