//! Decoder and validator behind [`super::parse_alfred_config`]: reads `config.yaml` into a
//! YAML tree that keeps duplicate keys, then walks the schema of alfred.md §5 block by block,
//! applying Alfred's defaults and validation and naming the key path of the first problem.
//!
//! It reproduces `sigs.k8s.io/yaml` + `encoding/json` semantics where they show: keys match
//! struct fields case-insensitively; numbers and bools given for a string become strings
//! (`value: 5` is "5", unquoted `status: True` is "true" and so invalid); an integral float is
//! an integer; `null` means "absent" (a zero value inside lists and maps) except for durations.
//! Same imports rule as the parent: std, `serde`, `serde_yaml` and `chrono` only.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use chrono::Weekday;
use serde::de::{self, Deserialize, Deserializer, EnumAccess, MapAccess, SeqAccess, Visitor};

use super::{
    Aggressiveness, AlfredConfig, ConditionStatus, ConfigError, EarlyTick, MaintenanceTrigger,
    MaintenanceWindow, Mode, Scheduling, SchedulingProfile, Scoring, TaintEffect, TriggerMatcher,
    DEFAULT_LADDER, DEFAULT_PRIOR,
};

type Res<T> = Result<T, ConfigError>;

/// A YAML document as Alfred's decoder sees it. Mappings keep every entry in order, so
/// duplicate keys can be reported with their path (`serde_yaml::Value` gives only a line).
enum Yaml {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    Seq(Vec<Yaml>),
    Map(Vec<(Yaml, Yaml)>),
    /// A value under a custom tag (`!Foo x`); only the tag is kept, for the message.
    Tagged(String),
}

struct YamlVisitor;

impl<'de> Visitor<'de> for YamlVisitor {
    type Value = Yaml;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Yaml, E> {
        Ok(Yaml::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Yaml, E> {
        Ok(Yaml::Int(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Yaml, E> {
        Ok(Yaml::Int(v.into()))
    }
    fn visit_i128<E>(self, v: i128) -> Result<Yaml, E> {
        Ok(Yaml::Int(v))
    }
    fn visit_u128<E>(self, v: u128) -> Result<Yaml, E> {
        // Beyond any Go int either way; saturating keeps the "out of range" verdict.
        Ok(Yaml::Int(i128::try_from(v).unwrap_or(i128::MAX)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Yaml, E> {
        Ok(Yaml::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Yaml, E> {
        Ok(Yaml::Str(v.to_owned()))
    }
    fn visit_unit<E>(self) -> Result<Yaml, E> {
        Ok(Yaml::Null)
    }
    fn visit_none<E>(self) -> Result<Yaml, E> {
        Ok(Yaml::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Yaml, D::Error> {
        Yaml::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Yaml, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Yaml::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Yaml, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(Yaml::Map(entries))
    }
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Yaml, A::Error> {
        // serde_yaml reports custom tags as enums. The variant must be consumed: returning
        // early leaves serde_yaml looping on the same event until memory runs out.
        use de::VariantAccess;
        let (tag, variant): (String, A::Variant) = data.variant()?;
        variant.newtype_variant::<Yaml>()?;
        Ok(Yaml::Tagged(tag))
    }
}

impl<'de> Deserialize<'de> for Yaml {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(YamlVisitor)
    }
}

fn fail<T>(path: &str, expected: &str, found: impl Into<String>) -> Res<T> {
    let (path, expected, found) = (path.to_owned(), expected.to_owned(), found.into());
    Err(ConfigError {
        path,
        expected,
        found,
    })
}

/// Short rendering of a value for `found`; long strings are cut so messages stay one line.
fn describe(v: &Yaml) -> String {
    match v {
        Yaml::Null => "null".to_owned(),
        Yaml::Bool(b) => b.to_string(),
        Yaml::Int(i) => i.to_string(),
        Yaml::Float(f) => f.to_string(),
        Yaml::Str(s) => quote(s),
        Yaml::Seq(_) => "a list".to_owned(),
        Yaml::Map(_) => "a mapping".to_owned(),
        Yaml::Tagged(tag) => format!("a value tagged !{tag}"),
    }
}

fn quote(s: &str) -> String {
    match s.char_indices().nth(64) {
        Some((cut, _)) => format!("{:?}…", &s[..cut]),
        None => format!("{s:?}"),
    }
}

fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_owned()
    } else {
        format!("{parent}.{key}")
    }
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 32)` for a finite `f`, which sigs.k8s.io/yaml uses
/// when a float lands in a string field or a map key (`1.0` → "1", `1e6` → "1e+06").
fn go_float_string(f: f64) -> String {
    #[allow(clippy::cast_possible_truncation)] // Go formats at 32-bit precision too.
    let x = f as f32;
    if x == 0.0 || (1e-4..1e6).contains(&x.abs()) {
        return x.to_string();
    }
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let (sign, digits) = exp.strip_prefix('-').map_or(("+", exp), |d| ("-", d));
    format!("{mantissa}e{sign}{digits:0>2}")
}

/// A number or bool where Go wants a string, converted as sigs.k8s.io/yaml converts it.
fn scalar_text(v: &Yaml) -> Option<String> {
    match v {
        Yaml::Str(s) => Some(s.clone()),
        Yaml::Int(i) => Some(i.to_string()),
        Yaml::Float(f) if f.is_finite() => Some(go_float_string(*f)),
        Yaml::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// One mapping being read as a Go struct: every key was matched to a known field name.
struct Obj<'a> {
    path: String,
    fields: Vec<(&'static str, &'a Yaml)>,
}

impl<'a> Obj<'a> {
    /// Absent or `null` reads as an empty mapping, as Go leaves the struct zero.
    fn open(v: Option<&'a Yaml>, path: String, known: &[&'static str]) -> Res<Self> {
        let mut fields: Vec<(&'static str, &'a Yaml)> = Vec::new();
        for (key, value) in entries(v, &path)? {
            let at = join(&path, &key);
            // encoding/json matches field names case-insensitively.
            let Some(&name) = known.iter().find(|n| n.eq_ignore_ascii_case(&key)) else {
                return fail(&at, &known_keys(known), unknown_key(&key));
            };
            if fields.iter().any(|(n, _)| *n == name) {
                return fail(&at, "each key once", "a duplicate key");
            }
            fields.push((name, value));
        }
        Ok(Self { path, fields })
    }

    fn at(&self, name: &str) -> String {
        join(&self.path, name)
    }

    fn get(&self, name: &str) -> Option<&'a Yaml> {
        let field = self.fields.iter().find(|(n, _)| *n == name);
        field.map(|(_, v)| *v)
    }

    fn child(&self, name: &str, known: &[&'static str]) -> Res<Obj<'a>> {
        Obj::open(self.get(name), self.at(name), known)
    }

    /// Reads an optional scalar; `None` when absent or `null`.
    fn read<T>(&self, name: &str, f: Reader<T>) -> Res<Option<T>> {
        self.get(name).map_or(Ok(None), |v| f(v, &self.at(name)))
    }

    /// Reads an optional list; `null` items become the zero value, as in Go.
    fn list<T: Default>(&self, name: &str, f: Reader<T>) -> Res<Option<Vec<T>>> {
        let path = self.at(name);
        let Some(items) = items(self.get(name), &path)? else {
            return Ok(None);
        };
        let read = |(i, v)| f(v, &format!("{path}[{i}]")).map(Option::unwrap_or_default);
        items
            .iter()
            .enumerate()
            .map(read)
            .collect::<Res<Vec<T>>>()
            .map(Some)
    }

    /// Reads an optional `map[string]T`: keys exact (no case folding) and unique.
    fn map(&self, name: &str) -> Res<Vec<(String, &'a Yaml)>> {
        let path = self.at(name);
        let mut out: Vec<(String, &'a Yaml)> = Vec::new();
        for (key, v) in entries(self.get(name), &path)? {
            if out.iter().any(|(seen, _)| *seen == key) {
                return fail(
                    &format!("{path}[{key:?}]"),
                    "each key once",
                    "a duplicate key",
                );
            }
            out.push((key, v));
        }
        Ok(out)
    }
}

type Reader<T> = fn(&Yaml, &str) -> Res<Option<T>>;

fn known_keys(known: &[&str]) -> String {
    if known.len() <= 8 {
        format!("a known key ({})", known.join(", "))
    } else {
        "a key of the alfredConfig schema (alfred.md §5)".to_owned()
    }
}

fn unknown_key(key: &str) -> String {
    if key.to_ascii_lowercase().starts_with("omenativecapability") {
        format!("unknown key {key:?} (E1 only; Alfred E2 rejects it)")
    } else {
        format!("unknown key {key:?}")
    }
}

/// The entries of a mapping with JSON keys (absent or `null` = none).
fn entries<'a>(v: Option<&'a Yaml>, path: &str) -> Res<Vec<(String, &'a Yaml)>> {
    let pairs = match v {
        None | Some(Yaml::Null) => return Ok(Vec::new()),
        Some(Yaml::Map(pairs)) => pairs,
        Some(other) => return fail(path, "a mapping", describe(other)),
    };
    let key = |(k, v): &'a (Yaml, Yaml)| match scalar_text(k) {
        Some(text) => Ok((text, v)),
        None => fail(
            path,
            "string keys",
            format!("a key that is {}", describe(k)),
        ),
    };
    pairs.iter().map(key).collect()
}

/// The items of a list (absent or `null` = `None`).
fn items<'a>(v: Option<&'a Yaml>, path: &str) -> Res<Option<&'a [Yaml]>> {
    match v {
        None | Some(Yaml::Null) => Ok(None),
        Some(Yaml::Seq(items)) => Ok(Some(items)),
        Some(other) => fail(path, "a list", describe(other)),
    }
}

fn int(v: &Yaml, path: &str) -> Res<Option<i64>> {
    const LIMIT: f64 = 9_223_372_036_854_775_808.0; // 2^63
    match v {
        Yaml::Null => Ok(None),
        Yaml::Int(i) => i64::try_from(*i)
            .map(Some)
            .or_else(|_| fail(path, "an integer", describe(v))),
        // A YAML float reaches Go's int through JSON, which accepts integral values.
        #[allow(clippy::cast_possible_truncation)]
        Yaml::Float(f) if f.fract() == 0.0 && f.abs() < LIMIT => Ok(Some(*f as i64)),
        other => fail(path, "an integer", describe(other)),
    }
}

fn float(v: &Yaml, path: &str) -> Res<Option<f64>> {
    match v {
        Yaml::Null => Ok(None),
        // NaN and ±Inf cannot cross Alfred's YAML→JSON step.
        Yaml::Float(f) if f.is_finite() => Ok(Some(*f)),
        #[allow(clippy::cast_precision_loss)]
        Yaml::Int(i) => Ok(Some(*i as f64)),
        other => fail(path, "a finite number", describe(other)),
    }
}

fn boolean(v: &Yaml, path: &str) -> Res<Option<bool>> {
    // go-yaml v2 (YAML 1.1) also reads these plain words as booleans; serde_yaml (YAML 1.2)
    // hands them over as strings.
    match v {
        Yaml::Null => Ok(None),
        Yaml::Bool(b) => Ok(Some(*b)),
        Yaml::Str(s) => match s.as_str() {
            "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Ok(Some(true)),
            "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => Ok(Some(false)),
            _ => fail(path, "true or false", describe(v)),
        },
        other => fail(path, "true or false", describe(other)),
    }
}

fn string(v: &Yaml, path: &str) -> Res<Option<String>> {
    match (v, scalar_text(v)) {
        (Yaml::Null, _) => Ok(None),
        (_, Some(text)) => Ok(Some(text)),
        (other, None) => fail(path, "a string", describe(other)),
    }
}

/// Go's `time.ParseDuration`: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+` or "0", in nanoseconds.
fn parse_go_duration(text: &str) -> Option<i128> {
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
fn parse_hhmm(s: &str) -> Option<u32> {
    let (h, m) = s.split_once(':')?;
    let digits =
        |t: &str, max: usize| (1..=max).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit());
    if !(digits(h, 2) && digits(m, 2) && m.len() == 2) {
        return None;
    }
    let (h, m) = (h.parse::<u32>().ok()?, m.parse::<u32>().ok()?);
    (h < 24 && m < 60).then_some(h * 60 + m)
}

/// Kubernetes `IsDNS1123Subdomain`.
fn is_dns1123_subdomain(s: &str) -> bool {
    let alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    let label_ok = |l: &str| {
        let b = l.as_bytes();
        let inner = b.iter().all(|c| alnum(c) || *c == b'-');
        inner && b.first().is_some_and(alnum) && b.last().is_some_and(alnum)
    };
    !s.is_empty() && s.len() <= 253 && s.split('.').all(label_ok)
}

/// The name part of a qualified name, and any non-empty label value: ≤ 63 characters of
/// `[A-Za-z0-9._-]`, alphanumeric at both ends.
fn is_label_token(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: &u8| c.is_ascii_alphanumeric();
    let inner = b
        .iter()
        .all(|c| alnum(c) || matches!(c, b'-' | b'_' | b'.'));
    s.len() <= 63 && inner && b.first().is_some_and(alnum) && b.last().is_some_and(alnum)
}

/// Kubernetes `IsQualifiedName`: `[prefix/]name`, the prefix a DNS-1123 subdomain.
fn is_qualified_name(s: &str) -> bool {
    match s.split_once('/') {
        Some((prefix, name)) => is_dns1123_subdomain(prefix) && is_label_token(name),
        None => is_label_token(s),
    }
}

const QUALIFIED: &str = "a qualified name ([prefix/]name, name ≤ 63 of [A-Za-z0-9._-])";
const LABEL_VALUE: &str = "a label value (≤ 63 of [A-Za-z0-9._-], alphanumeric ends)";
const POSITIVE: &str = "a positive integer (0 or absent = default)";
const ONE_MATCHER: &str = "exactly one of condition, label, taint";

/// An integer where 0 or absence means the default and a negative fails. Values above
/// `u32::MAX`, which Alfred accepts and no sane config uses, are clamped.
fn positive_or_default(o: &Obj<'_>, name: &str, default: u32) -> Res<u32> {
    match o.read(name, int)? {
        None | Some(0) => Ok(default),
        Some(n) if n < 0 => fail(&o.at(name), POSITIVE, n.to_string()),
        Some(n) => Ok(u32::try_from(n).unwrap_or(u32::MAX)),
    }
}

/// A string where "" or absence means the default.
fn text_or(o: &Obj<'_>, name: &str, default: &str) -> Res<String> {
    let text = o.read(name, string)?.filter(|s| !s.is_empty());
    Ok(text.unwrap_or_else(|| default.to_owned()))
}

fn flag(o: &Obj<'_>, name: &str, default: bool) -> Res<bool> {
    Ok(o.read(name, boolean)?.unwrap_or(default))
}

/// A float in [0, 1]; absent = default, an explicit 0 is kept.
fn unit_interval(o: &Obj<'_>, name: &str, default: f64) -> Res<f64> {
    match o.read(name, float)? {
        None => Ok(default),
        Some(x) if (0.0..=1.0).contains(&x) => Ok(x),
        Some(x) => fail(&o.at(name), "a number in [0,1]", x.to_string()),
    }
}

/// A loop interval: absent or 0 = default, otherwise ≥ 1 s. Unlike other fields, `null` and
/// bare numbers fail: Alfred's `metav1.Duration` accepts only a duration string.
fn interval(o: &Obj<'_>, name: &str, default: Duration) -> Res<Duration> {
    const SYNTAX: &str = "a Go duration string such as \"5m\", \"30s\" or \"1h30m\"";
    let Some(v) = o.get(name) else {
        return Ok(default);
    };
    let Yaml::Str(text) = v else {
        return fail(&o.at(name), SYNTAX, describe(v));
    };
    match parse_go_duration(text) {
        None => fail(&o.at(name), SYNTAX, quote(text)),
        Some(0) => Ok(default),
        Some(n) if n < 1_000_000_000 => fail(
            &o.at(name),
            "a duration of at least 1s (0 = default)",
            quote(text),
        ),
        Some(n) => Ok(Duration::from_nanos(u64::try_from(n).unwrap_or(u64::MAX))),
    }
}

fn aggressiveness(o: &Obj<'_>, name: &str) -> Res<Aggressiveness> {
    match o.read(name, string)?.as_deref() {
        None | Some("" | "balanced") => Ok(Aggressiveness::Balanced),
        Some("conservative") => Ok(Aggressiveness::Conservative),
        Some("aggressive") => Ok(Aggressiveness::Aggressive),
        Some(other) => fail(
            &o.at(name),
            "conservative, balanced or aggressive",
            quote(other),
        ),
    }
}

/// Top-level keys, in the order Alfred's `Config` struct declares them.
#[rustfmt::skip]
pub(super) const TOP_KEYS: &[&str] = &[
    "schemaVersion", "mode", "decisionLoopInterval", "observationLoopInterval", "earlyTickOn",
    "policies", "scheduling", "defaultMovable", "recentPlacementCooldownMinutes",
    "perWorkloadCooldownMinutes", "perNodeCooldownMinutes", "rawDeploymentMigrationEnabled",
    "omenativeMigrationEnabled", "lwsRecommendationsEnabled", "tpuSliceMigrationEnabled",
    "tpuSlicePartitions", "recommendationsConfigMapEnabled", "recommendationsConfigMapName",
    "maxInFlightMigrations", "maxMigrationsPerHour", "emergencyPendingAgeMinutes",
    "maintenanceWindows", "spotPolicy", "allowCrossTenantOptimization", "logLevel",
    "structuredLogging",
];

/// Entry point: the whole document, blocks in the order Alfred validates them.
pub(super) fn parse(yaml: &str) -> Res<AlfredConfig> {
    let doc: Yaml = match serde_yaml::from_str(yaml) {
        Ok(doc) => doc,
        Err(e) => return fail("", "valid YAML (one document)", e.to_string()),
    };
    let top = Obj::open(Some(&doc), String::new(), TOP_KEYS)?;
    let mut c = AlfredConfig::default();
    match top.read("schemaVersion", int)? {
        Some(1) => {}
        Some(v) => return fail("schemaVersion", "1", v.to_string()),
        None => return fail("schemaVersion", "1", "nothing (the key is required)"),
    }
    c.mode = match top.read("mode", string)?.as_deref() {
        None | Some("" | "recommend-only") => Mode::RecommendOnly,
        Some("execute") => Mode::Execute,
        Some(other) => return fail("mode", "recommend-only or execute", quote(other)),
    };
    read_tpu(&top, &mut c)?;
    let (decision, observation) = ("decisionLoopInterval", "observationLoopInterval");
    c.decision_loop_interval = interval(&top, decision, c.decision_loop_interval)?;
    c.observation_loop_interval = interval(&top, observation, c.observation_loop_interval)?;
    if let Some(names) = top.list("earlyTickOn", string)? {
        let tick = |(i, name): (usize, &String)| early_tick(name, i);
        c.early_tick_on = names.iter().enumerate().map(tick).collect::<Res<_>>()?;
    }
    c.scheduling = read_scheduling(&top)?;
    read_policies(&top, &mut c)?;
    read_top_scalars(&top, &mut c)?;
    c.maintenance_windows = read_windows(&top)?;
    read_spot_policy(&top, &mut c)?;
    Ok(c)
}

fn early_tick(name: &str, i: usize) -> Res<EarlyTick> {
    match name {
        "NodeConditionChange" => Ok(EarlyTick::NodeConditionChange),
        "NodeMaintenanceChange" => Ok(EarlyTick::NodeMaintenanceChange),
        other => {
            let expected = "NodeConditionChange or NodeMaintenanceChange";
            fail(&format!("earlyTickOn[{i}]"), expected, quote(other))
        }
    }
}

/// The top-level bools of the config, by key.
fn flag_slot<'c>(c: &'c mut AlfredConfig, key: &str) -> Option<&'c mut bool> {
    Some(match key {
        "defaultMovable" => &mut c.default_movable,
        "rawDeploymentMigrationEnabled" => &mut c.raw_deployment_migration_enabled,
        "omenativeMigrationEnabled" => &mut c.omenative_migration_enabled,
        "lwsRecommendationsEnabled" => &mut c.lws_recommendations_enabled,
        "tpuSliceMigrationEnabled" => &mut c.tpu_slice_migration_enabled,
        "recommendationsConfigMapEnabled" => &mut c.recommendations_config_map_enabled,
        "allowCrossTenantOptimization" => &mut c.allow_cross_tenant_optimization,
        "structuredLogging" => &mut c.structured_logging,
        _ => return None,
    })
}

/// The top-level "positive, 0 = default" integers of the config, by key.
fn count_slot<'c>(c: &'c mut AlfredConfig, key: &str) -> Option<&'c mut u32> {
    Some(match key {
        "recentPlacementCooldownMinutes" => &mut c.recent_placement_cooldown_minutes,
        "perWorkloadCooldownMinutes" => &mut c.per_workload_cooldown_minutes,
        "perNodeCooldownMinutes" => &mut c.per_node_cooldown_minutes,
        "maxInFlightMigrations" => &mut c.max_in_flight_migrations,
        "maxMigrationsPerHour" => &mut c.max_migrations_per_hour,
        "emergencyPendingAgeMinutes" => &mut c.emergency_pending_age_minutes,
        _ => return None,
    })
}

/// Top-level bools, counts and free strings; only keys present change a default.
fn read_top_scalars(top: &Obj<'_>, c: &mut AlfredConfig) -> Res<()> {
    for &(key, _) in &top.fields {
        if let Some(slot) = flag_slot(c, key) {
            *slot = flag(top, key, *slot)?;
        } else if let Some(slot) = count_slot(c, key) {
            *slot = positive_or_default(top, key, *slot)?;
        }
    }
    let name = "recommendationsConfigMapName";
    c.recommendations_config_map_name = text_or(top, name, &c.recommendations_config_map_name)?;
    c.log_level = text_or(top, "logLevel", &c.log_level)?;
    Ok(())
}

fn read_tpu(top: &Obj<'_>, c: &mut AlfredConfig) -> Res<()> {
    const KEYS: &[&str] = &["topologyLabel", "idLabel", "stateLabel", "healthyState"];
    const FORMAT: &str = "a label key format with exactly one %s";
    let o = top.child("tpuSlicePartitions", KEYS)?;
    let t = &mut c.tpu_slice_partitions;
    t.topology_label = text_or(&o, "topologyLabel", &t.topology_label)?;
    t.id_label = text_or(&o, "idLabel", &t.id_label)?;
    t.state_label = text_or(&o, "stateLabel", &t.state_label)?;
    t.healthy_state = text_or(&o, "healthyState", &t.healthy_state)?;
    if !is_qualified_name(&t.topology_label) {
        return fail(&o.at("topologyLabel"), QUALIFIED, quote(&t.topology_label));
    }
    for (name, format) in [("idLabel", &t.id_label), ("stateLabel", &t.state_label)] {
        let single = format.matches("%s").count() == 1 && format.matches('%').count() == 1;
        if !single || !is_qualified_name(&format.replacen("%s", "2x2x2", 1)) {
            return fail(&o.at(name), FORMAT, quote(format));
        }
    }
    if !is_label_token(&t.healthy_state) {
        return fail(&o.at("healthyState"), LABEL_VALUE, quote(&t.healthy_state));
    }
    Ok(())
}

fn read_scheduling(top: &Obj<'_>) -> Res<Scheduling> {
    const KEYS: &[&str] = &[
        "backend",
        "schedulerVersion",
        "configurationID",
        "gangScheduling",
    ];
    let o = top.child("scheduling", &["profiles"])?;
    let mut profiles = BTreeMap::new();
    for (name, value) in o.map("profiles")? {
        let path = format!("scheduling.profiles[{name:?}]");
        identifier(&path, &name)?;
        if !is_dns1123_subdomain(&name) {
            return fail(
                &path,
                "a DNS-1123 subdomain as scheduler name",
                quote(&name),
            );
        }
        let p = Obj::open(Some(value), path, KEYS)?;
        let field = |key: &str| -> Res<String> {
            let text = p.read(key, string)?.unwrap_or_default();
            identifier(&p.at(key), &text).map(|()| text)
        };
        let profile = SchedulingProfile {
            backend: field("backend")?,
            scheduler_version: field("schedulerVersion")?,
            configuration_id: field("configurationID")?,
            gang_scheduling: flag(&p, "gangScheduling", false)?,
        };
        profiles.insert(name, profile);
    }
    Ok(Scheduling { profiles })
}

/// Non-blank, no surrounding whitespace (scheduling identifiers and trigger names).
fn identifier(path: &str, value: &str) -> Res<()> {
    if value.trim().is_empty() || value.trim() != value {
        return fail(
            path,
            "a non-blank string without surrounding whitespace",
            quote(value),
        );
    }
    Ok(())
}

fn read_policies(top: &Obj<'_>, c: &mut AlfredConfig) -> Res<()> {
    const DEFRAG: &[&str] = &[
        "enabled",
        "fragmentationThreshold",
        "aggressiveness",
        "scoring",
    ];
    #[rustfmt::skip]
    const HEALTH: &[&str] = &[
        "enabled", "aggressiveness", "triggerConditions", "signalOnly",
        "healthCooldownFloorMinutes", "nodeSuspicionWindowMinutes", "maintenance",
    ];
    let p = top.child("policies", &["defragmentation", "nodeHealth"])?;
    let (d, o) = (
        &mut c.policies.defragmentation,
        p.child("defragmentation", DEFRAG)?,
    );
    d.enabled = flag(&o, "enabled", d.enabled)?;
    let threshold = "fragmentationThreshold";
    d.fragmentation_threshold = unit_interval(&o, threshold, d.fragmentation_threshold)?;
    d.aggressiveness = aggressiveness(&o, "aggressiveness")?;
    d.scoring = read_scoring(&o, &d.scoring)?;
    let (n, o) = (&mut c.policies.node_health, p.child("nodeHealth", HEALTH)?);
    n.enabled = flag(&o, "enabled", n.enabled)?;
    n.aggressiveness = aggressiveness(&o, "aggressiveness")?;
    let conditions = o.list("triggerConditions", string)?.unwrap_or_default();
    for (i, name) in conditions.iter().enumerate() {
        let path = format!("{}[{i}]", o.at("triggerConditions"));
        if !is_qualified_name(name) {
            return fail(&path, QUALIFIED, quote(name));
        }
        if conditions[..i].contains(name) {
            return fail(&path, "no duplicate conditions", quote(name));
        }
    }
    if !conditions.is_empty() {
        n.trigger_conditions = conditions;
    }
    n.signal_only = flag(&o, "signalOnly", n.signal_only)?;
    n.maintenance.triggers = read_triggers(&o.child("maintenance", &["triggers"])?)?;
    let (floor, window) = ("healthCooldownFloorMinutes", "nodeSuspicionWindowMinutes");
    let slot = &mut n.health_cooldown_floor_minutes;
    *slot = positive_or_default(&o, floor, *slot)?;
    let slot = &mut n.node_suspicion_window_minutes;
    *slot = positive_or_default(&o, window, *slot)?;
    Ok(())
}

fn read_scoring(d: &Obj<'_>, defaults: &Scoring) -> Res<Scoring> {
    const KEYS: &[&str] = &[
        "sizeLadder",
        "demandBlendLambda",
        "sizePrior",
        "pendingUrgencyTauMinutes",
    ];
    let o = d.child("scoring", KEYS)?;
    let lambda = unit_interval(&o, "demandBlendLambda", defaults.demand_blend_lambda)?;
    let size_ladder = read_ladder(&o)?;
    let size_prior = read_prior(&o, &size_ladder)?;
    let tau = defaults.pending_urgency_tau_minutes;
    let tau = positive_or_default(&o, "pendingUrgencyTauMinutes", tau)?;
    Ok(Scoring {
        size_ladder,
        demand_blend_lambda: lambda,
        size_prior,
        pending_urgency_tau_minutes: tau,
    })
}

fn read_ladder(o: &Obj<'_>) -> Res<Vec<u32>> {
    let path = o.at("sizeLadder");
    let raw = o.list("sizeLadder", int)?.unwrap_or_default();
    if raw.is_empty() {
        return Ok(DEFAULT_LADDER.to_vec());
    }
    if raw.windows(2).any(|w| w[0] > w[1]) {
        return fail(&path, "ascending sizes", format!("{raw:?}"));
    }
    let mut ladder: Vec<u32> = Vec::with_capacity(raw.len());
    for (i, size) in raw.iter().enumerate() {
        let item = format!("{path}[{i}]");
        let Some(size) = u32::try_from(*size).ok().filter(|s| *s > 0) else {
            return fail(
                &item,
                "a positive GPU count (≤ 4294967295)",
                size.to_string(),
            );
        };
        if ladder.contains(&size) {
            return fail(&item, "no duplicate sizes", size.to_string());
        }
        ladder.push(size);
    }
    Ok(ladder)
}

fn read_prior(o: &Obj<'_>, ladder: &[u32]) -> Res<BTreeMap<u32, f64>> {
    const CANONICAL: &str = "a canonical positive size key such as \"8\"";
    let path = o.at("sizePrior");
    let entries = o.map("sizePrior")?;
    if entries.is_empty() {
        return Ok(DEFAULT_PRIOR.into_iter().collect());
    }
    let mut prior = BTreeMap::new();
    for (key, value) in entries {
        let item = format!("{path}[{key:?}]");
        // Canonical decimal only: "08", "+8" or "8x" must not alias size 8.
        let canonical = key
            .parse::<u32>()
            .ok()
            .filter(|s| *s > 0 && s.to_string() == key);
        let Some(size) = canonical else {
            return fail(&item, CANONICAL, quote(&key));
        };
        if !ladder.contains(&size) {
            return fail(&item, &format!("a sizeLadder size {ladder:?}"), quote(&key));
        }
        let weight = float(value, &item)?.unwrap_or(0.0);
        if weight < 0.0 {
            return fail(&item, "a weight ≥ 0", weight.to_string());
        }
        prior.insert(size, weight);
    }
    let sum: f64 = prior.values().sum();
    if !(0.99..=1.01).contains(&sum) {
        return fail(
            &path,
            "weights summing to 1 (0.99 to 1.01)",
            format!("a sum of {sum}"),
        );
    }
    // Alfred uses the prior normalised to exactly 1.
    for weight in prior.values_mut() {
        *weight /= sum;
    }
    Ok(prior)
}

fn read_triggers(o: &Obj<'_>) -> Res<Vec<MaintenanceTrigger>> {
    const KEYS: &[&str] = &["name", "condition", "label", "taint", "cordon"];
    let path = o.at("triggers");
    let mut triggers: Vec<MaintenanceTrigger> = Vec::new();
    for (i, item) in items(o.get("triggers"), &path)?
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let t = Obj::open(Some(item), format!("{path}[{i}]"), KEYS)?;
        let name = t.read("name", string)?.unwrap_or_default();
        identifier(&t.at("name"), &name)?;
        if triggers.iter().any(|seen| seen.name == name) {
            return fail(
                &t.at("name"),
                "a name unique among the triggers",
                quote(&name),
            );
        }
        let set: Vec<&str> = ["condition", "label", "taint"]
            .into_iter()
            .filter(|k| !matches!(t.get(k), None | Some(Yaml::Null)))
            .collect();
        let matcher = match set.as_slice() {
            ["condition"] => condition_matcher(&t)?,
            ["label"] => label_matcher(&t)?,
            ["taint"] => taint_matcher(&t)?,
            [] => return fail(&t.path, ONE_MATCHER, "none"),
            many => return fail(&t.path, ONE_MATCHER, many.join(" and ")),
        };
        let cordon = flag(&t, "cordon", false)?;
        triggers.push(MaintenanceTrigger {
            name,
            matcher,
            cordon,
        });
    }
    Ok(triggers)
}

fn condition_matcher(t: &Obj<'_>) -> Res<TriggerMatcher> {
    let o = t.child("condition", &["type", "status"])?;
    let condition_type = o.read("type", string)?.unwrap_or_default();
    if !is_qualified_name(&condition_type) {
        return fail(&o.at("type"), QUALIFIED, quote(&condition_type));
    }
    let status = match o.read("status", string)?.unwrap_or_default().as_str() {
        "True" => ConditionStatus::True,
        "False" => ConditionStatus::False,
        "Unknown" => ConditionStatus::Unknown,
        other => {
            return fail(
                &o.at("status"),
                "\"True\", \"False\" or \"Unknown\"",
                quote(other),
            )
        }
    };
    Ok(TriggerMatcher::Condition {
        condition_type,
        status,
    })
}

/// The `key` and optional `value` shared by label and taint matchers.
fn key_and_value(o: &Obj<'_>) -> Res<(String, Option<String>)> {
    let key = o.read("key", string)?.unwrap_or_default();
    if !is_qualified_name(&key) {
        return fail(&o.at("key"), QUALIFIED, quote(&key));
    }
    let value = o.read("value", string)?;
    if let Some(v) = value
        .as_deref()
        .filter(|v| !v.is_empty() && !is_label_token(v))
    {
        return fail(&o.at("value"), LABEL_VALUE, quote(v));
    }
    Ok((key, value))
}

fn label_matcher(t: &Obj<'_>) -> Res<TriggerMatcher> {
    let o = t.child("label", &["key", "value", "valueIsStartTime"])?;
    let (key, value) = key_and_value(&o)?;
    let value_is_start_time = flag(&o, "valueIsStartTime", false)?;
    if value_is_start_time && value.is_some() {
        let expected = "either value or valueIsStartTime: true, not both";
        return fail(&o.at("valueIsStartTime"), expected, "both");
    }
    Ok(TriggerMatcher::Label {
        key,
        value,
        value_is_start_time,
    })
}

fn taint_matcher(t: &Obj<'_>) -> Res<TriggerMatcher> {
    let o = t.child("taint", &["key", "value", "effect"])?;
    let (key, value) = key_and_value(&o)?;
    let effect = match o.read("effect", string)?.unwrap_or_default().as_str() {
        "" => None,
        "NoSchedule" => Some(TaintEffect::NoSchedule),
        "PreferNoSchedule" => Some(TaintEffect::PreferNoSchedule),
        "NoExecute" => Some(TaintEffect::NoExecute),
        other => {
            let expected = "NoSchedule, PreferNoSchedule or NoExecute";
            return fail(&o.at("effect"), expected, quote(other));
        }
    };
    Ok(TriggerMatcher::Taint { key, value, effect })
}

fn read_windows(top: &Obj<'_>) -> Res<Vec<MaintenanceWindow>> {
    let path = top.at("maintenanceWindows");
    let mut windows = Vec::new();
    for (i, item) in items(top.get("maintenanceWindows"), &path)?
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let o = Obj::open(
            Some(item),
            format!("{path}[{i}]"),
            &["days", "start", "end"],
        )?;
        let names = o.list("days", string)?.unwrap_or_default();
        if names.is_empty() {
            return fail(&o.at("days"), "a non-empty list of Mon..Sun", "no days");
        }
        let day = |(d, name): (usize, &String)| weekday(name, &format!("{}[{d}]", o.at("days")));
        let days = names.iter().enumerate().map(day).collect::<Res<_>>()?;
        let clock = |key: &str| -> Res<(u32, String)> {
            let text = o.read(key, string)?.unwrap_or_default();
            match parse_hhmm(&text) {
                Some(minute) => Ok((minute, text)),
                None => fail(&o.at(key), "\"HH:MM\" (UTC)", quote(&text)),
            }
        };
        let ((start_minute, start), (end_minute, end)) = (clock("start")?, clock("end")?);
        if start_minute >= end_minute {
            let expected = "start before end (a window cannot cross midnight)";
            return fail(&o.path, expected, format!("start {start}, end {end}"));
        }
        windows.push(MaintenanceWindow {
            days,
            start_minute,
            end_minute,
        });
    }
    Ok(windows)
}

fn weekday(name: &str, path: &str) -> Res<Weekday> {
    Ok(match name {
        "Mon" => Weekday::Mon,
        "Tue" => Weekday::Tue,
        "Wed" => Weekday::Wed,
        "Thu" => Weekday::Thu,
        "Fri" => Weekday::Fri,
        "Sat" => Weekday::Sat,
        "Sun" => Weekday::Sun,
        other => return fail(path, "one of Mon..Sun", quote(other)),
    })
}

fn read_spot_policy(top: &Obj<'_>, c: &mut AlfredConfig) -> Res<()> {
    const KEYS: &[&str] = &["avoidAsTarget", "preferAsSource", "preemptibleLabels"];
    let o = top.child("spotPolicy", KEYS)?;
    let s = &mut c.spot_policy;
    s.avoid_as_target = flag(&o, "avoidAsTarget", s.avoid_as_target)?;
    s.prefer_as_source = flag(&o, "preferAsSource", s.prefer_as_source)?;
    // Absent = the default labels; an explicit [] = no node is preemptible.
    if let Some(labels) = o.list("preemptibleLabels", string)? {
        s.preemptible_labels = labels;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// One case per rule of alfred.md §5: `path of the error | document after schemaVersion`.
    /// `@D`, `@S`, `@H`, `@T`, `@P` abbreviate the defragmentation, scoring, nodeHealth,
    /// maintenance-trigger and default-scheduler-profile prefixes of both columns; a written
    /// `\n` is a line break.
    const REJECTED: &str = r#"
mode | mode: dry-run
decisionLoopInterval | decisionLoopInterval: 500ms
decisionLoopInterval | decisionLoopInterval: -5m
decisionLoopInterval | decisionLoopInterval: soon
decisionLoopInterval | decisionLoopInterval: 300
decisionLoopInterval | decisionLoopInterval: ~
observationLoopInterval | observationLoopInterval: 0.5s
earlyTickOn[0] | earlyTickOn: [PodDeleted]
earlyTickOn[1] | earlyTickOn: [NodeConditionChange, Foo]
earlyTickOn | earlyTickOn: NodeConditionChange
scheduling.profiles["Bad_Name"] | scheduling: {profiles: {Bad_Name: {}}}
scheduling.profiles | scheduling: {profiles: [a]}
@P.backend | @P backend: "", schedulerVersion: v1, configurationID: c}}}
@P.schedulerVersion | @P backend: b, schedulerVersion: " v1", configurationID: c}}}
@P.configurationID | @P backend: b, schedulerVersion: v1, configurationID: null}}}
@P.gangScheduling | @P backend: b, schedulerVersion: v, configurationID: c, gangScheduling: 2}}}
@P.extra | @P backend: b, schedulerVersion: v1, configurationID: c, extra: 1}}}
@D.fragmentationThreshold | @D fragmentationThreshold: 1.5}}
@D.fragmentationThreshold | @D fragmentationThreshold: -0.1}}
@D.fragmentationThreshold | @D fragmentationThreshold: .nan}}
@D.fragmentationThreshold | @D fragmentationThreshold: high}}
@D.aggressiveness | @D aggressiveness: yolo}}
@D.enabled | @D enabled: maybe}}
@S.demandBlendLambda | @S demandBlendLambda: 1.2}}}
@S.sizeLadder | @S sizeLadder: [4, 2, 8]}}}
@S.sizeLadder[0] | @S sizeLadder: [0, 1]}}}
@S.sizeLadder[0] | @S sizeLadder: [-2, 1]}}}
@S.sizeLadder[2] | @S sizeLadder: [1, 2, 2, 4]}}}
@S.sizeLadder[1] | @S sizeLadder: [1, x]}}}
@S.sizePrior["08"] | @S sizePrior: {"08": 1}}}}
@S.sizePrior["+8"] | @S sizePrior: {"+8": 1}}}}
@S.sizePrior["8x"] | @S sizePrior: {"8x": 1}}}}
@S.sizePrior["big"] | @S sizePrior: {big: 1}}}}
@S.sizePrior["16"] | @S sizePrior: {"16": 1}}}}
@S.sizePrior["4"] | @S sizePrior: {"8": 1.2, "4": -0.2}}}}
@S.sizePrior | @S sizePrior: {"8": 0.5}}}}
@S.sizePrior["8"] | @S sizePrior: {"8": 0.5, 8: 0.5}}}}
@S.sizePrior["8"] | @S sizePrior: {"8": "1"}}}}
@S.pendingUrgencyTauMinutes | @S pendingUrgencyTauMinutes: -30}}}
@S.foo | @S foo: 1}}}
@H.aggressiveness | @H aggressiveness: yolo}}
@H.triggerConditions[0] | @H triggerConditions: ["bad name"]}}
@H.triggerConditions[0] | @H triggerConditions: [""]}}
@H.triggerConditions[1] | @H triggerConditions: [A, A]}}
@H.healthCooldownFloorMinutes | @H healthCooldownFloorMinutes: -1}}
@H.nodeSuspicionWindowMinutes | @H nodeSuspicionWindowMinutes: -1}}
@H.signalOnly | @H signalOnly: 1}}
@H.maintenance.triggers | @H maintenance: {triggers: {name: p}}}}
@T[0].name | @T [{}]
@T[0] | @T [{name: patch}]
@T[0].name | @T [{label: {key: patch}}]
@T[0].name | @T [{name: "  ", label: {key: patch}}]
@T[0].name | @T [{name: " patch", label: {key: patch}}]
@T[1].name | @T [{name: p, label: {key: a}}, {name: p, taint: {key: b}}]
@T[0] | @T [{name: p, label: {key: a}, taint: {key: a}}]
@T[0].condition.type | @T [{name: p, condition: {}}]
@T[0].condition.type | @T [{name: p, condition: {type: "bad name", status: "True"}}]
@T[0].condition.status | @T [{name: p, condition: {type: Patching}}]
@T[0].condition.status | @T [{name: p, condition: {type: Patching, status: yes}}]
@T[0].condition.status | @T [{name: p, condition: {type: Patching, status: True}}]
@T[0].label.key | @T [{name: p, label: {}}]
@T[0].label.key | @T [{name: p, label: {key: "bad key"}}]
@T[0].label.value | @T [{name: p, label: {key: patch, value: "bad value"}}]
@T[0].label.valueIsStartTime | @T [{name: p, label: {key: s, value: "1", valueIsStartTime: true}}]
@T[0].label.other | @T [{name: p, label: {key: patch, other: 1}}]
@T[0].taint.key | @T [{name: p, taint: {}}]
@T[0].taint.key | @T [{name: p, taint: {key: "bad key"}}]
@T[0].taint.value | @T [{name: p, taint: {key: patch, value: "bad value"}}]
@T[0].taint.effect | @T [{name: p, taint: {key: patch, effect: Bad}}]
@T[0].cordon | @T [{name: p, label: {key: patch}, cordon: perhaps}]
@T[0].node | @T [{name: p, label: {key: patch}, node: x}]
recentPlacementCooldownMinutes | recentPlacementCooldownMinutes: -5
perWorkloadCooldownMinutes | perWorkloadCooldownMinutes: -1
perNodeCooldownMinutes | perNodeCooldownMinutes: -1
maxInFlightMigrations | maxInFlightMigrations: -1
maxInFlightMigrations | maxInFlightMigrations: "3"
maxInFlightMigrations | maxInFlightMigrations: 2.5
maxMigrationsPerHour | maxMigrationsPerHour: -1
emergencyPendingAgeMinutes | emergencyPendingAgeMinutes: -1
defaultMovable | defaultMovable: maybe
structuredLogging | structuredLogging: "true"
logLevel | logLevel: [debug]
policies | policies: 5
spotPolicy.preemptibleLabels[0] | spotPolicy: {preemptibleLabels: [[x]]}
spotPolicy.avoidAsTarget | spotPolicy: {avoidAsTarget: 0}
maintenanceWindows | maintenanceWindows: {}
maintenanceWindows[0].days | maintenanceWindows: [{days: [], start: "01:00", end: "05:00"}]
maintenanceWindows[0].days[1] | maintenanceWindows: [{days: [Sat, Monday], start: "01:00", end: "05:00"}]
maintenanceWindows[0].start | maintenanceWindows: [{days: [Sat], start: 9am, end: "17:00"}]
maintenanceWindows[0].end | maintenanceWindows: [{days: [Sat], start: "09:00", end: "24:00"}]
maintenanceWindows[0] | maintenanceWindows: [{days: [Sat], start: "17:00", end: "09:00"}]
maintenanceWindows[0] | maintenanceWindows: [{days: [Sat], start: "09:00", end: "09:00"}]
maintenanceWindows[0].start | maintenanceWindows: [{days: [Sat], end: "05:00"}]
maintenanceWindows[0].tz | maintenanceWindows: [{days: [Sat], start: "01:00", end: "02:00", tz: UTC}]
tpuSlicePartitions.topologyLabel | tpuSlicePartitions: {topologyLabel: "bad label!"}
tpuSlicePartitions.idLabel | tpuSlicePartitions: {idLabel: example.com/partition-id}
tpuSlicePartitions.stateLabel | tpuSlicePartitions: {stateLabel: "x-%s-%s"}
tpuSlicePartitions.healthyState | tpuSlicePartitions: {healthyState: "not healthy"}
tpuSliceMigrationEnabled | tpuSliceMigrationEnabled: sure
modee | modee: execute
omenativeCapabilityLeaseName | omenativeCapabilityLeaseName: x
omenativeCapabilityLeaseNamespace | omenativeCapabilityLeaseNamespace: ome
omenativeCapabilityMaxStaleness | omenativeCapabilityMaxStaleness: 45s
mode | mode: execute\nmode: execute
Mode | mode: execute\nMode: execute
@D.enabled | @D enabled: true, enabled: false}}
mode | mode: !Foo execute
"#;

    fn rejected() -> impl Iterator<Item = (String, String)> {
        #[rustfmt::skip]
        const PREFIXES: [(&str, &str, &str); 5] = [
            ("@D", "policies.defragmentation", "policies: {defragmentation: {"),
            ("@S", "policies.defragmentation.scoring", "policies: {defragmentation: {scoring: {"),
            ("@H", "policies.nodeHealth", "policies: {nodeHealth: {"),
            ("@T", "policies.nodeHealth.maintenance.triggers", T),
            ("@P", "scheduling.profiles[\"default-scheduler\"]", "scheduling: {profiles: {default-scheduler: {"),
        ];
        REJECTED.lines().filter(|l| !l.is_empty()).map(|line| {
            let (path, body) = line.split_once(" | ").unwrap_or((line, ""));
            let (mut path, mut body) = (path.to_owned(), body.to_owned());
            for (tag, path_prefix, yaml_prefix) in PREFIXES {
                path = path.replace(tag, path_prefix);
                body = body.replace(&format!("{tag} "), yaml_prefix);
            }
            (path, body.replace("\\n", "\n"))
        })
    }

    #[test]
    fn every_rule_fails_with_its_path() {
        let mut count = 0;
        for (path, body) in rejected() {
            let e = parse_err(&body);
            assert_eq!(e.path, path, "{body:?} → {e}");
            assert!(!e.expected.is_empty() && !e.found.is_empty(), "{e:?}");
            count += 1;
        }
        assert!(count > 100, "{count}");
    }

    #[test]
    fn document_level_failures() {
        for doc in [
            "",
            "# only a comment\n",
            "mode: execute",
            "schemaVersion: 2",
            "schemaVersion: 0",
        ] {
            assert_eq!(
                parse(doc).map_err(|e| e.path),
                Err("schemaVersion".to_owned()),
                "{doc:?}"
            );
        }
        let e = parse("schemaVersion: \"1\"").unwrap_err();
        assert_eq!(
            (e.path.as_str(), e.expected.as_str()),
            ("schemaVersion", "an integer")
        );
        for doc in [
            "- a",
            "5",
            "schemaVersion: 1\nmode: [",
            "schemaVersion: 1\n---\nmode: x",
        ] {
            assert_eq!(parse(doc).unwrap_err().path, "", "{doc:?}");
        }
    }

    #[test]
    fn messages_name_what_was_expected_and_found() {
        let e = parse_err(&format!("{P}fragmentationThreshold: 1.5"));
        let want = "config.yaml: policies.defragmentation.fragmentationThreshold: \
                    expected a number in [0,1], found 1.5";
        assert_eq!(e.to_string(), want);
        let e = parse_err("recentPlacementCooldownMinutes: -5");
        assert_eq!((e.expected.as_str(), e.found.as_str()), (POSITIVE, "-5"));
        let e = parse_err("omenativeCapabilityLeaseName: x");
        let found = "unknown key \"omenativeCapabilityLeaseName\" (E1 only; Alfred E2 rejects it)";
        assert_eq!(e.found, found);
        let e = parse_err("spotPolicy: {avoid: true}");
        let expected = "a known key (avoidAsTarget, preferAsSource, preemptibleLabels)";
        assert_eq!(
            (e.expected.as_str(), e.found.as_str()),
            (expected, "unknown key \"avoid\"")
        );
        let e = parse_err("mode: execute\nmode: execute");
        assert_eq!(
            (e.expected.as_str(), e.found.as_str()),
            ("each key once", "a duplicate key")
        );
        let e = parse_err(&format!("{S}sizePrior: {{\"8\": 0.5}}"));
        assert_eq!(e.found, "a sum of 0.5");
        let e = parse_err(&format!("{S}sizeLadder: [4, 2, 8]"));
        assert_eq!(e.found, "[4, 2, 8]");
        let e = parse_err("maintenanceWindows: [{days: [Sat], start: \"17:00\", end: \"09:00\"}]");
        assert_eq!(e.found, "start 17:00, end 09:00");
        let e = parse_err("mode: !Foo execute");
        assert_eq!(e.found, "a value tagged !Foo");
        let long = "x".repeat(200);
        assert!(parse_err(&format!("mode: {long}")).found.chars().count() < 80);
    }

    #[test]
    fn zero_means_default_for_integers_and_durations() {
        let mut body = String::from("decisionLoopInterval: 0s\nobservationLoopInterval: \"0\"\n");
        for key in TOP_KEYS
            .iter()
            .filter(|k| k.ends_with("Minutes") || k.starts_with("max"))
        {
            body.push_str(&format!("{key}: 0\n"));
        }
        body.push_str(&format!(
            "{H}healthCooldownFloorMinutes: 0\n    nodeSuspicionWindowMinutes: 0\n"
        ));
        body.push_str("  defragmentation:\n    scoring:\n      pendingUrgencyTauMinutes: 0\n");
        body.push_str("      sizeLadder: []\n      sizePrior: {}\n");
        body.push_str("mode: \"\"\nrecommendationsConfigMapName: \"\"\nlogLevel: \"\"\n");
        assert_eq!(ok(&body), AlfredConfig::default());
    }

    #[test]
    fn explicit_zero_and_false_are_kept_for_floats_and_bools() {
        let c = ok(&format!(
            "{P}enabled: false\n    fragmentationThreshold: 0\n    scoring:\n      \
             demandBlendLambda: 0\n  nodeHealth:\n    enabled: false\n    signalOnly: false\n\
             defaultMovable: false\nomenativeMigrationEnabled: false\nstructuredLogging: false\n\
             spotPolicy: {{avoidAsTarget: false, preferAsSource: false, preemptibleLabels: []}}\n\
             earlyTickOn: []"
        ));
        let d = &c.policies.defragmentation;
        assert!(
            !d.enabled && d.fragmentation_threshold == 0.0 && d.scoring.demand_blend_lambda == 0.0
        );
        assert!(!c.policies.node_health.enabled && !c.default_movable);
        assert!(!c.omenative_migration_enabled && !c.structured_logging);
        assert!(!c.spot_policy.avoid_as_target && !c.spot_policy.prefer_as_source);
        assert!(c.spot_policy.preemptible_labels.is_empty() && c.early_tick_on.is_empty());
    }

    #[test]
    fn parses_a_full_schema() {
        let c = ok(r#"
mode: execute
decisionLoopInterval: 2m
observationLoopInterval: 1m30s
earlyTickOn: [NodeConditionChange]
scheduling:
  profiles:
    ome-scheduler: {backend: kube-scheduler-simulator, schedulerVersion: v1.35.0, configurationID: c1, gangScheduling: true}
policies:
  defragmentation:
    fragmentationThreshold: 0.4
    aggressiveness: conservative
    scoring:
      sizeLadder: [1, 2, 4]
      demandBlendLambda: 0.5
      sizePrior: {"1": 0.2, "2": 0.3, "4": 0.5}
      pendingUrgencyTauMinutes: 15
  nodeHealth:
    aggressiveness: aggressive
    triggerConditions: [GpuUnhealthy, example.com/NodeNotReady]
    healthCooldownFloorMinutes: 3
    nodeSuspicionWindowMinutes: 45
defaultMovable: false
recentPlacementCooldownMinutes: 20
perWorkloadCooldownMinutes: 60
perNodeCooldownMinutes: 15
rawDeploymentMigrationEnabled: true
lwsRecommendationsEnabled: false
tpuSliceMigrationEnabled: true
tpuSlicePartitions: {topologyLabel: example.com/topology, idLabel: "example.com/p-%s-id", stateLabel: "example.com/p-%s-state", healthyState: READY}
recommendationsConfigMapEnabled: false
recommendationsConfigMapName: my-recs
maxInFlightMigrations: 5
maxMigrationsPerHour: 20
emergencyPendingAgeMinutes: 7
maintenanceWindows:
  - days: [Mon, Tue, Wed, Thu, Fri]
    start: "09:00"
    end: "17:00"
spotPolicy:
  preemptibleLabels: [custom.io/spot]
allowCrossTenantOptimization: false
logLevel: debug
"#);
        assert_eq!(c.mode, Mode::Execute);
        assert_eq!(c.decision_loop_interval, Duration::from_secs(120));
        assert_eq!(c.observation_loop_interval, Duration::from_secs(90));
        assert_eq!(c.early_tick_on, [EarlyTick::NodeConditionChange]);
        let p = &c.scheduling.profiles["ome-scheduler"];
        assert!(
            p.gang_scheduling && p.configuration_id == "c1" && p.scheduler_version == "v1.35.0"
        );
        let d = &c.policies.defragmentation;
        assert_eq!(
            (d.fragmentation_threshold, d.aggressiveness),
            (0.4, Aggressiveness::Conservative)
        );
        assert_eq!(d.scoring.size_ladder, [1, 2, 4]);
        assert_eq!(d.scoring.prior_weight(2), 0.3);
        assert_eq!(
            (
                d.scoring.demand_blend_lambda,
                d.scoring.pending_urgency_tau_minutes
            ),
            (0.5, 15)
        );
        let n = &c.policies.node_health;
        assert_eq!(n.aggressiveness, Aggressiveness::Aggressive);
        assert_eq!(
            n.trigger_conditions,
            ["GpuUnhealthy", "example.com/NodeNotReady"]
        );
        assert_eq!(
            (
                n.health_cooldown_floor_minutes,
                n.node_suspicion_window_minutes
            ),
            (3, 45)
        );
        assert!(!c.default_movable && c.raw_deployment_migration_enabled);
        assert!(!c.lws_recommendations_enabled && c.tpu_slice_migration_enabled);
        assert_eq!(c.tpu_slice_partitions.healthy_state, "READY");
        assert!(!c.recommendations_config_map_enabled);
        assert_eq!(c.recommendations_config_map_name, "my-recs");
        let counts = [
            c.recent_placement_cooldown_minutes,
            c.per_workload_cooldown_minutes,
        ];
        assert_eq!(counts, [20, 60]);
        let caps = [c.per_node_cooldown_minutes, c.max_in_flight_migrations];
        assert_eq!(caps, [15, 5]);
        assert_eq!(
            (c.max_migrations_per_hour, c.emergency_pending_age_minutes),
            (20, 7)
        );
        let w = &c.maintenance_windows[0];
        assert_eq!((w.days.len(), w.start_minute, w.end_minute), (5, 540, 1020));
        assert_eq!(c.spot_policy.preemptible_labels, ["custom.io/spot"]);
        assert!(c.spot_policy.avoid_as_target && !c.allow_cross_tenant_optimization);
        assert_eq!(c.log_level, "debug");
    }

    #[test]
    fn prior_is_normalised_and_null_weights_count_as_zero() {
        let c = ok(&format!(
            "{S}sizePrior: {{\"1\": 0.2, \"2\": 0.3, \"4\": 0.1, \"8\": 0.405}}"
        ));
        let prior = &c.policies.defragmentation.scoring.size_prior;
        assert!((prior.values().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((prior[&8] - 0.405 / 1.005).abs() < 1e-12);
        // Unquoted integer keys are the same keys; a null weight is Go's zero.
        let c = ok(&format!("{S}sizePrior: {{1: 0.5, 8: 0.5, 4: null}}"));
        let prior = &c.policies.defragmentation.scoring.size_prior;
        assert_eq!(
            prior.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(),
            [(1, 0.5), (4, 0.0), (8, 0.5)]
        );
    }

    #[test]
    fn go_decoder_quirks_are_reproduced() {
        // encoding/json matches keys case-insensitively.
        assert_eq!(
            parse("SchemaVersion: 1\nMODE: execute").map(|c| c.mode),
            Ok(Mode::Execute)
        );
        // YAML 1.1 boolean words.
        assert!(!ok("defaultMovable: no").default_movable);
        assert!(ok("rawDeploymentMigrationEnabled: on").raw_deployment_migration_enabled);
        // Numbers and bools in string fields become strings.
        assert_eq!(ok("logLevel: 3").log_level, "3");
        assert_eq!(
            ok("recommendationsConfigMapName: 1.0").recommendations_config_map_name,
            "1"
        );
        assert_eq!(ok("logLevel: 1e6").log_level, "1e+06");
        let c = ok(&format!("{T}[{{name: 7, label: {{key: k, value: 5}}}}]"));
        let t = &c.policies.node_health.maintenance.triggers[0];
        assert_eq!(t.name, "7");
        assert!(matches!(&t.matcher, TriggerMatcher::Label { value: Some(v), .. } if v == "5"));
        // Integral floats are integers; null is "absent".
        assert_eq!(ok("maxInFlightMigrations: 5.0").max_in_flight_migrations, 5);
        assert_eq!(
            ok("mode: ~\npolicies: ~\nspotPolicy:\n  preemptibleLabels: null"),
            AlfredConfig::default()
        );
        // Explicitly empty lists: earlyTickOn/preemptibleLabels keep [], the others default.
        let c = ok(&format!("{H}triggerConditions: []\nearlyTickOn: []"));
        assert_eq!(c.policies.node_health.trigger_conditions, ["GpuUnhealthy"]);
        assert!(c.early_tick_on.is_empty());
        // A huge count is clamped rather than rejected (Alfred accepts it).
        assert_eq!(
            ok("maxMigrationsPerHour: 99999999999").max_migrations_per_hour,
            u32::MAX
        );
    }

    #[test]
    fn e3_extras_are_accepted() {
        let c = ok(&format!(
            "{T}\n        - name: de-schedule\n          label: {{key: example.com/start-at, \
             valueIsStartTime: true}}\n          cordon: true\n\
             tpuSliceMigrationEnabled: true"
        ));
        let t = &c.policies.node_health.maintenance.triggers[0];
        assert!(t.cordon && c.tpu_slice_migration_enabled);
        let want = TriggerMatcher::Label {
            key: "example.com/start-at".into(),
            value: None,
            value_is_start_time: true,
        };
        assert_eq!(t.matcher, want);
        let c = ok(&format!(
            "{T}[{{name: p, label: {{key: k, value: v, valueIsStartTime: false}}}}]"
        ));
        assert_eq!(c.policies.node_health.maintenance.triggers.len(), 1);
    }

    #[test]
    fn triggers_accepted_by_alfred() {
        for t in [
            "[]",
            "[{name: patch, condition: {type: Patching, status: \"True\"}}]",
            "[{name: patch, condition: {type: Patching, status: \"False\"}}]",
            "[{name: patch, condition: {type: Patching, status: Unknown}}]",
            "[{name: patch, label: {key: ops.example/patch}}]",
            "[{name: patch, label: {key: ops.example/patch, value: \"\"}}]",
            "[{name: patch, taint: {key: ops.example/patch, value: planned, effect: NoSchedule}}]",
            "[{name: patch, taint: {key: ops.example/patch}}]",
            "[{name: patch, taint: {key: p, effect: \"\"}}]",
            "[{name: patch, condition: null, label: {key: p, value: null}}]",
        ] {
            ok(&format!("{T}{t}"));
        }
    }

    #[test]
    fn go_durations() {
        let s = 1_000_000_000i128;
        let good = [
            ("5m", 300 * s),
            ("30s", 30 * s),
            ("1h30m", 5400 * s),
            ("250ms", s / 4),
            ("1.5h", 5400 * s),
            (".5s", s / 2),
            ("5.s", 5 * s),
            ("+5m", 300 * s),
            ("-5m", -300 * s),
            ("0", 0),
            ("-0", 0),
            ("1us", 1000),
            ("1µs", 1000),
            ("1μs", 1000),
            ("3ns", 3),
            ("1h1m1s1ms", 3_661_001_000_000),
            ("2562047h47m16.854775807s", i128::from(i64::MAX)),
        ];
        for (text, nanos) in good {
            assert_eq!(parse_go_duration(text), Some(nanos), "{text}");
        }
        for bad in [
            "",
            "5",
            "5x",
            "m",
            ".s",
            "-",
            "1.2.3s",
            "5 m",
            "9999999999h",
            "2562048h",
            "1e3s",
        ] {
            assert_eq!(parse_go_duration(bad), None, "{bad}");
        }
    }

    #[test]
    fn clock_times_and_kubernetes_names() {
        for (text, minute) in [("09:00", 540), ("9:00", 540), ("00:00", 0), ("23:59", 1439)] {
            assert_eq!(parse_hhmm(text), Some(minute), "{text}");
        }
        for bad in [
            "24:00", "12:60", "9:5", "009:00", "ab:cd", "12:00:00", " 9:00", "", ":00",
        ] {
            assert_eq!(parse_hhmm(bad), None, "{bad}");
        }
        for good in [
            "GpuUnhealthy",
            "example.com/x",
            "a",
            "a.b_c-d",
            &"n".repeat(63),
        ] {
            assert!(is_qualified_name(good), "{good}");
        }
        let long = "n".repeat(64);
        for bad in [
            "bad name",
            "/x",
            "a/b/c",
            "Example.com/x",
            "-a",
            "a-",
            "",
            &long,
            "x/",
        ] {
            assert!(!is_qualified_name(bad), "{bad}");
        }
        assert!(is_dns1123_subdomain("default-scheduler") && is_dns1123_subdomain("a.b-c.d"));
        for bad in ["Default", "a..b", "-a", "a-", "a_b", ""] {
            assert!(!is_dns1123_subdomain(bad), "{bad}");
        }
    }
}
