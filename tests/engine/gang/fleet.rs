//! A generated 500-node, 100-gang fleet of mixed resources (GPUs, EFA, RDMA, hugepages,
//! ephemeral storage, CPU-only nodes, cordoned nodes, init containers, sidecars, overhead,
//! node selectors, 1,500 bound standalone pods, some finished) whose predicted pins
//! (gangpack.md §7.3: lineage C capacity of §3.3, BestFit of §3.4) are checked against a
//! calculation written here, plainly and apart from the product: its own effective requests,
//! free amounts, member room and BestFit, from the numbers the generator drew (not from the
//! document the product reads).

use std::collections::BTreeMap;

use serde_json::{json, Value};

use ome_top::engine::gangs::PredictedOutcome;

use super::GANG_NOW;

const GI: u64 = 1 << 30;

/// xorshift64*: a fixed sequence, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[self.below(from.len() as u64) as usize]
    }
}

/// Amounts by resource name: `cpu` in millicores, memory and storage in bytes, devices.
type Amounts = BTreeMap<&'static str, u64>;

/// Renders amounts as Kubernetes quantities (millicores, `Gi`, plain counts).
fn quantities(a: &Amounts) -> Value {
    let mut m = serde_json::Map::new();
    for (name, v) in a {
        let q = match *name {
            "cpu" => format!("{v}m"),
            "memory" | "ephemeral-storage" | "hugepages-1Gi" => format!("{}Gi", v / GI),
            _ => v.to_string(),
        };
        m.insert(name.to_string(), q.into());
    }
    Value::Object(m)
}

struct TestNode {
    name: String,
    rack: String,
    kind: &'static str,
    cordoned: bool,
    pods: u64,
    allocatable: Amounts,
}

fn node_kinds(kind: usize) -> (&'static str, u64, Amounts) {
    let a = |pairs: &[(&'static str, u64)]| pairs.iter().copied().collect::<Amounts>();
    match kind {
        0 => (
            "h100-efa",
            110,
            a(&[
                ("cpu", 96_000),
                ("memory", 1024 * GI),
                ("ephemeral-storage", 400 * GI),
                ("hugepages-1Gi", 64 * GI),
                ("vpc.amazonaws.com/efa", 32),
                ("nvidia.com/gpu", 8),
            ]),
        ),
        1 => (
            "h100-rdma",
            110,
            a(&[
                ("cpu", 64_000),
                ("memory", 512 * GI),
                ("ephemeral-storage", 200 * GI),
                ("nvidia.com/gpu", 8),
                ("rdma/ib", 4),
            ]),
        ),
        2 => (
            "cpu",
            20,
            a(&[
                ("cpu", 32_000),
                ("memory", 128 * GI),
                ("ephemeral-storage", 100 * GI),
            ]),
        ),
        _ => (
            "l40-mixed",
            110,
            a(&[
                ("cpu", 96_000),
                ("memory", 1024 * GI),
                ("ephemeral-storage", 400 * GI),
                ("vpc.amazonaws.com/efa", 16),
                ("rdma/ib", 8),
                ("nvidia.com/gpu", 4),
            ]),
        ),
    }
}

/// Random requests drawn from a menu of what GPU workloads ask for.
fn requests(rng: &mut Rng) -> Amounts {
    let mut r = Amounts::new();
    let mut put = |name, v: u64| {
        if v > 0 {
            r.insert(name, v);
        }
    };
    put("cpu", rng.pick(&[0, 500, 4_000, 16_000, 30_000]));
    put("memory", rng.pick(&[0, 8, 64, 200]) * GI);
    put("ephemeral-storage", rng.pick(&[0, 0, 20, 90, 250]) * GI);
    put("nvidia.com/gpu", rng.pick(&[0, 1, 2, 4, 8]));
    put("vpc.amazonaws.com/efa", rng.pick(&[0, 0, 2, 8, 16]));
    put("rdma/ib", rng.pick(&[0, 0, 0, 1, 2]));
    put("hugepages-1Gi", rng.pick(&[0, 0, 0, 8, 32]) * GI);
    r
}

/// A gang member's shape: its containers, and what the calculation below makes of them.
struct Shape {
    app: Amounts,
    /// `(requests, is a sidecar)` in order.
    init: Vec<(Amounts, bool)>,
    overhead: Amounts,
    selector: Option<&'static str>,
}

impl Shape {
    /// The effective request, computed from the drawn numbers: the largest of each regular init
    /// container plus the sidecars before it, and the sidecars' running sum, against the app
    /// plus all sidecars; then the overhead.
    fn effective(&self) -> Amounts {
        let mut names: Vec<&'static str> = self.app.keys().copied().collect();
        for (c, _) in &self.init {
            names.extend(c.keys().copied());
        }
        names.extend(self.overhead.keys().copied());
        let mut out = Amounts::new();
        for name in names {
            let get = |a: &Amounts| a.get(name).copied().unwrap_or(0);
            let mut sidecars = 0;
            let mut highest_init = 0;
            for (c, sidecar) in &self.init {
                if *sidecar {
                    sidecars += get(c);
                    highest_init = highest_init.max(sidecars);
                } else {
                    highest_init = highest_init.max(get(c) + sidecars);
                }
            }
            let total = (get(&self.app) + sidecars).max(highest_init) + get(&self.overhead);
            if total > 0 {
                out.insert(name, total);
            }
        }
        out
    }

    fn spec(&self) -> Value {
        let container = |name: &str, a: &Amounts| json!({"name": name, "resources": {"requests": quantities(a), "limits": quantities(a)}});
        let init: Vec<Value> = self
            .init
            .iter()
            .enumerate()
            .map(|(n, (a, sidecar))| {
                let mut c = container(&format!("init-{n}"), a);
                if *sidecar {
                    c["restartPolicy"] = "Always".into();
                }
                c
            })
            .collect();
        let mut spec = json!({"schedulerName": "ome-scheduler",
                              "containers": [container("main", &self.app)]});
        if !init.is_empty() {
            spec["initContainers"] = init.into();
        }
        if !self.overhead.is_empty() {
            spec["overhead"] = quantities(&self.overhead);
        }
        if let Some(kind) = self.selector {
            spec["nodeSelector"] = json!({"node-type": kind});
        }
        spec
    }
}

fn shape(rng: &mut Rng) -> Shape {
    let app = requests(rng);
    let mut init = Vec::new();
    for _ in 0..rng.below(3) {
        let mut c = Amounts::new();
        c.insert("cpu", rng.pick(&[100, 2_000, 40_000]));
        c.insert("vpc.amazonaws.com/efa", rng.pick(&[0, 4, 20]));
        c.insert("ephemeral-storage", rng.pick(&[0, 10, 150]) * GI);
        c.retain(|_, v| *v > 0);
        init.push((c, rng.below(2) == 0));
    }
    let mut overhead = Amounts::new();
    if rng.below(4) == 0 {
        overhead.insert("cpu", 250);
        overhead.insert("memory", GI);
    }
    let selector = match rng.below(6) {
        0 => Some("h100-efa"),
        1 => Some("l40-mixed"),
        _ => None,
    };
    Shape {
        app,
        init,
        overhead,
        selector,
    }
}

struct Fleet {
    nodes: Vec<TestNode>,
    /// Requests bound to each node by standalone pods that are not finished.
    used: Vec<(Amounts, u64)>,
    gangs: Vec<(String, u32, Shape)>,
    doc: Value,
}

fn generate(seed: u64) -> Fleet {
    let mut rng = Rng(seed);
    let mut items = Vec::new();
    let mut nodes = Vec::new();
    for n in 0..500 {
        let (kind, pods, allocatable) = node_kinds(rng.below(4) as usize);
        let node = TestNode {
            name: format!("node-{n:03}"),
            rack: format!("rack-{:02}", n / 25),
            kind,
            cordoned: rng.below(20) == 0,
            pods,
            allocatable,
        };
        let mut alloc = quantities(&node.allocatable);
        alloc["pods"] = node.pods.to_string().into();
        items.push(json!({"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": node.name, "uid": format!("uid-{}", node.name),
                         "labels": {"ome.io/rack": node.rack, "node-type": kind}},
            "spec": {"unschedulable": node.cordoned}, "status": {"allocatable": alloc}}));
        nodes.push(node);
    }
    let mut used = vec![(Amounts::new(), 0u64); nodes.len()];
    for p in 0..1_500 {
        let n = rng.below(nodes.len() as u64) as usize;
        let r = requests(&mut rng);
        let finished = rng.below(10) == 0;
        if !finished {
            for (name, v) in &r {
                *used[n].0.entry(name).or_default() += v;
            }
            used[n].1 += 1;
        }
        let phase = if finished { "Succeeded" } else { "Running" };
        items.push(json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": format!("solo-{p}"), "namespace": "batch", "uid": format!("uid-solo-{p}")},
            "spec": {"nodeName": nodes[n].name, "containers": [{"name": "c",
                     "resources": {"requests": quantities(&r), "limits": quantities(&r)}}]},
            "status": {"phase": phase}}));
    }
    let mut gangs = Vec::new();
    for g in 0..100 {
        let name = format!("gang-{g:03}");
        let members = 1 + rng.below(4) as u32;
        let s = shape(&mut rng);
        items.push(
            json!({"apiVersion": "scheduling.x-k8s.io/v1alpha1", "kind": "PodGroup",
            "metadata": {"name": name, "namespace": "serving", "uid": format!("uid-pg-{name}"),
                         "annotations": {"ome.io/topology-key": "ome.io/rack"}},
            "spec": {"minMember": members}}),
        );
        for m in 0..members {
            items.push(json!({"apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": format!("{name}-{m}"), "namespace": "serving",
                             "uid": format!("uid-{name}-{m}"),
                             "creationTimestamp": "2026-09-28T10:00:00Z",
                             "labels": {"scheduling.x-k8s.io/pod-group": name}},
                "spec": s.spec(), "status": {"phase": "Pending"}}));
        }
        gangs.push((name, members, s));
    }
    let doc = json!({"apiVersion": "v1", "kind": "List", "items": items});
    Fleet {
        nodes,
        used,
        gangs,
        doc,
    }
}

/// Member slots one node offers a gang of `need` members asking `want` each: 0 unless one
/// member fits, else at least 1 and at most `need`, as many copies as every requested resource
/// and the free pod slots allow.
fn room(
    node: &TestNode,
    used: &(Amounts, u64),
    want: &Amounts,
    need: u32,
    selector: Option<&str>,
) -> u64 {
    if node.cordoned || selector.is_some_and(|k| k != node.kind) {
        return 0;
    }
    let free = |name: &str| {
        let have = node.allocatable.get(name).copied().unwrap_or(0);
        have.saturating_sub(used.0.get(name).copied().unwrap_or(0))
    };
    let slots = node.pods.saturating_sub(used.1);
    let mut copies = slots;
    for (name, w) in want {
        copies = copies.min(free(name) / w);
    }
    if copies == 0 {
        return 0;
    }
    copies.min(u64::from(need)).max(1)
}

/// `(outcome, domain, capacity)` of the calculation: per rack the sum of room when it reaches
/// `need` (one kind of member: any fitting node can start), then the smallest such capacity,
/// ties by the rack name.
fn expected(
    f: &Fleet,
    members: u32,
    s: &Shape,
    ignore_others: bool,
) -> (PredictedOutcome, Option<String>, u32) {
    let mut want = s.effective();
    if ignore_others {
        want.retain(|n, _| matches!(*n, "cpu" | "memory" | "nvidia.com/gpu"));
    }
    let mut racks: BTreeMap<&str, u64> = BTreeMap::new();
    for (node, used) in f.nodes.iter().zip(&f.used) {
        *racks.entry(&node.rack).or_default() += room(node, used, &want, members, s.selector);
    }
    let best = racks
        .iter()
        .filter(|(_, cap)| **cap >= u64::from(members))
        .min_by(|a, b| a.1.cmp(b.1).then(a.0.cmp(b.0)));
    match best {
        Some((rack, cap)) => (PredictedOutcome::Fits, Some(rack.to_string()), *cap as u32),
        None => (PredictedOutcome::NoFit, None, 0),
    }
}

#[test]
fn a_generated_mixed_fleet_predicts_what_an_independent_calculation_gives_gangpack_3_3_7_3() {
    let f = generate(0x5EED_2026);
    let (_, a) = crate::analyzed_doc(&f.doc, GANG_NOW);
    let (mut fits, mut no_fit, mut extras_decide) = (0, 0, 0);
    for (name, members, s) in &f.gangs {
        let g = a
            .gangs
            .gangs
            .iter()
            .find(|g| g.key() == format!("serving/{name}"))
            .unwrap();
        let p = g.prediction.as_ref().unwrap();
        let want = expected(&f, *members, s, false);
        assert_eq!(
            (p.outcome, p.domain.clone(), p.capacity),
            want,
            "{name}: {:?}",
            s.effective()
        );
        match want.0 {
            PredictedOutcome::Fits => fits += 1,
            _ => no_fit += 1,
        }
        if expected(&f, *members, s, true) != want {
            extras_decide += 1;
        }
    }
    // The fleet exercises both outcomes, and storage, hugepages and extended resources change
    // the answer for many gangs.
    assert!(fits >= 20 && no_fit >= 10, "fits {fits}, no fit {no_fit}");
    assert!(extras_decide >= 10, "{extras_decide}");
}
