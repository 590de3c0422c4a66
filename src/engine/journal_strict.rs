//! Strict JSON reading for Alfred's wire documents: a small, total tokenizer that keeps every
//! object member (duplicates included) in document order and every number as its raw text, plus
//! the syntax helpers Alfred's Go readers apply (Go-style case folding of member names, strict
//! RFC 3339 timestamps, RFC 4122 UUID syntax).
//!
//! Why not serde_json: it silently keeps the last of two duplicate members and normalises numbers,
//! and Alfred rejects duplicates. Everything here is total on arbitrary bytes (no panics, nesting
//! bounded by [`MAX_DEPTH`]). This module must not import anything outside
//! std/serde/serde_json/chrono.

use chrono::{DateTime, NaiveDate, TimeDelta, Utc};
use std::fmt;

/// Deepest nesting accepted. A valid journal nests 4 levels; deeper input can only sit inside
/// a member Alfred rejects anyway, so the cap changes no verdict, only bounds recursion.
pub const MAX_DEPTH: usize = 64;

/// One parsed JSON value. Invariants: `Number` holds text matching the JSON number grammar;
/// `Object` keeps members in document order and may contain duplicate names (callers decide).
#[derive(Debug, Clone, PartialEq)]
pub enum StrictValue {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number, exactly as written (e.g. `"-0"`, `"1e2"`).
    Number(String),
    /// A decoded string (escapes resolved; a lone surrogate escape becomes U+FFFD like Go).
    String(String),
    /// An array in order.
    Array(Vec<StrictValue>),
    /// An object's members in order, duplicates kept.
    Object(Vec<(String, StrictValue)>),
}

impl StrictValue {
    /// Short description of the value's kind for error messages (`null`, `array`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            StrictValue::Null => "null",
            StrictValue::Bool(_) => "a boolean",
            StrictValue::Number(_) => "a number",
            StrictValue::String(_) => "a string",
            StrictValue::Array(_) => "an array",
            StrictValue::Object(_) => "an object",
        }
    }
}

/// Why a byte sequence is not one strict JSON document. `offset` is a byte offset into the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StrictError {
    /// The input is not UTF-8 (a ConfigMap `data` value always is; Go would substitute U+FFFD).
    InvalidUtf8 {
        /// First invalid byte.
        offset: usize,
    },
    /// The JSON grammar is violated at `offset`.
    Syntax {
        /// Where.
        offset: usize,
        /// What was expected or found.
        why: &'static str,
    },
    /// Nesting deeper than [`MAX_DEPTH`].
    TooDeep {
        /// The bracket that went too deep.
        offset: usize,
    },
    /// A complete value is followed by more non-whitespace input.
    Trailing {
        /// First byte after the value and its whitespace.
        offset: usize,
    },
}

impl fmt::Display for StrictError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StrictError::InvalidUtf8 { offset } => write!(f, "invalid UTF-8 at byte {offset}"),
            StrictError::Syntax { offset, why } => {
                write!(f, "invalid JSON at byte {offset}: {why}")
            }
            StrictError::TooDeep { offset } => {
                write!(
                    f,
                    "JSON nested deeper than {MAX_DEPTH} levels at byte {offset}"
                )
            }
            StrictError::Trailing { offset } => {
                write!(f, "trailing data after the JSON document at byte {offset}")
            }
        }
    }
}

impl std::error::Error for StrictError {}

/// Parses exactly one JSON value surrounded by optional whitespace. Total on any input.
pub fn parse_strict(input: &[u8]) -> Result<StrictValue, StrictError> {
    let text = std::str::from_utf8(input).map_err(|e| StrictError::InvalidUtf8 {
        offset: e.valid_up_to(),
    })?;
    let mut p = Parser { text, pos: 0 };
    p.skip_ws();
    let value = p.value(0)?;
    p.skip_ws();
    if p.pos < text.len() {
        return Err(StrictError::Trailing { offset: p.pos });
    }
    Ok(value)
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn err(&self, why: &'static str) -> StrictError {
        StrictError::Syntax {
            offset: self.pos,
            why,
        }
    }

    fn skip_ws(&mut self) {
        // JSON whitespace only; a BOM or NBSP is a syntax error, as in Go.
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Result<StrictValue, StrictError> {
        match self.peek() {
            None => Err(self.err("unexpected end of input")),
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => self.string().map(StrictValue::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.literal("true", StrictValue::Bool(true)),
            Some(b'f') => self.literal("false", StrictValue::Bool(false)),
            Some(b'n') => self.literal("null", StrictValue::Null),
            Some(_) => Err(self.err("unexpected character")),
        }
    }

    fn literal(&mut self, word: &str, value: StrictValue) -> Result<StrictValue, StrictError> {
        let end = self.pos.saturating_add(word.len());
        if self.text.as_bytes().get(self.pos..end) == Some(word.as_bytes()) {
            self.pos = end;
            Ok(value)
        } else {
            Err(self.err("invalid literal"))
        }
    }

    fn object(&mut self, depth: usize) -> Result<StrictValue, StrictError> {
        if depth > MAX_DEPTH {
            return Err(StrictError::TooDeep { offset: self.pos });
        }
        self.pos += 1; // '{'
        let mut members = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(StrictValue::Object(members));
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.err("expected a member name"));
            }
            let key = self.string()?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.err("expected ':'"));
            }
            self.pos += 1;
            self.skip_ws();
            members.push((key, self.value(depth)?));
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(StrictValue::Object(members));
                }
                _ => return Err(self.err("expected ',' or '}'")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<StrictValue, StrictError> {
        if depth > MAX_DEPTH {
            return Err(StrictError::TooDeep { offset: self.pos });
        }
        self.pos += 1; // '['
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(StrictValue::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value(depth)?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(StrictValue::Array(items));
                }
                _ => return Err(self.err("expected ',' or ']'")),
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - start
    }

    fn number(&mut self) -> Result<StrictValue, StrictError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1, // no leading zeros: "01" leaves '1' as trailing data
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.err("expected a digit")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return Err(self.err("expected a digit after '.'"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.err("expected a digit in the exponent"));
            }
        }
        let raw = self.text.get(start..self.pos).unwrap_or_default();
        Ok(StrictValue::Number(raw.to_owned()))
    }

    fn string(&mut self) -> Result<String, StrictError> {
        self.pos += 1; // opening quote
        let mut out = String::new();
        loop {
            let run_start = self.pos;
            while matches!(self.peek(), Some(c) if c != b'"' && c != b'\\' && c >= 0x20) {
                self.pos += 1;
            }
            // The run ends on an ASCII byte or the end, so it is a char boundary.
            out.push_str(self.text.get(run_start..self.pos).unwrap_or_default());
            match self.peek() {
                None => return Err(self.err("unterminated string")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => out.push(self.escape()?),
                Some(_) => return Err(self.err("control character in string")),
            }
        }
    }

    fn escape(&mut self) -> Result<char, StrictError> {
        self.pos += 1; // backslash
        let c = self.peek().ok_or_else(|| self.err("unterminated escape"))?;
        self.pos += 1;
        Ok(match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return self.unicode_escape(),
            _ => return Err(self.err("invalid escape")),
        })
    }

    fn hex4(&mut self) -> Result<u32, StrictError> {
        let end = self.pos.saturating_add(4);
        let hex = self
            .text
            .get(self.pos..end)
            .ok_or_else(|| self.err("short \\u escape"))?;
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(self.err("invalid \\u escape"));
        }
        let v = u32::from_str_radix(hex, 16).map_err(|_| self.err("invalid \\u escape"))?;
        self.pos = end;
        Ok(v)
    }

    fn unicode_escape(&mut self) -> Result<char, StrictError> {
        let first = self.hex4()?;
        if (0xD800..0xDC00).contains(&first) {
            // Only consume a following escape if it completes the pair (Go does the same).
            let next = self
                .text
                .as_bytes()
                .get(self.pos..self.pos.saturating_add(2));
            if next == Some(b"\\u".as_slice()) {
                let save = self.pos;
                self.pos += 2;
                let second = self.hex4()?;
                if (0xDC00..0xE000).contains(&second) {
                    let c = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                    return Ok(char::from_u32(c).unwrap_or('\u{FFFD}'));
                }
                self.pos = save;
            }
            return Ok('\u{FFFD}');
        }
        Ok(char::from_u32(first).unwrap_or('\u{FFFD}'))
    }
}

/// Folds a member name the way Go's `encoding/json` matches names to struct fields: ASCII case
/// is ignored, and U+017F (ſ) and U+212A (Kelvin K) fold onto `s` and `k` like Go's simple
/// folding. Other non-ASCII letters are lowercased; they can never match a journal field, so the
/// document is rejected whichever way they fold.
pub fn fold_key(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        match c {
            '\u{17F}' => out.push('s'),
            '\u{212A}' => out.push('k'),
            c if c.is_ascii() => out.push(c.to_ascii_lowercase()),
            c => out.extend(c.to_lowercase()),
        }
    }
    out
}

/// True iff `s` has RFC 4122 text syntax: 8-4-4-4-12 hex digits of either case (as the admission
/// policy's regex accepts). Version and variant nibbles are not checked (Go's uuid.Parse does not).
pub fn is_uuid_syntax(s: &str) -> bool {
    s.len() == 36
        && s.bytes().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

/// Parses a timestamp the way Go's `time.Time` JSON decoding does (strict RFC 3339):
/// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, uppercase `T`/`Z`, year 0000–9999, no leap
/// second, fraction ≥ 1 digit (digits past the ninth are truncated, as Go does).
pub fn parse_rfc3339(s: &str) -> Option<DateTime<Utc>> {
    let b = s.as_bytes();
    let num = |from: usize, to: usize| -> Option<u32> {
        let part = s.get(from..to)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let shape = b.get(4) == Some(&b'-')
        && b.get(7) == Some(&b'-')
        && b.get(10) == Some(&b'T')
        && b.get(13) == Some(&b':')
        && b.get(16) == Some(&b':');
    if !shape {
        return None;
    }
    let (year, month, day) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    let (hour, minute, second) = (num(11, 13)?, num(14, 16)?, num(17, 19)?);
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let (nanos, rest) = split_fraction(s.get(19..)?)?;
    let date = NaiveDate::from_ymd_opt(i32::try_from(year).ok()?, month, day)?;
    let naive = date.and_hms_nano_opt(hour, minute, second, nanos)?;
    let offset_secs = parse_offset(rest)?;
    naive
        .and_utc()
        .checked_sub_signed(TimeDelta::try_seconds(offset_secs)?)
}

/// Splits an optional `.digits` fraction off `rest`, returning nanoseconds and the remainder.
fn split_fraction(rest: &str) -> Option<(u32, &str)> {
    let Some(after_dot) = rest.strip_prefix('.') else {
        return Some((0, rest));
    };
    let n = after_dot.bytes().take_while(u8::is_ascii_digit).count();
    if n == 0 {
        return None;
    }
    let mut nanos: u32 = 0;
    for (i, d) in after_dot
        .bytes()
        .take(9)
        .take_while(u8::is_ascii_digit)
        .enumerate()
    {
        nanos += u32::from(d - b'0') * 10u32.pow(8 - i as u32);
    }
    Some((nanos, after_dot.get(n..)?))
}

/// Parses `Z` or `±HH:MM` (HH ≤ 23, MM ≤ 59) into seconds east of UTC.
fn parse_offset(rest: &str) -> Option<i64> {
    if rest == "Z" {
        return Some(0);
    }
    let b = rest.as_bytes();
    if b.len() != 6 || b.get(3) != Some(&b':') {
        return None;
    }
    let sign = match b.first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let two = |r: std::ops::Range<usize>| -> Option<i64> {
        let p = rest.get(r)?;
        p.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| p.parse().ok())?
    };
    let (h, m) = (two(1..3)?, two(4..6)?);
    (h <= 23 && m <= 59).then_some(sign * (h * 3600 + m * 60))
}

#[cfg(test)]
mod tests {
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
}
