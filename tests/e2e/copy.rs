//! `Y` copies the selected row's name through the terminal (OSC 52): with tmux's
//! `set-clipboard on`, the name lands in tmux's paste buffer, exactly what the notice says.

use crate::support::tmux::Tmux;

#[test]
fn y_puts_the_selected_node_name_on_the_clipboard() {
    let t = Tmux::start(120, 40, "demo --seed 1");
    t.run(&["set", "-g", "set-clipboard", "on"]);
    t.wait_for("Pools");
    t.keys("2");
    t.wait_for("Nodes [");
    t.keys("Y");
    let pane = t.wait_for("ℹ copied ");
    let copied = pane
        .lines()
        .find_map(|l| l.split("copied ").nth(1))
        .and_then(|rest| rest.split(" to the clipboard").next())
        .expect("the notice names what was copied")
        .to_string();
    assert!(!copied.is_empty(), "{pane}");
    let buffer = t.run(&["show-buffer"]);
    assert_eq!(buffer, copied, "tmux buffer vs notice:\n{pane}");
    assert!(
        pane.lines().any(|l| l.contains(&format!("▶{copied}"))),
        "the copied name is the selected row:\n{pane}"
    );
}
