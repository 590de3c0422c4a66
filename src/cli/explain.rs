//! `ome-top explain POD`: why a pending GPU pod (or its gang) is Pending and what frees room
//! for it, from a snapshot or the live cluster, as a table or JSON (the shape of one
//! `pending[]` entry of `analyze -o json`, with the per-node verdicts). It runs `analyze`'s
//! path to its model and prints the one answer instead of the whole analysis.
//!
//! Owns: `ExplainArgs`, `print_explain`. No business logic.

use std::io::Write;

use clap::Args;

use crate::cli::{AnalyzeArgs, Output, EXIT_BAD_INPUT, EXIT_OK};
use crate::engine::analysis::Analysis;
use crate::engine::model::ClusterSnapshot;
use crate::report::pending::json::entry_json;
use crate::report::pending::table::entry_table;
use crate::report::pending::{entry_of, find_pending, FindError};

/// Arguments of `explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The pending pod: `namespace/name` or a unique name; a gang's PodGroup name explains
    /// its first pending member.
    #[arg(value_name = "POD")]
    pub pod: String,
    /// Where the model comes from and how it is printed (as for `analyze`).
    #[command(flatten)]
    pub analyze: AnalyzeArgs,
}

/// Prints the explanation of `query` in `format`; returns the exit code.
pub fn print_explain(
    format: Output,
    query: &str,
    snap: &ClusterSnapshot,
    analysis: &Analysis,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let entry = find_pending(snap, query).and_then(|pod| {
        entry_of(snap, analysis, pod).ok_or_else(|| FindError::NotPending(query.to_string()))
    });
    let entry = match entry {
        Ok(e) => e,
        Err(why) => {
            let _ = writeln!(err, "ome-top: {why}");
            return EXIT_BAD_INPUT;
        }
    };
    let written = match format {
        Output::Json => {
            serde_json::to_writer_pretty(&mut *out, &entry_json(snap, analysis, &entry, true))
                .map_err(std::io::Error::other)
                .and_then(|()| writeln!(out))
        }
        Output::Table => write!(out, "{}", entry_table(snap, analysis, &entry)),
    };
    match written {
        Ok(()) => EXIT_OK,
        Err(e) => {
            let _ = writeln!(err, "ome-top: cannot write output: {e}");
            EXIT_BAD_INPUT
        }
    }
}
