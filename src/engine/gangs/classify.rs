//! The FailedScheduling classifier (gangpack.md §5): recognises every OMEGangPack message of
//! the table by substring inside the framework-wrapped text (`0/N nodes are available: …`,
//! count-prefixed Filter reasons, appended PostFilter messages), extracts the gang, domain,
//! pod, node count or duration it names, and keeps unknown messages verbatim.
//!
//! Owns: `Reason`, `ReasonCode`, `classify`, `primary`. Pure.

/// What a message says, one code per row of gangpack.md §5 (row numbers in `row()`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ReasonCode {
    /// #1 `PodGroup reader is unavailable`.
    ReaderUnavailable,
    /// #2 `PodGroup {g} not resolvable yet`.
    PodGroupNotResolvable,
    /// #3 `PodGroup {g} must declare a positive minMember`.
    MinMemberNotPositive,
    /// Not a scheduler message: `spec.minMember` is not a whole number an `int32` holds
    /// (`1e12`, `"two"`), so the scheduler cannot decode the PodGroup and reports #2.
    MinMemberNotAnInteger,
    /// #4 no topology key and no annotation name configured.
    TopologyNotConfigured,
    /// #5 `PodGroup {g} must declare {annotation} or the scheduler must configure topologyKey`.
    TopologyKeyMissing,
    /// #6 `partner placement groups are not supported`.
    PlacementGroupUnsupported,
    /// #7 effective permit timeout ≤ 0.
    PermitTimeoutMissing,
    /// #8 `released commitment owned by a previous PodGroup instance {g}`.
    OwnerChanged,
    /// #9 `released commitment after topology key changed for {g}`.
    TopologyKeyChanged,
    /// #10 `gang {g} already has members in multiple topology domains`.
    Split,
    /// #11 PreFilter error (pod lister failure): a `SchedulerError` condition; text verbatim.
    SchedulerError,
    /// #12 `waiting for all PodGroup member templates for {g}`.
    TemplatesIncomplete,
    /// #13 `waiting for gang spread anchor {p} to be placed` (lineage B).
    SpreadAnchorWait,
    /// #14 `waiting for gang sibling {p} to be placed`.
    SiblingWait,
    /// #15 `pinned domain {d} cannot fit all remaining gang members {g}`.
    PinnedDomainFull,
    /// #16 `adopted domain {d} cannot fit remaining gang members {g}`.
    AdoptedDomainFull,
    /// #17 `no domain has room for gang {g}`.
    NoDomainRoom,
    /// #18 `… every fitting domain is reserved for a forming gang` (lineage C).
    DomainsReserved,
    /// #19 `no domain has candidate nodes for gang {g}` (lineage B).
    NoCandidateNodes,
    /// #20 `pinned domain {d} has no node feasible for gang member {g}`.
    NoFeasibleNode,
    /// #21 `node is reserved for a forming gang` (count-prefixed).
    NodeReserved,
    /// #22 `node not in gang's pinned domain {d}` (count-prefixed).
    OutsidePinnedDomain,
    /// #23 `node(s) didn't satisfy plugin(s) [OMEGangPack]` (count-prefixed).
    ExcludedByPreFilter,
    /// #24 `gang reservation released after all candidate nodes were filtered`.
    ReservationReleased,
    /// #25 deferred-pin race at Reserve (lineage B), either text.
    DeferredPinRace,
    /// #26 `labeled gang pod reached Permit without validated PreFilter state`.
    MissingPreFilterState,
    /// #27 `gang permit timeout is not configured`.
    PermitTimeoutUnset,
    /// #28 `gang {g} unwound after a member failed to schedule`.
    Unwound,
    /// #29 `rejected due to timeout after waiting <dur> at plugin OMEGangPack`.
    PermitTimeout,
    /// Not an OMEGangPack message (kube-scheduler's own reasons, …); kept verbatim.
    Unknown,
}

impl ReasonCode {
    /// The row of gangpack.md §5 (0 for `Unknown`).
    pub fn row(self) -> u8 {
        match self {
            ReasonCode::SchedulerError => 11,
            ReasonCode::ExcludedByPreFilter => 23,
            code => ROWS.iter().find(|(_, c, _)| *c == code).map_or(0, |r| r.0),
        }
    }

    /// The code's stable name (used in JSON), e.g. `NoDomainRoom`.
    pub fn name(self) -> &'static str {
        use ReasonCode::*;
        match self {
            ReaderUnavailable => "ReaderUnavailable",
            PodGroupNotResolvable => "PodGroupNotResolvable",
            MinMemberNotPositive => "MinMemberNotPositive",
            MinMemberNotAnInteger => "MinMemberNotAnInteger",
            TopologyNotConfigured => "TopologyNotConfigured",
            TopologyKeyMissing => "TopologyKeyMissing",
            PlacementGroupUnsupported => "PlacementGroupUnsupported",
            PermitTimeoutMissing => "PermitTimeoutMissing",
            OwnerChanged => "OwnerChanged",
            TopologyKeyChanged => "TopologyKeyChanged",
            Split => "Split",
            SchedulerError => "SchedulerError",
            TemplatesIncomplete => "TemplatesIncomplete",
            SpreadAnchorWait => "SpreadAnchorWait",
            SiblingWait => "SiblingWait",
            PinnedDomainFull => "PinnedDomainFull",
            AdoptedDomainFull => "AdoptedDomainFull",
            NoDomainRoom => "NoDomainRoom",
            DomainsReserved => "DomainsReserved",
            NoCandidateNodes => "NoCandidateNodes",
            NoFeasibleNode => "NoFeasibleNode",
            NodeReserved => "NodeReserved",
            OutsidePinnedDomain => "OutsidePinnedDomain",
            ExcludedByPreFilter => "ExcludedByPreFilter",
            ReservationReleased => "ReservationReleased",
            DeferredPinRace => "DeferredPinRace",
            MissingPreFilterState => "MissingPreFilterState",
            PermitTimeoutUnset => "PermitTimeoutUnset",
            Unwound => "Unwound",
            PermitTimeout => "PermitTimeout",
            Unknown => "Unknown",
        }
    }

    /// Whether the message names the domain the scheduler holds (or held) a commitment in
    /// (#15, #16, #20, #22; gangpack.md §7.2 step 5).
    pub fn names_pinned_domain(self) -> bool {
        matches!(
            self,
            ReasonCode::PinnedDomainFull
                | ReasonCode::AdoptedDomainFull
                | ReasonCode::NoFeasibleNode
                | ReasonCode::OutsidePinnedDomain
        )
    }

    /// Whether the last attempt was unwound and its pin released (#24, #28, #29).
    pub fn unwound(self) -> bool {
        matches!(
            self,
            ReasonCode::ReservationReleased | ReasonCode::Unwound | ReasonCode::PermitTimeout
        )
    }

    /// Severity for roll-ups: 3 = UnschedulableAndUnresolvable or Error, 2 = other gang
    /// reasons, 1 = per-node Filter counts, 0 = unknown.
    pub fn severity(self) -> u8 {
        use ReasonCode::*;
        match self {
            PermitTimeoutMissing | Split | SchedulerError | DeferredPinRace
            | PermitTimeoutUnset => 3,
            NodeReserved | OutsidePinnedDomain | ExcludedByPreFilter => 1,
            Unknown => 0,
            _ => 2,
        }
    }
}

/// One recognised reason inside a message, with what it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason {
    /// The table row's code.
    pub code: ReasonCode,
    /// `{g}` = `namespace/podgroup`, when named.
    pub gang: Option<String>,
    /// `{d}` = domain value, when named.
    pub domain: Option<String>,
    /// `{p}` = `namespace/pod`, when named.
    pub pod: Option<String>,
    /// The node count prefixed to a Filter reason (#21–#23).
    pub nodes: Option<u32>,
    /// Other text: the annotation name of #5, the duration of #29.
    pub detail: Option<String>,
}

impl Reason {
    /// A reason with `code` and nothing named yet.
    pub fn of(code: ReasonCode) -> Self {
        Reason { code, ..blank() }
    }

    /// The same reason naming gang `g`.
    pub fn for_gang(mut self, g: &str) -> Self {
        self.gang = Some(g.to_string());
        self
    }
}

/// Words one of which every OMEGangPack message contains; a message without any is unknown
/// without running the templates.
const ANCHORS: &[&str] = &[
    "PodGroup",
    "gang",
    "domain",
    "partner",
    "OMEGangPack",
    "scheduler",
    "commitment",
];

/// Message templates: `{g}`, `{d}`, `{p}`, `{x}` capture a token (`{x}` into `detail`);
/// `{n}` marks a count prefix.
const ROWS: &[(u8, ReasonCode, &str)] = &[
    (1, ReasonCode::ReaderUnavailable, "PodGroup reader is unavailable"),
    (2, ReasonCode::PodGroupNotResolvable, "PodGroup {g} not resolvable yet"),
    (3, ReasonCode::MinMemberNotPositive, "PodGroup {g} must declare a positive minMember"),
    (4, ReasonCode::TopologyNotConfigured, "scheduler must configure topologyKey or podGroupTopologyKeyAnnotation for gang pods"),
    (5, ReasonCode::TopologyKeyMissing, "PodGroup {g} must declare {x} or the scheduler must configure topologyKey"),
    (6, ReasonCode::PlacementGroupUnsupported, "partner placement groups are not supported"),
    (7, ReasonCode::PermitTimeoutMissing, "PodGroup {g} must set scheduleTimeoutSeconds or the scheduler must configure defaultPermitTimeoutSeconds"),
    (8, ReasonCode::OwnerChanged, "released commitment owned by a previous PodGroup instance {g}"),
    (9, ReasonCode::TopologyKeyChanged, "released commitment after topology key changed for {g}"),
    (10, ReasonCode::Split, "gang {g} already has members in multiple topology domains"),
    (12, ReasonCode::TemplatesIncomplete, "waiting for all PodGroup member templates for {g}"),
    (13, ReasonCode::SpreadAnchorWait, "waiting for gang spread anchor {p} to be placed"),
    (14, ReasonCode::SiblingWait, "waiting for gang sibling {p} to be placed"),
    (15, ReasonCode::PinnedDomainFull, "pinned domain {d} cannot fit all remaining gang members {g}"),
    (16, ReasonCode::AdoptedDomainFull, "adopted domain {d} cannot fit remaining gang members {g}"),
    (18, ReasonCode::DomainsReserved, "no domain has room for gang {g}: every fitting domain is reserved for a forming gang"),
    (17, ReasonCode::NoDomainRoom, "no domain has room for gang {g}"),
    (19, ReasonCode::NoCandidateNodes, "no domain has candidate nodes for gang {g}"),
    (20, ReasonCode::NoFeasibleNode, "pinned domain {d} has no node feasible for gang member {g}"),
    (21, ReasonCode::NodeReserved, "{n}node is reserved for a forming gang"),
    (22, ReasonCode::OutsidePinnedDomain, "{n}node not in gang's pinned domain {d}"),
    (24, ReasonCode::ReservationReleased, "gang reservation released after all candidate nodes were filtered"),
    (25, ReasonCode::DeferredPinRace, "selected node is outside the deferred gang plan"),
    (25, ReasonCode::DeferredPinRace, "selected gang domain became unavailable before Reserve"),
    (26, ReasonCode::MissingPreFilterState, "labeled gang pod reached Permit without validated PreFilter state"),
    (27, ReasonCode::PermitTimeoutUnset, "gang permit timeout is not configured"),
    (28, ReasonCode::Unwound, "gang {g} unwound after a member failed to schedule"),
    (29, ReasonCode::PermitTimeout, "rejected due to timeout after waiting {x} at plugin OMEGangPack"),
];

/// The text the framework prints for nodes a PreFilter result excluded (#23).
const PREFILTER_EXCLUDED: &str = "node(s) didn't satisfy plugin(s) [";

/// Every OMEGangPack reason in `message`, in table order; empty when none is recognised.
/// `condition_reason` is the `PodScheduled` condition's reason when the message came from
/// the condition (`SchedulerError` marks #11, whose text is the lister's own).
pub fn classify(message: &str, condition_reason: Option<&str>) -> Vec<Reason> {
    let mut out: Vec<Reason> = Vec::new();
    let anchored = ANCHORS.iter().any(|a| message.contains(a));
    for (_, code, template) in ROWS.iter().filter(|_| anchored) {
        for found in match_template(message, template) {
            let shadowed = *code == ReasonCode::NoDomainRoom
                && out
                    .iter()
                    .any(|r| r.code == ReasonCode::DomainsReserved && r.gang == found.gang);
            if !shadowed {
                out.push(Reason {
                    code: *code,
                    ..found
                });
            }
        }
    }
    out.extend(prefilter_excluded(message));
    if out.is_empty() && condition_reason == Some("SchedulerError") {
        out.push(Reason {
            code: ReasonCode::SchedulerError,
            ..blank()
        });
    }
    out
}

/// The reason that best explains a message: PreFilter/PostFilter/Permit reasons first (the
/// last one, since a PostFilter message follows the Filter histogram), then per-node Filter
/// reasons; `Unknown` when nothing is recognised.
pub fn primary(reasons: &[Reason]) -> Reason {
    let gang_level = reasons.iter().rev().find(|r| r.code.severity() != 1);
    let filter = || {
        [
            ReasonCode::OutsidePinnedDomain,
            ReasonCode::NodeReserved,
            ReasonCode::ExcludedByPreFilter,
        ]
        .iter()
        .find_map(|c| reasons.iter().find(|r| r.code == *c))
    };
    gang_level.or_else(filter).cloned().unwrap_or(Reason {
        code: ReasonCode::Unknown,
        ..blank()
    })
}

fn blank() -> Reason {
    Reason {
        code: ReasonCode::Unknown,
        gang: None,
        domain: None,
        pod: None,
        nodes: None,
        detail: None,
    }
}

/// A token of a name, label value, qualified name or Go duration; trailing dots are sentence
/// punctuation (names and label values never end with a dot).
fn token(s: &str) -> &str {
    let end = s
        .char_indices()
        .find(|(_, c)| !(c.is_alphanumeric() || "-_./".contains(*c)))
        .map_or(s.len(), |(i, _)| i);
    s[..end].trim_end_matches('.')
}

/// The count written just before `at` (`"3 node is …"` → 3).
fn count_before(message: &str, at: usize) -> Option<u32> {
    let head = message[..at].trim_end();
    let start = head
        .char_indices()
        .rev()
        .find(|(_, c)| !c.is_ascii_digit())
        .map_or(0, |(i, c)| i + c.len_utf8());
    head[start..].parse().ok()
}

/// All matches of a template in `message` (every occurrence of its first literal is tried).
fn match_template(message: &str, template: &str) -> Vec<Reason> {
    let counted = template.starts_with("{n}");
    let template = template.trim_start_matches("{n}");
    let first = template.split('{').next().unwrap_or(template);
    let mut out = Vec::new();
    for (at, _) in message.match_indices(first) {
        let mut r = blank();
        if counted {
            r.nodes = count_before(message, at);
        }
        if match_rest(
            &message[at + first.len()..],
            &template[first.len()..],
            &mut r,
        ) {
            out.push(r);
        }
    }
    out
}

/// Matches the remainder of a template (starting at a placeholder or the end).
fn match_rest(mut text: &str, mut template: &str, r: &mut Reason) -> bool {
    while let Some(open) = template.find('{') {
        if !text.starts_with(&template[..open]) {
            return false;
        }
        text = &text[open..];
        let slot = template.get(open + 1..open + 2).unwrap_or("");
        template = template.get(open + 3..).unwrap_or("");
        let value = token(text);
        if value.is_empty() {
            return false;
        }
        text = &text[value.len()..];
        let value = Some(value.to_string());
        match slot {
            "g" => r.gang = value,
            "d" => r.domain = value,
            "p" => r.pod = value,
            _ => r.detail = value,
        }
    }
    text.starts_with(template)
}

/// #23: `N node(s) didn't satisfy plugin(s) [… OMEGangPack …]`.
fn prefilter_excluded(message: &str) -> Vec<Reason> {
    message
        .match_indices(PREFILTER_EXCLUDED)
        .filter_map(|(at, _)| {
            let rest = &message[at + PREFILTER_EXCLUDED.len()..];
            let list = &rest[..rest.find(']')?];
            list.split([' ', ','])
                .any(|p| p == "OMEGangPack")
                .then(|| Reason {
                    code: ReasonCode::ExcludedByPreFilter,
                    nodes: count_before(message, at),
                    ..blank()
                })
        })
        .collect()
}
