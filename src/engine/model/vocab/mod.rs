//! The vocabulary of move rows, shared by Alfred's published `last-cycle.json` rows and the rows
//! ome-top computes: policy, reason, outcome, dispatch status, advisory, reject (gate),
//! dispatch/withhold reasons, and the phase of an InferenceReplica `status.migrations[]` row.
//!
//! Each enum keeps a value this build does not know (an older or newer Alfred) in `Unknown`,
//! verbatim, so it is shown instead of failing a parse; the computed path only ever builds known
//! variants, which allocate nothing. Part of the model, the engine's bottom layer, so the readers
//! of Alfred's documents and the policies that compute rows share it.

mod reasons;
#[cfg(test)]
mod tests;

pub use reasons::{AdvisoryReason, DispatchReason, RejectReason};

/// Declares a wire vocabulary: an enum of known values with their exact wire strings and an
/// `Unknown` fallback holding the text. `from_wire` (total) and `as_str` (also `AsRef<str>`)
/// convert; `Serialize` and `Display` write the wire string (`Display` honours width and
/// alignment, like the `&str` it replaces); `Debug` shows a known value as its quoted wire
/// string, as the text fields these enums replaced did.
///
/// `embeds Variant(Other)` after the list makes every known value of the vocabulary `Other`
/// one of this one's too, as `Variant(value)` with `Other`'s wire string: a vocabulary that
/// repeats another's values (the dispatcher's preflight repeats every arbiter gate) names them
/// once, and whatever words one of them words the other alike.
macro_rules! vocabulary {
    (
        $(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $wire:literal),+ $(,)? }
        $(embeds $(#[$em:meta])* $evar:ident($inner:ident))?
    ) => {
        $(#[$m])*
        #[derive(Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vm])* $var,)+
            $($(#[$em])* $evar($inner),)?
            /// A value this build does not know (an older or newer Alfred), kept verbatim.
            /// Boxed: the enum stays as small as the `&'static str` it replaced (the computed
            /// rows carry six of these), and only text from outside ever lands here.
            Unknown(Box<String>),
        }

        impl $name {
            /// Every known value of its own list, in declaration order (an embedded
            /// vocabulary's values are that vocabulary's `KNOWN`).
            pub const KNOWN: &'static [$name] = &[$($name::$var),+];

            /// The value of a wire string this build knows, without allocating.
            pub fn from_known_wire(s: &str) -> Option<Self> {
                match s {
                    $($wire => Some($name::$var),)+
                    _ => {
                        $(if let Some(x) = $inner::from_known_wire(s) {
                            return Some($name::$evar(x));
                        })?
                        None
                    }
                }
            }

            /// The value of a wire string; total: anything unrecognised is kept as `Unknown`.
            pub fn from_wire(s: &str) -> Self {
                Self::from_known_wire(s).unwrap_or_else(|| $name::Unknown(Box::new(s.to_string())))
            }

            /// The exact wire string; `from_wire(x.as_str()) == x` for every value.
            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$var => $wire,)+
                    $($name::$evar(x) => x.as_str(),)?
                    $name::Unknown(s) => s.as_str(),
                }
            }

            /// Whether this build knows the value.
            pub fn is_known(&self) -> bool {
                match self {
                    $name::Unknown(_) => false,
                    $($name::$evar(x) => x.is_known(),)?
                    _ => true,
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.pad(self.as_str())
            }
        }

        impl ::std::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self {
                    $name::Unknown(s) => f.debug_tuple("Unknown").field(s).finish(),
                    known => ::std::fmt::Debug::fmt(known.as_str(), f),
                }
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = ::std::convert::Infallible;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Ok($name::from_wire(s))
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                $name::from_wire(s)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                self.as_str()
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.as_str() == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }
    };
}
pub(crate) use vocabulary;

vocabulary! {
    /// The policy (or journal) that produced a row.
    Policy {
        /// Defragmentation.
        Defragmentation = "defragmentation",
        /// Node health (evacuations).
        NodeHealth = "nodehealth",
        /// A journal row whose stored request could not be decoded (Alfred only).
        MigrationDispatch = "migration-dispatch",
    }
}

vocabulary! {
    /// Why a move is proposed; also the arbiter's class (see [`Reason::class`]).
    Reason {
        /// Pool fragmentation above the threshold.
        Fragmentation = "Fragmentation",
        /// Evacuation off an Unhealthy node.
        NodeUnhealthy = "NodeUnhealthy",
        /// Evacuation off a node due for maintenance.
        NodeMaintenance = "NodeMaintenance",
    }
}

impl Reason {
    /// The arbiter's class priority: `NodeUnhealthy` 2 > `NodeMaintenance` 1 > anything else 0.
    pub fn class(&self) -> u8 {
        match self {
            Reason::NodeUnhealthy => 2,
            Reason::NodeMaintenance => 1,
            Reason::Fragmentation | Reason::Unknown(_) => 0,
        }
    }
}

vocabulary! {
    /// What happened to a row in the pass.
    Outcome {
        /// Advice: not executable.
        Advisory = "advisory",
        /// An arbiter gate rejected it (see the reject reason).
        Rejected = "rejected",
        /// Admitted but not dispatched (see the dispatch reason).
        Withheld = "withheld",
        /// The request annotation was written.
        Submitted = "submitted",
        /// The InferenceReplica acknowledged the request.
        Acknowledged = "acknowledged",
        /// The migration completed.
        Completed = "completed",
        /// The migration failed.
        Failed = "failed",
        /// No progress; only an IR terminal status or an operator resolves it.
        Stalled = "stalled",
        /// The move the dispatcher would submit next (ome-top's computed rows; E1 reserved the
        /// value and never emitted it).
        Admitted = "admitted",
        /// An executable row before arbitration (ome-top internal: a finished pass has none).
        Candidate = "candidate",
    }
}

vocabulary! {
    /// Dispatch progress of a row (`prepared` journal entries are published as `withheld`).
    DispatchStatus {
        /// Not dispatched.
        Withheld = "withheld",
        /// The request annotation was written.
        Submitted = "submitted",
        /// The InferenceReplica acknowledged the request.
        Acknowledged = "acknowledged",
        /// The migration completed.
        Completed = "completed",
        /// The migration failed.
        Failed = "failed",
        /// No progress.
        Stalled = "stalled",
    }
}

vocabulary! {
    /// E1's `withholdReason` (replaced by `dispatchStatus` / `dispatchReason` in E2).
    WithholdReason {
        /// Recommend-only mode.
        RecommendOnly = "RecommendOnly",
        /// No dispatcher.
        DispatcherUnavailable = "DispatcherUnavailable",
    }
}

vocabulary! {
    /// The phase of an InferenceReplica `status.migrations[]` row. Manual requests go
    /// `Accepted` → `SurgePending` → `SurgeReady` → `Draining` → `Completed` | `Failed`; Auto
    /// rows are born `Relocated`.
    MigrationPhase {
        /// The request was accepted.
        Accepted = "Accepted",
        /// The surge Instance is being placed.
        SurgePending = "SurgePending",
        /// The surge Instance is Ready.
        SurgeReady = "SurgeReady",
        /// The source pods are terminating.
        Draining = "Draining",
        /// Ended successfully (terminal).
        Completed = "Completed",
        /// Ended in failure (terminal).
        Failed = "Failed",
        /// An Auto relocation (terminal).
        Relocated = "Relocated",
    }
}

impl MigrationPhase {
    /// `Completed`, `Failed` or `Relocated`.
    pub fn is_terminal(&self) -> bool {
        matches!(
            self,
            MigrationPhase::Completed | MigrationPhase::Failed | MigrationPhase::Relocated
        )
    }

    /// One of the phases of a Manual request.
    pub fn is_manual(&self) -> bool {
        matches!(
            self,
            MigrationPhase::Accepted
                | MigrationPhase::SurgePending
                | MigrationPhase::SurgeReady
                | MigrationPhase::Draining
                | MigrationPhase::Completed
                | MigrationPhase::Failed
        )
    }
}
