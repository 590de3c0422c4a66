//! The `/` row filter: a case-insensitive substring, or a regular expression when the text
//! starts with `~` (k9s users know `/` as substring search; `~` marks the regex form).
//!
//! Owns: `Filter`. Plain data; must not import `ratatui`, `tokio` or `kube`.

use regex::Regex;

/// A compiled row filter. The empty filter matches everything.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// The text as typed.
    pub text: String,
    /// The compiled regex for `~` filters; `None` for substrings.
    regex: Option<Regex>,
    /// Why a `~` filter does not compile (the filter then matches everything).
    pub error: Option<String>,
    /// Lower-cased substring.
    needle: String,
}

impl Filter {
    /// Compiles `text`. An invalid regex keeps the text, records the error and matches all.
    pub fn new(text: &str) -> Self {
        let mut f = Filter {
            text: text.to_string(),
            ..Filter::default()
        };
        if let Some(pattern) = text.strip_prefix('~') {
            match regex::RegexBuilder::new(pattern)
                .case_insensitive(true)
                .build()
            {
                Ok(r) => f.regex = Some(r),
                Err(e) => f.error = Some(e.to_string().lines().last().unwrap_or("").to_string()),
            }
        } else {
            f.needle = text.to_lowercase();
        }
        f
    }

    /// Whether a lower-cased haystack (cells separated by U+001F) passes. A regex is tried
    /// on each cell, so `^` and `$` anchor to a cell.
    pub fn matches(&self, haystack: &str) -> bool {
        match &self.regex {
            Some(r) => haystack.split('\u{1f}').any(|cell| r.is_match(cell)),
            None => haystack.contains(&self.needle),
        }
    }

    /// Whether any filter is in force.
    pub fn is_active(&self) -> bool {
        !self.text.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substring_is_case_insensitive() {
        let f = Filter::new("H100");
        assert!(f.matches("nvidia-h100-80gb"));
        assert!(!f.matches("a100"));
    }

    #[test]
    fn tilde_means_regex() {
        let f = Filter::new("~^node-0[12]$");
        assert!(f.matches("node-01"));
        assert!(!f.matches("node-03"));
    }

    #[test]
    fn bad_regex_is_reported_and_matches_all() {
        let f = Filter::new("~(");
        assert!(f.error.is_some());
        assert!(f.matches("anything"));
    }
}
