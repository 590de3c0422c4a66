//! Unit tests of the strict reader: duplicates and raw numbers kept, syntax errors, escapes,
//! depth bound, agreement with serde_json on validity, and the syntax helpers.

use super::*;
use proptest::prelude::*;

fn obj(members: &[(&str, StrictValue)]) -> StrictValue {
    StrictValue::Object(
        members
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

#[test]
fn keeps_duplicates_order_and_raw_numbers() {
    let v = parse_strict(br#" {"a":1,"A":-0,"b":[1.5e3,true,null]} "#).unwrap();
    let arr = StrictValue::Array(vec![
        StrictValue::Number("1.5e3".into()),
        StrictValue::Bool(true),
        StrictValue::Null,
    ]);
    let want = obj(&[
        ("a", StrictValue::Number("1".into())),
        ("A", StrictValue::Number("-0".into())),
        ("b", arr),
    ]);
    assert_eq!(v, want);
}

#[test]
fn rejects_bad_syntax() {
    for bad in [
        &b""[..],
        b"{",
        b"[1,]",
        b"{\"a\" 1}",
        b"01",
        b"1.",
        b"-",
        b"\"\x01\"",
        b"\"\\x\"",
        b"\"abc",
        b"nul",
        b"\xEF\xBB\xBF{}",
        b"{\"a\":1,}",
        b"\xff",
    ] {
        assert!(
            parse_strict(bad).is_err(),
            "{:?}",
            String::from_utf8_lossy(bad)
        );
    }
    assert_eq!(
        parse_strict(b"{} {}"),
        Err(StrictError::Trailing { offset: 3 })
    );
}

#[test]
fn string_escapes_and_surrogates() {
    let v = parse_strict(br#""a\u00e9\ud83d\ude00\ud800x\/\n""#).unwrap();
    assert_eq!(
        v,
        StrictValue::String("a\u{e9}\u{1F600}\u{FFFD}x/\n".into())
    );
    let v = parse_strict(br#""\ud800\u0041""#).unwrap();
    assert_eq!(v, StrictValue::String("\u{FFFD}A".into()));
}

#[test]
fn depth_is_bounded() {
    let deep = "[".repeat(100_000);
    assert!(matches!(
        parse_strict(deep.as_bytes()),
        Err(StrictError::TooDeep { .. })
    ));
    let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    assert!(parse_strict(ok.as_bytes()).is_ok());
}

proptest! {
    #[test]
    fn total_on_arbitrary_input(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = parse_strict(&bytes);
    }

    #[test]
    fn agrees_with_serde_json_on_validity(text in "[\\[\\]{}\",:0-9a-z\\\\ .eE+-]{0,40}") {
        // serde_json rejects lone surrogates, which Go (and we) accept; the alphabet above
        // cannot form \u escapes, so both must agree exactly.
        let ours = parse_strict(text.as_bytes()).is_ok();
        let theirs = serde_json::from_str::<serde_json::Value>(&text).is_ok();
        prop_assert_eq!(ours, theirs, "{}", text);
    }
}

#[test]
fn folds_like_go() {
    assert_eq!(fold_key("Phase"), "phase");
    assert_eq!(fold_key("UUID"), "uuid");
    assert_eq!(fold_key("wor\u{212A}load"), "workload");
    assert_eq!(fold_key("in\u{17F}tance"), "instance");
}

#[test]
fn uuid_syntax() {
    assert!(is_uuid_syntax("3f1c2d4e-9a7b-4c1d-8e2f-0123456789ab"));
    assert!(is_uuid_syntax("3F1C2D4E-9A7B-4C1D-8E2F-0123456789AB"));
    assert!(!is_uuid_syntax("3f1c2d4e9a7b4c1d8e2f0123456789ab"));
    assert!(!is_uuid_syntax("3f1c2d4e-9a7b-4c1d-8e2f-0123456789ag"));
    assert!(!is_uuid_syntax("{3f1c2d4e-9a7b-4c1d-8e2f-0123456789a}"));
}

#[test]
fn rfc3339_strict() {
    let t = parse_rfc3339("2026-09-28T10:15:02.418093721Z").unwrap();
    assert_eq!(t.timestamp_subsec_nanos(), 418_093_721);
    let t2 = parse_rfc3339("2026-09-28T12:15:02.4180937219999+02:00").unwrap();
    assert_eq!(t, t2);
    assert!(parse_rfc3339("2024-02-29T00:00:00Z").is_some());
    for bad in [
        "2026-09-28t10:15:02Z",
        "2026-09-28T10:15:02z",
        "2026-09-28 10:15:02Z",
        "2026-09-28T10:15:60Z",
        "2026-02-30T10:15:02Z",
        "2025-02-29T00:00:00Z",
        "2026-09-28T10:15:02.Z",
        "2026-09-28T10:15:02",
        "2026-09-28T10:15:02+24:00",
        "2026-09-28T10:15:02+0200",
        "+2026-09-28T10:15:02Z",
        "2026-9-28T10:15:02Z",
    ] {
        assert!(parse_rfc3339(bad).is_none(), "{bad}");
    }
}

proptest! {
    #[test]
    fn syntax_helpers_are_total(s in ".{0,40}") {
        let _ = parse_rfc3339(&s);
        let _ = is_uuid_syntax(&s);
        let _ = fold_key(&s);
    }
}
