//! The `ome-top` binary: reads the wall clock and runs the program (`ome_top::program`: parses the
//! command line, starts the log and runs a command). With `run.rs`, the only place that reads
//! the wall clock; everything else receives it as a value or a function.

use ome_top::program::{run_program, Invocation};

/// The wall clock: the one clock read, passed into everything else as a value or a function.
#[allow(clippy::disallowed_methods)]
fn wall_clock() -> chrono::DateTime<chrono::Utc> {
    chrono::Utc::now()
}

fn main() {
    ome_top::tune_allocator_for_long_runs();
    std::process::exit(run_program(Invocation::OmeTop, wall_clock));
}
