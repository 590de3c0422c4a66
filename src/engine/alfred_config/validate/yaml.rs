//! The YAML document as Alfred's decoder sees it (mappings keep duplicate keys, custom tags are
//! kept by name), read with `engine::formats::go_yaml`'s options, and the helpers that build
//! [`ConfigError`]s from it: `fail`, short renderings of found values, key-path joining and
//! Go's number-to-string conversion.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Tagged;

use super::Res;
use crate::engine::alfred_config::ConfigError;

/// A YAML document as Alfred's decoder sees it. Mappings keep every entry in order, so
/// duplicate keys can be reported with their path (a YAML library's own map reports only a line).
pub(super) enum Yaml {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    Seq(Vec<Yaml>),
    Map(Vec<(Yaml, Yaml)>),
    /// A value under a custom tag (`!Foo x`); only the tag is kept, for the message.
    Tagged(String),
}

struct YamlVisitor;

impl<'de> Visitor<'de> for YamlVisitor {
    type Value = Yaml;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Yaml, E> {
        Ok(Yaml::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Yaml, E> {
        Ok(Yaml::Int(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Yaml, E> {
        Ok(Yaml::Int(v.into()))
    }
    fn visit_i128<E>(self, v: i128) -> Result<Yaml, E> {
        Ok(Yaml::Int(v))
    }
    fn visit_u128<E>(self, v: u128) -> Result<Yaml, E> {
        // Beyond any Go int either way; saturating keeps the "out of range" verdict.
        Ok(Yaml::Int(i128::try_from(v).unwrap_or(i128::MAX)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Yaml, E> {
        Ok(Yaml::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Yaml, E> {
        Ok(Yaml::Str(v.to_owned()))
    }
    fn visit_unit<E>(self) -> Result<Yaml, E> {
        Ok(Yaml::Null)
    }
    fn visit_none<E>(self) -> Result<Yaml, E> {
        Ok(Yaml::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Yaml, D::Error> {
        Yaml::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Yaml, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Yaml::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Yaml, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(Yaml::Map(entries))
    }
}

impl<'de> Deserialize<'de> for Yaml {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // serde-saphyr hands the node's tag beside it; a local tag replaces the value, of
        // which only the tag's name is kept, for the message.
        let Tagged(Untagged(value), tag) = Tagged::<Untagged>::deserialize(d)?;
        let local = tag
            .as_deref()
            .and_then(crate::engine::formats::go_yaml::local_tag);
        Ok(local.map_or(value, |name| Yaml::Tagged(name.to_owned())))
    }
}

/// The node itself, its tag already taken by [`Yaml`]'s `Deserialize`.
struct Untagged(Yaml);

impl<'de> Deserialize<'de> for Untagged {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(YamlVisitor).map(Untagged)
    }
}

impl Yaml {
    /// Reads one document; the error names the line and column.
    pub(super) fn read(text: &str) -> Result<Yaml, crate::engine::formats::go_yaml::YamlError> {
        use crate::engine::formats::go_yaml;
        let (mut doc, scan) = go_yaml::from_str::<Yaml>(text)?;
        if let (Some(go), Some(s)) = (scan.final_block_scalar, doc.last_leaf()) {
            go_yaml::undo_final_line_break(s, &go);
        }
        Ok(doc)
    }

    /// The string of the last node in document order, if it is one.
    fn last_leaf(&mut self) -> Option<&mut String> {
        match self {
            Yaml::Str(s) => Some(s),
            Yaml::Seq(items) => items.last_mut()?.last_leaf(),
            Yaml::Map(entries) => entries.last_mut()?.1.last_leaf(),
            _ => None,
        }
    }
}

pub(super) fn fail<T>(path: &str, expected: &str, found: impl Into<String>) -> Res<T> {
    let (path, expected, found) = (path.to_owned(), expected.to_owned(), found.into());
    Err(ConfigError {
        path,
        expected,
        found,
    })
}

/// Short rendering of a value for `found`; long strings are cut so messages stay one line.
pub(super) fn describe(v: &Yaml) -> String {
    match v {
        Yaml::Null => "null".to_owned(),
        Yaml::Bool(b) => b.to_string(),
        Yaml::Int(i) => i.to_string(),
        Yaml::Float(f) => f.to_string(),
        Yaml::Str(s) => quote(s),
        Yaml::Seq(_) => "a list".to_owned(),
        Yaml::Map(_) => "a mapping".to_owned(),
        Yaml::Tagged(tag) => format!("a value tagged !{tag}"),
    }
}

pub(super) fn quote(s: &str) -> String {
    match s.char_indices().nth(64) {
        Some((cut, _)) => format!("{:?}…", &s[..cut]),
        None => format!("{s:?}"),
    }
}

pub(super) fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_owned()
    } else {
        format!("{parent}.{key}")
    }
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 32)` for a finite `f`, which sigs.k8s.io/yaml uses
/// when a float lands in a string field or a map key (`1.0` → "1", `1e6` → "1e+06").
fn go_float_string(f: f64) -> String {
    #[allow(clippy::cast_possible_truncation)] // Go formats at 32-bit precision too.
    let x = f as f32;
    if x == 0.0 || (1e-4..1e6).contains(&x.abs()) {
        return x.to_string();
    }
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let (sign, digits) = exp.strip_prefix('-').map_or(("+", exp), |d| ("-", d));
    format!("{mantissa}e{sign}{digits:0>2}")
}

/// A number or bool where Go wants a string, converted as sigs.k8s.io/yaml converts it.
pub(super) fn scalar_text(v: &Yaml) -> Option<String> {
    match v {
        Yaml::Str(s) => Some(s.clone()),
        Yaml::Int(i) => Some(i.to_string()),
        Yaml::Float(f) if f.is_finite() => Some(go_float_string(*f)),
        Yaml::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}
