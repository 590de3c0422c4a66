//! How Alfred's and ome-top's move rows meet: one pair per (policy, workload, component,
//! Instance), the advisory reason a merged move is grouped under, and the freshness of
//! Alfred's pass as the FRESH cell shows it.
//!
//! Owns: `pair_rows`, `group_reason`, `freshness_text`. Plain data.

use std::collections::HashMap;

use crate::app::views::moves::{alfred_rows, row_key, Merged, MovePair, MoveRef};
use crate::engine::analysis::Analysis;
use crate::engine::model::vocab::Outcome;
use crate::engine::recommendations::freshness;
use crate::fmt::age;

/// Pairs each computed row with Alfred's row of the same (policy, workload, component,
/// Instance); a key seen twice on one side gets a numbered key of its own. Computed rows keep
/// their arbitration order, Alfred's own rows follow in Alfred's order.
pub fn pair_rows(a: &Analysis) -> Vec<(String, MovePair)> {
    let mut pairs: Vec<(String, MovePair)> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut place = |key: String, alfred: Option<usize>, computed: Option<usize>| {
        let mut k = key.clone();
        let mut n = 1;
        loop {
            match at.get(&k) {
                Some(&i) if alfred.is_some() && pairs[i].1.alfred.is_none() => {
                    pairs[i].1.alfred = alfred;
                    return;
                }
                Some(_) => {
                    n += 1;
                    k = format!("{key}|{n}");
                }
                None => break,
            }
        }
        at.insert(k.clone(), pairs.len());
        pairs.push((k, MovePair { alfred, computed }));
    };
    for (i, m) in a.moves.iter().enumerate() {
        place(row_key(&MoveRef::Computed(m).fields()), None, Some(i));
    }
    for (i, r) in alfred_rows(a).iter().enumerate() {
        place(row_key(&MoveRef::Alfred(r).fields()), Some(i), None);
    }
    pairs
}

/// Alfred's pass freshness as the FRESH cell shows it.
pub fn freshness_text(a: &Analysis) -> String {
    let cycle_time = a
        .published
        .as_ref()
        .and_then(|p| p.last_cycle.as_ref())
        .and_then(|c| c.as_ref().ok())
        .and_then(|c| c.timestamp);
    match cycle_time {
        Some(t) if freshness(t, a.config.decision_loop_interval, a.now).stale => {
            format!("stale {}", age(a.now, Some(t)))
        }
        Some(t) => age(a.now, Some(t)),
        None => "-".to_string(),
    }
}

/// The advisory reason a move is grouped under: ome-top's when it says advice, else Alfred's.
pub fn group_reason(m: &Merged<'_>) -> String {
    let computed = m
        .computed
        .filter(|c| c.outcome == Outcome::Advisory)
        .and_then(|c| c.advisory_reason.as_ref().map(|r| r.as_str()));
    let alfred = m
        .alfred
        .filter(|r| r.outcome == Outcome::Advisory)
        .and_then(|r| r.advisory_reason.as_ref().map(|x| x.as_str()));
    computed.or(alfred).unwrap_or("advisory").to_string()
}
