//! Tables fitted to their content: Shift+letter sorts by a column (again reverses), letters
//! the keymap binds keep their action, the wide layout adds its columns and the compact one
//! drops a sort on a column it hides, and at 120 columns no node name, pool or maintenance
//! trigger is cut.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use ome_top::app::state::View;

use crate::tui_support;
use tui_support::*;

fn first_column(s: &ome_top::app::AppState, col: usize) -> Vec<String> {
    let t = s.table(View::Nodes);
    t.visible
        .iter()
        .map(|&i| s.models().nodes.rows[i].cells[col].text.clone())
        .collect()
}

fn screen_text(s: &ome_top::app::AppState) -> String {
    let term = render(s);
    let buf = term.backend().buffer();
    let mut out = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

#[test]
fn shift_letter_sorts_by_the_column_it_starts_and_again_reverses() {
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "2P");
    assert_eq!(
        s.table(View::Nodes).sort,
        Some((1, false)),
        "P sorts by POOL"
    );
    let pools = first_column(&s, 1);
    let mut sorted = pools.clone();
    sorted.sort();
    assert_eq!(pools, sorted);
    type_keys(&mut s, "P");
    assert_eq!(
        s.table(View::Nodes).sort,
        Some((1, true)),
        "P again reverses"
    );
    // A number column sorts largest first.
    type_keys(&mut s, "O");
    assert_eq!(s.table(View::Nodes).sort, Some((6, true)), "O sorts by OME");
    // `G` is bound (last row), so it keeps its action instead of sorting by GPU.
    type_keys(&mut s, "G");
    assert_eq!(s.table(View::Nodes).sort, Some((6, true)));
    assert_eq!(
        s.table(View::Nodes).selected,
        s.table(View::Nodes).visible.len() - 1
    );
    // A letter no column starts with does nothing.
    type_keys(&mut s, "Z");
    assert_eq!(s.table(View::Nodes).sort, Some((6, true)));
}

#[test]
fn the_wide_layout_adds_its_columns_and_compact_drops_a_sort_it_hides() {
    let mut s = state_with(fleet_feed(), 200, 60);
    assert!(!screen_text(&s).contains("RESOURCE"));
    type_keys(&mut s, "2w");
    let wide = screen_text(&s);
    assert!(
        wide.contains("RESOURCE") && wide.contains("nvidia.com/gpu"),
        "{wide}"
    );
    type_keys(&mut s, "R");
    assert_eq!(s.table(View::Nodes).sort, Some((8, false)));
    type_keys(&mut s, "w");
    // The notice line says what went; the table no longer has it.
    let text = screen_text(&s);
    let lines: Vec<&str> = text.lines().collect();
    let table = lines[..lines.len() - 2].join("\n");
    assert!(!table.contains("RESOURCE"), "{text}");
    assert!(
        lines[lines.len() - 2].contains("compact columns: RESOURCE"),
        "{text}"
    );
    assert_eq!(s.table(View::Nodes).sort, None);
    // The layout is one setting for every table.
    type_keys(&mut s, "w1");
    assert!(s.table(View::Pools).wide);
}

#[test]
fn at_120_columns_no_node_name_pool_or_trigger_is_cut() {
    let s = {
        let mut s = state_with(fleet_feed(), 120, 40);
        type_keys(&mut s, "2");
        s
    };
    let text = screen_text(&s);
    let model = &s.models().nodes;
    for row in &model.rows {
        for col in [0, 1, model.columns.len() - 1] {
            let cell = &row.cells[col].text;
            assert!(text.contains(cell.as_str()), "{cell} is cut:\n{text}");
        }
    }
    assert!(!text.contains('…'), "{text}");
}
