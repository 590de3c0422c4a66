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
        View::Fleet => "7",
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
        &["≠", "OME-TOP", "WORKLOAD", "INST", "→ TARGETS", "SCORE"],
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
    // The Fleet view's needs a fleet: `fleet::help_shows_the_fleet_legend`.
    for v in View::ALL.into_iter().filter(|v| *v != View::Fleet) {
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

mod cut_cells {
    //! A drawn table at any width: every cell is shown whole or cut with `…`, or its whole
    //! column is left out.

    use proptest::prelude::*;
    use ratatui::backend::TestBackend;
    use ratatui::layout::Rect;
    use ratatui::Terminal;

    use ome_top::app::table::{Cell, ColWidth, Column, RowModel, TableModel, TableView};
    use ome_top::ui::table::draw_table;
    use ome_top::ui::theme::Theme;

    fn model(rows: &[(String, String, String)]) -> TableModel {
        TableModel {
            columns: vec![
                Column::text("NAME", ColWidth::Min(6)).keep(),
                Column::text("WHY", ColWidth::Min(8)).priority(2),
                Column::num("N", 3).keep(),
                Column::text("REASON", ColWidth::Flex(6)).priority(1),
            ],
            rows: rows
                .iter()
                .enumerate()
                .map(|(i, (a, b, c))| {
                    let cells = vec![
                        Cell::text(a.clone()),
                        Cell::text(b.clone()),
                        Cell::num(i as f64, i.to_string()),
                        Cell::text(c.clone()),
                    ];
                    RowModel::new(format!("k{i}"), i, cells)
                })
                .collect(),
        }
    }

    /// Whether `line` shows `text` whole or a non-empty prefix of it followed by `…`.
    fn shown(line: &str, text: &str) -> bool {
        if line.contains(text) {
            return true;
        }
        let chars: Vec<char> = text.chars().collect();
        (1..chars.len()).any(|n| {
            let cut: String = chars[..n].iter().collect::<String>() + "…";
            line.contains(&cut)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn a_drawn_cell_is_whole_or_ends_in_an_ellipsis(
            rows in proptest::collection::vec(
                ("[a-z]{4}-[a-z0-9]{2,30}", "[A-Z][a-zA-Z]{6,40}", "[a-z]{2,10}( [a-z]{2,10}){0,4}"),
                1..6,
            ),
            width in 24u16..140,
        ) {
            let model = model(&rows);
            let mut view = TableView::default();
            view.refresh(&model, |_| true);
            let mut term = Terminal::new(TestBackend::new(width, 10)).unwrap();
            term.draw(|f| {
                draw_table(f, Rect::new(0, 0, width, 10), &model, &view, " t ".into(), &Theme::default_theme());
            })
            .unwrap();
            let buf = term.backend().buffer().clone();
            let line = |y: u16| (0..width).map(|x| buf[(x, y)].symbol()).collect::<String>();
            let header = line(1);
            for (i, row) in model.rows.iter().enumerate() {
                let text = line(2 + i as u16);
                for (c, cell) in model.columns.iter().zip(&row.cells) {
                    if !header.contains(c.title) && !header.contains(&c.title[..1]) {
                        continue; // the column is left out
                    }
                    prop_assert!(
                        shown(&text, &cell.text),
                        "{} of {:?} not whole nor cut with …: {:?}", c.title, cell.text, text
                    );
                }
            }
        }
    }
}
