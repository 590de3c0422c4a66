//! Reads a snapshot file: a Kubernetes `List` in JSON or YAML, as
//! `kubectl get nodes,pods,inferenceservices,inferencereplicas,podgroups,configmaps,events -A
//! -o json` prints it, into a `ClusterSnapshot`.
//!
//! The format is chosen once from the first bytes (`{"`, `{}` or `[` is JSON, anything else
//! YAML), never by retrying; the document is streamed (`stream`): one item is a tree at a
//! time, so memory follows the snapshot, not the text. Nesting is bounded (JSON: 128 levels
//! inside an item, YAML: `go_yaml::MAX_DEPTH`, Lists inside items: 8) and time is linear in the
//! input. Objects follow Kubernetes' identity rules (`identity`); `reader` converts them.
//!
//! Owns: `read_snapshot`, `read_snapshot_with`, `node_yaml`, `SnapshotError`, `Format`,
//! `format_of`. Pure over bytes (the caller reads the file).

mod identity;
mod reader;
mod stream;

use std::marker::PhantomData;

use serde::de::DeserializeSeed;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::cluster::convert::{ConvertError, Warnings};
use crate::engine::formats::go_yaml;
use crate::engine::model::ClusterSnapshot;
pub use reader::Progress;
use reader::Reader;
use stream::{ListSeed, State, Stop, Top};

/// The two formats a snapshot file may be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// JSON (what `kubectl -o json` and `ome-top dump` write).
    Json,
    /// YAML (`kubectl -o yaml`).
    Yaml,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Json => "JSON",
            Format::Yaml => "YAML",
        }
    }
}

/// Why a snapshot could not be read (exit code 2 in the CLI).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SnapshotError {
    /// Nothing but whitespace.
    #[error("snapshot file is empty")]
    Empty,
    /// Not valid in the format its first bytes chose: the format and where.
    #[error("snapshot is not valid {}: {message}", format.name())]
    Syntax {
        /// The format read.
        format: Format,
        /// What is wrong and where (line and column, or the item's index).
        message: String,
    },
    /// Parsed, but not a `List` with `items`.
    #[error("snapshot is not a Kubernetes List: {0}")]
    NotAList(String),
    /// One object broke an identity rule or could not be converted.
    #[error("{0}")]
    Object(ConvertError),
}

/// Why the text of a snapshot is not valid in its format (the `message` of
/// [`SnapshotError::Syntax`]).
#[derive(Debug, thiserror::Error)]
enum SyntaxError {
    /// serde_json's reading error (line and column).
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// A YAML file that is not UTF-8.
    #[error(transparent)]
    Utf8(#[from] std::str::Utf8Error),
    /// go_yaml's reading error.
    #[error(transparent)]
    Yaml(#[from] go_yaml::YamlError),
}

/// Why [`node_yaml`] has no YAML to show.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NodeYamlError {
    /// The snapshot itself cannot be read.
    #[error(transparent)]
    Snapshot(#[from] SnapshotError),
    /// The node is not in it.
    #[error("nodes \"{0}\" not found in the snapshot file")]
    NotFound(String),
    /// The node cannot be written as YAML.
    #[error(transparent)]
    Yaml(#[from] crate::cluster::object_yaml::ObjectYamlError),
}

/// ConfigMaps ome-top reads (any namespace): Alfred's, the scheduler's, migration audit ones.
pub fn is_interesting_config_map(name: &str) -> bool {
    matches!(
        name,
        "alfred-config"
            | "alfred-recommendations"
            | "alfred-dispatch-state"
            | "ome-scheduler-config"
    ) || name.ends_with("-ome-migration-audit")
}

/// The bytes after a UTF-8 byte order mark, if there is one.
fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// The format of snapshot bytes, from their first non-blank bytes (`None`: blank). A JSON
/// object starts `{"` or `{}`; `{kind: List}` is a YAML flow mapping.
pub fn format_of(bytes: &[u8]) -> Option<Format> {
    let mut rest = without_bom(bytes)
        .iter()
        .filter(|b| !b.is_ascii_whitespace());
    match (rest.next()?, rest.next()) {
        (b'{', Some(b'"' | b'}')) | (b'[', _) => Some(Format::Json),
        _ => Some(Format::Yaml),
    }
}

/// The snapshot bytes as one JSON tree, in the format [`format_of`] chooses (for reads of a
/// single object; the snapshot itself is streamed).
fn document(bytes: &[u8]) -> Result<Value, SnapshotError> {
    match format_of(bytes).ok_or(SnapshotError::Empty)? {
        Format::Json => {
            serde_json::from_slice(without_bom(bytes)).map_err(|e| SnapshotError::Syntax {
                format: Format::Json,
                message: e.to_string(),
            })
        }
        Format::Yaml => read_yaml_tree(bytes).map_err(|e| SnapshotError::Syntax {
            format: Format::Yaml,
            message: e.to_string(),
        }),
    }
}

/// The core (`v1`) object of `kind` named `name` among `items` (nested Lists too), as the file
/// holds it: the last one listed, as the reader keeps duplicates.
fn find_core<'a>(items: &'a [Value], kind: &str, name: &str) -> Option<&'a Value> {
    items.iter().rev().find_map(|v| {
        let k = v.get("kind").and_then(Value::as_str).unwrap_or_default();
        if k.ends_with("List") {
            return find_core(v.get("items")?.as_array()?, kind, name);
        }
        // The reader's rule (`reader::kind_of`): the core group is the one without a `/`.
        let api = v
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let core = !api.contains('/');
        let named = v.pointer("/metadata/name").and_then(Value::as_str) == Some(name);
        (core && k == kind && named).then_some(v)
    })
}

/// The items of a JSON List as their texts (a few bytes each: the file is not made a tree).
#[derive(serde::Deserialize)]
struct RawItems<'a> {
    #[serde(borrow)]
    items: Vec<&'a RawValue>,
}

/// The object of `kind` named `name` in a JSON snapshot: only items whose text names both
/// become trees.
fn find_json(bytes: &[u8], kind: &str, name: &str) -> Result<Option<Value>, SnapshotError> {
    let list: RawItems<'_> =
        serde_json::from_slice(without_bom(bytes)).map_err(|e| SnapshotError::Syntax {
            format: Format::Json,
            message: e.to_string(),
        })?;
    let (kind_text, name_text) = (format!("\"{kind}\""), format!("\"{name}\""));
    let candidates = list
        .items
        .iter()
        .map(|r| r.get())
        .filter(|t| (t.contains(&kind_text) && t.contains(&name_text)) || t.contains("List\""));
    let trees: Vec<Value> = candidates
        .filter_map(|t| serde_json::from_str(t).ok())
        .collect();
    Ok(find_core(&trees, kind, name).cloned())
}

/// Node `name` of a snapshot file as YAML (what `y` shows offline), or why not in one line.
pub fn node_yaml(bytes: &[u8], name: &str) -> Result<String, NodeYamlError> {
    let quick = match format_of(bytes) {
        Some(Format::Json) => find_json(bytes, "Node", name)?,
        _ => None,
    };
    // A name the text spells with escapes is not among the quick candidates: read it all.
    let node = match quick {
        Some(node) => Some(node),
        None => {
            let doc = document(bytes)?;
            let items = doc.get("items").and_then(Value::as_array);
            items
                .and_then(|items| find_core(items, "Node", name))
                .cloned()
        }
    };
    match node {
        Some(node) => Ok(crate::cluster::object_yaml::object_yaml(node)?),
        None => Err(NodeYamlError::NotFound(name.to_string())),
    }
}

/// Parses snapshot bytes. Unknown kinds are skipped and reported in the warnings, as are
/// duplicates (the last one listed is kept).
pub fn read_snapshot(bytes: &[u8]) -> Result<(ClusterSnapshot, Warnings), SnapshotError> {
    read_snapshot_with(bytes, &mut |_| {})
}

/// [`read_snapshot`], telling `progress` after each item how far it has come.
pub fn read_snapshot_with(
    bytes: &[u8],
    progress: &mut dyn FnMut(Progress),
) -> Result<(ClusterSnapshot, Warnings), SnapshotError> {
    let format = format_of(bytes).ok_or(SnapshotError::Empty)?;
    let mut reader = Reader::new(bytes.len(), progress);
    let mut state = State {
        reader: &mut reader,
        stop: None,
        final_block: None,
    };
    let read = match format {
        Format::Json => read_json(without_bom(bytes), &mut state),
        Format::Yaml => read_yaml(bytes, &mut state),
    };
    let top = match (read, state.stop.take()) {
        (Ok(top), None) => top,
        (_, Some(Stop::Object(e))) => return Err(SnapshotError::Object(e)),
        (_, Some(Stop::NotAList(what))) => return Err(SnapshotError::NotAList(what)),
        (_, Some(Stop::Item(message))) => return Err(SnapshotError::Syntax { format, message }),
        (Err(e), None) => {
            let message = e.to_string();
            return Err(SnapshotError::Syntax { format, message });
        }
    };
    if !top.items {
        let what = top.kind.as_deref().unwrap_or("an object without kind");
        return Err(SnapshotError::NotAList(format!(
            "found {what} without an items array"
        )));
    }
    Ok(reader.finish())
}

fn read_json(bytes: &[u8], state: &mut State<'_, '_>) -> Result<Top, SyntaxError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let seed = ListSeed::<&RawValue> {
        state,
        item: PhantomData,
    };
    let top = seed.deserialize(&mut de)?;
    de.end()?;
    Ok(top)
}

fn read_yaml(bytes: &[u8], state: &mut State<'_, '_>) -> Result<Top, SyntaxError> {
    let text = std::str::from_utf8(bytes)?;
    let scan = go_yaml::scan(text);
    if let Some((tag, line, column)) = scan.local_tag {
        return Err(go_yaml::YamlError::LocalTag { tag, line, column }.into());
    }
    state.final_block = scan.final_block_scalar;
    let top = go_yaml::with_deserializer(text, |de| {
        ListSeed::<Value> {
            state,
            item: PhantomData,
        }
        .deserialize(de)
    })?;
    Ok(top)
}

/// A YAML snapshot as a JSON tree (UTF-8 only), read as `engine::formats::go_yaml` reads YAML.
fn read_yaml_tree(bytes: &[u8]) -> Result<Value, SyntaxError> {
    let text = std::str::from_utf8(bytes)?;
    Ok(go_yaml::to_json(text)?)
}

#[cfg(test)]
mod tests;
