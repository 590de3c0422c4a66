//! The fleet as the app holds it: the watched contexts in the configured order and
//! what each last said — still connecting, failed (the error in words and when the run layer
//! tries again), or its newest feed. Plain data: `app::update::fleet` changes it,
//! `app::model::fleet` builds the Fleet view's rows from it.
//!
//! Owns: `Fleet`, `Member`, `MemberState`, `FleetEvent`.

use std::sync::Arc;

use crate::engine::model::Time;
use crate::protocol::{ApiStatus, Feed};

/// What one watched context last said.
#[derive(Debug, Clone)]
pub enum MemberState {
    /// Opening the session, or its first lists are not complete.
    Connecting {
        /// When the attempt began.
        since: Time,
    },
    /// The session could not be opened; the run layer tries again at `retry_at`.
    Failed {
        /// Why, in one line.
        error: String,
        /// When the next attempt starts.
        retry_at: Time,
    },
    /// The session's newest feed (its `api` says whether the data is current).
    Answered(Arc<Feed>),
}

/// One watched context.
#[derive(Debug, Clone)]
pub struct Member {
    /// The kubeconfig context's name.
    pub context: String,
    /// What it last said.
    pub state: MemberState,
}

/// Every watched context: the fleet the Fleet view shows.
#[derive(Debug, Clone, Default)]
pub struct Fleet {
    /// The members, in the configured order.
    pub members: Vec<Member>,
    /// Bumped by every change of a member: the Fleet view's rows are built again when the
    /// generation they were built from is older.
    pub generation: u64,
    /// Whether the operator has seen the Fleet view: only then does Esc or `q` in one
    /// member's views go back to it (the demo's fleet starts on its first member's views).
    pub shown: bool,
}

impl Fleet {
    /// A fleet of `contexts`, every one connecting since `now` (duplicates kept once).
    pub fn new(contexts: &[String], now: Time) -> Fleet {
        let mut members: Vec<Member> = Vec::with_capacity(contexts.len());
        for c in contexts {
            if !members.iter().any(|m| m.context == *c) {
                members.push(Member {
                    context: c.clone(),
                    state: MemberState::Connecting { since: now },
                });
            }
        }
        Fleet {
            members,
            generation: 1,
            shown: false,
        }
    }

    /// The member watching `context`.
    pub fn member(&self, context: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.context == context)
    }

    /// How many members have answered (a feed with data or still listing).
    pub fn answered(&self) -> usize {
        let answered = |m: &&Member| matches!(m.state, MemberState::Answered(_));
        self.members.iter().filter(answered).count()
    }

    /// How many members are connected: their newest feed is `ApiStatus::Connected` (every
    /// first list complete and analysed, every watcher running) or a simulated cluster's, so
    /// their rows are current.
    pub fn connected(&self) -> usize {
        let connected = |m: &&Member| match &m.state {
            MemberState::Answered(feed) => {
                matches!(feed.api, ApiStatus::Connected | ApiStatus::Simulated)
            }
            _ => false,
        };
        self.members.iter().filter(connected).count()
    }
}

/// What the run layer says about the fleet.
#[derive(Debug, Clone)]
pub enum FleetEvent {
    /// The run layer opens these contexts (in this order), each in parallel.
    Started {
        /// The contexts watched.
        contexts: Vec<String>,
    },
    /// The run layer watches these clusters (in this order) beside the one shown, which stays
    /// on screen (`ome-top demo --clusters N`): the Fleet view is a key away.
    Watching {
        /// The clusters watched, the shown one included.
        contexts: Vec<String>,
    },
    /// The fleet cannot be opened (`:fleet`): why, in one line.
    Unavailable(String),
    /// A member's state changed (an attempt failed, or a new feed).
    Member {
        /// The member's context.
        context: String,
        /// What it says now.
        state: MemberState,
    },
}
