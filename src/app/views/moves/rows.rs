//! The Moves rows of one feed: Alfred's and ome-top's rows merged per (Instance, policy), the
//! moves that can be acted on first (by how close they are to running), then the advisory ones
//! in one group per reason with a header row, closed unless opened (or every row listed, no
//! headers, while a filter or a sort is on). The operator's decisions come last: the moves of
//! opted-out workloads under "opted out", dismissed moves whose content is unchanged under
//! "dismissed".
//!
//! Owns: `move_rows`. Plain data.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::app::table::{Cell, RowModel, TableModel, Tone};
use crate::app::views::moves::columns::{columns, computed_class, outcome_cell, Class};
use crate::app::views::moves::decided::{
    decided_label, dismissed_cells, opted_out_cells, DISMISSED_GROUP, OPTED_OUT_GROUP,
};
use crate::app::views::moves::held::{holder, short, JOURNAL_HOLDS};
use crate::app::views::moves::landing::{landing, landing_short};
use crate::app::views::moves::merge::{freshness_text, group_reason, pair_rows};
use crate::app::views::moves::pacing::pacing;
use crate::app::views::moves::requested::{landing_cell, latest_requests, requested_row};
use crate::app::views::moves::words::policy_word;
use crate::app::views::moves::{
    fingerprint, group_key, identity_key, Dismissed, Merged, MoveEntry, MoveFields, MoveIndex,
    MoveOptions, MovePair, MoveRef,
};
use crate::app::views::moves::{in_namespace, instance_of};
use crate::engine::analysis::Analysis;
use crate::engine::model::vocab::Outcome;
use crate::engine::model::Time;
use crate::engine::workloads::{opt_out, OptOut};
use crate::fmt::relative;
use crate::protocol::Feed;

/// What the rows read while they are built.
struct Ctx<'a> {
    feed: &'a Feed,
    opts: &'a MoveOptions<'a>,
    /// `(workload, component)` → index into `Workloads::components`.
    components: HashMap<(&'a str, &'a str), usize>,
    fresh: String,
    published: bool,
    /// The journal entry holding withheld moves back (its short UUID), if one does.
    holder: Option<String>,
    /// Workloads opted out of Alfred's moves (`ns/name` → the opt-out).
    opted_out: HashMap<&'a str, OptOut<'a>>,
}

impl<'a> Ctx<'a> {
    fn new(feed: &'a Feed, opts: &'a MoveOptions<'a>) -> Self {
        let (snap, a) = (&feed.snapshot, &feed.analysis);
        let components = a
            .workloads
            .components
            .iter()
            .enumerate()
            .filter_map(|(c, comp)| {
                let isvc = snap.isvcs.get(comp.isvc)?;
                Some(((isvc.ns_name().as_ref(), comp.name()), c))
            })
            .collect();
        let published = a
            .published
            .as_ref()
            .and_then(|p| p.last_cycle.as_ref())
            .is_some_and(|c| c.is_ok());
        Ctx {
            feed,
            opts,
            components,
            fresh: freshness_text(a),
            published,
            holder: holder(a).map(|e| short(&e.uuid)),
            opted_out: snap
                .isvcs
                .iter()
                .filter_map(|w| Some((w.ns_name().as_ref(), opt_out(w)?)))
                .collect(),
        }
    }

    /// `▸ <phase>` when a migration of the Instance is requested here or running, or Alfred
    /// reports its request in flight.
    fn progress(&self, m: &Merged<'_>) -> Option<String> {
        let f = m.primary()?.fields();
        let mine = self.opts.requested.iter().rev().find(|r| {
            r.workload == f.workload && r.component == f.component && r.instance == f.instance
        });
        if let Some(r) = mine {
            // The cluster's row first, the phase seen last when OME pruned it.
            let l = landing(&self.feed.snapshot, r, self.opts.phases.get(&r.uuid));
            return Some(landing_short(&l));
        }
        let (snap, a) = (&self.feed.snapshot, &self.feed.analysis);
        let c = self.components.get(&(f.workload, f.component))?;
        let ir = a.workloads.components[*c]
            .ir
            .and_then(|i| snap.replicas.get(i));
        let running = ir.and_then(|ir| {
            ir.status
                .migrations
                .iter()
                .find(|x| x.source_instance == Some(f.instance) && !x.is_terminal())
        });
        if let Some(x) = running {
            return Some(format!("▸ {}", x.phase));
        }
        m.alfred
            .filter(|r| {
                matches!(
                    r.outcome,
                    Outcome::Submitted | Outcome::Acknowledged | Outcome::Stalled
                )
            })
            .map(|r| format!("▸ {}", r.outcome))
    }

    /// The OME-TOP cell of a move this session requested: what became of the request.
    fn mine_cell(&self, f: &MoveFields<'_>) -> Cell {
        let r = self.opts.requested.iter().rev().find(|r| {
            r.workload == f.workload && r.component == f.component && r.instance == f.instance
        });
        let l = r.map(|r| landing(&self.feed.snapshot, r, self.opts.phases.get(&r.uuid)));
        l.map_or_else(
            || Cell::text("requested").tone(Tone::Ok),
            |l| landing_cell(&l),
        )
    }

    /// When a move ome-top rejects only for Alfred's pacing can run, if a clock decides it.
    fn paced_until(&self, m: &Merged<'_>) -> Option<Time> {
        let c = m.computed.filter(|c| c.outcome == Outcome::Rejected)?;
        let gate = c.reject_reason.as_ref()?;
        let (snap, a) = (&self.feed.snapshot, &self.feed.analysis);
        let at = instance_of(m).and_then(|i| a.locate_instance(snap, i));
        pacing(snap, a, gate, at)?.at.filter(|t| *t > a.now)
    }

    fn row(&self, key: &str, m: &Merged<'_>, progress: Option<&str>, source: usize) -> RowModel {
        let Some(f) = m.primary().map(|p| p.fields()) else {
            return RowModel::new(key.to_string(), source, Vec::new());
        };
        let targets = match (f.target, f.hints.is_empty()) {
            (Some(t), _) => t.to_string(),
            // The first hint and how many more (all of them are in the detail).
            (None, false) => match f.hints.len() {
                1 => f.hints[0].to_string(),
                n => format!("{} +{}", f.hints[0], n - 1),
            },
            (None, true) => "-".to_string(),
        };
        let why = progress
            .map(str::to_string)
            .or_else(|| {
                m.computed
                    .and_then(|c| MoveRef::Computed(c).fields().why.map(String::from))
            })
            .or_else(|| {
                m.alfred
                    .and_then(|r| MoveRef::Alfred(r).fields().why.map(String::from))
            })
            .unwrap_or_else(|| "-".into());
        // A move the journal holds back names the entry (J goes there); one that only
        // Alfred's pacing holds says when it can run.
        let why = match (&self.holder, self.paced_until(m)) {
            (Some(h), _) if JOURNAL_HOLDS.contains(&why.as_str()) => format!("{why} → {h}"),
            (_, Some(t)) => format!("{why} · runs {}", relative(self.feed.analysis.now, t)),
            _ => why,
        };
        let mine = progress.is_some()
            && self.opts.requested.iter().any(|r| {
                r.workload == f.workload && r.component == f.component && r.instance == f.instance
            });
        // A move requested here is compared again once it ends (the request makes it
        // ineligible, which is not a disagreement).
        let differ = self.published && m.disagree() && !mine;
        let fresh = if m.alfred.is_some() {
            self.fresh.as_str()
        } else {
            "-"
        };
        let cells = vec![
            Cell::text(if differ { "≠" } else { "" }).tone(Tone::Degraded),
            if mine {
                self.mine_cell(&f)
            } else {
                outcome_cell(m.computed.map(|c| &c.outcome))
            },
            outcome_cell(m.alfred.map(|r| &r.outcome)),
            Cell::text(f.workload),
            Cell::text(format!("{}/{}", f.component, f.instance)),
            Cell::text(why).tone(if progress.is_some() {
                Tone::Accent
            } else {
                Tone::Normal
            }),
            Cell::text(policy_word(f.policy)),
            Cell::text(f.from_node.unwrap_or("-")),
            Cell::text(targets),
            Cell::num(f.score, format!("{:.3}", f.score)),
            Cell::text(f.reason.as_str()),
            Cell::text(fresh).tone(if fresh.starts_with("stale") {
                Tone::Degraded
            } else {
                Tone::Normal
            }),
        ];
        RowModel::new(key.to_string(), source, cells)
    }
}

/// `▸ 612 advisory` … `RawDeploymentMigrationUnsupported`: the header of one reason's group
/// (`▸ 2 dismissed` for the dismissed moves).
fn group_row(reason: &str, count: usize, open: bool, source: usize) -> RowModel {
    let mark = if open { "▾" } else { "▸" };
    let (what, label) = decided_label(reason).unwrap_or(("advisory", reason));
    let mut cells = vec![
        Cell::text(""),
        Cell::text(what).tone(Tone::Muted),
        Cell::text(""),
        Cell::text(format!("{mark} {count} {what}")).tone(Tone::Accent),
        Cell::text(""),
        Cell::text(label).tone(Tone::Accent),
    ];
    cells.extend((0..6).map(|_| Cell::text("")));
    RowModel::new(group_key(reason), source, cells)
}

/// One merged move, classified.
struct Listed<'a> {
    key: String,
    pair: MovePair,
    merged: Merged<'a>,
    dismissed: Option<&'a Dismissed>,
    opted_out: Option<OptOut<'a>>,
    class: Class,
    progress: Option<String>,
}

fn classify<'a>(ctx: &Ctx<'a>, a: &'a Analysis, pairs: Vec<(String, MovePair)>) -> Vec<Listed<'a>> {
    pairs
        .into_iter()
        .filter_map(|(key, pair)| {
            let merged = Merged::of(a, pair)?;
            let f = merged.primary()?.fields();
            let all = ctx.opts.dismissed;
            // Keys are built only when something is dismissed (usually nothing is).
            let dismissed = (!all.is_empty())
                .then(|| all.get(&identity_key(&f)))
                .flatten()
                .filter(|d| d.fingerprint == fingerprint(&f));
            let opted_out = ctx.opted_out.get(f.workload).copied();
            let progress = ctx.progress(&merged);
            let ours = merged
                .computed
                .map(|c| computed_class(&c.outcome, c.plan.is_some()));
            let theirs = merged.alfred.map(|r| computed_class(&r.outcome, false));
            let mut class = ours.into_iter().chain(theirs).min().unwrap_or(Class::Other);
            if progress.is_some() {
                class = class.min(Class::InProgress);
            } else if opted_out.is_some() {
                class = Class::OptedOut;
            } else if dismissed.is_some() {
                class = Class::Dismissed;
            }
            Some(Listed {
                key,
                pair,
                merged,
                dismissed,
                opted_out,
                class,
                progress,
            })
        })
        .collect()
}

/// The rows of this session's requests whose move row is gone, first: the operator's own
/// actions lead.
fn requested_rows(
    ctx: &Ctx<'_>,
    listed: &[Listed<'_>],
    rows: &mut Vec<RowModel>,
    entries: &mut Vec<MoveEntry>,
) {
    if ctx.opts.requested.is_empty() {
        return;
    }
    let present: HashSet<&str> = listed.iter().map(|l| l.key.as_str()).collect();
    for (key, i) in latest_requests(ctx.opts.requested) {
        let r = &ctx.opts.requested[i];
        let outside = ctx
            .opts
            .namespace
            .is_some_and(|ns| r.workload.split_once('/').map(|(n, _)| n) != Some(ns));
        if present.contains(key.as_str()) || outside {
            continue;
        }
        let seen = ctx.opts.phases.get(&r.uuid);
        rows.push(requested_row(
            &ctx.feed.snapshot,
            (r, seen),
            (key, rows.len()),
        ));
        entries.push(MoveEntry::Requested {
            index: i,
            workload: r.workload.clone(),
        });
    }
}

/// The Moves table and its index for `feed`, built in the shape `opts` asks for.
pub fn move_rows(feed: &Feed, opts: &MoveOptions<'_>) -> (TableModel, MoveIndex) {
    let a = &feed.analysis;
    let ctx = Ctx::new(feed, opts);
    let pairs = pair_rows(a).into_iter();
    let pairs = pairs.filter(|(_, p)| in_namespace(a, *p, opts.namespace));
    let mut listed = classify(&ctx, a, pairs.collect());
    listed.sort_by_key(|l| l.class);
    let split = listed.partition_point(|l| l.class < Class::Advisory);
    let mut groups: BTreeMap<String, Vec<&Listed<'_>>> = BTreeMap::new();
    for l in &listed[split..] {
        let reason = match l.class {
            Class::OptedOut => OPTED_OUT_GROUP.to_string(),
            Class::Dismissed => DISMISSED_GROUP.to_string(),
            _ => group_reason(&l.merged),
        };
        groups.entry(reason).or_default().push(l);
    }
    let mut groups: Vec<(String, Vec<&Listed<'_>>)> = groups.into_iter().collect();
    // Largest advice first; the operator's decisions last (opted out, then dismissed).
    groups.sort_by_key(|(reason, members)| {
        (
            decided_label(reason).is_some(),
            reason == DISMISSED_GROUP,
            std::cmp::Reverse(members.len()),
            reason.clone(),
        )
    });
    let mut index = MoveIndex {
        actionable: split,
        advisory: listed.len() - split,
        groups: groups.len(),
        flat: opts.flat,
        wide: opts.wide,
        open: opts.open.clone(),
        published: ctx.published,
        ..MoveIndex::default()
    };
    let mut rows = Vec::with_capacity(listed.len() + groups.len());
    requested_rows(&ctx, &listed, &mut rows, &mut index.entries);
    let push = |rows: &mut Vec<RowModel>, entries: &mut Vec<MoveEntry>, l: &Listed<'_>| {
        let mut row = ctx.row(&l.key, &l.merged, l.progress.as_deref(), rows.len());
        match (l.class, l.opted_out, l.dismissed) {
            (Class::OptedOut, Some(o), _) => opted_out_cells(&mut row, &o),
            (Class::Dismissed, _, Some(d)) => dismissed_cells(&mut row, d, ctx.opts.now),
            _ => {}
        }
        rows.push(row);
        entries.push(MoveEntry::Move(l.pair));
    };
    for l in &listed[..split] {
        push(&mut rows, &mut index.entries, l);
    }
    for (reason, members) in &groups {
        let open = opts.flat || opts.open.contains(reason);
        if !opts.flat {
            rows.push(group_row(reason, members.len(), open, rows.len()));
            index.entries.push(MoveEntry::Group {
                reason: reason.clone(),
                count: members.len(),
            });
        }
        for l in members {
            if open {
                push(&mut rows, &mut index.entries, l);
            } else {
                index.collapsed.insert(l.key.clone(), group_key(reason));
                index.hidden.insert(l.key.clone(), l.pair);
            }
        }
    }
    let model = TableModel {
        columns: columns(opts.wide),
        rows,
    };
    (model, index)
}
