//! The instance-type shape table that names a pool when a node has no GPU product label
//! (`alfred.md` §9): Alfred's built-in table, or the one its pod's `INSTANCE_TYPE_MAP`
//! environment variable sets (a JSON object of shape → product, which replaces the built-in
//! table whole). Unknown shapes keep the raw string.

use std::collections::BTreeMap;

/// Alfred's built-in table (`INSTANCE_TYPE_MAP` absent).
const BUILT_IN: &[(&str, &str)] = &[
    ("BM.GPU.A10.4", "A10"),
    ("BM.GPU.A100-v2.8", "A100-80G"),
    ("BM.GPU4.8", "A100-40G"),
    ("BM.GPU.B4.8", "A100-40G"),
    ("BM.GPU.H100.8", "H100"),
    ("BM.GPU.H100-NC.8", "H100"),
    ("p5.48xlarge", "H100"),
    ("Standard_ND96isr_H100_v5", "H100"),
    ("a3-highgpu-8g", "H100"),
    ("gd-8xh100ib-i128", "H100"),
    ("gpu-h100-sxm", "H100"),
    ("BM.GPU.H200.8", "H200"),
    ("BM.GPU.H200-NC.8", "H200"),
    ("gd-8xh200ib-i128", "H200"),
    ("gpu-h200-sxm", "H200"),
    ("BM.GPU.B200.8", "B200"),
    ("gpu-b200-sxm", "B200"),
    ("gd-8xl40-i128", "L40"),
    ("gpu-l40s", "L40S"),
];

/// Why an `INSTANCE_TYPE_MAP` value is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShapeTableError {
    /// Not a JSON object of strings.
    #[error("not a JSON object of instance type to GPU product ({0})")]
    NotAnObject(String),
    /// An entry with an empty shape or product.
    #[error("the entry {0:?} has an empty instance type or product")]
    EmptyEntry(String),
}

/// Shape → GPU product; `Default` is Alfred's built-in table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapeTable {
    entries: BTreeMap<String, String>,
    built_in: bool,
}

impl Default for ShapeTable {
    fn default() -> Self {
        let entries = BUILT_IN
            .iter()
            .map(|(s, p)| (s.to_string(), p.to_string()))
            .collect();
        ShapeTable {
            entries,
            built_in: true,
        }
    }
}

impl ShapeTable {
    /// The table an `INSTANCE_TYPE_MAP` JSON object sets (it replaces the built-in one).
    pub fn from_json(text: &str) -> Result<ShapeTable, ShapeTableError> {
        let entries: BTreeMap<String, String> =
            serde_json::from_str(text).map_err(|e| ShapeTableError::NotAnObject(e.to_string()))?;
        Self::from_entries(entries)
    }

    /// The table of these shape → product entries (it replaces the built-in one).
    pub fn from_entries(entries: BTreeMap<String, String>) -> Result<ShapeTable, ShapeTableError> {
        if let Some((s, _)) = entries
            .iter()
            .find(|(s, p)| s.trim().is_empty() || p.trim().is_empty())
        {
            return Err(ShapeTableError::EmptyEntry(s.clone()));
        }
        Ok(ShapeTable {
            entries,
            built_in: false,
        })
    }

    /// The table a configuration sets (`instance-type-map`: replaces the built-in one), else
    /// Alfred's built-in table; shared by every analysis of the run.
    pub fn configured(
        entries: Option<&BTreeMap<String, String>>,
    ) -> Result<std::sync::Arc<ShapeTable>, ShapeTableError> {
        let table = match entries {
            Some(map) => Self::from_entries(map.clone())?,
            None => ShapeTable::default(),
        };
        Ok(std::sync::Arc::new(table))
    }

    /// The product a shape names; an unknown shape keeps its raw string.
    pub fn product<'a>(&'a self, shape: &'a str) -> &'a str {
        self.entries.get(shape).map_or(shape, String::as_str)
    }

    /// Every entry, by shape.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries.iter().map(|(s, p)| (s.as_str(), p.as_str()))
    }

    /// Whether this is Alfred's built-in table.
    pub fn is_built_in(&self) -> bool {
        self.built_in
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_table_is_alfreds() {
        let t = ShapeTable::default();
        assert_eq!(t.product("BM.GPU.H100.8"), "H100");
        assert_eq!(t.product("p5.48xlarge"), "H100");
        assert_eq!(t.product("custom-8gpu"), "custom-8gpu");
        assert!(t.is_built_in());
    }

    #[test]
    fn instance_type_map_replaces_the_built_in_table() {
        let t = ShapeTable::from_json(r#"{"BM.GPU.H100.8": "NVIDIA-H100-80GB-HBM3"}"#).unwrap();
        assert_eq!(t.product("BM.GPU.H100.8"), "NVIDIA-H100-80GB-HBM3");
        assert_eq!(
            t.product("p5.48xlarge"),
            "p5.48xlarge",
            "replaced, not merged"
        );
        assert!(!t.is_built_in());
        assert!(matches!(
            ShapeTable::from_json("[1]"),
            Err(ShapeTableError::NotAnObject(_))
        ));
        assert!(matches!(
            ShapeTable::from_json(r#"{"a": ""}"#),
            Err(ShapeTableError::EmptyEntry(_))
        ));
    }
}
