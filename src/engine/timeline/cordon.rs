//! The operator's reason on a cordoned episode: a node cordoned (or uncordoned) through
//! ome-top has an audit row carrying the reason the operator wrote; the episode the
//! observations show is named by the row written when it began (and when it ended), so
//! `ome-top history` says why a node was cordoned, not only when.
//!
//! Owns: `CordonNote`, `name_cordons`. Pure.

use chrono::Duration;

use crate::engine::model::Time;
use crate::engine::timeline::{Episode, EpisodeKind};

/// How far an audit row may be from the observed start or end of the episode it explains:
/// the observation that sees a write follows it by a feed, or began later (first seen).
const SLACK_MINUTES: i64 = 5;

/// A cordon or uncordon written through ome-top, with the reason the operator gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CordonNote {
    /// When the write ended.
    pub at: Time,
    /// `true` for a cordon, `false` for an uncordon.
    pub cordon: bool,
    /// The operator's reason.
    pub reason: String,
}

/// Names every cordoned episode of `episodes` by the nearest cordon of `notes` around its
/// start and the nearest uncordon around its end: `bad fan`, `bad fan · uncordoned: fixed`,
/// `uncordoned: fixed`. Episodes no note explains keep their (empty) reason.
pub fn name_cordons(episodes: &mut [Episode], notes: &[CordonNote]) {
    for e in episodes
        .iter_mut()
        .filter(|e| e.kind == EpisodeKind::Cordoned)
    {
        let cordon = nearest(notes, true, e.from.at);
        let uncordon = e.to.and_then(|to| nearest(notes, false, to.at));
        let reason = match (cordon, uncordon) {
            (Some(c), Some(u)) => format!("{c} · uncordoned: {u}"),
            (Some(c), None) => c.to_string(),
            (None, Some(u)) => format!("uncordoned: {u}"),
            (None, None) => continue,
        };
        e.reason = reason;
    }
}

/// The reason of the note of that kind nearest `at`, within the slack.
fn nearest(notes: &[CordonNote], cordon: bool, at: Time) -> Option<&str> {
    let slack = Duration::minutes(SLACK_MINUTES);
    notes
        .iter()
        .filter(|n| n.cordon == cordon && (n.at - at).abs() <= slack)
        .min_by_key(|n| (n.at - at).abs())
        .map(|n| n.reason.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::timeline::{Point, Source};

    fn t(s: &str) -> Time {
        s.parse().unwrap()
    }

    fn cordoned(from: &str, to: Option<&str>) -> Episode {
        Episode {
            kind: EpisodeKind::Cordoned,
            from: Point::new(t(from), Source::Observed),
            to: to.map(|to| Point::new(t(to), Source::Observed)),
            until: None,
            reason: String::new(),
        }
    }

    fn note(at: &str, cordon: bool, reason: &str) -> CordonNote {
        CordonNote {
            at: t(at),
            cordon,
            reason: reason.into(),
        }
    }

    #[test]
    fn the_cordon_and_uncordon_around_an_episode_name_it() {
        let mut eps = vec![
            cordoned("2026-09-28T10:06:30Z", Some("2026-09-28T12:00:10Z")),
            cordoned("2026-09-28T14:00:00Z", None),
            cordoned("2026-09-28T18:00:00Z", None),
        ];
        let notes = [
            note("2026-09-28T09:00:00Z", true, "too early for the first"),
            note("2026-09-28T10:06:00Z", true, "bad fan"),
            note("2026-09-28T12:00:00Z", false, "fan replaced"),
            note("2026-09-28T14:01:00Z", true, "drain for patching"),
        ];
        name_cordons(&mut eps, &notes);
        assert_eq!(eps[0].reason, "bad fan · uncordoned: fan replaced");
        assert_eq!(eps[1].reason, "drain for patching");
        assert_eq!(
            eps[2].reason, "",
            "cordoned outside ome-top: no reason known"
        );
    }
}
