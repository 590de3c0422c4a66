//! Every size keeps what matters, and `?` explains it: at 80×24 each view keeps its
//! identifiers and decision columns (insta snapshots of the demo world), every footer ends with
//! the help key, `?` shows the view's legend above its keys, every column a view shows has a
//! legend line, and docs/views.md carries every legend line (`OME_TOP_BLESS_DOCS=1` rewrites
//! its generated part from the same source).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use ome_top::app::state::View;
use ome_top::app::views::legends::legend;
use ome_top::app::AppState;

use crate::tui_support;
use tui_support::*;

fn screen_lines(s: &AppState) -> Vec<String> {
    let term = render(s);
    let buf = term.backend().buffer();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect()
}

fn view_key(v: View) -> &'static str {
    match v {
        View::Pools => "1",
        View::Nodes => "2",
        View::Moves => "3",
        View::Journal => "4",
        View::Gangs => "5",
        View::Lints => "6",
    }
}

/// The header row of the view's table (the first line holding all of `titles`' first one).
fn header_with<'a>(lines: &'a [String], first: &str) -> &'a str {
    lines
        .iter()
        .find(|l| l.contains(&format!(" {first} ")) || l.contains(&format!("│ {first}")))
        .map(String::as_str)
        .unwrap_or("")
}

/// The columns each view keeps at 80 columns: its identifiers and the columns a decision reads.
const KEPT: &[(View, &[&str])] = &[
    (View::Pools, &["POOL", "FREE", "SCORE", "PENDING"]),
    (View::Nodes, &["NAME", "HEALTH", "CORDON", "GPU"]),
    (
        View::Moves,
        &["≠", "OME-TOP", "WORKLOAD", "→ TARGETS", "SCORE"],
    ),
    (
        View::Journal,
        &["UUID", "WORKLOAD", "PHASE", "BLOCKS", "CLEARING"],
    ),
    (View::Lints, &["RULE", "OBJECT", "MESSAGE"]),
];

#[test]
fn at_80x24_each_view_keeps_its_identifiers_and_decision_columns() {
    for (view, titles) in KEPT {
        let mut s = state_with(demo_feed(), 80, 24);
        type_keys(&mut s, view_key(*view));
        let lines = screen_lines(&s);
        let header = header_with(&lines, titles[1]);
        for t in *titles {
            assert!(
                header.contains(t),
                "{view:?} lost {t}:\n{}",
                lines.join("\n")
            );
        }
        let name = format!("priority_{}_80x24", view.table());
        insta::assert_snapshot!(name, render(&s).backend());
    }
}

#[test]
fn at_120_columns_a_gang_reason_is_whole_or_ends_in_an_ellipsis() {
    let mut s = state_with(demo_feed(), 120, 40);
    type_keys(&mut s, "5");
    let lines = screen_lines(&s);
    let cut: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains("TemplatesIncomplet") && !l.contains("TemplatesIncomplete"))
        .filter(|l| !l.contains("TemplatesIncomplet…") && !l.contains('…'))
        .collect();
    assert!(cut.is_empty(), "cut without …:\n{}", lines.join("\n"));
    let text = lines.join("\n");
    assert!(text.contains("TemplatesIncomple…") || text.contains("TemplatesIncomplete"));
}

#[test]
fn every_footer_ends_with_the_help_key_at_80_columns() {
    for v in View::ALL {
        for open in ["", "\r"] {
            let mut s = state_with(demo_feed(), 80, 24);
            type_keys(&mut s, view_key(v));
            type_keys(&mut s, open);
            let lines = screen_lines(&s);
            let footer = lines.last().unwrap().trim_end();
            assert!(
                footer.ends_with("<?>Show keys"),
                "{v:?} (open: {}) footer: {footer:?}",
                !open.is_empty()
            );
        }
    }
}

#[test]
fn help_shows_the_views_legend_above_its_keys() {
    for v in View::ALL {
        let mut s = state_with(demo_feed(), 80, 24);
        type_keys(&mut s, view_key(v));
        type_keys(&mut s, "?");
        let text = screen_lines(&s).join("\n");
        let heading = format!("[{}: what the columns and symbols mean]", v.title());
        assert!(text.contains(&heading), "{v:?}:\n{text}");
        let first = legend(v)[0];
        assert!(text.contains(first.term), "{v:?}:\n{text}");
    }
}

#[test]
fn every_column_a_view_shows_has_a_legend_line() {
    let s = state_with(demo_feed(), 200, 60);
    let m = s.models();
    for (view, model) in [
        (View::Pools, &m.pools),
        (View::Nodes, &m.nodes),
        (View::Moves, &m.moves),
        (View::Journal, &m.journal),
        (View::Lints, &m.lints),
    ] {
        for c in &model.columns {
            assert!(
                legend(view).iter().any(|l| l.term == c.title),
                "{view:?}: no legend for {}",
                c.title
            );
        }
    }
}

/// The generated part of docs/views.md: one table per view.
fn legend_markdown() -> String {
    let mut out = String::new();
    for v in View::ALL {
        out.push_str(&format!(
            "## {}\n\n| Column or symbol | Meaning |\n|---|---|\n",
            v.title()
        ));
        for l in legend(v) {
            out.push_str(&format!("| `{}` | {} |\n", l.term, l.meaning));
        }
        out.push('\n');
    }
    out
}

const BEGIN: &str = "<!-- legends: generated from src/app/views/legends.rs -->\n";
const END: &str = "<!-- end of legends -->\n";

#[test]
fn docs_views_md_carries_every_legend_line() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/views.md");
    let doc = std::fs::read_to_string(&path).unwrap_or_default();
    if std::env::var_os("OME_TOP_BLESS_DOCS").is_some() {
        let (head, tail) = match (doc.find(BEGIN), doc.find(END)) {
            (Some(b), Some(e)) => (doc[..b].to_string(), doc[e + END.len()..].to_string()),
            _ => (doc.clone(), String::new()),
        };
        let text = format!("{head}{BEGIN}\n{}{END}{tail}", legend_markdown());
        std::fs::write(&path, text).unwrap();
        return;
    }
    for line in legend_markdown().lines().filter(|l| l.starts_with('|')) {
        assert!(doc.contains(line), "docs/views.md lacks: {line}");
    }
}
