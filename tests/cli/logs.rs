//! The log file through the real binary, each test in a home of its own (`info::Home`): a run
//! writes the file `ome-top info` reports, with the start line (version, mode, level and its
//! source), the command's error messages and the exit line; `--log-level off` (or
//! `log-level = "off"` in config.toml) creates no file; the output on stdout and stderr is
//! the same with or without a log. The live run with a bearer token at trace level is in
//! `tests/live/logs.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::path::PathBuf;

use crate::info::Home;

const SNAPSHOT: &str = "docs/examples/mixed-fleet.json";
const NOW: &str = "2026-09-28T10:15:00Z";

/// The log file `ome-top info` reports, which must exist.
fn reported_log_file(h: &Home) -> PathBuf {
    let v = h.info(&[]);
    assert_eq!(v["log_dir"]["exists"], true, "{v}");
    assert_eq!(v["log_file"]["exists"], true, "{v}");
    PathBuf::from(v["log_file"]["path"].as_str().unwrap())
}

#[test]
fn a_run_writes_the_start_and_exit_lines_to_the_file_info_reports() {
    let h = Home::new();
    let out = h.run(&[
        "analyze",
        "--snapshot",
        SNAPSHOT,
        "--now",
        NOW,
        "-o",
        "json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "nothing on stderr: {:?}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file = reported_log_file(&h);
    assert!(file.starts_with(h.log_dir()), "{}", file.display());
    let log = std::fs::read_to_string(&file).unwrap();
    let start = log
        .lines()
        .find(|l| l.contains("ome-top starts"))
        .unwrap_or_else(|| panic!("no start line in\n{log}"));
    let version = format!("version=\"{}\"", env!("CARGO_PKG_VERSION"));
    for field in [
        version.as_str(),
        "mode=\"analyze-snapshot\"",
        "log_level=info",
        "log_level_from=\"default\"",
    ] {
        assert!(start.contains(field), "{field} in {start}");
    }
    assert!(start.contains(" INFO "), "{start}");
    assert!(
        log.lines().any(|l| l.contains("ome-top exits exit_code=0")),
        "{log}"
    );
    assert!(
        !log.contains('\u{1b}'),
        "no terminal colour codes in the file"
    );

    // The same output with logging off: the log changes nothing a caller reads.
    let quiet = h.run(&[
        "analyze",
        "--snapshot",
        SNAPSHOT,
        "--now",
        NOW,
        "-o",
        "json",
        "--log-level",
        "off",
    ]);
    assert_eq!(quiet.stdout, out.stdout);
    assert_eq!(quiet.stderr, out.stderr);
}

#[test]
fn a_failing_command_leaves_its_message_and_exit_code_in_the_log() {
    let h = Home::new();
    let out = h.run(&[
        "analyze",
        "--snapshot",
        "no/such/file.json",
        "--log-level",
        "debug",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let log = std::fs::read_to_string(reported_log_file(&h)).unwrap();
    assert!(
        log.contains("log_level=debug log_level_from=\"--log-level\""),
        "{log}"
    );
    let said = stderr.trim_end();
    assert!(
        log.lines()
            .any(|l| l.contains(" WARN ") && l.ends_with(said)),
        "{said:?} in\n{log}"
    );
    assert!(log.contains("ome-top exits exit_code=2"), "{log}");
}

#[test]
fn level_off_creates_no_log_file() {
    let h = Home::new();
    let args = [
        "analyze",
        "--snapshot",
        SNAPSHOT,
        "--now",
        NOW,
        "--log-level",
        "off",
    ];
    let out = h.run(&args);
    assert!(out.status.success());
    assert!(
        !h.log_dir().exists(),
        "no log directory with --log-level off"
    );

    // The same from config.toml, and from the environment.
    let dir = h.config.join("ome-top");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), "log-level = \"off\"\n").unwrap();
    assert!(h.run(&args[..5]).status.success());
    assert!(
        !h.log_dir().exists(),
        "no log directory with log-level = \"off\""
    );
    std::fs::remove_file(dir.join("config.toml")).unwrap();
    let out = h
        .command(&args[..5])
        .env("OME_TOP_LOG", "off")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        !h.log_dir().exists(),
        "no log directory with OME_TOP_LOG=off"
    );
    let v = h.info(&[]);
    assert_eq!(v["log_file"]["path"], serde_json::Value::Null);

    // The flag beats the file: a level given on the command line writes the log.
    std::fs::write(dir.join("config.toml"), "log-level = \"off\"\n").unwrap();
    let mut on = args[..5].to_vec();
    on.extend(["--log-level", "warn"]);
    assert!(h.run(&on).status.success());
    assert!(
        h.log_dir().exists(),
        "--log-level warn beats log-level = \"off\""
    );
}
