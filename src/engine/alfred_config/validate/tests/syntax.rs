//! Go durations, "HH:MM" clock times and Kubernetes names.

use crate::engine::alfred_config::validate::syntax::{
    is_dns1123_subdomain, is_qualified_name, parse_go_duration, parse_hhmm,
};

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
