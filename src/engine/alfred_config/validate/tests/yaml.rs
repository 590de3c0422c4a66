//! The YAML rules the decoder relies on, as `engine::formats::go_yaml` reads the document: boolean
//! words, number forms, repeated keys, tags, aliases and merge keys, a final block scalar, and
//! document errors that name their line.

use super::*;

#[test]
fn boolean_words() {
    // go-yaml v2 (YAML 1.1) reads these plain words as booleans where Go wants a bool.
    for (word, b) in [
        ("yes", true),
        ("Y", true),
        ("ON", true),
        ("True", true),
        ("off", false),
        ("N", false),
        ("No", false),
        ("FALSE", false),
    ] {
        assert_eq!(
            ok(&format!("defaultMovable: {word}")).default_movable,
            b,
            "{word}"
        );
    }
    // Only YAML 1.2 core words are booleans where a string is wanted (go-yaml: "true").
    assert_eq!(ok("logLevel: yes").log_level, "yes");
    assert_eq!(ok("logLevel: True").log_level, "true");
}

#[test]
fn number_forms() {
    for (text, n) in [("0o10", 8), ("0x10", 16), ("+7", 7), ("7.0", 7)] {
        let c = ok(&format!("maxInFlightMigrations: {text}"));
        assert_eq!(c.max_in_flight_migrations, n, "{text}");
    }
    // A leading zero (go-yaml: octal) or an underscore makes text, which an integer refuses.
    for text in ["010", "1_0"] {
        let e = parse_err(&format!("maxInFlightMigrations: {text}"));
        let got = (e.path.as_str(), e.expected.as_str(), e.found);
        assert_eq!(
            got,
            ("maxInFlightMigrations", "an integer", format!("{text:?}"))
        );
    }
    assert_eq!(ok("logLevel: 010").log_level, "010");
    assert_eq!(ok("logLevel: 0x10").log_level, "16");
    let e = parse_err(&format!("{P}fragmentationThreshold: .inf"));
    let want = "policies.defragmentation.fragmentationThreshold";
    assert_eq!((e.path.as_str(), e.found.as_str()), (want, "inf"));
}

#[test]
fn repeated_keys_reach_the_decoder() {
    // Integer-equal spellings of one key are the same key once converted to text.
    let e = parse_err(&format!("{S}sizePrior: {{0x8: 0.5, 8: 0.5}}"));
    let want = "policies.defragmentation.scoring.sizePrior[\"8\"]";
    assert_eq!(
        (e.path.as_str(), e.found.as_str()),
        (want, "a duplicate key")
    );
    let e = parse_err("logLevel: a\nlogLevel: a");
    assert_eq!(
        (e.path.as_str(), e.expected.as_str()),
        ("logLevel", "each key once")
    );
}

#[test]
fn tags() {
    for (body, path, found) in [
        ("policies: !Foo {}", "policies", "a value tagged !Foo"),
        (
            "earlyTickOn: !Foo [x]",
            "earlyTickOn",
            "a value tagged !Foo",
        ),
        (
            "earlyTickOn: [!Bar x]",
            "earlyTickOn[0]",
            "a value tagged !Bar",
        ),
        ("logLevel: ! x", "logLevel", "a value tagged !!"),
    ] {
        let e = parse_err(body);
        assert_eq!((e.path.as_str(), e.found.as_str()), (path, found), "{body}");
    }
    // Standard tags are the types they name.
    assert_eq!(ok("logLevel: !!str 5").log_level, "5");
    assert_eq!(
        ok("maxInFlightMigrations: !!int \"5\"").max_in_flight_migrations,
        5
    );
}

#[test]
fn aliases_expand_and_merge_keys_are_unknown_keys() {
    let c = ok("maxInFlightMigrations: &n 4\nmaxMigrationsPerHour: *n");
    assert_eq!(
        (c.max_in_flight_migrations, c.max_migrations_per_hour),
        (4, 4)
    );
    let e = parse_err("spotPolicy:\n  <<: {avoidAsTarget: false}");
    let got = (e.path.as_str(), e.found.as_str());
    assert_eq!(got, ("spotPolicy.<<", "unknown key \"<<\""));
}

#[test]
fn a_final_block_scalar_ends_where_the_text_does() {
    assert_eq!(ok("logLevel: |\n  debug").log_level, "debug");
    assert_eq!(ok("logLevel: |+\n  debug").log_level, "debug");
    assert_eq!(ok("logLevel: |\n  debug\n").log_level, "debug\n");
    assert_eq!(ok("mode: >\n  execute").mode, Mode::Execute);
    assert_eq!(parse_err("mode: |\n  execute\n").found, "\"execute\\n\"");
}

#[test]
fn document_errors_name_the_line() {
    for (doc, at) in [
        ("schemaVersion: 1\nmode: [", "line 2"),
        ("schemaVersion: 1\n---\nmode: x", "line 3"),
        ("schemaVersion: 1\nmode: \"x", "line 2"),
    ] {
        let e = parse(doc).unwrap_err();
        assert_eq!(
            (e.path.as_str(), e.expected.as_str()),
            ("", "valid YAML (one document)")
        );
        assert!(
            e.found.contains(at) && e.found.lines().count() == 1,
            "{doc:?}: {e}"
        );
    }
}
