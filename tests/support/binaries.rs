//! Finds the test control plane binaries (etcd, kube-apiserver, kube-controller-manager,
//! kube-scheduler, kwok and the kwok stage files) that `tests/cluster/build.sh` produces, and
//! runs that script once when they are missing and Go is installed.
//!
//! Owns: `BinDir`, `locate`. Must not start processes other than the build script.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};

/// Every binary the harness starts; all of them must exist in a usable bin dir.
pub const BINARIES: [&str; 5] = [
    "etcd",
    "kube-apiserver",
    "kube-controller-manager",
    "kube-scheduler",
    "kwok",
];

/// The kwok stage files `build.sh` copies into `<bin>/kwok-stages/`, in the order kwok loads them.
pub const KWOK_STAGES: [&str; 5] = [
    "node-initialize.yaml",
    "node-heartbeat-with-lease.yaml",
    "pod-ready.yaml",
    "pod-complete.yaml",
    "pod-delete.yaml",
];

/// A directory holding every binary of `BINARIES` and the `kwok-stages/` files.
#[derive(Debug, Clone)]
pub struct BinDir(pub PathBuf);

impl BinDir {
    /// The path of one binary (`name` from `BINARIES`).
    pub fn binary(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// The absolute paths of the kwok stage files, in load order.
    pub fn kwok_stages(&self) -> Vec<PathBuf> {
        KWOK_STAGES
            .iter()
            .map(|s| self.0.join("kwok-stages").join(s))
            .collect()
    }

    fn missing(&self) -> Vec<String> {
        let mut missing: Vec<String> = BINARIES
            .iter()
            .filter(|b| !self.binary(b).is_file())
            .map(|b| b.to_string())
            .collect();
        missing.extend(
            self.kwok_stages()
                .iter()
                .filter(|p| !p.is_file())
                .map(|p| p.display().to_string()),
        );
        missing
    }
}

/// The cargo target dir of the running test binary (`<target>/<profile>/deps/<test>`), which is
/// where `build.sh` puts `testcluster/bin` when given the same `CARGO_TARGET_DIR`.
fn target_dir() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.parent()?.parent()?.to_path_buf())
}

/// Returns the bin dir: `$TESTCLUSTER_BIN` if set, else `<target>/testcluster/bin`. When the
/// latter is incomplete, runs `tests/cluster/build.sh` (tens of minutes cold, a second when the
/// `$HOME` cache has this stamp) and checks again. Fails with a message naming the script and
/// Go ≥ 1.26 when the binaries still are not there: these tests never skip.
pub fn locate() -> Result<BinDir> {
    if let Some(dir) = std::env::var_os("TESTCLUSTER_BIN") {
        let bin = BinDir(PathBuf::from(dir));
        let missing = bin.missing();
        if !missing.is_empty() {
            bail!(
                "TESTCLUSTER_BIN={} lacks {missing:?}; build it with `tests/cluster/build.sh` \
                 (needs Go >= 1.26)",
                bin.0.display()
            );
        }
        return Ok(bin);
    }
    let target = target_dir().context("cannot derive the cargo target dir from current_exe")?;
    let bin = BinDir(target.join("testcluster").join("bin"));
    if bin.missing().is_empty() {
        return Ok(bin);
    }
    let log = target.join("testcluster").join("build.log");
    run_build_script(&target, &log)?;
    let missing = bin.missing();
    if !missing.is_empty() {
        bail!(
            "tests/cluster/build.sh finished but {} lacks {missing:?}; see {}",
            bin.0.display(),
            log.display()
        );
    }
    Ok(bin)
}

fn run_build_script(target: &Path, log: &Path) -> Result<()> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cluster/build.sh");
    std::fs::create_dir_all(log.parent().unwrap_or(target))?;
    let out = std::fs::File::create(log).with_context(|| format!("creating {}", log.display()))?;
    eprintln!(
        "test control plane binaries missing: running {} (a cold build takes 20-30 min; log in {})",
        script.display(),
        log.display()
    );
    let status = Command::new("bash")
        .arg(&script)
        .env("CARGO_TARGET_DIR", target)
        .stdin(Stdio::null())
        .stdout(out.try_clone()?)
        .stderr(out)
        .status()
        .context("running bash")?;
    if !status.success() {
        let tail = std::fs::read_to_string(log).unwrap_or_default();
        let tail: Vec<&str> = tail.lines().rev().take(15).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        bail!(
            "the test control plane is not built and `tests/cluster/build.sh` failed ({status}). \
             Install Go >= 1.26 and run `tests/cluster/build.sh` (see README.md). Last lines of {}:\n{}",
            log.display(),
            tail.join("\n")
        );
    }
    Ok(())
}
