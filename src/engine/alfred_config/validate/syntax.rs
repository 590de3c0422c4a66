//! The string syntaxes Alfred's decoder accepts: Go durations (`time.ParseDuration`), "HH:MM"
//! clock times, and Kubernetes DNS-1123 subdomains, label tokens and qualified names.
//!
//! Pure functions on text.

pub(super) use crate::engine::model::names::{
    is_dns1123_subdomain, is_label_token, is_qualified_name,
};

/// Go's `time.ParseDuration`: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+` or "0", in nanoseconds.
pub(super) fn parse_go_duration(text: &str) -> Option<i128> {
    const LIMIT: u128 = 1 << 63;
    let bytes = text.as_bytes();
    let negative = bytes.first() == Some(&b'-');
    let mut s = bytes
        .strip_prefix(b"-")
        .or(bytes.strip_prefix(b"+"))
        .unwrap_or(bytes);
    if s == b"0" {
        return Some(0);
    }
    if s.is_empty() {
        return None;
    }
    let mut total: u128 = 0;
    while !s.is_empty() {
        let (nanos, rest) = duration_term(s)?;
        total = total.checked_add(nanos).filter(|t| *t <= LIMIT)?;
        s = rest;
    }
    if !negative && total == LIMIT {
        return None;
    }
    let total = i128::try_from(total).ok()?;
    Some(if negative { -total } else { total })
}

/// One `<number><unit>` term of a Go duration in nanoseconds, and the rest of the input.
fn duration_term(s: &[u8]) -> Option<(u128, &[u8])> {
    const LIMIT: u128 = 1 << 63;
    let int_len = s.iter().take_while(|b| b.is_ascii_digit()).count();
    let digit = |b: &u8| u128::from(b - b'0');
    let mut whole: u128 = 0;
    for b in &s[..int_len] {
        whole = Some(whole * 10 + digit(b)).filter(|v| *v <= LIMIT)?;
    }
    let mut rest = &s[int_len..];
    let (mut frac, mut scale, mut frac_len) = (0u128, 1.0f64, 0);
    if let Some(after_dot) = rest.strip_prefix(b".") {
        frac_len = after_dot.iter().take_while(|b| b.is_ascii_digit()).count();
        let mut overflow = false;
        for b in &after_dot[..frac_len] {
            // As in Go, digits beyond 63-bit precision are read but ignored.
            let next = frac * 10 + digit(b);
            overflow = overflow || frac > (LIMIT - 1) / 10 || next > LIMIT;
            if !overflow {
                (frac, scale) = (next, scale * 10.0);
            }
        }
        rest = &after_dot[frac_len..];
    }
    if int_len == 0 && frac_len == 0 {
        return None;
    }
    let unit_len = rest
        .iter()
        .take_while(|b| **b != b'.' && !b.is_ascii_digit())
        .count();
    let unit: u128 = match &rest[..unit_len] {
        b"ns" => 1,
        // "us", "µs" (U+00B5) and "μs" (U+03BC).
        b"us" | [0xC2, 0xB5, b's'] | [0xCE, 0xBC, b's'] => 1_000,
        b"ms" => 1_000_000,
        b"s" => 1_000_000_000,
        b"m" => 60_000_000_000,
        b"h" => 3_600_000_000_000,
        _ => return None,
    };
    let mut nanos = whole.checked_mul(unit).filter(|v| *v <= LIMIT)?;
    if frac > 0 {
        #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
        #[allow(clippy::cast_sign_loss)]
        let extra = (frac as f64 * (unit as f64 / scale)) as u128;
        nanos = nanos.checked_add(extra).filter(|v| *v <= LIMIT)?;
    }
    Some((nanos, &rest[unit_len..]))
}

/// Go `time.Parse("15:04", s)`: an hour of 1–2 digits in 0..=23, ':', a 2-digit minute.
pub(super) fn parse_hhmm(s: &str) -> Option<u32> {
    let (h, m) = s.split_once(':')?;
    let digits =
        |t: &str, max: usize| (1..=max).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit());
    if !(digits(h, 2) && digits(m, 2) && m.len() == 2) {
        return None;
    }
    let (h, m) = (h.parse::<u32>().ok()?, m.parse::<u32>().ok()?);
    (h < 24 && m < 60).then_some(h * 60 + m)
}
