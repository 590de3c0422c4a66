//! The Kubernetes sections of the node detail, as `kubectl describe node` shows them: labels,
//! taints (`key=value:effect`), capacity and allocatable, conditions, the pods on the node
//! (GPU pods first) and the node's Events (newest first). A pod or event row too wide for the
//! pane puts its last part (workload, message) on an indented line of its own, so nothing
//! wraps into the next column's place.
//!
//! Owns: `label_lines`, `taint_lines`, `capacity_lines`, `condition_lines`, `pod_lines`,
//! `event_lines`. Plain data.

use chrono::FixedOffset;

use crate::app::detail::Lines;
use crate::app::table::Tone;
use crate::engine::model::{ClusterSnapshot, Node, Pod, PodPhase, Time, UNREPORTED};
use crate::fmt::{local, relative, when_opt};

/// Pods without GPUs listed before a count line stands for the rest.
pub const OTHER_PODS_SHOWN: usize = 30;
/// Events listed before a count line stands for the rest.
pub const EVENTS_SHOWN: usize = 20;
/// Widest pod name column; longer names push their row's later columns right.
const POD_COLUMN_MAX: usize = 60;

/// `Labels (n)`, one `key=value` a line.
pub fn label_lines(out: &mut Lines, node: &Node) {
    out.heading(format!("Labels ({})", node.labels.0.len()));
    if node.labels.0.is_empty() {
        out.push("  none", Tone::Muted);
    }
    for (k, v) in &node.labels.0 {
        out.line(format!("  {k}={v}"));
    }
}

/// `Taints`, one `key=value:effect` (or `key:effect`) a line.
pub fn taint_lines(out: &mut Lines, node: &Node) {
    out.heading("Taints");
    if node.taints.is_empty() {
        out.push("  none", Tone::Muted);
    }
    for t in &node.taints {
        let value = if t.value.is_empty() {
            String::new()
        } else {
            format!("={}", t.value)
        };
        out.line(format!("  {}{value}:{}", t.key, t.effect));
    }
}

/// Cores from millicores: `96`, `95.5`, `0.25`.
fn cores(milli: u64) -> String {
    if milli == UNREPORTED {
        return "-".into();
    }
    let text = format!("{:.3}", milli as f64 / 1000.0);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Gibibytes from bytes: `1024 Gi`, `1007.5 Gi`.
fn gibibytes(bytes: u64) -> String {
    if bytes == UNREPORTED {
        return "-".into();
    }
    let text = format!("{:.1}", bytes as f64 / f64::from(1u32 << 30));
    format!("{} Gi", text.trim_end_matches(".0"))
}

fn count(n: u64) -> String {
    if n == UNREPORTED {
        "-".into()
    } else {
        n.to_string()
    }
}

/// `Capacity and allocatable`: cpu, memory in Gi, pods and the GPU resource.
pub fn capacity_lines(out: &mut Lines, node: &Node) {
    out.heading("Capacity and allocatable");
    let (cap, alloc) = (&node.capacity, &node.allocatable);
    let mut rows = vec![
        (
            "cpu".to_string(),
            cores(cap.cpu_milli),
            cores(alloc.cpu_milli),
        ),
        (
            "memory".to_string(),
            gibibytes(cap.memory),
            gibibytes(alloc.memory),
        ),
        ("pods".to_string(), count(cap.pods), count(alloc.pods)),
    ];
    if let Some(gpu) = &node.gpu_resource {
        rows.push((
            gpu.to_string(),
            node.gpu_capacity.to_string(),
            node.gpu_allocatable.to_string(),
        ));
    }
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(8);
    out.push(
        format!(
            "  {:<width$}  {:>10}  {:>11}",
            "resource", "capacity", "allocatable"
        ),
        Tone::Muted,
    );
    for (name, c, a) in rows {
        out.line(format!("  {name:<width$}  {c:>10}  {a:>11}"));
    }
}

/// `Conditions`: type, status and since when, in the node's order.
pub fn condition_lines(out: &mut Lines, node: &Node, now: Time, tz: FixedOffset) {
    out.heading("Conditions");
    if node.conditions.is_empty() {
        out.push("  none reported", Tone::Muted);
    }
    for c in &node.conditions {
        out.line(format!(
            "  {:<24} {:<8} since {}",
            c.kind,
            c.status,
            when_opt(now, c.last_transition, tz)
        ));
    }
}

fn phase(p: &Pod) -> String {
    if p.terminating {
        return "Terminating".into();
    }
    match &p.phase {
        PodPhase::Pending => "Pending".into(),
        PodPhase::Running => "Running".into(),
        PodPhase::Succeeded => "Succeeded".into(),
        PodPhase::Failed => "Failed".into(),
        PodPhase::Other(s) => s.to_string(),
    }
}

/// The workload a pod belongs to: its InferenceService (and component), else its controller.
fn workload(p: &Pod) -> String {
    if let Some(isvc) = &p.ome.isvc {
        return match &p.ome.component {
            Some(c) => format!("InferenceService {isvc} ({c})"),
            None => format!("InferenceService {isvc}"),
        };
    }
    p.controller.as_ref().map_or_else(
        || "no controller".to_string(),
        |o| format!("{} {}", o.kind, o.name),
    )
}

/// Indent of a row's part that goes on lines of its own.
const TAIL_INDENT: &str = "      ";

/// `text` in lines of at most `width` columns, broken between words (a longer word stands
/// alone on its line).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let needed = line.chars().count() + usize::from(!line.is_empty()) + word.chars().count();
        if !line.is_empty() && needed > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// `head`, `sep` and `tail` on one line when it fits in `width` columns, else `tail` below,
/// indented and wrapped to the width.
fn row(out: &mut Lines, (head, sep, tail): (String, &str, &str), tone: Tone, width: usize) {
    if head.chars().count() + sep.len() + tail.chars().count() <= width {
        out.push(format!("{head}{sep}{tail}"), tone);
        return;
    }
    out.push(head, tone);
    let room = width.saturating_sub(TAIL_INDENT.len()).max(20);
    for part in wrap(tail, room) {
        out.push(format!("{TAIL_INDENT}{part}"), tone);
    }
}

/// `Pods`: every pod bound to the node, GPU pods first (most GPUs first), then the rest up to
/// [`OTHER_PODS_SHOWN`] and a count line for the others; rows fit `width` columns.
pub fn pod_lines(out: &mut Lines, snap: &ClusterSnapshot, node: &str, width: usize) {
    let mut pods: Vec<&Pod> = snap
        .pods
        .iter()
        .filter(|p| p.node.as_deref() == Some(node))
        .collect();
    pods.sort_by(|a, b| (b.gpus, &a.namespace, &a.name).cmp(&(a.gpus, &b.namespace, &b.name)));
    let with_gpus = pods.iter().filter(|p| p.gpus > 0).count();
    out.heading(format!("Pods ({}, {with_gpus} with GPUs)", pods.len()));
    if pods.is_empty() {
        out.push("  none", Tone::Muted);
        return;
    }
    let shown = (with_gpus + OTHER_PODS_SHOWN).min(pods.len());
    let column = pods[..shown]
        .iter()
        .map(|p| p.namespace.len() + p.name.len() + 1)
        .max()
        .unwrap_or(0)
        .min(POD_COLUMN_MAX);
    for p in &pods[..shown] {
        let gpus = if p.gpus > 0 {
            format!("{} GPU", p.gpus)
        } else {
            "-".to_string()
        };
        let name = format!("{}/{}", p.namespace, p.name);
        let tone = if p.phase.is_terminal() {
            Tone::Muted
        } else {
            Tone::Normal
        };
        let head = format!("  {name:<column$}  {:<11} {gpus:>6}", phase(p));
        row(out, (head, "  ", &workload(p)), tone, width);
    }
    if shown < pods.len() {
        out.push(
            format!("  … and {} more pods without GPUs", pods.len() - shown),
            Tone::Muted,
        );
    }
}

/// The pane's time zone, its clock and its width in columns.
#[derive(Debug, Clone, Copy)]
pub struct Pane {
    /// The operator's zone.
    pub tz: FixedOffset,
    /// The time ages are relative to.
    pub now: Time,
    /// Columns inside the pane's borders.
    pub width: usize,
}

/// `Events`: the node's Events, newest first, with reason, count and message; Warnings stand
/// out.
pub fn event_lines(out: &mut Lines, snap: &ClusterSnapshot, node: &str, f: Pane) {
    let mut events: Vec<_> = snap
        .events
        .iter()
        .filter(|e| e.object_kind.as_ref() == "Node" && e.object_name.as_ref() == node)
        .collect();
    events.sort_by_key(|e| std::cmp::Reverse(e.last_seen));
    out.heading("Events (newest first)");
    if events.is_empty() {
        out.push("  none seen", Tone::Muted);
    }
    for e in events.iter().take(EVENTS_SHOWN) {
        let at = e.last_seen.map_or_else(
            || format!("{:<19}  {:>9}", "-", "-"),
            |t| format!("{}  {:>9}", local(t, f.tz), relative(f.now, t)),
        );
        let times = if e.count > 1 {
            format!(" ×{}", e.count)
        } else {
            String::new()
        };
        let tone = if e.kind.as_ref() == "Warning" {
            Tone::Degraded
        } else {
            Tone::Normal
        };
        let head = format!("  {at}  {}{times}:", e.reason);
        row(out, (head, " ", &e.message), tone, f.width);
    }
    if events.len() > EVENTS_SHOWN {
        out.push(
            format!("  … and {} older events", events.len() - EVENTS_SHOWN),
            Tone::Muted,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_too_wide_puts_its_tail_below_indented_and_wrapped() {
        let mut out = Lines::default();
        let tail =
            "node gpu-h100-009 has an observed health concern; repair investigation requested";
        row(&mut out, ("  head:".into(), " ", tail), Tone::Normal, 200);
        row(&mut out, ("  head:".into(), " ", tail), Tone::Normal, 40);
        let text: Vec<&str> = out.0.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(text[0], format!("  head: {tail}"));
        assert_eq!(
            &text[1..],
            [
                "  head:",
                "      node gpu-h100-009 has an observed",
                "      health concern; repair",
                "      investigation requested",
            ]
        );
        assert!(text[1..].iter().all(|l| l.chars().count() <= 40));
    }
}
