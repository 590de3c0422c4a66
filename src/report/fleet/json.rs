//! `ome-top fleet -o json`: `{"generatedAt", "clusters": [{"context", "server", "error",
//! "analysis"}]}`, where `analysis` is exactly the `analyze -o json` document of that context
//! (`report::json::analysis_json`) and `null` with `error` set when the context did not
//! answer. Clusters keep the order they were chosen in (docs/fleet-json.md).
//!
//! Owns: `ClusterDoc`, `Analysed`, `fleet_json`. Pure.

use serde_json::{json, Value};

use crate::engine::analysis::Analysis;
use crate::engine::model::{ClusterSnapshot, Time};
use crate::report::json::{analysis_json, Source};

/// One context of the document.
#[derive(Debug, Clone, Copy)]
pub struct ClusterDoc<'a> {
    /// The kubeconfig context.
    pub context: &'a str,
    /// Its API server URL, when the kubeconfig names one.
    pub server: Option<&'a str>,
    /// Its analysis, or the error in words.
    pub result: Result<Analysed<'a>, &'a str>,
}

/// An answering context's snapshot, analysis and conversion warnings.
#[derive(Debug, Clone, Copy)]
pub struct Analysed<'a> {
    /// The snapshot.
    pub snapshot: &'a ClusterSnapshot,
    /// Its analysis.
    pub analysis: &'a Analysis,
    /// Where the data came from (`live` for the command).
    pub source: Source,
    /// Conversion warnings, appended as `analyze` appends them.
    pub warnings: &'a [String],
}

/// The fleet document at `generated_at`.
pub fn fleet_json(generated_at: Time, clusters: &[ClusterDoc<'_>]) -> Value {
    let clusters: Vec<Value> = clusters
        .iter()
        .map(|c| {
            let (error, analysis) = match &c.result {
                Ok(a) => (
                    Value::Null,
                    analysis_json(a.snapshot, a.analysis, a.source, a.warnings),
                ),
                Err(e) => (Value::String((*e).to_string()), Value::Null),
            };
            json!({
                "context": c.context,
                "server": c.server,
                "error": error,
                "analysis": analysis,
            })
        })
        .collect();
    json!({
        "generatedAt": crate::report::rfc3339(generated_at),
        "clusters": clusters,
    })
}
