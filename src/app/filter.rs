//! The `/` row filter, as k9s reads it: the text is a case-insensitive regular expression
//! tried on each cell; text that is not a valid expression is a plain substring; a leading `!`
//! keeps the rows that do *not* match; a leading `~` insists on a regex (and reports why one
//! does not compile).
//!
//! Owns: `Filter`. Plain data.

use regex::Regex;

/// A compiled row filter. The empty filter matches everything.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// The text as typed.
    pub text: String,
    /// The compiled expression; `None` for substrings.
    regex: Option<Regex>,
    /// Why a `~` filter does not compile (the filter then matches everything).
    pub error: Option<String>,
    /// Lower-cased substring, when the text is not an expression.
    needle: String,
    /// Whether `!` inverted the filter.
    inverted: bool,
}

impl Filter {
    /// Compiles `text`. An invalid `~` expression keeps the text, records the error and
    /// matches all; any other invalid expression is a substring.
    pub fn new(text: &str) -> Self {
        let mut f = Filter {
            text: text.to_string(),
            ..Filter::default()
        };
        let (inverted, body) = match text.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        f.inverted = inverted && !body.is_empty();
        let (explicit, pattern) = match body.strip_prefix('~') {
            Some(rest) => (true, rest),
            None => (false, body),
        };
        // A plain word (no regex syntax) is the same filter as a substring of the lower-cased
        // row, which is one search per row instead of one per cell.
        if !explicit && !pattern.contains(|c| "\\.+*?()|[]{}^$".contains(c)) {
            f.needle = pattern.to_lowercase();
            return f;
        }
        match regex::RegexBuilder::new(pattern)
            .case_insensitive(true)
            .build()
        {
            Ok(r) => f.regex = Some(r),
            Err(e) if explicit => {
                f.error = Some(e.to_string().lines().last().unwrap_or("").to_string());
                f.inverted = false;
            }
            Err(_) => f.needle = pattern.to_lowercase(),
        }
        f
    }

    /// Whether a lower-cased haystack (cells separated by U+001F) passes. An expression is
    /// tried on each cell, so `^` and `$` anchor to a cell.
    pub fn matches(&self, haystack: &str) -> bool {
        if self.error.is_some() {
            return true;
        }
        let hit = match &self.regex {
            Some(r) => haystack.split('\u{1f}').any(|cell| r.is_match(cell)),
            None => haystack.contains(&self.needle),
        };
        hit != self.inverted
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
        assert!(
            Filter::new("!~(").matches("anything"),
            "an error never inverts"
        );
    }

    #[test]
    fn text_is_a_regex_first_and_a_substring_when_it_is_not_one() {
        let f = Filter::new("^gpu-h100-0[12]$");
        assert!(f.matches("gpu-h100-01\u{1f}clear"));
        assert!(!f.matches("gpu-h100-03\u{1f}clear"));
        let literal = Filter::new("(spot");
        assert!(literal.error.is_none());
        assert!(literal.matches("node (spot)"));
        assert!(!literal.matches("node spot"));
    }

    #[test]
    fn bang_keeps_the_rows_that_do_not_match() {
        let f = Filter::new("!clear");
        assert!(!f.matches("gpu-a100-000\u{1f}clear"));
        assert!(f.matches("gpu-a100-003\u{1f}unhealthy"));
        assert!(
            Filter::new("!").matches("anything"),
            "a lone ! filters nothing"
        );
        assert!(Filter::new("!(x").matches("abc"), "an inverted substring");
    }
}
