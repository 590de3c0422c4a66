//! Replacing some items of a sorted list in place: the stale items are taken out, the fresh
//! ones (sorted) are merged in, and only the items from the first changed place on move, each
//! once, inside the list's own allocation. The plain way — a new list built by one merge over
//! every item — allocates and writes the whole list on every change; a list of some 16,000
//! large move rows changed in a few thousand places is then mostly copying.
//!
//! Items travel with a tag (a parallel list, moved in lockstep). Stale items are swapped to
//! the tail (they serve as the free slots the merge fills from the back); missing slots are
//! filled by `filler`, and every such slot is overwritten before the call returns.
//!
//! Owns: `replace_sorted`, `replace_sorted_reference`. Pure.

use std::cmp::Ordering;

/// Makes a free slot from a fresh item (the slot is overwritten before `replace_sorted`
/// returns).
pub type Filler<'f, T, U> = &'f dyn Fn(&(T, U)) -> (T, U);

/// Takes out the items `stale` marks (by position) and merges `fresh` (sorted by `cmp`) into
/// the others (sorted by `cmp`); an item of `fresh` goes before the kept items it compares
/// equal to. Returns whether no two items of the result compare equal where a fresh item is
/// one of them. Equal to `replace_sorted_reference`.
pub fn replace_sorted<T, U>(
    (items, tags): (&mut Vec<T>, &mut Vec<U>),
    stale: &dyn Fn(usize) -> bool,
    fresh: Vec<(T, U)>,
    cmp: &dyn Fn(&T, &T) -> Ordering,
    filler: Filler<'_, T, U>,
) -> bool {
    let mut distinct = fresh
        .windows(2)
        .all(|w| cmp(&w[0].0, &w[1].0) != Ordering::Equal);
    let len = items.len().min(tags.len());
    items.truncate(len);
    tags.truncate(len);
    // Kept items to the front (in order), stale ones to the tail.
    let first = (0..len).find(|&i| stale(i)).unwrap_or(len);
    let mut kept = first;
    for i in first..len {
        if !stale(i) {
            items.swap(kept, i);
            tags.swap(kept, i);
            kept += 1;
        }
    }
    // Exactly `fresh.len()` free slots after the kept items.
    let slots = kept + fresh.len();
    items.truncate(slots);
    tags.truncate(slots);
    if let Some(last) = fresh.last() {
        while items.len() < slots {
            let (t, u) = filler(last);
            items.push(t);
            tags.push(u);
        }
    }
    // Backward merge: slots (i, w] are free; the larger of the last kept item and the last
    // fresh one fills slot w (the kept one when equal).
    let mut i = kept;
    let mut w = slots;
    let mut fresh = fresh;
    while let Some((f, _)) = fresh.last() {
        w -= 1;
        let order = match i {
            0 => Ordering::Less,
            _ => cmp(&items[i - 1], f),
        };
        if order != Ordering::Less {
            distinct &= order != Ordering::Equal;
            i -= 1;
            items.swap(i, w);
            tags.swap(i, w);
            continue;
        }
        if let Some((f, u)) = fresh.pop() {
            items[w] = f;
            tags[w] = u;
        }
    }
    distinct
}

/// The plain reference of `replace_sorted`: the kept items and the fresh ones merged into a
/// new list, one pass over all (a fresh item goes before the kept items equal to it).
pub fn replace_sorted_reference<T, U>(
    (items, tags): (Vec<T>, Vec<U>),
    stale: &dyn Fn(usize) -> bool,
    fresh: Vec<(T, U)>,
    cmp: &dyn Fn(&T, &T) -> Ordering,
) -> (Vec<T>, Vec<U>, bool) {
    let mut distinct = fresh
        .windows(2)
        .all(|w| cmp(&w[0].0, &w[1].0) != Ordering::Equal);
    let (mut out, mut out_tags) = (Vec::new(), Vec::new());
    let mut fresh = fresh.into_iter().peekable();
    let kept = items.into_iter().zip(tags).enumerate();
    for (_, (item, tag)) in kept.filter(|(i, _)| !stale(*i)) {
        while let Some((f, _)) = fresh.peek() {
            match cmp(f, &item) {
                Ordering::Less => {}
                Ordering::Equal => distinct = false,
                Ordering::Greater => break,
            }
            if let Some((f, u)) = fresh.next() {
                out.push(f);
                out_tags.push(u);
            }
        }
        out.push(item);
        out_tags.push(tag);
    }
    for (f, u) in fresh {
        out.push(f);
        out_tags.push(u);
    }
    (out, out_tags, distinct)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn in_place_equals_the_reference(
            kept in proptest::collection::vec(0u32..40, 0..60),
            marks in proptest::collection::vec(proptest::bool::ANY, 60),
            fresh in proptest::collection::vec(0u32..40, 0..40),
        ) {
            let mut items = kept.clone();
            items.sort_unstable();
            // Tags tell items with equal keys apart (the order among equals is checked).
            let tags: Vec<usize> = (0..items.len()).collect();
            let mut fresh: Vec<(u32, usize)> =
                fresh.into_iter().enumerate().map(|(k, v)| (v, 1000 + k)).collect();
            fresh.sort_by_key(|(v, _)| *v);
            let stale = |i: usize| marks.get(i).copied().unwrap_or(false);
            let cmp = |a: &u32, b: &u32| a.cmp(b);
            let (want, want_tags, want_distinct) = replace_sorted_reference(
                (items.clone(), tags.clone()),
                &stale,
                fresh.clone(),
                &cmp,
            );
            let (mut got, mut got_tags) = (items, tags);
            let distinct = replace_sorted(
                (&mut got, &mut got_tags),
                &stale,
                fresh,
                &cmp,
                &|f| (f.0, usize::MAX),
            );
            prop_assert_eq!(got, want);
            prop_assert_eq!(got_tags, want_tags);
            prop_assert_eq!(distinct, want_distinct);
        }
    }
}
