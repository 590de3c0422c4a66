//! Column fitting as a terminal shows it: worked examples of each rule, a property that the
//! shown columns depend on the room alone and a fitted row fits it (unless its numbers cannot)
//! with every number whole and every kept column shown, and a property that a cut cell ends
//! in `…`.

use proptest::prelude::*;

use super::*;

const NAME: Column = Column::text("NAME", ColWidth::Min(10)).keep();
const POOL: Column = Column::text("POOL", ColWidth::Fixed(8));
const GPU: Column = Column::num("GPU", 3);
const WHY: Column = Column::text("WHY", ColWidth::Flex(12));

#[test]
fn columns_take_their_content_and_the_flexible_one_takes_the_rest() {
    let cols = [NAME, POOL, GPU, WHY];
    // 20 + 1 + 6 + 1 + 3 + 1 + 30 = 62 cells wanted.
    let w = fit(&cols, &[20, 6, 2, 30], 100, false);
    assert_eq!(w, vec![(0, 20), (1, 6), (2, 3), (3, 30 + 38)]);
}

#[test]
fn space_runs_short_the_flexible_column_gives_way_first_then_the_widest_text() {
    let cols = [NAME, POOL, GPU, WHY];
    let w = fit(&cols, &[20, 6, 2, 30], 50, false);
    assert_eq!(w, vec![(0, 20), (1, 6), (2, 3), (3, 18)]);
    // Flex at its floor (12), then a NAME that is not kept narrows toward 10.
    let name = Column::text("NAME", ColWidth::Min(10));
    let w = fit(&[name, POOL, GPU.keep(), WHY], &[20, 6, 2, 30], 40, false);
    assert_eq!(w, vec![(0, 16), (1, 6), (2, 3), (3, 12)]);
    // The planned row (10 + 8 + 3 + 12 and the gaps) fits 40: every column stays, and the
    // kept NAME narrows once the others are at their floors.
    let w = fit(&cols, &[20, 6, 2, 30], 40, false);
    assert_eq!(w, vec![(0, 16), (1, 6), (2, 3), (3, 12)]);
    // A table that keeps nothing keeps its first two columns.
    let w = fit(&[name, POOL, GPU, WHY], &[20, 6, 2, 30], 20, false);
    assert_eq!(w, vec![(0, 13), (1, 6)]);
}

#[test]
fn a_number_never_loses_digits_and_columns_drop_from_the_right_when_floors_do_not_fit() {
    let cols = [NAME, GPU, POOL, WHY];
    let w = fit(&cols, &[12, 7, 8, 20], 30, false);
    assert_eq!(w, vec![(0, 12), (1, 7), (2, 8)]);
    // Only the kept column is left, narrowed to the room.
    assert_eq!(fit(&cols, &[12, 7, 8, 20], 5, false), vec![(0, 5)]);
}

#[test]
fn the_columns_shown_depend_on_the_room_not_on_the_rows() {
    let cols = [
        NAME,
        POOL,
        GPU,
        Column::text("REASON", ColWidth::Fixed(15)).optional(),
        WHY,
    ];
    let shown = |content: &[u16]| -> Vec<usize> {
        fit(&cols, content, 48, false)
            .iter()
            .map(|(i, _)| *i)
            .collect()
    };
    // Short rows and long rows, one terminal width: the same columns, the optional one out.
    assert_eq!(shown(&[4, 2, 1, 3, 5]), vec![0, 1, 2, 4]);
    assert_eq!(shown(&[40, 30, 5, 15, 60]), vec![0, 1, 2, 4]);
    assert_eq!(shown_columns(&cols, 48), vec![0, 1, 2, 4]);
    // A wider terminal has room for it.
    assert_eq!(shown_columns(&cols, 70), vec![0, 1, 2, 3, 4]);
}
#[test]
fn compact_caps_a_long_text_column_and_wide_does_not() {
    let cols = [NAME, GPU];
    assert_eq!(fit(&cols, &[90, 1], 300, false), vec![(0, CAP), (1, 3)]);
    assert_eq!(fit(&cols, &[90, 1], 300, true), vec![(0, 90), (1, 3)]);
}

#[test]
fn a_clipped_cell_ends_with_an_ellipsis_and_counts_wide_characters() {
    assert_eq!(clip("RawDeploymentMigrationUnsupported", 10), "RawDeploy…");
    assert_eq!(clip("short", 10), "short");
    assert_eq!(clip("✗ Unhealthy", 11), "✗ Unhealthy");
    assert_eq!(clip("日本語のノード", 6), "日本…");
    assert_eq!(clip("abc", 0), "");
}

#[test]
fn content_widths_read_only_the_visible_rows() {
    use crate::app::table::{Cell, RowModel};
    let rows = vec![
        RowModel::new(
            "a".into(),
            0,
            vec![Cell::text("gpu-a100-001"), Cell::text("1")],
        ),
        RowModel::new("b".into(), 1, vec![Cell::text("x"), Cell::text("12345")]),
    ];
    assert_eq!(content_widths(2, &rows, &[0]), vec![12, 1]);
    assert_eq!(content_widths(2, &rows, &[0, 1]), vec![12, 5]);
}

fn column() -> impl Strategy<Value = Column> {
    (0u8..4, 1u16..20, 0u8..5).prop_map(|(k, w, p)| {
        let c = match k {
            0 => Column::num("N", w),
            1 => Column::text("FIXED", ColWidth::Fixed(w)),
            2 => Column::text("MIN", ColWidth::Min(w)),
            _ => Column::text("FLEX", ColWidth::Flex(w)),
        };
        c.priority(p)
    })
}

proptest! {
    #[test]
    fn a_fitted_row_shows_the_columns_its_room_plans_with_every_number_whole(
        cols in proptest::collection::vec(column(), 2..9),
        content in proptest::collection::vec(0u16..80, 9),
        other in proptest::collection::vec(0u16..80, 9),
        room in 0u16..260,
        wide in any::<bool>(),
    ) {
        let content = &content[..cols.len()];
        let w = fit(&cols, content, room, wide);
        // Other rows, the same room: the same columns.
        let again = fit(&cols, &other[..cols.len()], room, wide);
        let indices = |w: &[(usize, u16)]| w.iter().map(|(i, _)| *i).collect::<Vec<_>>();
        prop_assert_eq!(indices(&w), indices(&again));
        // Without a kept column, the first two are kept.
        let none_kept = !cols.iter().any(|c| c.priority == KEEP);
        let cols: Vec<Column> = (cols.iter().enumerate())
            .map(|(i, c)| if none_kept && i < 2 { c.keep() } else { *c })
            .collect();
        prop_assert_eq!(indices(&w), shown_columns(&cols, room));
        prop_assert!(!w.is_empty() && w.len() <= cols.len());
        prop_assert!(w.windows(2).all(|p| p[0].0 < p[1].0), "column order kept");
        let total: u32 = w.iter().map(|x| u32::from(x.1)).sum::<u32>() + w.len() as u32 - 1;
        // Only numbers that will not shrink (and one cell per text column) overflow the room.
        let least: u32 = w
            .iter()
            .map(|(i, x)| if cols[*i].numeric { u32::from(*x) } else { 1 })
            .sum::<u32>()
            + w.len() as u32
            - 1;
        prop_assert!(total <= u32::from(room) || total == least);
        for (i, c) in cols.iter().enumerate() {
            let shown = w.iter().find(|(j, _)| *j == i).map(|(_, x)| *x);
            if c.priority == KEEP && w.len() > 1 {
                prop_assert!(shown.is_some(), "kept column {} dropped", i);
            }
            let natural = content[i].max(text_width(c.title));
            if let (Some(x), true) = (shown, c.numeric) {
                prop_assert_eq!(x, natural);
            }
        }
    }

    #[test]
    fn a_cut_cell_ends_in_an_ellipsis_and_fits(text in "[a-zA-Z0-9 ✓日本-]{0,40}", width in 0u16..30) {
        let out = clip(&text, width);
        prop_assert!(text_width(&out) <= width);
        if out != text {
            prop_assert!(width == 0 || out.ends_with('…'), "{:?} cut to {:?}", text, out);
            let kept = out.trim_end_matches('…');
            prop_assert!(text.starts_with(kept));
        }
    }
}
