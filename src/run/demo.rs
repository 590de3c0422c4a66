//! The task behind `ome-top demo`: drives a `sim::demo::DemoWorld` in sim time (wall time ×
//! speed), publishes its `Feed` on a watch channel every tick and after every applied command,
//! and answers `Command`s and `Fetch`es with `Update`s — the same channels the live cluster
//! layer offers, so the TUI cannot tell the two apart.
//!
//! Owns: `DemoOptions`, `DemoChannels`, `spawn_demo`. Reads no clock itself: the composition root
//! hands it one.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, watch};

use crate::engine::model::Time;
use crate::protocol::{Command, Feed, Fetch, Update};
use crate::sim::demo::{DemoClock, DemoWorld, DEFAULT_NODES};

/// How often the world advances and a feed is published, in wall time.
const TICK: Duration = Duration::from_millis(1000);
/// Commands that may wait; the TUI sends one per confirmed dialog.
const COMMAND_QUEUE: usize = 16;

/// `ome-top demo` flags.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DemoOptions {
    /// Seed of the simulated cluster.
    pub seed: u64,
    /// GPU nodes (clamped by the world to 40..=2000).
    pub nodes: usize,
    /// Sim seconds per wall second (> 0).
    pub speed: f64,
}

impl Default for DemoOptions {
    fn default() -> Self {
        DemoOptions {
            seed: 1,
            nodes: DEFAULT_NODES,
            speed: 5.0,
        }
    }
}

/// The demo's ends of the three channels, for `run::DataSource::Channels`.
pub struct DemoChannels {
    /// Latest feed.
    pub feed: watch::Receiver<Arc<Feed>>,
    /// Confirmed operator commands.
    pub commands: mpsc::Sender<Command>,
    /// Reads the operator asks for (the world's objects, e.g. a node's YAML).
    pub fetches: mpsc::Sender<Fetch>,
    /// Replies to commands and reads.
    pub updates: mpsc::Receiver<Update>,
    /// The sim clock the world runs on (the TUI runs its own time on it too).
    pub clock: DemoClock,
}

/// Builds the world at `clock()` and spawns the task that drives it on the current tokio
/// runtime. The task ends when the TUI drops its command sender.
pub fn spawn_demo(opts: DemoOptions, clock: fn() -> Time) -> DemoChannels {
    let wall_start = clock();
    let sim = DemoClock {
        start: wall_start,
        wall_start,
        speed: opts.speed,
    };
    let world = DemoWorld::new(opts.seed, opts.nodes, wall_start);
    let (feed_tx, feed_rx) = watch::channel(Arc::new(world.feed_default(0, wall_start)));
    let (cmd_tx, cmd_rx) = mpsc::channel(COMMAND_QUEUE);
    let (fetch_tx, fetch_rx) = mpsc::channel(COMMAND_QUEUE);
    let (upd_tx, upd_rx) = mpsc::channel(COMMAND_QUEUE);
    let driver = Driver {
        world,
        sim,
        clock,
        generation: 0,
        feed: feed_tx,
        updates: upd_tx,
    };
    tokio::spawn(driver.run(cmd_rx, fetch_rx));
    DemoChannels {
        feed: feed_rx,
        commands: cmd_tx,
        fetches: fetch_tx,
        updates: upd_rx,
        clock: sim,
    }
}

struct Driver {
    world: DemoWorld,
    sim: DemoClock,
    clock: fn() -> Time,
    generation: u64,
    feed: watch::Sender<Arc<Feed>>,
    updates: mpsc::Sender<Update>,
}

impl Driver {
    async fn run(
        mut self,
        mut commands: mpsc::Receiver<Command>,
        mut fetches: mpsc::Receiver<Fetch>,
    ) {
        let mut tick = tokio::time::interval(TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {
                    let now = self.advance();
                    self.publish(now);
                }
                command = commands.recv() => {
                    let Some(command) = command else { return };
                    let now = self.advance();
                    let outcome = self.world.apply(&command.op, now);
                    tracing::info!(object = command.op.object(), ?outcome, "demo write");
                    // The TUI may be gone; nothing else waits for the reply.
                    let _ = self.updates.send(Update::OpDone { id: command.id, outcome }).await;
                    self.publish(now);
                }
                Some(fetch) = fetches.recv() => {
                    let result = match &fetch {
                        Fetch::NodeYaml(node) => self.world.node_yaml(node),
                    };
                    let _ = self.updates.send(Update::Fetched { fetch, result }).await;
                }
            }
            if self.feed.is_closed() {
                return;
            }
        }
    }

    /// Steps the world to the current sim time and returns it.
    fn advance(&mut self) -> Time {
        let now = self.sim.sim_time((self.clock)());
        self.world.step(now);
        now
    }

    fn publish(&mut self, now: Time) {
        self.generation += 1;
        let feed = self.world.feed_default(self.generation, now);
        self.feed.send_replace(Arc::new(feed));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Op, OpOutcome};

    fn fixed() -> Time {
        "2026-09-28T10:00:00Z".parse().unwrap()
    }

    #[tokio::test]
    async fn publishes_a_feed_and_answers_commands() {
        let mut ch = spawn_demo(
            DemoOptions {
                nodes: 40,
                ..DemoOptions::default()
            },
            fixed,
        );
        let first = ch.feed.borrow_and_update().clone();
        assert_eq!(first.generation, 0);
        assert!(!first.analysis.pools.is_empty());
        let node = first.snapshot.nodes[0].clone();
        let op = Op::Cordon {
            node: node.name.clone(),
            resource_version: Arc::from("stale"),
            reason: None,
        };
        ch.commands.send(Command { id: 7, op }).await.unwrap();
        let Some(Update::OpDone { id, outcome }) = ch.updates.recv().await else {
            panic!("no reply");
        };
        assert_eq!(id, 7);
        assert!(matches!(outcome, OpOutcome::Conflict { .. }), "{outcome:?}");
        ch.feed.changed().await.unwrap();
        assert!(ch.feed.borrow().generation >= 1);
        ch.fetches
            .send(Fetch::NodeYaml(node.name.clone()))
            .await
            .unwrap();
        let Some(Update::Fetched { fetch, result }) = ch.updates.recv().await else {
            panic!("no answer");
        };
        assert_eq!(fetch, Fetch::NodeYaml(node.name.clone()));
        let yaml = result.unwrap();
        assert!(yaml.contains(&format!("name: {}", node.name)), "{yaml}");
    }
}
