//! Mouse capture is a setting, off by default as in k9s, so the terminal's own text selection
//! and copy work; `mouse = true` in config.toml turns it on. tmux reports whether the program
//! in its pane asked for mouse events (`#{mouse_any_flag}`).

use crate::support::tmux::Tmux;

fn mouse_requested(t: &Tmux) -> String {
    t.run(&["display", "-p", "-t", t.session, "#{mouse_any_flag}"])
        .trim()
        .to_string()
}

#[test]
fn the_mouse_is_captured_only_when_the_config_asks() {
    let t = Tmux::start(120, 40, "demo --seed 1");
    t.wait_for("Pools");
    assert_eq!(
        mouse_requested(&t),
        "0",
        "captured by default:\n{}",
        t.pane()
    );
    let dir = t.home().join("config/ome-top");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), "mouse = true\n").unwrap();
    t.restart("demo --seed 1");
    t.wait_for("Pools");
    assert_eq!(
        mouse_requested(&t),
        "1",
        "not captured with mouse = true:\n{}",
        t.pane()
    );
}
