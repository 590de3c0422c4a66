//! `[fleet]` of config.toml (`contexts = ["prod-*", "staging"]`: the contexts `ome-top fleet`
//! watches, by name or glob pattern) and the pure choice of the fleet's contexts from the
//! kubeconfig's names: `--contexts` wins over the file, and neither means every context.
//!
//! Owns: `FleetSettings`, `ContextChoiceError`, `parse_fleet`, `choose_contexts`, `glob_match`.

use super::error::{reject_unknown_keys, ConfigError};

/// `[fleet]`'s settings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FleetSettings {
    /// Context names or glob patterns (`*` any run of characters, `?` one); empty = every
    /// context of the kubeconfig.
    pub contexts: Vec<String>,
}

/// Why the fleet's contexts cannot be chosen. Displays as the sentence the operator reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContextChoiceError {
    /// The kubeconfig has no context at all (or could not be read).
    #[error("the kubeconfig has no contexts")]
    NoContexts,
    /// A name without a wildcard that the kubeconfig does not have.
    #[error("context {0:?} does not exist in the kubeconfig")]
    Unknown(String),
    /// A pattern that matches no context of the kubeconfig.
    #[error("no context of the kubeconfig matches {0:?}")]
    NoMatch(String),
}

/// Parses `[fleet]`.
pub fn parse_fleet(file: &str, v: &toml::Value) -> Result<FleetSettings, ConfigError> {
    let expected = "a table like `[fleet]` `contexts = [\"prod-*\", \"staging\"]`";
    let Some(table) = v.as_table() else {
        return Err(ConfigError::new(
            file,
            format!("fleet = {}", super::error::show_value(v)),
            super::error::kind_of(v),
            expected,
        ));
    };
    reject_unknown_keys(file, "fleet.", table, &["contexts"])?;
    let Some(list) = table.get("contexts") else {
        return Ok(FleetSettings::default());
    };
    let names: Option<Vec<String>> = list.as_array().and_then(|items| {
        items
            .iter()
            .map(|i| {
                i.as_str()
                    .filter(|s| !s.trim().is_empty())
                    .map(str::to_string)
            })
            .collect()
    });
    match names {
        Some(contexts) => Ok(FleetSettings { contexts }),
        None => Err(ConfigError::new(
            file,
            format!("fleet.contexts = {}", super::error::show_value(list)),
            "not an array of non-empty strings",
            "context names or glob patterns such as [\"prod-*\", \"staging\"]",
        )),
    }
}

/// The contexts of the fleet: each entry of `wanted` (names or patterns, in order; the
/// kubeconfig's order within a pattern; each context once), or every one of `available`
/// when `wanted` is empty. An entry that names or matches nothing is an error naming it.
pub fn choose_contexts(
    available: &[String],
    wanted: &[String],
) -> Result<Vec<String>, ContextChoiceError> {
    if available.is_empty() {
        return Err(ContextChoiceError::NoContexts);
    }
    if wanted.is_empty() {
        return Ok(available.to_vec());
    }
    let mut chosen: Vec<String> = Vec::new();
    for entry in wanted {
        let matched: Vec<&String> = available
            .iter()
            .filter(|name| glob_match(entry, name))
            .collect();
        if matched.is_empty() {
            return Err(if entry.contains(['*', '?']) {
                ContextChoiceError::NoMatch(entry.clone())
            } else {
                ContextChoiceError::Unknown(entry.clone())
            });
        }
        for name in matched {
            if !chosen.contains(name) {
                chosen.push(name.clone());
            }
        }
    }
    Ok(chosen)
}

/// Whether `name` matches `pattern`: `*` is any run of characters (none included), `?` one
/// character, anything else itself.
pub fn glob_match(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    // The classic two-pointer match with one backtrack point: the last `*` seen.
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ni));
                pi += 1;
            }
            Some(c) if *c == '?' || *c == n[ni] => {
                pi += 1;
                ni += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    pi = sp + 1;
                    ni = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn globs_match_runs_and_single_characters() {
        assert!(glob_match("prod-*", "prod-eu"));
        assert!(glob_match("prod-*", "prod-"));
        assert!(!glob_match("prod-*", "staging"));
        assert!(glob_match("*-eu", "prod-eu"));
        assert!(glob_match("p?od-*-1", "prod-eu-1"));
        assert!(!glob_match("p?od", "pod"));
        assert!(glob_match("*", ""));
        assert!(glob_match("a*b*c", "aXbYbZc"));
        assert!(!glob_match("a*b*c", "aXbYbZ"));
        assert!(glob_match("exact", "exact"));
        assert!(!glob_match("exact", "exactly"));
    }

    #[test]
    fn no_choice_means_every_context_in_file_order() {
        let all = names(&["prod-eu", "staging", "prod-us"]);
        assert_eq!(choose_contexts(&all, &[]).unwrap(), all);
        assert_eq!(
            choose_contexts(&[], &[]).unwrap_err(),
            ContextChoiceError::NoContexts
        );
    }

    #[test]
    fn names_and_patterns_choose_in_order_each_once() {
        let all = names(&["prod-eu", "staging", "prod-us", "dev"]);
        let got = choose_contexts(&all, &names(&["staging", "prod-*", "prod-us"])).unwrap();
        assert_eq!(got, names(&["staging", "prod-eu", "prod-us"]));
    }

    #[test]
    fn an_unknown_name_or_an_empty_pattern_is_named() {
        let all = names(&["prod-eu", "staging"]);
        let e = choose_contexts(&all, &names(&["prod-eu", "prod-us"])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "context \"prod-us\" does not exist in the kubeconfig"
        );
        let e = choose_contexts(&all, &names(&["dev-*"])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "no context of the kubeconfig matches \"dev-*\""
        );
    }

    fn parse(text: &str) -> Result<FleetSettings, ConfigError> {
        let table: toml::Table = text.parse().unwrap();
        parse_fleet("config.toml", &table["fleet"])
    }

    #[test]
    fn the_fleet_table_lists_contexts() {
        let s = parse("[fleet]\ncontexts = [\"prod-*\", \"staging\"]\n").unwrap();
        assert_eq!(s.contexts, names(&["prod-*", "staging"]));
        assert_eq!(parse("[fleet]\n").unwrap(), FleetSettings::default());
        let e = parse("[fleet]\ncontexts = \"prod\"\n").unwrap_err();
        assert_eq!(e.path, "fleet.contexts = \"prod\"");
        let e = parse("[fleet]\ncontexts = [\"\"]\n").unwrap_err();
        assert!(e.to_string().contains("non-empty"), "{e}");
        let e = parse("[fleet]\ncontext = [\"a\"]\n").unwrap_err();
        assert_eq!(e.path, "fleet.context");
        assert!(parse("fleet = 3\n").is_err());
    }
}
