//! The Gangs view's side of the app (the tree itself is `app::model::gangs`, kept in the state):
//! why a gang sits where it does, in the scheduler's terms: its state, the domain it is pinned
//! to (or predicted for) and where that pin was read, members placed against `minMember`,
//! reservation, and the scheduler's own Pending message. Drawn beside the Gangs tree.
//!
//! Owns: `pin_lines`, `selected_gang`. Plain data.

use crate::app::detail::Lines;
use crate::app::state::AppState;
use crate::app::table::Tone;
use crate::engine::gangs::{
    effective_scheduler, CapacityModel, Gang, GangState, PinSource, PredictedOutcome, ReasonSource,
    Reservation,
};
use crate::fmt::{when, when_opt};

/// The gang the tree's selection is on (a gang line or one of its pods).
pub fn selected_gang(state: &AppState) -> Option<&Gang> {
    let key = state.views.gang_nav.selected.get(2)?;
    let feed = state.shown()?;
    feed.analysis.gangs.gangs.iter().find(|g| g.key() == *key)
}

fn state_words(s: GangState) -> &'static str {
    match s {
        GangState::Pinned => "pinned: the scheduler has committed the gang to one domain",
        GangState::BoundPartial => {
            "partly bound: some members placed in one domain, which the scheduler adopts and \
             reserves for the rest"
        }
        GangState::Forming => {
            "forming: members complete, nothing placed and no current scheduling failure; most \
             likely waiting at Permit"
        }
        GangState::Waiting => "waiting: nothing placed and the scheduler reports why",
        GangState::Blocked => {
            "blocked: the PodGroup or the scheduler config makes a pin impossible"
        }
        GangState::Split => "split: placed members sit in more than one domain",
    }
}

fn source_words(s: PinSource) -> &'static str {
    match s {
        PinSource::Bound => "read from the nodes its bound members run on",
        PinSource::Event => "read from the scheduler's Pending message",
        PinSource::Predicted => "ome-top's prediction of the scheduler's choice, not observed",
    }
}

fn pin(out: &mut Lines, state: &AppState, g: &Gang) {
    let key = g.topology_key.as_deref().unwrap_or("none");
    out.line(format!("topology key: {key}"));
    match (&g.domain, g.pin_source) {
        (Some(d), Some(src)) => {
            out.push(format!("domain: {d}"), Tone::Accent);
            out.line(format!("  {}", source_words(src)));
            if src == PinSource::Event {
                out.line(format!(
                    "  as of {}",
                    when_opt(state.session.now, g.pin_as_of, state.settings.utc_offset)
                ));
            }
        }
        (Some(d), None) => out.push(format!("domain: {d}"), Tone::Accent),
        (None, _) => out.push("domain: none yet", Tone::Muted),
    }
    if !g.split_domains.is_empty() {
        out.push(
            format!("members in: {}", g.split_domains.join(", ")),
            Tone::Failed,
        );
    }
}

fn members(out: &mut Lines, g: &Gang) {
    let min = g
        .min_member
        .map_or("not set".to_string(), |m| m.to_string());
    let mut text = format!("members placed: {} of minMember {min}", g.placed);
    if let Some(r) = g.remaining {
        text.push_str(&format!(" · {r} to place"));
    }
    out.line(text);
    if let Some(r) = g.reservation {
        out.push(
            match r {
                Reservation::Inferred => {
                    "its domain counts as reserved: the scheduler holds (or will adopt) it"
                }
                Reservation::Hinted => {
                    "its domain counts as reserved: other pods are told a node is reserved"
                }
            },
            Tone::Degraded,
        );
    }
    if !g.on_ome_scheduler {
        out.push(
            "⚠ not every member uses the OME scheduler's profile: OMEGangPack never sees them",
            Tone::Failed,
        );
    }
}

fn prediction(out: &mut Lines, g: &Gang) {
    let Some(p) = &g.prediction else {
        return;
    };
    out.heading("Prediction");
    let unit = match p.model {
        CapacityModel::WholeNode => "nodes",
        CapacityModel::MemberRoom => "member slots",
    };
    out.line(format!("to place: {} members like {}", p.need, p.current));
    match (p.outcome, &p.domain) {
        (PredictedOutcome::Fits, Some(d)) => out.push(
            format!("best fit: {d} ({} {unit} free)", p.capacity),
            Tone::Ok,
        ),
        (PredictedOutcome::AllReserved, _) => out.push(
            "only domains reserved by other gangs have room",
            Tone::Degraded,
        ),
        _ => out.push("no domain has room for the gang", Tone::Failed),
    }
}

/// The scheduler a gang not on OME's scheduler profile is scheduled by (the first, by name,
/// of its members' schedulers other than OME's); `None` for a gang on OME's scheduler.
fn foreign_scheduler<'a>(state: &'a AppState, g: &Gang) -> Option<&'a str> {
    if g.on_ome_scheduler {
        return None;
    }
    let feed = state.shown()?;
    let ome = feed.analysis.gangs.config.scheduler_name.as_str();
    let members = g.members.iter().filter_map(|p| feed.snapshot.pods.get(*p));
    let mut names: Vec<&str> = members
        .map(effective_scheduler)
        .filter(|s| *s != ome)
        .collect();
    names.sort_unstable();
    names.dedup();
    Some(names.first().copied().unwrap_or("another scheduler"))
}

/// The pin reasoning of the selected gang, or a hint when no gang is selected.
pub fn pin_lines(state: &AppState) -> Lines {
    let mut out = Lines::default();
    let Some(g) = selected_gang(state) else {
        out.push(
            "select a gang to see why it sits where it does",
            Tone::Muted,
        );
        return out;
    };
    out.heading(g.key());
    match foreign_scheduler(state, g) {
        // OMEGangPack never sees it: its PodGroup facts say nothing of a pin.
        Some(by) => out.push(
            format!("not an OMEGangPack gang: scheduled by {by}"),
            Tone::Muted,
        ),
        None => out.push(
            state_words(g.state),
            crate::app::model::gangs::state_tone(g.state),
        ),
    }
    pin(&mut out, state, g);
    members(&mut out, g);
    if let Some(p) = &g.pending_reason {
        out.heading("Scheduler says");
        out.push(p.primary.code.name(), Tone::Degraded);
        out.line(p.message.clone());
        let source = match p.source {
            ReasonSource::Condition => "from the PodScheduled condition of",
            ReasonSource::Event => "from a FailedScheduling event about",
            ReasonSource::Inferred => "inferred by ome-top for",
        };
        let at =
            p.at.map(|t| {
                format!(
                    " · {}",
                    when(state.session.now, t, state.settings.utc_offset)
                )
            })
            .unwrap_or_default();
        out.push(format!("{source} {}{at}", p.pod), Tone::Muted);
    }
    prediction(&mut out, g);
    out
}
