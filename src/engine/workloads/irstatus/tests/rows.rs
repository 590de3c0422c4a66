//! Alfred's row checks (§5.3 step 8) and their messages.

use super::*;

fn ok_row() -> InstanceRow {
    row(0, "Ready", ["r", ""], 0, [0; 3], false, 1)
}

/// `check_rows` on a valid row 0 followed by a valid row 1 changed by `f`.
fn second(f: fn(&mut InstanceRow)) -> Result<(), RowError> {
    let mut r = InstanceRow {
        index: 1,
        ..ok_row()
    };
    f(&mut r);
    check_rows(&[ok_row(), r])
}

#[test]
fn row_checks_field_rules() {
    use RowProblem::*;
    type Mutation = fn(&mut InstanceRow);
    let cases: [(Mutation, RowProblem); 9] = [
        (|r| r.phase = "ready".into(), UnknownPhase),
        (|r| r.phase.clear(), UnknownPhase),
        (|r| r.incarnation = -1, NegativeIncarnation),
        (|r| r.pod_count = -1, NegativeCount),
        (|r| r.serving_pod_count = -1, NegativeCount),
        (|r| r.available_pod_count = -1, NegativeCount),
        (|r| r.active_ordinal = 2, ActiveOrdinal),
        (|r| r.active_ordinal = -1, ActiveOrdinal),
        (|r| r.index = 0, DuplicateIndex),
    ];
    for (i, (f, problem)) in cases.into_iter().enumerate() {
        assert_eq!(
            second(f),
            Err(invalid(1, i64::from(problem != DuplicateIndex), problem)),
            "case {i}"
        );
    }
    assert_eq!(second(|_| {}), Ok(()));
    for phase in PHASES {
        assert_eq!(
            check_rows(&[InstanceRow {
                phase: phase.into(),
                ..ok_row()
            }]),
            Ok(())
        );
    }
}

#[test]
fn row_checks_index_rules_and_order() {
    assert_eq!(check_rows(&[]), Ok(()));
    assert_eq!(check_rows(&[ok_row()]), Ok(()));
    let neg = InstanceRow {
        index: -1,
        ..ok_row()
    };
    assert_eq!(
        check_rows(&[neg]),
        Err(invalid(0, -1, RowProblem::NegativeIndex))
    );
    // Field checks come before uniqueness on the same row, rows are checked in order.
    let both = second(|r| {
        r.index = 0;
        r.incarnation = -1;
    });
    assert_eq!(both, Err(invalid(1, 0, RowProblem::NegativeIncarnation)));
    let bad_first = InstanceRow {
        active_ordinal: 5,
        ..ok_row()
    };
    let dup = check_rows(&[bad_first, ok_row(), ok_row()]);
    assert_eq!(dup, Err(invalid(0, 0, RowProblem::ActiveOrdinal)));
}

#[test]
fn row_error_display() {
    let e = invalid(3, 7, RowProblem::DuplicateIndex);
    assert_eq!(
        e.to_string(),
        "status is invalid: row 3 (index 7) has a duplicate index"
    );
    let e = RowError::TooManyRows { rows: 10_001 };
    assert_eq!(
        e.to_string(),
        "status is invalid: 10001 rows exceed the limit of 10000"
    );
    assert!(PHASES.windows(2).all(|w| w[0] < w[1]));
}
