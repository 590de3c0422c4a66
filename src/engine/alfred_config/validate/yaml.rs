//! The YAML document as Alfred's decoder sees it (mappings keep duplicate keys, custom tags are
//! kept by name) and the helpers that build [`ConfigError`]s from it: `fail`, short renderings
//! of found values, key-path joining and Go's number-to-string conversion.
//!
//! Must not import anything outside std, `serde` and its ancestors `validate`/`alfred_config`.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, EnumAccess, MapAccess, SeqAccess, Visitor};

use super::Res;
use crate::engine::alfred_config::ConfigError;

/// A YAML document as Alfred's decoder sees it. Mappings keep every entry in order, so
/// duplicate keys can be reported with their path (`serde_yaml::Value` gives only a line).
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
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Yaml, A::Error> {
        // serde_yaml reports custom tags as enums. The variant must be consumed: returning
        // early leaves serde_yaml looping on the same event until memory runs out.
        use de::VariantAccess;
        let (tag, variant): (String, A::Variant) = data.variant()?;
        variant.newtype_variant::<Yaml>()?;
        Ok(Yaml::Tagged(tag))
    }
}

impl<'de> Deserialize<'de> for Yaml {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(YamlVisitor)
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
