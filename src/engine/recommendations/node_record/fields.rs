//! The tolerant member reader [`Fields`] (absent or `null` = not set; a mistyped member is kept
//! in `extra` with a warning), the [`wire_enum!`] macro for string-backed enums with an `Other`
//! fallback, and [`kind`], the short name of a JSON value's kind for messages.
//!
//! Shared by `node_record` and `recommendations`.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

/// Declares a string-backed wire enum with an `Other(String)` fallback, so values this build
/// does not know (older E1, newer E3) are kept verbatim and shown instead of failing a parse.
macro_rules! wire_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $wire:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vm])* $var,)+
            #[doc = "A value this build does not know (E1/E3 or newer), kept verbatim."]
            Other(String),
        }
        impl $name {
            #[doc = "Maps a wire string; total: anything unrecognised becomes `Other`."]
            pub fn from_wire(s: &str) -> Self {
                match s {
                    $($wire => Self::$var,)+
                    other => Self::Other(other.to_string()),
                }
            }
            #[doc = "The wire string; `from_wire(x.as_str()) == x` for every value."]
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$var => $wire,)+
                    Self::Other(s) => s,
                }
            }
        }
    };
}
pub(crate) use wire_enum;

/// Reads the members of one JSON object tolerantly. Each known member is taken out once;
/// absent or `null` means "not set" (Go's `omitempty`); a member of the wrong type or format is
/// not lost: it is moved to `extra` under its own name and a warning is recorded.
pub(crate) struct Fields {
    map: Map<String, Value>,
    rejected: Map<String, Value>,
    ctx: String,
    warnings: Vec<String>,
}

impl Fields {
    /// Starts reading `map`; `ctx` prefixes every warning (e.g. `node.gpu-a`).
    pub(crate) fn new(map: Map<String, Value>, ctx: impl Into<String>) -> Self {
        let ctx = ctx.into();
        Fields {
            map,
            rejected: Map::new(),
            ctx,
            warnings: Vec::new(),
        }
    }

    /// Whether `name` is present with a non-`null` value (not yet taken).
    pub(crate) fn present(&self, name: &str) -> bool {
        self.map.get(name).is_some_and(|v| !v.is_null())
    }

    /// Whether `name` is absent altogether (a `null` member counts as present).
    pub(crate) fn absent(&self, name: &str) -> bool {
        !self.map.contains_key(name)
    }

    fn take(&mut self, name: &str) -> Option<Value> {
        // `shift_remove` keeps the remaining members in document order for `extra`.
        self.map.shift_remove(name).filter(|v| !v.is_null())
    }

    fn reject<T>(&mut self, name: &str, value: Value, want: &str) -> Option<T> {
        self.warnings.push(format!(
            "{}: `{name}` is not {want}; kept as an unknown field",
            self.ctx
        ));
        self.rejected.insert(name.to_string(), value);
        None
    }

    /// A string member.
    pub(crate) fn string(&mut self, name: &str) -> Option<String> {
        match self.take(name)? {
            Value::String(s) => Some(s),
            other => self.reject(name, other, "a string"),
        }
    }

    /// A boolean member.
    pub(crate) fn boolean(&mut self, name: &str) -> Option<bool> {
        match self.take(name)? {
            Value::Bool(b) => Some(b),
            other => self.reject(name, other, "a boolean"),
        }
    }

    /// A number member as f64 (serde_json never yields NaN/∞ from text).
    pub(crate) fn float(&mut self, name: &str) -> Option<f64> {
        let value = self.take(name)?;
        match value.as_f64() {
            Some(f) => Some(f),
            None => self.reject(name, value, "a number"),
        }
    }

    /// An integer member within the int32 range (Go's `int32`; `3.0` is rejected like Go does).
    pub(crate) fn int32(&mut self, name: &str) -> Option<i32> {
        let value = self.take(name)?;
        match value.as_i64().and_then(|i| i32::try_from(i).ok()) {
            Some(i) => Some(i),
            None => self.reject(name, value, "an int32"),
        }
    }

    /// An RFC 3339 timestamp member (any fraction up to nanoseconds), normalised to UTC.
    pub(crate) fn time(&mut self, name: &str) -> Option<DateTime<Utc>> {
        let value = self.take(name)?;
        let parsed = value
            .as_str()
            .and_then(|s| DateTime::parse_from_rfc3339(s).ok());
        match parsed {
            Some(t) => Some(t.with_timezone(&Utc)),
            None => self.reject(name, value, "an RFC 3339 timestamp"),
        }
    }

    /// An array-of-strings member; absent ⇒ empty. One non-string element rejects the whole
    /// member so the view never shows a silently shortened list.
    pub(crate) fn strings(&mut self, name: &str) -> Vec<String> {
        let Some(value) = self.take(name) else {
            return Vec::new();
        };
        let list: Option<Vec<String>> = value
            .as_array()
            .and_then(|a| a.iter().map(|v| v.as_str().map(str::to_string)).collect());
        match list {
            Some(list) => list,
            None => self
                .reject(name, value, "an array of strings")
                .unwrap_or_default(),
        }
    }

    /// An object member.
    pub(crate) fn object(&mut self, name: &str) -> Option<Map<String, Value>> {
        match self.take(name)? {
            Value::Object(m) => Some(m),
            other => self.reject(name, other, "an object"),
        }
    }

    /// An array member.
    pub(crate) fn array(&mut self, name: &str) -> Option<Vec<Value>> {
        match self.take(name)? {
            Value::Array(a) => Some(a),
            other => self.reject(name, other, "an array"),
        }
    }

    /// Records a warning in this reader's context (used for nested, skipped elements).
    pub(crate) fn warn(&mut self, what: impl std::fmt::Display) {
        self.warnings.push(format!("{}: {what}", self.ctx));
    }

    /// Adds warnings of a nested reader (already prefixed with their own context).
    pub(crate) fn extend_warnings(&mut self, w: Vec<String>) {
        self.warnings.extend(w);
    }

    /// The context prefix of this reader's warnings.
    pub(crate) fn ctx(&self) -> &str {
        &self.ctx
    }

    /// Ends reading: unread members then rejected ones form `extra`; returns the warnings too.
    pub(crate) fn finish(self) -> (Map<String, Value>, Vec<String>) {
        let mut extra = self.map;
        extra.extend(self.rejected);
        (extra, self.warnings)
    }
}

/// Short name of a JSON value's kind for messages (`null`, `an array`, ...).
pub(crate) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
