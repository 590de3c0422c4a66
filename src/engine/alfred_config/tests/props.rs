//! Property tests: arbitrary text and arbitrary values in known places never panic the parser.

use super::*;
use proptest::prelude::*;

proptest! {
    #[test]
    fn arbitrary_text_never_panics(text in ".*") {
        let _ = parse_alfred_config(&text);
        let _ = effective_alfred_config(Some(&text));
    }

    #[test]
    fn arbitrary_values_in_known_places_never_panic(
        key in prop::sample::select(validate::TOP_KEYS.to_vec()),
        value in prop_oneof![
            ".{0,12}",
            "-?[0-9]{1,25}(\\.[0-9]{0,5})?(e[+-]?[0-9]{1,3})?",
            "[-+]?[0-9.]{0,6}(ns|us|µs|ms|s|m|h){0,2}[0-9.]{0,4}(s|m|h)?",
            Just("{a: [1, {b: ~}]}".to_owned()),
            Just("[~, 1, x]".to_owned()),
        ],
    ) {
        let nested = format!("schemaVersion: 1\n{key}: {value}\n");
        let _ = parse_alfred_config(&nested);
        let deep = format!("schemaVersion: 1\npolicies: {{defragmentation: {{scoring: {{sizePrior: {{{value}: 1}}}}}}}}");
        let _ = parse_alfred_config(&deep);
    }
}
