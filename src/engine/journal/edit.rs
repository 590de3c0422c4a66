//! The one write the TUI makes to Alfred's journal (alfred.md §2.4 step 4): remove exactly one
//! entry from `state.json` and re-serialise compactly, keeping every other member, its order
//! and its value (`version`, `backoffUntil`, the other entries; `"entries":[]` when the last one
//! goes). The caller does the compare-and-swap `Update` with the resourceVersion it read.
//!
//! Refuses any document the strict reader rejects, and any whose numbers would not round-trip
//! byte-for-byte through `serde_json` (e.g. `-0`). Pure.

use crate::engine::formats::strict_json::fold_key;
use crate::engine::formats::strict_json::{parse_strict, StrictValue};
use crate::engine::journal::{parse_journal, JournalEntry, JournalError};
use serde_json::Value;

/// Why the edit was refused. Nothing is written in any of these cases.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The input fails Alfred's strict reader; the TUI must not act on it.
    #[error("refusing to edit an unreadable journal: {0}")]
    Invalid(JournalError),
    /// No entry has this uuid (exact match).
    #[error("no journal entry has uuid \"{uuid}\"")]
    NotFound {
        /// The uuid asked for.
        uuid: String,
    },
    /// A number would be written differently (e.g. `-0` → `0`).
    #[error("refusing to edit: the number {raw} would not be written back unchanged")]
    NumberNotPreserved {
        /// The number as written in the input.
        raw: String,
    },
    /// serde_json could not represent the document (e.g. a lone surrogate escape): its words.
    #[error("refusing to edit: cannot re-serialise: {0}")]
    Reserialise(String),
    /// The output failed the post-edit check of [`remove_entry_checked`].
    #[error("edit failed verification: {0}")]
    Verification(String),
}

/// Removes the entry whose `uuid` equals `uuid` and returns the new `state.json`, compact.
///
/// Preconditions checked: the input passes [`parse_journal`]; exactly one entry has that uuid
/// (uniqueness is guaranteed by the reader); every number kept round-trips unchanged. Members
/// are matched by Go-folded name, so a doc spelling `"Entries"` is edited in place.
pub fn remove_entry(state_json: &str, uuid: &str) -> Result<String, EditError> {
    let journal = parse_journal(state_json.as_bytes()).map_err(EditError::Invalid)?;
    let index = journal
        .entries
        .iter()
        .position(|e| e.uuid == uuid)
        .ok_or_else(|| EditError::NotFound {
            uuid: uuid.to_owned(),
        })?;
    let strict = parse_strict(state_json.as_bytes())
        .map_err(|e| EditError::Invalid(JournalError::Json(e)))?;
    check_numbers(&strict, Some(index))?;
    let mut doc: Value =
        serde_json::from_str(state_json).map_err(|e| EditError::Reserialise(e.to_string()))?;
    let items = entries_mut(&mut doc)
        .ok_or_else(|| EditError::Reserialise("no entries array after re-parse".into()))?;
    if items.len() != journal.entries.len() || index >= items.len() {
        return Err(EditError::Reserialise(
            "entry count disagrees after re-parse".into(),
        ));
    }
    let removed = items.remove(index);
    if member(&removed, "uuid").and_then(Value::as_str) != Some(uuid) {
        return Err(EditError::Reserialise(
            "entry order disagrees after re-parse".into(),
        ));
    }
    serde_json::to_string(&doc).map_err(|e| EditError::Reserialise(e.to_string()))
}

/// [`remove_entry`], then re-reads the output strictly and checks it: same `version` and
/// `backoffUntil`, exactly one entry fewer, and the remaining entries equal (field by field, in
/// order) to the input's other entries. Any mismatch is [`EditError::Verification`].
pub fn remove_entry_checked(state_json: &str, uuid: &str) -> Result<String, EditError> {
    let before = parse_journal(state_json.as_bytes()).map_err(EditError::Invalid)?;
    let out = remove_entry(state_json, uuid)?;
    let after = parse_journal(out.as_bytes())
        .map_err(|e| EditError::Verification(format!("output fails the strict reader: {e}")))?;
    if after.version != before.version || after.backoff_until != before.backoff_until {
        return Err(EditError::Verification(
            "version or backoffUntil changed".into(),
        ));
    }
    if after.entries.len() + 1 != before.entries.len() {
        let why = format!(
            "{} entries before, {} after",
            before.entries.len(),
            after.entries.len()
        );
        return Err(EditError::Verification(why));
    }
    let expected: Vec<&JournalEntry> = before.entries.iter().filter(|e| e.uuid != uuid).collect();
    if !after.entries.iter().eq(expected.iter().copied()) {
        return Err(EditError::Verification(
            "a kept entry changed or moved".into(),
        ));
    }
    Ok(out)
}

/// The root `entries` array (matched by folded name).
fn entries_mut(doc: &mut Value) -> Option<&mut Vec<Value>> {
    let root = doc.as_object_mut()?;
    let key = root.keys().find(|k| fold_key(k) == "entries")?.clone();
    root.get_mut(&key)?.as_array_mut()
}

/// A member of an object value by folded name.
fn member<'a>(v: &'a Value, name: &str) -> Option<&'a Value> {
    let want = fold_key(name);
    v.as_object()?
        .iter()
        .find(|(k, _)| fold_key(k) == want)
        .map(|(_, v)| v)
}

/// Refuses if any number that stays in the document would be re-serialised differently.
/// `skip_entry` is the entry being removed (its numbers are not written back).
fn check_numbers(root: &StrictValue, skip_entry: Option<usize>) -> Result<(), EditError> {
    let StrictValue::Object(members) = root else {
        return walk_numbers(root);
    };
    for (key, value) in members {
        match (fold_key(key) == "entries", value) {
            (true, StrictValue::Array(items)) => {
                let mut kept = items
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| Some(*i) != skip_entry);
                kept.try_for_each(|(_, item)| walk_numbers(item))?;
            }
            _ => walk_numbers(value)?,
        }
    }
    Ok(())
}

fn walk_numbers(v: &StrictValue) -> Result<(), EditError> {
    match v {
        StrictValue::Number(raw) => {
            let back = serde_json::from_str::<serde_json::Number>(raw).map(|n| n.to_string());
            match back {
                Ok(text) if text == *raw => Ok(()),
                _ => Err(EditError::NumberNotPreserved { raw: raw.clone() }),
            }
        }
        StrictValue::Array(items) => items.iter().try_for_each(walk_numbers),
        StrictValue::Object(members) => members.iter().try_for_each(|(_, v)| walk_numbers(v)),
        StrictValue::Null | StrictValue::Bool(_) | StrictValue::String(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::journal::fixtures as fx;
    use crate::engine::journal::INITIAL_STATE_JSON;
    use proptest::prelude::*;
    use serde_json::json;

    /// Compact text of each entry of a document, in order (order-sensitive comparison).
    fn entry_texts(doc: &str) -> Vec<String> {
        let v: Value = serde_json::from_str(doc).unwrap();
        v["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(Value::to_string)
            .collect()
    }

    #[test]
    fn removes_exactly_one_and_keeps_the_rest_in_order() {
        let doc = fx::full();
        let out = remove_entry_checked(&doc, &fx::uuid(2)).unwrap();
        let mut want = entry_texts(&doc);
        let removed = want.remove(2);
        assert_eq!(entry_texts(&out), want);
        let keys: Vec<String> = serde_json::from_str::<Value>(&out)
            .unwrap()
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        assert_eq!(keys, ["version", "entries", "backoffUntil"]);
        // The input is already compact: the output is it minus the entry and one comma.
        assert_eq!(out.len(), doc.len() - removed.len() - 1);
    }

    #[test]
    fn pretty_input_becomes_compact_with_member_order_kept() {
        let mut v: Value = serde_json::from_str(&fx::full()).unwrap();
        let backoff = v
            .as_object_mut()
            .unwrap()
            .shift_remove("backoffUntil")
            .unwrap();
        let entries = v.as_object_mut().unwrap().shift_remove("entries").unwrap();
        let reordered = json!({"backoffUntil": backoff, "version": "v1", "Entries": entries});
        let pretty = serde_json::to_string_pretty(&reordered).unwrap();
        let out = remove_entry_checked(&pretty, &fx::uuid(0)).unwrap();
        assert!(out.starts_with(
            r#"{"backoffUntil":"2026-09-28T10:30:00Z","version":"v1","Entries":[{"uuid":"#
        ));
        assert!(!out.contains('\n') && !out.contains(": "));
    }

    #[test]
    fn last_entry_leaves_an_empty_array() {
        let doc = fx::journal(vec![fx::entry(0, "stalled")]);
        let out = remove_entry_checked(&doc, &fx::uuid(0)).unwrap();
        assert_eq!(
            out,
            r#"{"version":"v1","entries":[],"backoffUntil":"2026-09-28T10:30:00Z"}"#
        );
        let doc = format!(
            r#"{{"version":"v1","entries":[{}]}}"#,
            fx::entry(0, "stalled")
        );
        assert_eq!(
            remove_entry_checked(&doc, &fx::uuid(0)).unwrap(),
            INITIAL_STATE_JSON
        );
    }

    #[test]
    fn absent_uuid_refused() {
        let e = remove_entry(&fx::full(), &fx::uuid(9)).unwrap_err();
        assert_eq!(e, EditError::NotFound { uuid: fx::uuid(9) });
        assert!(remove_entry(INITIAL_STATE_JSON, &fx::uuid(0)).is_err());
        let upper = fx::uuid(0xA).to_uppercase();
        let doc = fx::journal(vec![fx::entry(0xA, "stalled")]);
        assert!(matches!(
            remove_entry(&doc, &upper),
            Err(EditError::NotFound { .. })
        ));
    }

    #[test]
    fn unreadable_documents_refused() {
        let dup = fx::full().replacen(
            r#""phase":"stalled""#,
            r#""phase":"stalled","Phase":"stalled""#,
            1,
        );
        for bad in [
            "{",
            r#"{"version":"v1","entries":null}"#,
            &dup,
            r#"{"version":"v1","entries":[]} x"#,
        ] {
            assert!(
                matches!(remove_entry(bad, &fx::uuid(5)), Err(EditError::Invalid(_))),
                "{bad}"
            );
            assert!(matches!(
                remove_entry_checked(bad, &fx::uuid(5)),
                Err(EditError::Invalid(_))
            ));
        }
    }

    #[test]
    fn numbers_must_round_trip() {
        let doc = fx::journal(vec![fx::entry(0, "stalled"), fx::entry(1, "stalled")]);
        let neg_zero = doc.replacen(r#""instance":1"#, r#""instance":-0"#, 1);
        let e = remove_entry(&neg_zero, &fx::uuid(0)).unwrap_err();
        assert_eq!(e, EditError::NumberNotPreserved { raw: "-0".into() });
        // The -0 leaves with the removed entry, so nothing changes representation.
        assert!(remove_entry_checked(&neg_zero, &fx::uuid(1)).is_ok());
        let big = doc.replacen(r#""instance":1"#, r#""instance":2147483647"#, 1);
        let out = remove_entry_checked(&big, &fx::uuid(0)).unwrap();
        assert!(out.contains(r#""instance":2147483647"#));
    }

    #[test]
    fn string_escapes_keep_their_meaning() {
        let doc = fx::journal(vec![fx::entry(0, "stalled"), fx::entry(1, "stalled")]).replacen(
            r#""reason":"AcknowledgementTimeout""#,
            r#""reason":"Caf\u00e9 \/ \ud83d\ude00""#,
            2,
        );
        let out = remove_entry_checked(&doc, &fx::uuid(0)).unwrap();
        assert!(out.contains("\"reason\":\"Café / 😀\""));
        // Go (and the strict reader) turn a lone surrogate into U+FFFD; serde_json refuses it,
        // so the edit is refused rather than silently rewriting the text.
        let lone = doc.replacen(r#"\ud83d\ude00"#, r#"\ud800"#, 1);
        assert!(parse_journal(lone.as_bytes()).is_ok());
        let e = remove_entry(&lone, &fx::uuid(1)).unwrap_err();
        assert!(matches!(e, EditError::Reserialise(_)), "{e:?}");
    }

    fn mutate(doc: &[u8], op: u8, at: usize, len: usize, byte: u8) -> Vec<u8> {
        let mut d = doc.to_vec();
        let at = at % (d.len() + 1);
        let end = (at + len).min(d.len());
        match op % 5 {
            0 if at < d.len() => d[at] = byte,
            1 => d.insert(at, byte),
            2 => {
                d.drain(at..end);
            }
            3 => d.truncate(at),
            _ => {
                let slice = d[at..end].to_vec();
                d.splice(at..at, slice);
            }
        }
        d
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            let _ = parse_journal(&bytes);
            let text = String::from_utf8_lossy(&bytes);
            let _ = remove_entry_checked(&text, &fx::uuid(0));
        }

        #[test]
        fn mutated_documents_never_panic(
            ops in proptest::collection::vec(
                (any::<u8>(), any::<usize>(), 0usize..40, any::<u8>()),
                1..6,
            ),
            which in 0usize..7,
        ) {
            let mut doc = fx::full().into_bytes();
            for (op, at, len, byte) in ops {
                doc = mutate(&doc, op, at, len, byte);
            }
            let _ = parse_journal(&doc);
            let text = String::from_utf8_lossy(&doc);
            let parsed = parse_journal(text.as_bytes());
            let _ = remove_entry(&text, &fx::uuid(which));
            match remove_entry_checked(&text, &fx::uuid(which)) {
                Ok(out) => prop_assert!(parse_journal(out.as_bytes()).is_ok()),
                Err(EditError::Verification(why)) => prop_assert!(false, "verification: {why}"),
                Err(_) => {}
            }
            if parsed.is_err() {
                prop_assert!(remove_entry(&text, &fx::uuid(which)).is_err());
            }
        }

        #[test]
        fn generated_journals_edit_cleanly(
            phases in proptest::collection::vec(0usize..6, 0..12),
            pick in any::<usize>(),
        ) {
            let names = ["prepared", "submitted", "acknowledged", "completed", "failed", "stalled"];
            let entries = phases.iter().enumerate().map(|(i, p)| fx::entry(i, names[*p])).collect();
            let doc = fx::journal(entries);
            prop_assert!(parse_journal(doc.as_bytes()).is_ok());
            if !phases.is_empty() {
                let uuid = fx::uuid(pick % phases.len());
                let out = remove_entry_checked(&doc, &uuid).unwrap();
                prop_assert_eq!(remove_entry(&doc, &uuid).unwrap(), out.clone());
                prop_assert_eq!(entry_texts(&out).len(), phases.len() - 1);
            }
        }
    }
}
