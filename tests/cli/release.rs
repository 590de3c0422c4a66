//! What a user installs, checked offline: `ome-top completions SHELL` for every shell clap
//! knows (bash's parsed by bash), `ome-top man` (roff with NAME, SYNOPSIS and every
//! subcommand; checked by groff where it is installed), the kubectl plugin's name in its
//! usage lines, and the release: the workflow's targets are the krew manifest's platforms, the
//! binaries packed are Cargo.toml's [[bin]]s, and the packaging and manifest scripts, run on
//! stand-in binaries, give a manifest whose digests are the archives'.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use clap::CommandFactory;
use serde_json::Value;

use crate::command::ome_top;

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn yaml(path: &str) -> Value {
    let text = std::fs::read_to_string(repo(path)).unwrap();
    serde_saphyr::from_str(&text).unwrap()
}

fn stdout_of(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The subcommands of `ome-top`, from its clap definition.
fn subcommands() -> Vec<String> {
    let names: Vec<String> = ome_top::cli::Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    assert!(names.len() >= 8, "{names:?}");
    names
}

#[test]
fn completions_name_every_subcommand_in_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout_of(&ome_top().args(["completions", shell]).output().unwrap());
        for name in subcommands() {
            assert!(script.contains(&name), "{shell}: no `{name}`");
        }
        assert!(script.contains("kubeconfig"), "{shell}: no --kubeconfig");
        assert!(script.contains("ome-top"), "{shell}: no command name");
    }
}

#[test]
fn the_bash_completion_script_parses_and_completes_a_subcommand() {
    let script = stdout_of(&ome_top().args(["completions", "bash"]).output().unwrap());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ome-top.bash");
    std::fs::write(&file, script).unwrap();
    // Source it, then ask for the words after `ome-top ana`.
    let probe = format!(
        "source {}; COMP_WORDS=(ome-top ana); COMP_CWORD=1; COMP_LINE='ome-top ana'; \
         COMP_POINT=11; _ome__top ome-top ana ome-top; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        file.display()
    );
    let out = Command::new("bash")
        .args(["--norc", "-c", &probe])
        .output()
        .unwrap();
    let words = stdout_of(&out);
    assert_eq!(words.trim(), "analyze", "{words}");
}

#[test]
fn man_prints_roff_with_name_synopsis_and_every_subcommand() {
    let page = stdout_of(&ome_top().arg("man").output().unwrap());
    assert!(page.contains(".TH ome-top 1"), "{page}");
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH OPTIONS", ".SH SUBCOMMANDS"] {
        assert!(page.contains(section), "no {section}");
    }
    assert!(page.contains("ome\\-top \\- A live terminal dashboard"));
    for name in subcommands() {
        let entry = format!("ome\\-top\\-{}(1)", name.replace('-', "\\-"));
        assert!(page.contains(&entry), "no {entry}");
    }
    // Every line is a roff request or text; no stray Markdown.
    assert!(!page.contains("```"));
    groff_accepts(&page);
}

/// groff's man macros render `page` without a warning (where groff is installed; the
/// structure above is checked everywhere).
fn groff_accepts(page: &str) {
    let Ok(mut child) = Command::new("groff")
        .args(["-man", "-Tutf8", "-ww", "-z"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
    else {
        eprintln!("groff not installed: the page's structure only");
        return;
    };
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(page.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "groff warns");
}

#[test]
fn the_kubectl_plugin_shows_the_command_operators_type() {
    let plugin = || Command::new(env!("CARGO_BIN_EXE_kubectl-ome_top"));
    let help = stdout_of(&plugin().arg("--help").output().unwrap());
    assert!(
        help.contains("Usage: kubectl ome-top [OPTIONS] [COMMAND]"),
        "{help}"
    );
    let version = stdout_of(&plugin().arg("--version").output().unwrap());
    assert_eq!(
        version.trim(),
        format!("ome-top {}", env!("CARGO_PKG_VERSION"))
    );
    let bad = plugin().args(["analyze", "--bogus"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("Usage: kubectl ome-top analyze"), "{err}");
    // The same program: its analysis of a shipped snapshot is ome-top's, byte for byte.
    let args = [
        "analyze",
        "--snapshot",
        "docs/examples/mixed-fleet.json",
        "-o",
        "json",
    ];
    let ours = plugin().args(args).current_dir(repo(".")).output().unwrap();
    let theirs = ome_top()
        .args(args)
        .current_dir(repo("."))
        .output()
        .unwrap();
    assert_eq!(stdout_of(&ours), stdout_of(&theirs));
    let own = stdout_of(&ome_top().arg("--help").output().unwrap());
    assert!(own.contains("Usage: ome-top [OPTIONS] [COMMAND]"), "{own}");
}

/// The `[[bin]]` names of Cargo.toml.
fn cargo_bins() -> BTreeSet<String> {
    let text = std::fs::read_to_string(repo("Cargo.toml")).unwrap();
    let manifest: toml::Value = toml::from_str(&text).unwrap();
    manifest["bin"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap().to_string())
        .collect()
}

/// The release workflow's matrix targets.
fn workflow_targets() -> BTreeSet<String> {
    let workflow = yaml(".github/workflows/release.yml");
    workflow["jobs"]["build"]["strategy"]["matrix"]["include"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["target"].as_str().unwrap().to_string())
        .collect()
}

/// The Rust target a krew platform selector stands for.
fn target_of(os: &str, arch: &str) -> String {
    let cpu = match arch {
        "amd64" => "x86_64",
        "arm64" => "aarch64",
        other => panic!("krew arch {other}"),
    };
    match os {
        "linux" => format!("{cpu}-unknown-linux-musl"),
        "darwin" => format!("{cpu}-apple-darwin"),
        other => panic!("krew os {other}"),
    }
}

#[test]
fn the_krew_manifest_and_the_release_workflow_ship_the_same_targets_and_binaries() {
    let bins = cargo_bins();
    assert_eq!(
        bins,
        BTreeSet::from(["ome-top".to_string(), "kubectl-ome_top".to_string()])
    );
    let manifest = yaml("deploy/krew/ome-top.yaml");
    assert_eq!(
        manifest["apiVersion"],
        "krew.googlecontainertools.github.com/v1alpha2"
    );
    assert_eq!(manifest["kind"], "Plugin");
    // krew links `kubectl-<name with _ for ->`: the plugin binary's name.
    assert_eq!(manifest["metadata"]["name"], "ome-top");
    let mut platforms = BTreeSet::new();
    for p in manifest["spec"]["platforms"].as_array().unwrap() {
        let labels = &p["selector"]["matchLabels"];
        let target = target_of(
            labels["os"].as_str().unwrap(),
            labels["arch"].as_str().unwrap(),
        );
        let archive = format!("ome-top-{{{{ .TagName }}}}-{target}.tar.gz");
        assert!(p["uri"].as_str().unwrap().ends_with(&archive), "{p}");
        assert_eq!(p["sha256"], format!("{{{{ .Sha256 {target} }}}}"));
        assert_eq!(p["bin"], "kubectl-ome_top");
        assert!(bins.contains(p["bin"].as_str().unwrap()));
        assert_eq!(p["files"][0]["from"], "kubectl-ome_top");
        platforms.insert(target);
    }
    assert_eq!(platforms, workflow_targets());
    assert_eq!(platforms.len(), 4);
    let workflow = std::fs::read_to_string(repo(".github/workflows/release.yml")).unwrap();
    let package = std::fs::read_to_string(repo(".github/scripts/package.sh")).unwrap();
    for bin in &bins {
        assert!(workflow.contains(&format!("--bin {bin}")), "build of {bin}");
        assert!(
            package.contains(&format!("\"$bin_dir/{bin}\"")),
            "pack of {bin}"
        );
    }
    assert!(workflow.contains("--release --locked"));
}

#[test]
fn packaging_and_the_krew_manifest_fill_in_on_stand_in_binaries() {
    let dir = tempfile::tempdir().unwrap();
    let (bin_dir, dist) = (dir.path().join("bin"), dir.path().join("dist"));
    std::fs::create_dir_all(&bin_dir).unwrap();
    for target in workflow_targets() {
        for bin in cargo_bins() {
            std::fs::write(bin_dir.join(&bin), format!("{bin} for {target}")).unwrap();
        }
        let packed = Command::new(repo(".github/scripts/package.sh"))
            .args(["v9.8.7", &target])
            .arg(&bin_dir)
            .arg(&dist)
            .output()
            .unwrap();
        let archive = PathBuf::from(stdout_of(&packed).trim());
        let listing = stdout_of(
            &Command::new("tar")
                .arg("-tzf")
                .arg(&archive)
                .output()
                .unwrap(),
        );
        let files: BTreeSet<&str> = listing.lines().collect();
        assert_eq!(
            files,
            BTreeSet::from(["ome-top", "kubectl-ome_top", "README.md"])
        );
    }
    let filled = Command::new(repo(".github/scripts/krew-manifest.sh"))
        .args(["v9.8.7", "example/ome-top"])
        .arg(&dist)
        .output()
        .unwrap();
    let text = stdout_of(&filled);
    assert!(!text.contains("{{"), "{text}");
    let manifest: Value = serde_saphyr::from_str(&text).unwrap();
    assert_eq!(manifest["spec"]["version"], "v9.8.7");
    for p in manifest["spec"]["platforms"].as_array().unwrap() {
        let uri = p["uri"].as_str().unwrap();
        let name = uri.rsplit('/').next().unwrap();
        assert!(uri.starts_with(
            "https://github.com/example/ome-top/releases/download/v9.8.7/ome-top-v9.8.7-"
        ));
        let sum = stdout_of(
            &Command::new("sha256sum")
                .arg(dist.join(name))
                .output()
                .unwrap(),
        );
        let digest = sum.split_whitespace().next().unwrap();
        assert_eq!(p["sha256"], digest, "{name}");
    }
    // A missing digest fails the release instead of shipping a placeholder.
    std::fs::remove_file(dist.join("ome-top-v9.8.7-x86_64-apple-darwin.tar.gz.sha256")).unwrap();
    let missing = Command::new(repo(".github/scripts/krew-manifest.sh"))
        .args(["v9.8.7", "example/ome-top"])
        .arg(&dist)
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("x86_64-apple-darwin"));
}
