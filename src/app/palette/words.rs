//! The `:` command words k9s users type: `ctx`, `ns`, `q`, the view names and their short
//! forms, and how a typed line splits into a word and its argument.
//!
//! Owns: `Verb`, `Word`, `WORDS`, `word`, `split`. Plain data.

use crate::action::View;

/// What a command word does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    /// `ctx [NAME]`: list the kubeconfig's contexts, or switch to one.
    Context,
    /// `ns [NAME|all|-]`: list namespaces, or scope the workload views to one.
    Namespace,
    /// Show a view.
    View(View),
    /// `theme [NAME]`: switch theme.
    Theme,
    /// `q`, `quit`: leave ome-top at once.
    Quit,
}

impl Verb {
    /// Whether the word takes an argument (Tab and Enter on the bare word ask for it).
    pub fn takes_argument(self) -> bool {
        matches!(self, Verb::Context | Verb::Namespace | Verb::Theme)
    }
}

/// One command word with its spellings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word {
    /// What it does.
    pub verb: Verb,
    /// Every spelling, the full one first.
    pub names: &'static [&'static str],
    /// How it is typed, as help shows it.
    pub usage: &'static str,
    /// What it does, in a few words.
    pub help: &'static str,
}

/// Every command word, in the order the palette and help list them.
pub const WORDS: &[Word] = &[
    Word {
        verb: Verb::Context,
        names: &["ctx", "context", "contexts"],
        usage: "ctx [NAME]",
        help: "List or switch kubeconfig contexts",
    },
    Word {
        verb: Verb::Namespace,
        names: &["ns", "namespace", "namespaces"],
        usage: "ns NAME|all",
        help: "Scope Moves, Journal, Gangs, Lints",
    },
    Word {
        verb: Verb::View(View::Pools),
        names: &["pools", "pool", "pl"],
        usage: "pools, pl",
        help: "Pools view",
    },
    Word {
        verb: Verb::View(View::Nodes),
        names: &["nodes", "node", "no"],
        usage: "nodes, no",
        help: "Nodes view",
    },
    Word {
        verb: Verb::View(View::Moves),
        names: &["moves", "move", "mv"],
        usage: "moves, mv",
        help: "Moves view",
    },
    Word {
        verb: Verb::View(View::Journal),
        names: &["journal", "jn"],
        usage: "journal, jn",
        help: "Journal view",
    },
    Word {
        verb: Verb::View(View::Gangs),
        names: &["gangs", "gang", "pg"],
        usage: "gangs, pg",
        help: "Gangs view (PodGroups)",
    },
    Word {
        verb: Verb::View(View::Lints),
        names: &["lints", "lint", "li"],
        usage: "lints, li",
        help: "Lints view",
    },
    Word {
        verb: Verb::View(View::Fleet),
        names: &["fleet", "fl"],
        usage: "fleet, fl",
        help: "Fleet view: every watched cluster",
    },
    Word {
        verb: Verb::Theme,
        names: &["theme"],
        usage: "theme NAME",
        help: "Switch theme",
    },
    Word {
        verb: Verb::Quit,
        names: &["quit", "q", "q!"],
        usage: "q, quit",
        help: "Quit at once",
    },
];

/// The word spelt `name` (any case), if it is one.
pub fn word(name: &str) -> Option<&'static Word> {
    let name = name.to_lowercase();
    WORDS.iter().find(|w| w.names.contains(&name.as_str()))
}

/// A typed line as its first word, the argument after it (trimmed; `None` when empty) and
/// whether a space followed the word (the word is finished).
pub fn split(input: &str) -> (&str, Option<&str>, bool) {
    let line = input.trim_start();
    match line.split_once(char::is_whitespace) {
        Some((word, rest)) => {
            let rest = rest.trim();
            (word, (!rest.is_empty()).then_some(rest), true)
        }
        None => (line, None, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_are_unique_lower_case_and_find_their_word() {
        let mut all: Vec<&str> = WORDS.iter().flat_map(|w| w.names.iter().copied()).collect();
        for name in &all {
            assert_eq!(name.to_lowercase(), *name);
            assert!(word(name).is_some_and(|w| w.names.contains(name)));
        }
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n, "a spelling names two words");
        assert_eq!(word("NO").map(|w| w.verb), Some(Verb::View(View::Nodes)));
        assert_eq!(word("nod"), None);
    }

    #[test]
    fn a_line_splits_into_word_and_argument() {
        assert_eq!(split("ctx"), ("ctx", None, false));
        assert_eq!(split("ctx "), ("ctx", None, true));
        assert_eq!(split("  ctx  staging  "), ("ctx", Some("staging"), true));
        assert_eq!(split(""), ("", None, false));
    }
}
