//! Unit tests of the strict decoder: shared helpers and YAML prefixes here, the cases by topic
//! in `tests/` (rejections with their paths, accepted documents, string syntaxes, YAML rules).

use super::*;

mod accepted;
mod rejected;
mod syntax;
mod yaml;

fn parse_err(body: &str) -> ConfigError {
    let yaml = format!("schemaVersion: 1\n{body}");
    parse(&yaml).expect_err(&format!("accepted: {body}"))
}

fn ok(body: &str) -> AlfredConfig {
    let yaml = format!("schemaVersion: 1\n{body}");
    parse(&yaml).unwrap_or_else(|e| panic!("rejected {body:?}: {e}"))
}

const P: &str = "policies:\n  defragmentation:\n    ";
const S: &str = "policies:\n  defragmentation:\n    scoring:\n      ";
const H: &str = "policies:\n  nodeHealth:\n    ";
const T: &str = "policies:\n  nodeHealth:\n    maintenance:\n      triggers: ";
