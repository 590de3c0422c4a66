//! Configuration errors and notices, and the small TOML readers that produce them. A malformed
//! user file is an error naming the file, the key path and the expected form; an oddity that
//! cannot send a key to the wrong action (an unknown theme slot) is a notice.
//!
//! Owns: `ConfigError`, `Notice`, `parse_toml`, `show_value`, `kind_of`.

use std::fmt;

/// A configuration file that cannot be used. Displays as
/// `FILE: PATH: PROBLEM; expected FORM` (parts left out when empty).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{file}{}: {problem}{}",
    part(": ", path),
    part("; expected ", expected)
)]
pub struct ConfigError {
    /// The file, as the operator knows it (a path, or `(built-in) keymaps/vim.toml`).
    pub file: String,
    /// Where in the file, e.g. `[nodes] entry 3: on = "<C-"`; empty for the whole file.
    pub path: String,
    /// What is wrong.
    pub problem: String,
    /// The form that would have been accepted; empty when the problem says it.
    pub expected: String,
}

impl ConfigError {
    /// An error at `path` of `file`.
    pub fn new(
        file: &str,
        path: impl Into<String>,
        problem: impl Into<String>,
        expected: impl Into<String>,
    ) -> ConfigError {
        ConfigError {
            file: file.to_string(),
            path: path.into(),
            problem: problem.into(),
            expected: expected.into(),
        }
    }
}

/// `text` after `lead`, or nothing when `text` is empty.
fn part(lead: &str, text: &str) -> String {
    if text.is_empty() {
        String::new()
    } else {
        format!("{lead}{text}")
    }
}

/// A non-fatal oddity found while loading, shown once at startup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// The file it was found in.
    pub file: String,
    /// What was odd and what ome-top did about it.
    pub message: String,
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

/// Parses a whole TOML document; a syntax error names its line and column (1-based).
pub fn parse_toml(file: &str, text: &str) -> Result<toml::Table, ConfigError> {
    text.parse::<toml::Table>().map_err(|e| {
        let at = e.span().map(|span| {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.chars().rev().take_while(|c| *c != '\n').count() + 1;
            format!("line {line}, column {column}")
        });
        let message = e.message().trim_end().to_string();
        ConfigError::new(
            file,
            at.unwrap_or_default(),
            format!("TOML syntax error: {message}"),
            "",
        )
    })
}

/// A short rendering of a value for messages: strings quoted, scalars as written, arrays and
/// tables by kind.
pub fn show_value(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => format!("{s:?}"),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(x) => x.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Datetime(d) => d.to_string(),
        toml::Value::Array(a) if a.iter().all(|v| v.is_str()) => {
            let items: Vec<String> = a.iter().map(show_value).collect();
            format!("[{}]", items.join(", "))
        }
        toml::Value::Array(_) => "an array".to_string(),
        toml::Value::Table(_) => "a table".to_string(),
    }
}

/// A value's kind with its article, for messages: `an integer`, `a string`.
pub fn kind_of(value: &toml::Value) -> String {
    match value {
        toml::Value::Integer(_) => "an integer".to_string(),
        toml::Value::Array(_) => "an array".to_string(),
        other => format!("a {}", other.type_str()),
    }
}

/// Rejects every key of `table` not in `known`, naming the first unknown one.
pub fn reject_unknown_keys(
    file: &str,
    prefix: &str,
    table: &toml::Table,
    known: &[&str],
) -> Result<(), ConfigError> {
    match table.keys().find(|k| !known.contains(&k.as_str())) {
        None => Ok(()),
        Some(k) => Err(ConfigError::new(
            file,
            format!("{prefix}{k}"),
            "unknown key",
            format!("one of {}", quoted_list(known)),
        )),
    }
}

/// `"a", "b", "c"` for messages.
pub fn quoted_list(items: &[&str]) -> String {
    items
        .iter()
        .map(|s| format!("\"{s}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_carry_line_and_column() {
        let err = parse_toml("x.toml", "a = 1\nb = = 2\n").unwrap_err();
        assert_eq!(err.file, "x.toml");
        assert_eq!(err.path, "line 2, column 5");
        assert!(err.problem.starts_with("TOML syntax error: "), "{err}");
    }

    #[test]
    fn display_joins_the_parts() {
        let err = ConfigError::new("f.toml", "[nodes] entry 1", "bad", "good");
        assert_eq!(
            err.to_string(),
            "f.toml: [nodes] entry 1: bad; expected good"
        );
        let bare = ConfigError::new("f.toml", "", "unreadable", "");
        assert_eq!(bare.to_string(), "f.toml: unreadable");
    }
}
