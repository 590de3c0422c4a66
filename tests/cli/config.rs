//! Configuration as the operator meets it: the shipped themes and keymaps load cleanly and
//! cover every slot and action, user files override them, every malformed file yields its
//! exact message, and docs/keymaps.md lists the shipped bindings.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::fs;
use std::path::{Path, PathBuf};

use ome_top::action::{Action, View};
use ome_top::config::error::parse_toml;
use ome_top::config::keymap_file::parse_keymap;
use ome_top::config::settings::parse_settings;
use ome_top::config::theme::parse_theme;
use ome_top::config::{
    builtin, load, ConfigPaths, Key, Keymap, Mode, Overrides, Resolution, Slot, PALETTE_ONLY,
    SHIPPED_KEYMAPS, SHIPPED_THEMES,
};
use ratatui::style::{Color, Style};

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn shipped_keymap(name: &str) -> Keymap {
    let (_, text) = SHIPPED_KEYMAPS.iter().find(|(n, _)| *n == name).unwrap();
    let file = parse_keymap(name, &parse_toml(name, text).unwrap()).unwrap();
    Keymap::from_file(name, &file)
}

fn keys(s: &str) -> Vec<Key> {
    s.split(' ').map(|k| k.parse().unwrap()).collect()
}

/// A fresh directory under the system temp dir, removed by the caller.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ome-top-config-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn shipped_themes_set_every_slot_without_notices() {
    for (name, text) in SHIPPED_THEMES {
        let mut notices = Vec::new();
        let file = parse_theme(name, &parse_toml(name, text).unwrap(), &mut notices).unwrap();
        assert!(notices.is_empty(), "{name}: {notices:?}");
        let missing: Vec<&str> = Slot::ALL
            .iter()
            .filter(|s| !file.styles.contains_key(s))
            .map(|s| s.name())
            .collect();
        assert!(missing.is_empty(), "theme {name} leaves out {missing:?}");
    }
}

#[test]
fn shipped_themes_tell_health_states_apart() {
    let config = builtin().unwrap();
    for theme in &config.themes {
        let health = [
            Slot::HealthOk,
            Slot::HealthSuspect,
            Slot::HealthUnknown,
            Slot::HealthFailed,
        ];
        for (i, a) in health.iter().enumerate() {
            for b in &health[i + 1..] {
                assert_ne!(
                    theme.style(*a),
                    theme.style(*b),
                    "{}: {a:?} = {b:?}",
                    theme.name
                );
            }
        }
    }
}

#[test]
fn colorblind_theme_avoids_red_and_green_for_health() {
    let config = load(
        &ConfigPaths::builtin_only(),
        &Overrides {
            theme: Some("colorblind".into()),
            keymap: None,
        },
    )
    .unwrap();
    let risky = [Color::Red, Color::Green, Color::LightRed, Color::LightGreen];
    for slot in [
        Slot::HealthOk,
        Slot::HealthFailed,
        Slot::FragLow,
        Slot::FragHigh,
    ] {
        let fg = config.theme.style(slot).fg.unwrap();
        assert!(!risky.contains(&fg), "{slot:?} uses {fg:?}");
    }
}

#[test]
fn shipped_keymaps_load_without_conflicts_and_bind_every_action() {
    for (name, _) in SHIPPED_KEYMAPS {
        let keymap = shipped_keymap(name);
        let bound: Vec<Action> = Mode::ALL
            .iter()
            .flat_map(|m| keymap.own_bindings(*m))
            .map(|b| b.action)
            .collect();
        for action in Action::ALL {
            assert!(
                bound.contains(action) || PALETTE_ONLY.contains(action),
                "keymap {name} does not bind {action}"
            );
        }
    }
}

#[test]
fn writes_stay_off_navigation_keys_and_confirm_needs_y() {
    let writes = [
        Action::CordonNode,
        Action::UncordonNode,
        Action::ApproveMove,
        Action::RejectMove,
        Action::ClearJournalEntry,
    ];
    let navigation = [
        "h", "j", "k", "l", "g", "G", "<Enter>", "<Space>", "<Up>", "<Down>", "<Esc>",
    ];
    for (name, _) in SHIPPED_KEYMAPS {
        let keymap = shipped_keymap(name);
        for mode in Mode::ALL {
            for b in keymap.own_bindings(*mode) {
                let shown = ome_top::config::key::display_sequence(&b.keys);
                if writes.contains(&b.action) {
                    assert!(
                        !navigation.contains(&shown.as_str()),
                        "{name} [{mode}] {shown}"
                    );
                }
            }
        }
        assert_eq!(
            keymap.keys_for(Mode::Confirm, Action::Confirm),
            vec!["y"],
            "{name}"
        );
    }
}

#[test]
fn default_and_vim_keymaps_resolve_their_documented_keys() {
    let default = shipped_keymap("default");
    let vim = shipped_keymap("vim");
    let act = |km: &Keymap, mode: Mode, s: &str| km.resolve_keys(mode, &keys(s));
    assert_eq!(
        act(&default, Mode::View(View::Nodes), "c"),
        Resolution::Action(Action::CordonNode)
    );
    assert_eq!(
        act(&default, Mode::View(View::Nodes), "g"),
        Resolution::Action(Action::Top)
    );
    assert_eq!(
        act(&default, Mode::View(View::Moves), "<C-c>"),
        Resolution::Action(Action::Quit)
    );
    assert_eq!(
        act(&default, Mode::Confirm, "<C-c>"),
        Resolution::Action(Action::Cancel)
    );
    assert_eq!(act(&default, Mode::Confirm, "<Enter>"), Resolution::Unbound);
    assert_eq!(
        act(&default, Mode::View(View::Pools), "<S-Tab>"),
        Resolution::Action(Action::PrevView)
    );
    assert_eq!(act(&vim, Mode::View(View::Nodes), "g"), Resolution::Prefix);
    assert_eq!(
        act(&vim, Mode::View(View::Nodes), "g g"),
        Resolution::Action(Action::Top)
    );
    assert_eq!(
        act(&vim, Mode::View(View::Nodes), "g t"),
        Resolution::Action(Action::NextView)
    );
    assert_eq!(
        act(&vim, Mode::View(View::Gangs), "z a"),
        Resolution::Action(Action::Toggle)
    );
    assert_eq!(
        act(&vim, Mode::View(View::Nodes), "<C-d>"),
        Resolution::Action(Action::PageDown)
    );
    assert_eq!(act(&vim, Mode::View(View::Nodes), "c"), Resolution::Unbound);
    assert_eq!(act(&vim, Mode::Palette, "q"), Resolution::Unbound);
}

#[test]
fn builtin_config_uses_the_defaults() {
    let config = builtin().unwrap();
    assert_eq!(config.theme.name, "default");
    assert_eq!(config.keymap.name, "default");
    assert_eq!(config.settings.max_redraws_per_second, 10);
    assert_eq!(config.settings.history_retention_days, 30);
    let names: Vec<&str> = config.themes.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["default", "light", "high-contrast", "colorblind"]);
    assert!(config.notices.is_empty());
    for (name, _) in SHIPPED_KEYMAPS {
        assert!(shipped_keymap(name).shadow_notices().is_empty(), "{name}");
    }
}

/// Every file of tests/fixtures/configs/invalid starts with `# expect: MESSAGE`; its kind
/// (keymap, theme, config) is the file name's first word.
#[test]
fn every_invalid_fixture_yields_its_exact_message() {
    let dir = manifest().join("tests/fixtures/configs/invalid");
    let mut checked = 0;
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let text = fs::read_to_string(&path).unwrap();
        let expected = text
            .lines()
            .next()
            .unwrap()
            .strip_prefix("# expect: ")
            .unwrap();
        let result =
            parse_toml(&name, &text).and_then(|table| match name.split('-').next().unwrap() {
                "keymap" => parse_keymap(&name, &table).map(|_| ()),
                "theme" => parse_theme(&name, &table, &mut Vec::new()).map(|_| ()),
                "config" => parse_settings(&name, &table).map(|_| ()),
                other => panic!("{name}: unknown fixture kind {other}"),
            });
        let err = result.expect_err(&name);
        assert_eq!(err.to_string(), expected, "{name}");
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} fixtures");
}

#[test]
fn user_files_override_key_by_key() {
    let dir = temp_dir("override");
    fs::create_dir_all(dir.join("themes")).unwrap();
    fs::create_dir_all(dir.join("keymaps")).unwrap();
    fs::write(
        dir.join("config.toml"),
        "theme = \"mine\"\nkeymap = \"vim\"\n[read-only]\nprod = true\n",
    )
    .unwrap();
    fs::write(
        dir.join("themes/mine.toml"),
        "extends = \"light\"\nhealth.ok = { fg = \"indexed:34\" }\nhealth.okk = { fg = \"red\" }\n",
    )
    .unwrap();
    fs::write(
        dir.join("keymaps/vim.toml"),
        "[nodes]\nkeymap = [{ on = \"c\", action = \"cordon-node\", desc = \"Cordon it\" }]\n",
    )
    .unwrap();
    let paths = ConfigPaths::resolve(Some(&dir.join("config.toml")), None, None);
    let config = load(&paths, &Overrides::default()).unwrap();
    let light = config.themes.iter().find(|t| t.name == "light").unwrap();

    assert_eq!(config.theme.name, "mine");
    assert_eq!(
        config.theme.style(Slot::HealthOk),
        Style::default().fg(Color::Indexed(34))
    );
    assert_eq!(config.theme.style(Slot::Danger), light.style(Slot::Danger));
    assert_eq!(config.notices.len(), 1);
    assert!(config.notices[0].message.contains("health.okk"));
    assert!(config.settings.read_only_for("prod"));
    assert_eq!(config.keymap.name, "vim");
    let nodes = |s: &str| {
        config
            .keymap
            .resolve_keys(Mode::View(View::Nodes), &keys(s))
    };
    assert_eq!(nodes("c"), Resolution::Action(Action::CordonNode));
    assert_eq!(nodes("C"), Resolution::Action(Action::CordonNode));
    assert_eq!(nodes("g g"), Resolution::Action(Action::Top));

    let flags = Overrides {
        theme: Some("high-contrast".into()),
        keymap: Some("default".into()),
    };
    let config = load(&paths, &flags).unwrap();
    assert_eq!(
        (config.theme.name.as_str(), config.keymap.name.as_str()),
        ("high-contrast", "default")
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn load_errors_name_the_user_file() {
    let dir = temp_dir("errors");
    fs::create_dir_all(dir.join("keymaps")).unwrap();
    let bad = dir.join("keymaps/mine.toml");
    fs::write(
        &bad,
        "[nodes]\nkeymap = [{ on = \"c\", action = \"cordon\" }]\n",
    )
    .unwrap();
    let paths = ConfigPaths::resolve(None, None, Some(&dir));
    let err = load(&paths, &Overrides::default()).unwrap_err();
    assert_eq!(err.file, bad.display().to_string());
    assert_eq!(err.path, "[nodes] entry 1: action = \"cordon\"");

    fs::write(&bad, "extends = \"emacs\"\n").unwrap();
    let err = load(&paths, &Overrides::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: extends = \"emacs\": not a built-in name; expected one of \"default\", \"vim\"",
            bad.display()
        )
    );

    fs::remove_file(&bad).unwrap();
    let flags = Overrides {
        theme: Some("solarized".into()),
        keymap: None,
    };
    let err = load(&paths, &flags).unwrap_err();
    assert_eq!(
        err.to_string(),
        "--theme: theme = \"solarized\": no such theme; expected one of \"default\", \"light\", \
         \"high-contrast\", \"colorblind\""
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_named_config_file_must_exist_but_the_default_one_need_not() {
    let dir = temp_dir("missing");
    let named = dir.join("absent.toml");
    let err = load(
        &ConfigPaths::resolve(Some(&named), None, None),
        &Overrides::default(),
    )
    .unwrap_err();
    assert_eq!(err.file, named.display().to_string());
    assert!(err.problem.starts_with("cannot read: "), "{err}");
    let config = load(
        &ConfigPaths::resolve(None, None, Some(&dir)),
        &Overrides::default(),
    );
    assert_eq!(config.unwrap().theme.name, "default");
    fs::remove_dir_all(&dir).unwrap();
}

/// The only test that touches `OME_TOP_CONFIG`; the commands other tests start read at most
/// its `log-level` (this file sets none).
#[test]
fn discover_prefers_the_flag_then_the_environment() {
    let dir = temp_dir("discover");
    let env_file = dir.join("env.toml");
    fs::write(&env_file, "theme = \"light\"\n").unwrap();
    std::env::set_var("OME_TOP_CONFIG", &env_file);
    let paths = ConfigPaths::discover(None);
    assert_eq!(paths.config_file.as_deref(), Some(env_file.as_path()));
    assert!(paths.required);
    assert_eq!(paths.user_dir.as_deref(), Some(dir.as_path()));
    assert_eq!(
        load(&paths, &Overrides::default()).unwrap().theme.name,
        "light"
    );

    let flag = dir.join("flag.toml");
    assert_eq!(ConfigPaths::discover(Some(&flag)).config_file, Some(flag));
    std::env::remove_var("OME_TOP_CONFIG");
    let fallback = ConfigPaths::discover(None);
    assert!(!fallback.required);
    fs::remove_dir_all(&dir).unwrap();
}

/// docs/keymaps.md has one table per shipped keymap, under `### \`NAME\``, with rows
/// `| mode | \`keys\` | action | description |`; they must match the files exactly.
#[test]
fn docs_list_every_shipped_binding() {
    let docs = fs::read_to_string(manifest().join("docs/keymaps.md")).unwrap();
    for (name, _) in SHIPPED_KEYMAPS {
        let keymap = shipped_keymap(name);
        let mut expected = Vec::new();
        for mode in Mode::ALL {
            for b in keymap.own_bindings(*mode) {
                let shown = ome_top::config::key::display_sequence(&b.keys);
                expected.push(format!(
                    "| {mode} | `{shown}` | {} | {} |",
                    b.action, b.desc
                ));
            }
        }
        let heading = format!("### `{name}`");
        let section = docs
            .split_once(&heading)
            .unwrap_or_else(|| panic!("docs/keymaps.md has no {heading}"))
            .1;
        let rows: Vec<String> = section
            .lines()
            .skip_while(|l| !l.starts_with("| Mode"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .map(str::to_string)
            .collect();
        assert_eq!(
            rows,
            expected,
            "docs/keymaps.md {heading} is stale; the table should be:\n{}",
            expected.join("\n")
        );
    }
}
