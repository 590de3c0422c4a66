//! The history store's writer: one thread that owns the TUI's SQLite connection and carries
//! out, in the order asked, the audit rows and dismissals the reducer's effects record and the
//! reads of a node's timeline, so the UI task never waits on the disk. A failed write is
//! logged and sent back, to be shown to the operator as a notice. Dropping the writer waits
//! for the writes already asked (an audit row is never lost on quit).

use std::sync::mpsc;
use std::thread::JoinHandle;

use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use crate::app::state::HealthTransition;
use crate::engine::model::Time;
use crate::history::audit::AuditEntry;
use crate::history::dismissals::{Dismissal, RecommendationKey};
use crate::history::{ClusterKey, HistoryStore};

/// What the writer thread is asked to do.
pub(super) enum Job {
    /// Record an operator action and its result.
    Audit(AuditEntry),
    /// Record a dismissed move (with its audit row, in one transaction).
    Dismiss(Dismissal),
    /// Forget a dismissal an operator undid (with its audit row, in one transaction).
    Undismiss {
        key: RecommendationKey,
        actor: String,
        at: Time,
    },
    /// Read a node's recorded transitions and audit rows; answered by `Reply::NodeRows` and
    /// `Reply::NodeActions`.
    NodeRows(String),
    /// Read the dismissals, answered on the given channel (at start and after a switch).
    Dismissed(mpsc::Sender<Vec<Dismissal>>),
}

/// What the writer tells the UI task.
#[derive(Debug)]
pub enum Reply {
    /// A node's recorded transitions, oldest first.
    NodeRows {
        /// The node.
        node: String,
        /// Its rows (empty when the read failed: the failure is logged).
        rows: Vec<HealthTransition>,
    },
    /// A node's recorded operator actions (the audit rows about it), oldest first.
    NodeActions {
        /// The node.
        node: String,
        /// Its rows (empty when the read failed: the failure is logged).
        actions: Vec<AuditEntry>,
    },
    /// A write failed: what was not recorded and why, in one line.
    Failed(String),
}

/// The UI task's end of the writer thread.
pub(super) struct Writer {
    jobs: Option<mpsc::Sender<Job>>,
    thread: Option<JoinHandle<()>>,
    /// Answers and failures, in the order they happened.
    pub(super) replies: UnboundedReceiver<Reply>,
}

impl Writer {
    /// Starts the thread on `store`, writing for `cluster`.
    pub(super) fn start(store: HistoryStore, cluster: ClusterKey) -> std::io::Result<Writer> {
        let (jobs, inbox) = mpsc::channel();
        let (out, replies) = unbounded_channel();
        let thread = std::thread::Builder::new()
            .name("history-writer".into())
            .spawn(move || serve(store, &cluster, &inbox, &out))?;
        Ok(Writer {
            jobs: Some(jobs),
            thread: Some(thread),
            replies,
        })
    }

    /// Queues `job`; `false` when the thread is gone (it logged why).
    pub(super) fn send(&self, job: Job) -> bool {
        self.jobs.as_ref().is_some_and(|j| j.send(job).is_ok())
    }

    /// The dismissals recorded for the cluster (empty when the read fails); waits for the
    /// writes queued before it.
    pub(super) fn dismissed(&self) -> Vec<Dismissal> {
        let (tx, rx) = mpsc::channel();
        if !self.send(Job::Dismissed(tx)) {
            return Vec::new();
        }
        rx.recv().unwrap_or_default()
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        // Closing the queue ends the thread once it has written what was asked.
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            if t.join().is_err() {
                tracing::error!("the history writer panicked");
            }
        }
    }
}

fn serve(
    mut store: HistoryStore,
    cluster: &ClusterKey,
    inbox: &mpsc::Receiver<Job>,
    out: &UnboundedSender<Reply>,
) {
    while let Ok(job) = inbox.recv() {
        let failed = match job {
            Job::Audit(entry) => store.record_audit(cluster, &entry).err().map(|e| {
                format!(
                    "audit row of {} on {} {} not recorded: {e:#}",
                    entry.action, entry.object.kind, entry.object.name
                )
            }),
            Job::Dismiss(d) => store.dismiss(cluster, &d).err().map(|e| {
                format!(
                    "dismissal of {} not recorded: {e:#}",
                    d.key.workload.clone()
                )
            }),
            Job::Undismiss { key, actor, at } => store
                .undismiss(cluster, &key, &actor, at)
                .err()
                .map(|e| format!("undone dismissal of {} not recorded: {e:#}", key.workload)),
            Job::NodeRows(node) => {
                let rows = store.node_timeline(cluster, &node).unwrap_or_else(|e| {
                    tracing::warn!(node, "history of the node not read: {e:#}");
                    Vec::new()
                });
                let actions = store
                    .audit_for_object(cluster, "Node", &node)
                    .unwrap_or_else(|e| {
                        tracing::warn!(node, "audit rows of the node not read: {e:#}");
                        Vec::new()
                    });
                // The UI may have gone (quit): nothing to tell then.
                let _ = out.send(Reply::NodeRows {
                    node: node.clone(),
                    rows,
                });
                let _ = out.send(Reply::NodeActions { node, actions });
                None
            }
            Job::Dismissed(answer) => {
                let rows = store.dismissals(cluster).unwrap_or_else(|e| {
                    tracing::warn!("dismissals not read: {e:#}");
                    Vec::new()
                });
                let _ = answer.send(rows);
                None
            }
        };
        if let Some(text) = failed {
            tracing::warn!("history store: {text}");
            let _ = out.send(Reply::Failed(format!("history: {text}")));
        }
    }
}
