//! The syntax helpers Alfred's Go readers apply to journal documents: Go-style case folding of
//! member names, RFC 4122 UUID text syntax and strict RFC 3339 timestamps.
//!
//! Pure.

use chrono::{DateTime, NaiveDate, TimeDelta, Utc};

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
