//! The config blocks other than maintenance: TPU slice partitions, scheduling profiles, the
//! defragmentation and node-health policies (with the scoring ladder and prior), and the spot
//! policy.

use std::collections::BTreeMap;

use super::fields::{aggressiveness, flag, positive_or_default, text_or, unit_interval};
use super::fields::{LABEL_VALUE, QUALIFIED};
use super::maintenance::read_triggers;
use super::reader::{float, int, string, Obj};
use super::syntax::{is_dns1123_subdomain, is_label_token, is_qualified_name};
use super::yaml::{fail, quote};
use super::Res;
use crate::engine::alfred_config::{
    AlfredConfig, Scheduling, SchedulingProfile, Scoring, DEFAULT_LADDER, DEFAULT_PRIOR,
};

pub(super) fn read_tpu(top: &Obj<'_>, c: &mut AlfredConfig) -> Res<()> {
    const KEYS: &[&str] = &["topologyLabel", "idLabel", "stateLabel", "healthyState"];
    const FORMAT: &str = "a label key format with exactly one %s";
    let o = top.child("tpuSlicePartitions", KEYS)?;
    let t = &mut c.tpu_slice_partitions;
    t.topology_label = text_or(&o, "topologyLabel", &t.topology_label)?;
    t.id_label = text_or(&o, "idLabel", &t.id_label)?;
    t.state_label = text_or(&o, "stateLabel", &t.state_label)?;
    t.healthy_state = text_or(&o, "healthyState", &t.healthy_state)?;
    if !is_qualified_name(&t.topology_label) {
        return fail(&o.at("topologyLabel"), QUALIFIED, quote(&t.topology_label));
    }
    for (name, format) in [("idLabel", &t.id_label), ("stateLabel", &t.state_label)] {
        let single = format.matches("%s").count() == 1 && format.matches('%').count() == 1;
        if !single || !is_qualified_name(&format.replacen("%s", "2x2x2", 1)) {
            return fail(&o.at(name), FORMAT, quote(format));
        }
    }
    if !is_label_token(&t.healthy_state) {
        return fail(&o.at("healthyState"), LABEL_VALUE, quote(&t.healthy_state));
    }
    Ok(())
}

pub(super) fn read_scheduling(top: &Obj<'_>) -> Res<Scheduling> {
    const KEYS: &[&str] = &[
        "backend",
        "schedulerVersion",
        "configurationID",
        "gangScheduling",
    ];
    let o = top.child("scheduling", &["profiles"])?;
    let mut profiles = BTreeMap::new();
    for (name, value) in o.map("profiles")? {
        let path = format!("scheduling.profiles[{name:?}]");
        identifier(&path, &name)?;
        if !is_dns1123_subdomain(&name) {
            return fail(
                &path,
                "a DNS-1123 subdomain as scheduler name",
                quote(&name),
            );
        }
        let p = Obj::open(Some(value), path, KEYS)?;
        let field = |key: &str| -> Res<String> {
            let text = p.read(key, string)?.unwrap_or_default();
            identifier(&p.at(key), &text).map(|()| text)
        };
        let profile = SchedulingProfile {
            backend: field("backend")?,
            scheduler_version: field("schedulerVersion")?,
            configuration_id: field("configurationID")?,
            gang_scheduling: flag(&p, "gangScheduling", false)?,
        };
        profiles.insert(name, profile);
    }
    Ok(Scheduling { profiles })
}

/// Non-blank, no surrounding whitespace (scheduling identifiers and trigger names).
pub(super) fn identifier(path: &str, value: &str) -> Res<()> {
    if value.trim().is_empty() || value.trim() != value {
        return fail(
            path,
            "a non-blank string without surrounding whitespace",
            quote(value),
        );
    }
    Ok(())
}

pub(super) fn read_policies(top: &Obj<'_>, c: &mut AlfredConfig) -> Res<()> {
    const DEFRAG: &[&str] = &[
        "enabled",
        "fragmentationThreshold",
        "aggressiveness",
        "scoring",
    ];
    #[rustfmt::skip]
    const HEALTH: &[&str] = &[
        "enabled", "aggressiveness", "triggerConditions", "signalOnly",
        "healthCooldownFloorMinutes", "nodeSuspicionWindowMinutes", "maintenance",
    ];
    let p = top.child("policies", &["defragmentation", "nodeHealth"])?;
    let (d, o) = (
        &mut c.policies.defragmentation,
        p.child("defragmentation", DEFRAG)?,
    );
    d.enabled = flag(&o, "enabled", d.enabled)?;
    let threshold = "fragmentationThreshold";
    d.fragmentation_threshold = unit_interval(&o, threshold, d.fragmentation_threshold)?;
    d.aggressiveness = aggressiveness(&o, "aggressiveness")?;
    d.scoring = read_scoring(&o, &d.scoring)?;
    let (n, o) = (&mut c.policies.node_health, p.child("nodeHealth", HEALTH)?);
    n.enabled = flag(&o, "enabled", n.enabled)?;
    n.aggressiveness = aggressiveness(&o, "aggressiveness")?;
    let conditions = o.list("triggerConditions", string)?.unwrap_or_default();
    for (i, name) in conditions.iter().enumerate() {
        let path = format!("{}[{i}]", o.at("triggerConditions"));
        if !is_qualified_name(name) {
            return fail(&path, QUALIFIED, quote(name));
        }
        if conditions[..i].contains(name) {
            return fail(&path, "no duplicate conditions", quote(name));
        }
    }
    if !conditions.is_empty() {
        n.trigger_conditions = conditions;
    }
    n.signal_only = flag(&o, "signalOnly", n.signal_only)?;
    n.maintenance.triggers = read_triggers(&o.child("maintenance", &["triggers"])?)?;
    let (floor, window) = ("healthCooldownFloorMinutes", "nodeSuspicionWindowMinutes");
    let slot = &mut n.health_cooldown_floor_minutes;
    *slot = positive_or_default(&o, floor, *slot)?;
    let slot = &mut n.node_suspicion_window_minutes;
    *slot = positive_or_default(&o, window, *slot)?;
    Ok(())
}

fn read_scoring(d: &Obj<'_>, defaults: &Scoring) -> Res<Scoring> {
    const KEYS: &[&str] = &[
        "sizeLadder",
        "demandBlendLambda",
        "sizePrior",
        "pendingUrgencyTauMinutes",
    ];
    let o = d.child("scoring", KEYS)?;
    let lambda = unit_interval(&o, "demandBlendLambda", defaults.demand_blend_lambda)?;
    let size_ladder = read_ladder(&o)?;
    let size_prior = read_prior(&o, &size_ladder)?;
    let tau = defaults.pending_urgency_tau_minutes;
    let tau = positive_or_default(&o, "pendingUrgencyTauMinutes", tau)?;
    Ok(Scoring {
        size_ladder,
        demand_blend_lambda: lambda,
        size_prior,
        pending_urgency_tau_minutes: tau,
    })
}

fn read_ladder(o: &Obj<'_>) -> Res<Vec<u32>> {
    let path = o.at("sizeLadder");
    let raw = o.list("sizeLadder", int)?.unwrap_or_default();
    if raw.is_empty() {
        return Ok(DEFAULT_LADDER.to_vec());
    }
    if raw.windows(2).any(|w| w[0] > w[1]) {
        return fail(&path, "ascending sizes", format!("{raw:?}"));
    }
    let mut ladder: Vec<u32> = Vec::with_capacity(raw.len());
    for (i, size) in raw.iter().enumerate() {
        let item = format!("{path}[{i}]");
        let Some(size) = u32::try_from(*size).ok().filter(|s| *s > 0) else {
            return fail(
                &item,
                "a positive GPU count (≤ 4294967295)",
                size.to_string(),
            );
        };
        if ladder.contains(&size) {
            return fail(&item, "no duplicate sizes", size.to_string());
        }
        ladder.push(size);
    }
    Ok(ladder)
}

fn read_prior(o: &Obj<'_>, ladder: &[u32]) -> Res<BTreeMap<u32, f64>> {
    const CANONICAL: &str = "a canonical positive size key such as \"8\"";
    let path = o.at("sizePrior");
    let entries = o.map("sizePrior")?;
    if entries.is_empty() {
        return Ok(DEFAULT_PRIOR.into_iter().collect());
    }
    let mut prior = BTreeMap::new();
    for (key, value) in entries {
        let item = format!("{path}[{key:?}]");
        // Canonical decimal only: "08", "+8" or "8x" must not alias size 8.
        let canonical = key
            .parse::<u32>()
            .ok()
            .filter(|s| *s > 0 && s.to_string() == key);
        let Some(size) = canonical else {
            return fail(&item, CANONICAL, quote(&key));
        };
        if !ladder.contains(&size) {
            return fail(&item, &format!("a sizeLadder size {ladder:?}"), quote(&key));
        }
        let weight = float(value, &item)?.unwrap_or(0.0);
        if weight < 0.0 {
            return fail(&item, "a weight ≥ 0", weight.to_string());
        }
        prior.insert(size, weight);
    }
    let sum: f64 = prior.values().sum();
    if !(0.99..=1.01).contains(&sum) {
        return fail(
            &path,
            "weights summing to 1 (0.99 to 1.01)",
            format!("a sum of {sum}"),
        );
    }
    // Alfred uses the prior normalised to exactly 1.
    for weight in prior.values_mut() {
        *weight /= sum;
    }
    Ok(prior)
}

pub(super) fn read_spot_policy(top: &Obj<'_>, c: &mut AlfredConfig) -> Res<()> {
    const KEYS: &[&str] = &["avoidAsTarget", "preferAsSource", "preemptibleLabels"];
    let o = top.child("spotPolicy", KEYS)?;
    let s = &mut c.spot_policy;
    s.avoid_as_target = flag(&o, "avoidAsTarget", s.avoid_as_target)?;
    s.prefer_as_source = flag(&o, "preferAsSource", s.prefer_as_source)?;
    // Absent = the default labels; an explicit [] = no node is preemptible.
    if let Some(labels) = o.list("preemptibleLabels", string)? {
        s.preemptible_labels = labels;
    }
    Ok(())
}
