//! A signal ends the TUI the way quitting does: SIGHUP, SIGINT, SIGQUIT and SIGTERM each leave
//! the alternate screen, turn mouse capture off, show the cursor and put the tty back in
//! cooked mode, and the exit status is 128 + the signal's number. The binary runs under a
//! shell in tmux that prints the status and the tty mode after it ends; tmux reports the
//! pane's screen, cursor and mouse state.

use std::process::Command;

use crate::support::tmux::Tmux;

/// Mouse capture on (config.toml), `ome-top demo`, then after it ends its status and whether
/// the tty is cooked.
const SCRIPT: &str = r#"mkdir -p "$XDG_CONFIG_HOME/ome-top"
echo 'mouse = true' > "$XDG_CONFIG_HOME/ome-top/config.toml"
"$OME_TOP" demo --seed 1; echo "exit=$?"
case "$(stty -a)" in *-icanon*) echo tty=raw;; *) echo tty=cooked;; esac
sleep 600"#;

/// `alt cursor mouse` of the pane (`1 0 1` while the TUI runs with mouse capture).
fn flags(t: &Tmux) -> String {
    let f = "#{alternate_on} #{cursor_flag} #{mouse_any_flag}";
    t.run(&["display", "-p", "-t", t.session, f])
        .trim()
        .to_string()
}

/// The pid of `ome-top`, the shell's child in the pane.
fn tui_pid(t: &Tmux) -> String {
    let shell = t.run(&["display", "-p", "-t", t.session, "#{pane_pid}"]);
    let out = Command::new("pgrep")
        .args(["-P", shell.trim()])
        .output()
        .unwrap();
    let pid = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(
        !pid.is_empty() && !pid.contains('\n'),
        "child of {shell}: {pid:?}"
    );
    pid
}

fn ended_by(signal: &str, number: i32) {
    let t = Tmux::start_script(120, 40, SCRIPT);
    t.wait_for("Pools [");
    assert_eq!(flags(&t), "1 0 1", "the TUI runs:\n{}", t.pane());
    let pid = tui_pid(&t);
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &pid])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -{signal} {pid}");
    let pane = t.wait_for("tty=");
    assert!(
        pane.contains(&format!("exit={}", 128 + number)),
        "{signal}:\n{pane}"
    );
    assert!(pane.contains("tty=cooked"), "{signal}:\n{pane}");
    assert!(
        !pane.contains("Pools ["),
        "{signal}: the TUI's screen is still shown:\n{pane}"
    );
    assert_eq!(
        flags(&t),
        "0 1 0",
        "{signal}: alternate screen, cursor, mouse:\n{pane}"
    );
}

#[test]
fn sighup_restores_the_terminal_and_exits_129() {
    ended_by("HUP", 1);
}

#[test]
fn sigint_restores_the_terminal_and_exits_130() {
    ended_by("INT", 2);
}

#[test]
fn sigquit_restores_the_terminal_and_exits_131() {
    ended_by("QUIT", 3);
}

#[test]
fn sigterm_restores_the_terminal_and_exits_143() {
    ended_by("TERM", 15);
}
