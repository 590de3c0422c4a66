//! `ome-top man`: the manual page (roff), rendered from the same clap definitions as `--help`,
//! so it never disagrees with the binary.
//!
//! Owns: `run_man`.

use std::io::Write;

use clap::CommandFactory;

use crate::cli::{Cli, EXIT_BAD_INPUT, EXIT_OK};

/// Prints the manual page of `ome-top` to `out`: NAME, SYNOPSIS, DESCRIPTION, OPTIONS,
/// SUBCOMMANDS and VERSION.
pub fn run_man(out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    match clap_mangen::Man::new(Cli::command()).render(out) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            let _ = writeln!(err, "ome-top: cannot write the manual page: {e}");
            EXIT_BAD_INPUT
        }
    }
}
