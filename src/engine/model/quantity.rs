//! Kubernetes resource quantities (`"8"`, `"1k"`, `"500m"`, `"2Ki"`, `"1e3"`) parsed to numbers.
//!
//! Owns: the quantity grammar and the conversion to whole device counts. Pure.

use std::fmt;

/// Largest device count ome-top accepts for one object (anything above is absurd input).
pub const MAX_DEVICES: u32 = 1_000_000;

/// Why a quantity string was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuantityError {
    /// The offending text.
    pub text: String,
}

impl fmt::Display for QuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a Kubernetes quantity", self.text)
    }
}

/// Parses a quantity into its numeric value (e.g. `"2Ki"` → 2048.0, `"500m"` → 0.5).
pub fn parse_quantity(text: &str) -> Result<f64, QuantityError> {
    let err = || QuantityError {
        text: text.to_string(),
    };
    let s = text.trim();
    let split = s
        .char_indices()
        .find(|(i, c)| !(c.is_ascii_digit() || *c == '.' || ((*c == '+' || *c == '-') && *i == 0)))
        .map_or(s.len(), |(i, _)| i);
    let (number, suffix) = s.split_at(split);
    if number.is_empty() || number == "+" || number == "-" || number.matches('.').count() > 1 {
        return Err(err());
    }
    let value: f64 = number.parse().map_err(|_| err())?;
    let multiplier = suffix_multiplier(suffix).ok_or_else(err)?;
    let result = value * multiplier;
    if result.is_finite() {
        Ok(result)
    } else {
        Err(err())
    }
}

fn suffix_multiplier(suffix: &str) -> Option<f64> {
    let m = match suffix {
        "" => 1.0,
        "n" => 1e-9,
        "u" => 1e-6,
        "m" => 1e-3,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "E" => 1e18,
        "Ki" => 1024.0,
        "Mi" => 1024f64.powi(2),
        "Gi" => 1024f64.powi(3),
        "Ti" => 1024f64.powi(4),
        "Pi" => 1024f64.powi(5),
        "Ei" => 1024f64.powi(6),
        _ => return exponent_multiplier(suffix),
    };
    Some(m)
}

fn exponent_multiplier(suffix: &str) -> Option<f64> {
    let rest = suffix
        .strip_prefix('e')
        .or_else(|| suffix.strip_prefix('E'))?;
    let exp: i32 = rest.parse().ok()?;
    if !(-30..=30).contains(&exp) {
        return None;
    }
    Some(10f64.powi(exp))
}

/// A device count from a quantity value: negative values become 0, fractions round down, and
/// values above [`MAX_DEVICES`] are clamped. Returns the count and whether it was adjusted.
pub fn whole_devices(value: f64) -> (u32, bool) {
    if value <= 0.0 {
        return (0, value < 0.0);
    }
    if value > f64::from(MAX_DEVICES) {
        return (MAX_DEVICES, true);
    }
    // In range by the checks above, so the cast cannot truncate beyond the fraction.
    let whole = value.floor() as u32;
    (whole, f64::from(whole) != value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_plain_and_suffixed_quantities() {
        assert_eq!(parse_quantity("8"), Ok(8.0));
        assert_eq!(parse_quantity("1k"), Ok(1000.0));
        assert_eq!(parse_quantity("2Ki"), Ok(2048.0));
        assert_eq!(parse_quantity("500m"), Ok(0.5));
        assert_eq!(parse_quantity("1e3"), Ok(1000.0));
        assert_eq!(parse_quantity("1.5"), Ok(1.5));
        assert_eq!(parse_quantity("-2"), Ok(-2.0));
    }

    #[test]
    fn rejects_garbage() {
        for bad in [
            "", "abc", "8 GPUs", "1..2", "--1", "1x", "1e999", "+", "1Qi",
        ] {
            assert!(parse_quantity(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn whole_devices_clamps_absurd_values() {
        assert_eq!(whole_devices(8.0), (8, false));
        assert_eq!(whole_devices(-1.0), (0, true));
        assert_eq!(whole_devices(0.5), (0, true));
        assert_eq!(whole_devices(1e12), (MAX_DEVICES, true));
    }
}
