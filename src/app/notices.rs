//! The notice line's contents: what an action or a reply told the operator, newest last,
//! bounded, and which one is still in force at a given time. A leaf of plain data: the reducer
//! pushes, the UI reads.

use std::collections::VecDeque;

use crate::engine::model::Time;

/// How long a notice stays in the notice line, in seconds.
pub const NOTICE_SECONDS: i64 = 8;

/// Notices kept; older ones are dropped first.
const NOTICES_KEPT: usize = 32;

/// Severity of a notice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeLevel {
    /// Information (an op was sent or finished).
    Info,
    /// A refusal or a failure.
    Error,
}

/// One line in the notice bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// The text.
    pub text: String,
    /// Severity.
    pub level: NoticeLevel,
    /// When it was raised.
    pub at: Time,
}

/// The notices raised this session, newest last, at most `NOTICES_KEPT`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Notices(VecDeque<Notice>);

impl Notices {
    /// Raises a notice at `at`, dropping the oldest beyond the bound.
    pub fn push(&mut self, text: impl Into<String>, level: NoticeLevel, at: Time) {
        self.0.push_back(Notice {
            text: text.into(),
            level,
            at,
        });
        while self.0.len() > NOTICES_KEPT {
            self.0.pop_front();
        }
    }

    /// The newest notice, if it is still in force at `now`.
    pub fn in_force(&self, now: Time) -> Option<&Notice> {
        self.0
            .back()
            .filter(|n| (now - n.at).num_seconds() < NOTICE_SECONDS)
    }

    /// Every notice kept, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &Notice> {
        self.0.iter()
    }

    /// How many notices are kept.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether none was raised (or all were dropped).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The newest notice, in force or not.
    pub fn last(&self) -> Option<&Notice> {
        self.0.back()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{Duration, TimeZone, Utc};

    fn at(secs: i64) -> Time {
        Utc.timestamp_opt(1_700_000_000, 0).unwrap() + Duration::seconds(secs)
    }

    #[test]
    fn the_newest_notice_is_in_force_for_its_seconds_only() {
        let mut n = Notices::default();
        assert!(n.in_force(at(0)).is_none());
        n.push("first", NoticeLevel::Info, at(0));
        n.push("second", NoticeLevel::Error, at(1));
        assert_eq!(n.in_force(at(1)).map(|x| x.text.as_str()), Some("second"));
        assert!(n.in_force(at(1 + NOTICE_SECONDS - 1)).is_some());
        assert!(n.in_force(at(1 + NOTICE_SECONDS)).is_none());
        assert_eq!(n.last().map(|x| x.level), Some(NoticeLevel::Error));
    }

    #[test]
    fn only_the_newest_notices_are_kept() {
        let mut n = Notices::default();
        for i in 0..NOTICES_KEPT + 5 {
            n.push(format!("n{i}"), NoticeLevel::Info, at(0));
        }
        assert_eq!(n.len(), NOTICES_KEPT);
        assert_eq!(n.iter().next().map(|x| x.text.as_str()), Some("n5"));
    }
}
