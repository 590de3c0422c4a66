//! Reading one YAML mapping as a Go struct ([`Obj`]: known keys matched case-insensitively,
//! duplicates refused) and the scalar readers that convert values the way `sigs.k8s.io/yaml` +
//! `encoding/json` do (`int`, `float`, `boolean`, `string`).

use super::yaml::{describe, fail, join, scalar_text, Yaml};
use super::Res;

/// One mapping being read as a Go struct: every key was matched to a known field name.
pub(super) struct Obj<'a> {
    pub(super) path: String,
    pub(super) fields: Vec<(&'static str, &'a Yaml)>,
}

impl<'a> Obj<'a> {
    /// Absent or `null` reads as an empty mapping, as Go leaves the struct zero.
    pub(super) fn open(v: Option<&'a Yaml>, path: String, known: &[&'static str]) -> Res<Self> {
        let mut fields: Vec<(&'static str, &'a Yaml)> = Vec::new();
        for (key, value) in entries(v, &path)? {
            let at = join(&path, &key);
            // encoding/json matches field names case-insensitively.
            let Some(&name) = known.iter().find(|n| n.eq_ignore_ascii_case(&key)) else {
                return fail(&at, &known_keys(known), unknown_key(&key));
            };
            if fields.iter().any(|(n, _)| *n == name) {
                return fail(&at, "each key once", "a duplicate key");
            }
            fields.push((name, value));
        }
        Ok(Self { path, fields })
    }

    pub(super) fn at(&self, name: &str) -> String {
        join(&self.path, name)
    }

    pub(super) fn get(&self, name: &str) -> Option<&'a Yaml> {
        let field = self.fields.iter().find(|(n, _)| *n == name);
        field.map(|(_, v)| *v)
    }

    pub(super) fn child(&self, name: &str, known: &[&'static str]) -> Res<Obj<'a>> {
        Obj::open(self.get(name), self.at(name), known)
    }

    /// Reads an optional scalar; `None` when absent or `null`.
    pub(super) fn read<T>(&self, name: &str, f: Reader<T>) -> Res<Option<T>> {
        self.get(name).map_or(Ok(None), |v| f(v, &self.at(name)))
    }

    /// Reads an optional list; `null` items become the zero value, as in Go.
    pub(super) fn list<T: Default>(&self, name: &str, f: Reader<T>) -> Res<Option<Vec<T>>> {
        let path = self.at(name);
        let Some(items) = items(self.get(name), &path)? else {
            return Ok(None);
        };
        let read = |(i, v)| f(v, &format!("{path}[{i}]")).map(Option::unwrap_or_default);
        items
            .iter()
            .enumerate()
            .map(read)
            .collect::<Res<Vec<T>>>()
            .map(Some)
    }

    /// Reads an optional `map[string]T`: keys exact (no case folding) and unique.
    pub(super) fn map(&self, name: &str) -> Res<Vec<(String, &'a Yaml)>> {
        let path = self.at(name);
        let mut out: Vec<(String, &'a Yaml)> = Vec::new();
        for (key, v) in entries(self.get(name), &path)? {
            if out.iter().any(|(seen, _)| *seen == key) {
                return fail(
                    &format!("{path}[{key:?}]"),
                    "each key once",
                    "a duplicate key",
                );
            }
            out.push((key, v));
        }
        Ok(out)
    }
}

pub(super) type Reader<T> = fn(&Yaml, &str) -> Res<Option<T>>;

fn known_keys(known: &[&str]) -> String {
    if known.len() <= 8 {
        format!("a known key ({})", known.join(", "))
    } else {
        "a key of the alfredConfig schema (alfred.md §5)".to_owned()
    }
}

fn unknown_key(key: &str) -> String {
    if key.to_ascii_lowercase().starts_with("omenativecapability") {
        format!("unknown key {key:?} (E1 only; Alfred E2 rejects it)")
    } else {
        format!("unknown key {key:?}")
    }
}

/// The entries of a mapping with JSON keys (absent or `null` = none).
fn entries<'a>(v: Option<&'a Yaml>, path: &str) -> Res<Vec<(String, &'a Yaml)>> {
    let pairs = match v {
        None | Some(Yaml::Null) => return Ok(Vec::new()),
        Some(Yaml::Map(pairs)) => pairs,
        Some(other) => return fail(path, "a mapping", describe(other)),
    };
    let key = |(k, v): &'a (Yaml, Yaml)| match scalar_text(k) {
        Some(text) => Ok((text, v)),
        None => fail(
            path,
            "string keys",
            format!("a key that is {}", describe(k)),
        ),
    };
    pairs.iter().map(key).collect()
}

/// The items of a list (absent or `null` = `None`).
pub(super) fn items<'a>(v: Option<&'a Yaml>, path: &str) -> Res<Option<&'a [Yaml]>> {
    match v {
        None | Some(Yaml::Null) => Ok(None),
        Some(Yaml::Seq(items)) => Ok(Some(items)),
        Some(other) => fail(path, "a list", describe(other)),
    }
}

pub(super) fn int(v: &Yaml, path: &str) -> Res<Option<i64>> {
    const LIMIT: f64 = 9_223_372_036_854_775_808.0; // 2^63
    match v {
        Yaml::Null => Ok(None),
        Yaml::Int(i) => i64::try_from(*i)
            .map(Some)
            .or_else(|_| fail(path, "an integer", describe(v))),
        // A YAML float reaches Go's int through JSON, which accepts integral values.
        #[allow(clippy::cast_possible_truncation)]
        Yaml::Float(f) if f.fract() == 0.0 && f.abs() < LIMIT => Ok(Some(*f as i64)),
        other => fail(path, "an integer", describe(other)),
    }
}

pub(super) fn float(v: &Yaml, path: &str) -> Res<Option<f64>> {
    match v {
        Yaml::Null => Ok(None),
        // NaN and ±Inf cannot cross Alfred's YAML→JSON step.
        Yaml::Float(f) if f.is_finite() => Ok(Some(*f)),
        #[allow(clippy::cast_precision_loss)]
        Yaml::Int(i) => Ok(Some(*i as f64)),
        other => fail(path, "a finite number", describe(other)),
    }
}

pub(super) fn boolean(v: &Yaml, path: &str) -> Res<Option<bool>> {
    // go-yaml v2 (YAML 1.1) also reads these plain words as booleans; the document is read
    // with YAML 1.2 core booleans (`engine::formats::go_yaml`), which hands them over as strings.
    match v {
        Yaml::Null => Ok(None),
        Yaml::Bool(b) => Ok(Some(*b)),
        Yaml::Str(s) => match s.as_str() {
            "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Ok(Some(true)),
            "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => Ok(Some(false)),
            _ => fail(path, "true or false", describe(v)),
        },
        other => fail(path, "true or false", describe(other)),
    }
}

pub(super) fn string(v: &Yaml, path: &str) -> Res<Option<String>> {
    match (v, scalar_text(v)) {
        (Yaml::Null, _) => Ok(None),
        (_, Some(text)) => Ok(Some(text)),
        (other, None) => fail(path, "a string", describe(other)),
    }
}
