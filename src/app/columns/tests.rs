//! Column fitting as a terminal shows it: worked examples of each rule, and a property that a
//! fitted row fits its room (or keeps two columns) with every number whole.

use proptest::prelude::*;

use super::*;

const NAME: Column = Column::text("NAME", ColWidth::Min(10));
const POOL: Column = Column::text("POOL", ColWidth::Fixed(8));
const GPU: Column = Column::num("GPU", 3);
const WHY: Column = Column::text("WHY", ColWidth::Flex(12));

#[test]
fn columns_take_their_content_and_the_flexible_one_takes_the_rest() {
    let cols = [NAME, POOL, GPU, WHY];
    // 20 + 1 + 6 + 1 + 3 + 1 + 30 = 62 cells wanted.
    let w = fit(&cols, &[20, 6, 2, 30], 100, false);
    assert_eq!(w, vec![20, 6, 3, 30 + 38]);
}

#[test]
fn space_runs_short_the_flexible_column_gives_way_first_then_the_widest_text() {
    let cols = [NAME, POOL, GPU, WHY];
    let w = fit(&cols, &[20, 6, 2, 30], 50, false);
    assert_eq!(w, vec![20, 6, 3, 18]);
    // Flex at its floor (12), then NAME (Min) down toward 10.
    let w = fit(&cols, &[20, 6, 2, 30], 40, false);
    assert_eq!(w, vec![16, 6, 3, 12]);
}

#[test]
fn a_number_never_loses_digits_and_columns_drop_from_the_right_when_floors_do_not_fit() {
    let cols = [NAME, GPU, POOL, WHY];
    let w = fit(&cols, &[12, 7, 8, 20], 30, false);
    assert_eq!(w, vec![12, 7, 8]);
    assert_eq!(fit(&cols, &[12, 7, 8, 20], 5, false).len(), 2);
}

#[test]
fn compact_caps_a_long_text_column_and_wide_does_not() {
    let cols = [NAME, GPU];
    assert_eq!(fit(&cols, &[90, 1], 300, false), vec![CAP, 3]);
    assert_eq!(fit(&cols, &[90, 1], 300, true), vec![90, 3]);
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
    (0u8..4, 1u16..20).prop_map(|(k, w)| match k {
        0 => Column::num("N", w),
        1 => Column::text("FIXED", ColWidth::Fixed(w)),
        2 => Column::text("MIN", ColWidth::Min(w)),
        _ => Column::text("FLEX", ColWidth::Flex(w)),
    })
}

proptest! {
    #[test]
    fn a_fitted_row_fits_or_keeps_only_two_columns_and_numbers_stay_whole(
        cols in proptest::collection::vec(column(), 2..9),
        content in proptest::collection::vec(0u16..80, 9),
        room in 0u16..260,
        wide in any::<bool>(),
    ) {
        let content = &content[..cols.len()];
        let w = fit(&cols, content, room, wide);
        prop_assert!(w.len() >= 2 && w.len() <= cols.len());
        let total: u32 = w.iter().map(|x| u32::from(*x)).sum::<u32>() + w.len() as u32 - 1;
        prop_assert!(total <= u32::from(room) || w.len() == 2);
        for (i, c) in cols.iter().enumerate().take(w.len()) {
            let natural = content[i].max(text_width(c.title));
            if c.numeric {
                prop_assert_eq!(w[i], natural);
            } else {
                prop_assert!(w[i] >= natural.min(floor(c)));
            }
        }
    }
}
