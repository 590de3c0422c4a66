//! How ome-top reads YAML (Alfred's `config.yaml`, the scheduler's
//! `KubeSchedulerConfiguration`, YAML snapshot files) on serde-saphyr: the [`options`] that keep
//! the scalar and document semantics these readers were written against (serde_yaml 0.9's; the
//! readers add the Go rules on top), the event [`scan`] for what the options cannot express
//! (local tags, go-yaml's end of a final block scalar), and the JSON tree [`to_json`].
//!
//! The semantics, each pinned by a test below: YAML 1.2 core scalars (only `true`/`false` in
//! any case are booleans; `0o17`, `0x1F`, `0b1` are integers; a number with a leading zero or
//! an underscore, `0755` or `1_000`, is a string; `.nan`/`.inf` are floats), one document only,
//! duplicate keys handed to the visitor in order (the JSON tree keeps the last value, Alfred's
//! tree reports them), `<<` an ordinary key, aliases expanded, `!!binary` kept as its text, a
//! local tag (`!Foo`) refused by the JSON tree, nesting ≤ [`MAX_DEPTH`], no caps on size.
//! Not kept, as no input ome-top reads has them: `1e400` is ∞ (was text), an integer beyond
//! 64 bits a float (was an error in JSON), `!!null ""` null (was an error), a scalar under an
//! unknown global tag (`!!foo 5`) is typed (was text), `!!timestamp` is refused (was text).

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::Value;
use serde_saphyr::granit_parser::{self, Event, Parser, ScalarStyle};
use serde_saphyr::options::{DuplicateKeyPolicy, MergeKeyPolicy, NonFiniteFloatPolicy};
use serde_saphyr::{Budget, Options};

/// Deepest nesting of sequences and mappings accepted. serde_yaml allowed 128, but
/// serde-saphyr's recursive deserializer takes several times its stack per level; 64 (its own
/// default) keeps the worst case well inside the 2 MiB stack of the blocking threads the
/// analysis runs on, and is still deeper than any Kubernetes object or config nests.
pub const MAX_DEPTH: usize = 64;

/// serde-saphyr options for one YAML document read with the semantics above. Errors name the
/// line and column and are one line (no source snippet).
pub fn options() -> Options {
    options_nesting(MAX_DEPTH)
}

fn options_nesting(max_depth: usize) -> Options {
    // Config maps and snapshots of large fleets exceed the default event, node and scalar
    // budgets; alias expansion stays bounded by the default alias limits, and nesting (also
    // through aliases) by the depth.
    let mut budget = Budget::default();
    budget.max_depth = max_depth;
    budget.max_events = usize::MAX;
    budget.max_nodes = usize::MAX;
    budget.max_total_scalar_bytes = usize::MAX;
    budget.max_reader_input_bytes = None;
    budget.enforce_alias_anchor_ratio = false;
    let mut o = Options::default();
    o.budget = Some(budget);
    // Comments are never read; not capturing them also lifts the cap on buffered comments.
    o.emit_comments = false;
    o.duplicate_keys = DuplicateKeyPolicy::PassThrough;
    o.merge_keys = MergeKeyPolicy::AsOrdinary;
    o.strict_booleans = true;
    o.leading_zero_numbers_as_strings = true;
    o.underscored_numbers_as_strings = true;
    // A `~` or `null` mapping key is the string "~"/"null" in the JSON tree.
    o.null_as_string = true;
    o.ignore_binary_tag_for_string = true;
    o.non_finite_float_policy = NonFiniteFloatPolicy::PassThrough;
    o.with_snippet = false;
    o
}

/// What a second pass over the document's events finds that the options cannot express.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Scan {
    /// The first local tag (`!Foo`, or the non-specific `!`) and its 1-based line and column.
    pub local_tag: Option<(String, usize, usize)>,
    /// go-yaml's value of the last node when that node is a literal or folded block scalar
    /// and the text ends without a line break. serde-saphyr reads one more line break at the
    /// end of such a scalar (the YAML test suite's reading); libyaml, go-yaml and serde_yaml
    /// add none, so the reader drops it with [`undo_final_line_break`].
    pub final_block_scalar: Option<String>,
}

/// Scans the document's events, only when the text can hold what [`Scan`] reports: a tag
/// needs a `!`, the final block scalar a text without a final line break. The pass costs about
/// as much as the parse, and a large snapshot has neither. Stops at a syntax error, which the
/// parse reports.
pub fn scan(text: &str) -> Scan {
    let (tags, open_end) = (text.contains('!'), !text.ends_with(['\n', '\r']));
    let mut found = Scan::default();
    if !(tags || open_end) {
        return found;
    }
    let options = granit_parser::options! {
        block_scalar_eof_without_line_feed: true,
        emit_comments: false,
    };
    let mut last_block: Option<Cow<'_, str>> = None;
    for event in Parser::new_from_str_with_options(text, options) {
        let Ok((event, span)) = event else { break };
        let tag = match &event {
            Event::Scalar(_, _, _, tag)
            | Event::SequenceStart(_, _, tag)
            | Event::MappingStart(_, _, tag) => tag.as_deref().map(ToString::to_string),
            _ => None,
        };
        if let Some(tag) = tag.filter(|t| found.local_tag.is_none() && local_tag(t).is_some()) {
            let at = span.tag_start.unwrap_or(span.start);
            found.local_tag = Some((tag, at.line(), at.col() + 1));
        }
        match event {
            Event::Scalar(value, ScalarStyle::Literal | ScalarStyle::Folded, ..) => {
                last_block = Some(value);
            }
            Event::Scalar(..)
            | Event::Alias(_)
            | Event::UnresolvedAlias(_)
            | Event::SequenceStart(..)
            | Event::MappingStart(..) => last_block = None,
            _ => {}
        }
    }
    if open_end {
        found.final_block_scalar = last_block.map(Cow::into_owned);
    }
    found
}

/// Why a YAML text could not be read; displays as the operator has always read it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum YamlError {
    /// More than one document; serde-saphyr's own text names the functions a program should
    /// call instead, so this is worded here.
    #[error("more than one YAML document at line {line}, column {column}")]
    MultipleDocumentsAt {
        /// 1-based line of the second document.
        line: u64,
        /// 1-based column.
        column: u64,
    },
    /// More than one document, position unknown.
    #[error("more than one YAML document")]
    MultipleDocuments,
    /// Any other reading error, in serde-saphyr's words (its error is neither `Clone` nor
    /// `Eq`, and the rows that keep this one are both).
    #[error("{0}")]
    Read(String),
    /// A local tag (`!Foo`) in a tree that must be JSON.
    #[error("a value tagged {tag} is not JSON at line {line}, column {column}")]
    LocalTag {
        /// The tag as written.
        tag: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
}

impl From<serde_saphyr::Error> for YamlError {
    fn from(e: serde_saphyr::Error) -> YamlError {
        match (&e, e.location()) {
            (serde_saphyr::Error::MultipleDocuments { .. }, Some(at)) => {
                YamlError::MultipleDocumentsAt {
                    line: at.line(),
                    column: at.column(),
                }
            }
            (serde_saphyr::Error::MultipleDocuments { .. }, None) => YamlError::MultipleDocuments,
            _ => YamlError::Read(e.to_string()),
        }
    }
}

/// Parses one document with [`options`] and [`scan`]s it; the error names the line and
/// column. The caller applies the scan to its tree.
pub fn from_str<T: for<'de> Deserialize<'de>>(text: &str) -> Result<(T, Scan), YamlError> {
    let doc = serde_saphyr::from_str_with_options(text, options())?;
    Ok((doc, scan(text)))
}

/// Runs `f` on a streaming deserializer of one document read with [`options`] (no [`scan`]:
/// the caller scans first when it needs to); the error names the line and column.
pub fn with_deserializer<'de, R>(
    text: &'de str,
    f: impl for<'e> FnOnce(serde_saphyr::Deserializer<'de, 'e>) -> Result<R, serde_saphyr::Error>,
) -> Result<R, YamlError> {
    Ok(serde_saphyr::with_deserializer_from_str_with_options(
        text,
        options(),
        f,
    )?)
}

/// Parses one YAML document into a JSON tree: duplicate keys keep the last value, non-string
/// scalar keys their text, NaN and ±∞ become `null`; a local tag (`!Foo`) is an error, as it
/// was with serde_yaml.
pub fn to_json(text: &str) -> Result<Value, YamlError> {
    let (mut doc, found) = from_str::<Value>(text)?;
    if let Some((tag, line, column)) = found.local_tag {
        return Err(YamlError::LocalTag { tag, line, column });
    }
    if let (Some(go), Some(s)) = (found.final_block_scalar, last_leaf(&mut doc)) {
        undo_final_line_break(s, &go);
    }
    Ok(doc)
}

/// The name of a local tag (`!Foo` → "Foo", the non-specific `!` → "!"), which serde_yaml
/// handed over as an enum; `None` for tags resolved to a URI (`!!str`).
pub fn local_tag(tag: &str) -> Option<&str> {
    let rest = tag.strip_prefix('!')?;
    Some(if rest.is_empty() { "!" } else { rest })
}

/// Turns serde-saphyr's reading of the final block scalar into go-yaml's (`go`, from
/// [`Scan::final_block_scalar`]): drops the one line break saphyr added, if it is there.
pub fn undo_final_line_break(value: &mut String, go: &str) {
    if value.strip_suffix('\n') == Some(go) {
        value.pop();
    }
}

/// The string of the last node in document order, if it is one. Maps keep the position of a
/// key's first occurrence, so after a repeated key this may be another node; the comparison
/// with go-yaml's value in [`undo_final_line_break`] guards that case.
pub fn last_leaf(v: &mut Value) -> Option<&mut String> {
    match v {
        Value::String(s) => Some(s),
        Value::Array(items) => last_leaf(items.last_mut()?),
        Value::Object(map) => last_leaf(map.values_mut().next_back()?),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)] // Tests may fail loudly.

    use super::*;
    use serde_json::json;

    fn value(yaml: &str) -> Value {
        let doc = to_json(&format!("v: {yaml}")).unwrap_or_else(|e| panic!("{yaml:?}: {e}"));
        doc["v"].clone()
    }

    #[test]
    fn only_yaml_1_2_core_words_are_booleans() {
        for (text, b) in [
            ("true", true),
            ("True", true),
            ("TRUE", true),
            ("false", false),
        ] {
            assert_eq!(value(text), json!(b), "{text}");
        }
        // go-yaml v2 reads these as booleans; readers that want that (Alfred) convert them.
        for text in ["yes", "No", "on", "OFF", "y", "n"] {
            assert_eq!(value(text), json!(text), "{text}");
        }
    }

    #[test]
    fn number_forms() {
        for (text, n) in [
            ("0o17", 15),
            ("0x1F", 31),
            ("0b101", 5),
            ("+5", 5),
            ("-0x10", -16),
        ] {
            assert_eq!(value(text), json!(n), "{text}");
        }
        assert_eq!(value("1e6"), json!(1e6));
        assert_eq!(value(".5"), json!(0.5));
        // A leading zero (go-yaml: octal) or an underscore keeps the text, as do upper-case
        // radix prefixes and things that only look like numbers.
        for text in [
            "0755", "-007", "1_000", "0X1F", "0x", "1.5.2", "12:30", "inf",
        ] {
            assert_eq!(value(text), json!(text), "{text}");
        }
        for text in [".nan", ".inf", "-.Inf"] {
            assert_eq!(value(text), Value::Null, "{text}");
        }
    }

    #[test]
    fn nulls_and_keys() {
        for text in ["~", "null", "NULL", ""] {
            assert_eq!(value(text), Value::Null, "{text:?}");
        }
        let doc = to_json("~: a\nnull: b\n1: c\ntrue: d\n1.50: e\n0xB: f\n").unwrap();
        let keys: Vec<&String> = doc.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["~", "null", "1", "true", "1.50", "0xB"]);
        assert!(to_json("[a, b]: 1").is_err());
    }

    #[test]
    fn a_repeated_key_keeps_its_place_and_the_last_value() {
        let doc = to_json("a: 1\nb: 2\na: 3\n").unwrap();
        assert_eq!(doc.to_string(), r#"{"a":3,"b":2}"#);
        assert_eq!(to_json("{a: 1, a: 2}").unwrap(), json!({"a": 2}));
    }

    #[test]
    fn aliases_expand_and_merge_keys_are_ordinary_keys() {
        let doc = to_json("a: &x {k: 1}\nb: *x\nc:\n  <<: *x\n  j: 2\n").unwrap();
        let want = json!({"a": {"k": 1}, "b": {"k": 1}, "c": {"<<": {"k": 1}, "j": 2}});
        assert_eq!(doc, want);
        assert!(to_json("a: *nowhere").is_err());
        assert!(to_json("a: &x [*x]").is_err());
    }

    #[test]
    fn tags() {
        assert_eq!(value("!!str 5"), json!("5"));
        assert_eq!(value("!!int \"5\""), json!(5));
        assert_eq!(value("!!binary aGk="), json!("aGk="));
        for text in ["!Foo x", "!Foo [1]", "!Foo {a: 1}", "! x"] {
            let e = to_json(&format!("a: 1\nv: {text}"))
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("tagged !") && e.contains("line 2, column 4"),
                "{text}: {e}"
            );
        }
        // A tag a %TAG directive resolves to a URI is not local.
        assert!(to_json("%TAG !e! tag:example.com,2000:\n---\nv: !e!x 5").is_ok());
        assert_eq!(local_tag("!Foo"), Some("Foo"));
        assert_eq!(local_tag("!"), Some("!"));
        assert_eq!(local_tag("tag:yaml.org,2002:str"), None);
    }

    #[test]
    fn one_document_at_most() {
        for text in ["", "# only a comment\n", "---\n"] {
            assert_eq!(to_json(text), Ok(Value::Null), "{text:?}");
        }
        assert!(to_json("a: 1\n...\n").is_ok());
        for (text, at) in [
            ("a: 1\n---\nb: 2\n", "line 3, column 1"),
            ("a: 1\n---\n", "line 2"),
        ] {
            let e = to_json(text).unwrap_err().to_string();
            assert!(
                e.starts_with("more than one YAML document at ") && e.contains(at),
                "{e}"
            );
        }
    }

    #[test]
    fn errors_are_one_line_with_line_and_column() {
        for text in [
            "a: [",
            "a: b: c",
            "a: \"x\n",
            "this is { not json or yaml: [",
        ] {
            let e = to_json(text).unwrap_err().to_string();
            assert!(e.contains("line 1, column"), "{text:?}: {e}");
            assert_eq!(e.lines().count(), 1, "{text:?}: {e}");
        }
    }

    #[test]
    fn nesting_is_capped_and_size_is_not() {
        let nested = |n: usize| "[".repeat(n) + &"]".repeat(n);
        assert_eq!(options().budget.map(|b| b.max_depth), Some(MAX_DEPTH));
        // The cap at a depth a test thread's stack holds in a debug build.
        let read =
            |text: &str| serde_saphyr::from_str_with_options::<Value>(text, options_nesting(8));
        assert!(read(&nested(8)).is_ok());
        let e = read(&nested(9)).unwrap_err().to_string();
        assert!(e.contains("line 1, column 9"), "{e}");
        // Through aliases too.
        assert!(read("a: &a [[[[[[[1]]]]]]]\nb: [*a]").is_err());
        let block: String = (0..9).map(|i| format!("{}- \n", "  ".repeat(i))).collect();
        assert!(read(&block).is_err());
        // More nodes than serde-saphyr's default budget allows.
        let big = format!("[{}0]", "0,".repeat(251_000));
        assert_eq!(
            to_json(&big).unwrap().as_array().map(Vec::len),
            Some(251_001)
        );
    }

    #[test]
    fn a_final_block_scalar_gets_no_line_break_the_text_does_not_have() {
        for (text, want) in [
            ("a: |\n  x\n  y", json!({"a": "x\ny"})),
            ("a: |+\n  x", json!({"a": "x"})),
            ("a: >\n  x\n  y", json!({"a": "x y"})),
            ("- |\n  x", json!(["x"])),
            ("a:\n  b: |\n    x", json!({"a": {"b": "x"}})),
            // Unchanged: the text ends with a line break, or the scalar is not last or a block.
            ("a: |\n  x\n  y\n", json!({"a": "x\ny\n"})),
            ("a: |\n  x\n# c", json!({"a": "x\n"})),
            ("a: |\n  x\nb: 1", json!({"a": "x\n", "b": 1})),
            ("a: &s |\n  x\nb: *s", json!({"a": "x\n", "b": "x\n"})),
            ("a: |-\n  x", json!({"a": "x"})),
            ("a: \"x\\n\"", json!({"a": "x\n"})),
        ] {
            assert_eq!(to_json(text), Ok(want), "{text:?}");
        }
        let last = |text| scan(text).final_block_scalar;
        assert_eq!(last("a: |\n  x"), Some("x".to_owned()));
        assert_eq!(last("a: |\n  x\n"), None);
        assert_eq!(last("a: x"), None);
    }
}
