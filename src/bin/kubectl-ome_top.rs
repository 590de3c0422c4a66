//! The `kubectl-ome_top` binary: ome-top as a kubectl plugin. kubectl runs it for `kubectl
//! ome-top …` (a `_` in a plugin's file name is a `-` in the command); it is the same program
//! as `ome-top` (`program`), shown under the name the operator typed. Like `main.rs`, a
//! place that reads the wall clock.

use ome_top::program::{run_program, Invocation};

/// The wall clock: the one clock read, passed into everything else as a value or a function.
#[allow(clippy::disallowed_methods)]
fn wall_clock() -> chrono::DateTime<chrono::Utc> {
    chrono::Utc::now()
}

fn main() {
    ome_top::tune_allocator_for_long_runs();
    std::process::exit(run_program(Invocation::KubectlPlugin, wall_clock));
}
