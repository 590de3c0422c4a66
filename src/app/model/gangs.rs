//! The Gangs view as a tree: topology key → domain → gang → pods, built once per feed, and the
//! navigation state (open branches, selection by id path, scroll) that survives feeds.
//!
//! Owns: `GangTree`, `TreeNode`, `GangNav`, `FlatItem`. Plain data.

use std::collections::{BTreeMap, HashSet};

use crate::app::table::Tone;
use crate::engine::analysis::Analysis;
use crate::engine::gangs::{Gang, GangState};
use crate::engine::model::ClusterSnapshot;

/// One tree node. `id` is unique among its siblings.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TreeNode {
    /// Identifier within the parent.
    pub id: String,
    /// The line shown.
    pub label: String,
    /// Colour slot (the label carries the state in words).
    pub tone: Tone,
    /// Children.
    pub children: Vec<TreeNode>,
}

/// The tree of one feed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GangTree {
    /// Topology keys.
    pub roots: Vec<TreeNode>,
}

/// A visible line of the tree (after applying open branches).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlatItem {
    /// Id path from the root.
    pub path: Vec<String>,
    /// Depth (0 = topology key).
    pub depth: usize,
    /// Whether it has children.
    pub branch: bool,
}

/// Navigation state of the tree. Invariant: `selected` is a path in `flat` when `flat` is
/// non-empty; `offset` keeps it visible.
#[derive(Debug, Clone, Default)]
pub struct GangNav {
    /// Open branches by id path.
    pub open: HashSet<Vec<String>>,
    /// Selected id path.
    pub selected: Vec<String>,
    /// Position of `selected` in `flat`.
    pub cursor: usize,
    /// First visible line.
    pub offset: usize,
    /// Visible lines.
    pub flat: Vec<FlatItem>,
    /// Topology-key and domain branches seen so far: each opens when first seen, so the tree
    /// shows its gangs at once, and stays as the operator leaves it afterwards.
    seen: HashSet<Vec<String>>,
}

pub(crate) fn state_tone(s: GangState) -> Tone {
    match s {
        GangState::Pinned => Tone::Ok,
        GangState::BoundPartial | GangState::Forming => Tone::Degraded,
        GangState::Waiting => Tone::Unknown,
        GangState::Blocked | GangState::Split => Tone::Failed,
    }
}

/// A gang's line: name, state, members placed; the pin reasoning beside the tree says why.
fn gang_label(g: &Gang) -> String {
    let min = g.min_member.map_or("?".to_string(), |m| m.to_string());
    // OMEGangPack never sees a gang on another scheduler: its state names no pin.
    let state = if g.on_ome_scheduler {
        g.state.name()
    } else {
        "not OMEGangPack"
    };
    let mut s = format!("{}  {state}  {}/{min} placed", g.key(), g.placed);
    if g.reservation.is_some() {
        s.push_str("  reserved");
    }
    if let Some(p) = &g.pending_reason {
        s.push_str(&format!("  {}", p.primary.code.name()));
    }
    s
}

fn pod_nodes(snap: &ClusterSnapshot, g: &Gang) -> Vec<TreeNode> {
    g.members
        .iter()
        .filter_map(|p| snap.pods.get(*p))
        .map(|p| TreeNode {
            id: p.name.to_string(),
            label: format!(
                "{}  {}  {:?}",
                p.name,
                p.node.as_deref().unwrap_or("(unbound)"),
                p.phase
            ),
            tone: if p.node.is_some() {
                Tone::Normal
            } else {
                Tone::Degraded
            },
            children: Vec::new(),
        })
        .collect()
}

impl GangTree {
    /// Groups the gangs (of `namespace` only, when given) by topology key, then domain.
    pub fn build(snap: &ClusterSnapshot, a: &Analysis, namespace: Option<&str>) -> Self {
        let mut keys: BTreeMap<String, BTreeMap<String, Vec<&Gang>>> = BTreeMap::new();
        let scoped = |g: &&Gang| namespace.is_none_or(|ns| g.namespace.as_ref() == ns);
        for g in a.gangs.gangs.iter().filter(scoped) {
            let key = g.topology_key.clone().unwrap_or("(no topology key)".into());
            let domain = g.domain.clone().unwrap_or("(no domain)".into());
            keys.entry(key)
                .or_default()
                .entry(domain)
                .or_default()
                .push(g);
        }
        let roots = keys
            .into_iter()
            .map(|(key, domains)| {
                let count: usize = domains.values().map(Vec::len).sum();
                TreeNode {
                    label: format!("{key}  ({})", gang_count(count)),
                    id: key,
                    tone: Tone::Accent,
                    children: domains
                        .into_iter()
                        .map(|(domain, gangs)| TreeNode {
                            label: format!("{domain}  ({})", gang_count(gangs.len())),
                            id: domain,
                            tone: Tone::Normal,
                            children: gangs
                                .iter()
                                .map(|g| TreeNode {
                                    id: g.key(),
                                    label: gang_label(g),
                                    tone: if g.on_ome_scheduler {
                                        state_tone(g.state)
                                    } else {
                                        Tone::Muted
                                    },
                                    children: pod_nodes(snap, g),
                                })
                                .collect(),
                        })
                        .collect(),
                }
            })
            .collect();
        GangTree { roots }
    }

    /// The node at `path`.
    pub fn get(&self, path: &[String]) -> Option<&TreeNode> {
        let (first, rest) = path.split_first()?;
        let mut node = self.roots.iter().find(|n| n.id == *first)?;
        for id in rest {
            node = node.children.iter().find(|n| n.id == *id)?;
        }
        Some(node)
    }
}

fn flatten(
    nodes: &[TreeNode],
    prefix: &[String],
    open: &HashSet<Vec<String>>,
    out: &mut Vec<FlatItem>,
) {
    for n in nodes {
        let mut path = prefix.to_vec();
        path.push(n.id.clone());
        let is_open = open.contains(&path);
        out.push(FlatItem {
            path: path.clone(),
            depth: prefix.len(),
            branch: !n.children.is_empty(),
        });
        if is_open {
            flatten(&n.children, &path, open, out);
        }
    }
}

impl GangNav {
    /// Opens every topology key and domain not seen before (the gangs show at once).
    fn open_new_branches(&mut self, tree: &GangTree) {
        for key in &tree.roots {
            let key_path = vec![key.id.clone()];
            if self.seen.insert(key_path.clone()) {
                self.open.insert(key_path.clone());
            }
            for domain in key.children.iter().filter(|d| !d.children.is_empty()) {
                let mut path = key_path.clone();
                path.push(domain.id.clone());
                if self.seen.insert(path.clone()) {
                    self.open.insert(path);
                }
            }
        }
    }

    /// Recomputes the visible lines and re-finds the selection (falling back to its nearest
    /// surviving ancestor, then the first line).
    pub fn refresh(&mut self, tree: &GangTree, height: usize) {
        self.open_new_branches(tree);
        self.flat.clear();
        flatten(&tree.roots, &[], &self.open, &mut self.flat);
        // Before the operator moves, the selection starts on the first gang, so its pin
        // reasoning shows at once.
        let mut want = if self.selected.is_empty() {
            self.flat
                .iter()
                .find(|f| f.depth == 2)
                .map(|f| f.path.clone())
                .unwrap_or_default()
        } else {
            self.selected.clone()
        };
        loop {
            if let Some(p) = self.flat.iter().position(|f| f.path == want) {
                self.cursor = p;
                break;
            }
            if want.pop().is_none() {
                self.cursor = 0;
                break;
            }
        }
        self.selected = self
            .flat
            .get(self.cursor)
            .map(|f| f.path.clone())
            .unwrap_or_default();
        self.scroll(height);
    }

    /// Moves the cursor to `pos` (clamped) within a viewport of `height` lines.
    pub fn select(&mut self, pos: usize, height: usize) {
        if self.flat.is_empty() {
            return;
        }
        self.cursor = pos.min(self.flat.len() - 1);
        self.selected = self.flat[self.cursor].path.clone();
        self.scroll(height);
    }

    fn scroll(&mut self, height: usize) {
        let height = height.max(1);
        if self.cursor < self.offset {
            self.offset = self.cursor;
        } else if self.cursor >= self.offset + height {
            self.offset = self.cursor + 1 - height;
        }
    }

    /// Opens or closes the selected branch.
    pub fn toggle(&mut self, tree: &GangTree, height: usize) {
        let path = self.selected.clone();
        if !self.open.remove(&path) && tree.get(&path).is_some_and(|n| !n.children.is_empty()) {
            self.open.insert(path);
        }
        self.refresh(tree, height);
    }
}
/// "1 gang", "3 gangs".
fn gang_count(n: usize) -> String {
    if n == 1 {
        "1 gang".to_string()
    } else {
        format!("{n} gangs")
    }
}
