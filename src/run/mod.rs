//! The TUI's composition root: owns the terminal (raw mode, alternate screen, mouse; given
//! back on every way out, panics and SIGHUP/SIGINT/SIGQUIT/SIGTERM included: `signals`, and
//! within a bounded time, since a terminal nobody reads must not hold the exit), reads its
//! input on a thread of its own (`tty`), wires a data source's channels and the history store
//! to the reducer and runs the event loop (`event_loop`). With `main.rs`, the only place that
//! reads the clock (in its `clock` submodule).
//!
//! Owns: `DataSource`, `Channels`, `TuiOptions`, `Extras`, `run_tui`, `restore_terminal`;
//! re-exports `AppClock` and `RandomIds` from `run::clock` and `snapshot_feed` from
//! `run::offline` (the `--snapshot` source).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use chrono::{Offset, TimeZone};
use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use tokio::sync::{mpsc, watch};

use crate::app::detail::DetailKind;
use crate::app::keys::KeyResolver;
use crate::app::state::AppState;
use crate::app::Event;
use crate::protocol::{Command, Feed, Fetch, Update};
use crate::run::history::HistoryHook;
use crate::run::keymap::ConfigKeys;
use crate::sim::demo::DemoClock;

mod clock;
pub mod demo;
mod event_loop;
pub mod fleet;
pub mod history;
pub mod keymap;
pub mod launch;
pub mod live;
mod loading;
mod offline;
mod recorder;
pub mod signals;
#[cfg(unix)]
pub mod tty;
use crate::ui::theme::{Theme, THEME_NAMES};
use clock::wall_now;
pub use clock::{AppClock, RandomIds};
use offline::offline_channels;
pub use offline::{snapshot_feed, LOADING_SCREEN_FROM};
pub use signals::Ended;

/// Shortest time between two frames by default (≤ 10 redraws a second;
/// `max-redraws-per-second` in config.toml sets another).
pub(crate) const FRAME_INTERVAL: Duration = Duration::from_millis(100);

/// The shortest time between two frames for at most `per_second` redraws a second (at least
/// one a second).
pub fn frame_interval(per_second: u32) -> Duration {
    Duration::from_secs(1) / per_second.max(1)
}
/// How often the loop wakes with nothing else to do: ages and notices move on.
const TICK: Duration = Duration::from_secs(1);

/// Where the TUI's data comes from.
pub enum DataSource {
    /// Replay a snapshot file once, offline and read-only.
    Snapshot(PathBuf),
    /// Any live source (cluster, demo): its feed, command, read and update channels.
    Channels(Channels),
}

/// TUI options from the command line and the loaded configuration.
pub struct TuiOptions {
    /// Alfred's namespace.
    pub alfred_namespace: String,
    /// The OME scheduler ConfigMap's namespace.
    pub scheduler_namespace: String,
    /// Initial theme name.
    pub theme: String,
    /// Every theme `next-theme` cycles through (empty: the built-ins).
    pub themes: Vec<Theme>,
    /// The configured keymap (`None`: the embedded `keymaps/default.toml`).
    pub keymap: Option<crate::config::Keymap>,
    /// The history store, when it opened.
    pub history: Option<HistoryHook>,
    /// The demo's sim clock: the app's time then runs at the simulation's speed, so ages and
    /// request timestamps agree with the simulated data (`None`: the wall clock).
    pub demo_clock: Option<DemoClock>,
    /// Whether to capture the mouse (`mouse` in config.toml; off by default).
    pub mouse: bool,
    /// The live session and how to open another context (`None`: demo, snapshot).
    pub live: Option<live::LiveLink>,
    /// The watched fleet (`ome-top fleet`; `None`: one cluster).
    pub fleet: Option<fleet::FleetRun>,
    /// Shortest time between two frames (`frame_interval` of `max-redraws-per-second`).
    pub frame_interval: Duration,
    /// The instance-type table naming pools (`instance-type-map` in config.toml).
    pub instance_types: Arc<crate::engine::nodes::ShapeTable>,
    /// The time a `--snapshot` is aged against (`--now`); `None`: the newest timestamp the
    /// snapshot holds (the wall clock when it holds none).
    pub snapshot_now: Option<crate::engine::model::Time>,
}

impl Default for TuiOptions {
    fn default() -> Self {
        TuiOptions {
            alfred_namespace: "ome".into(),
            scheduler_namespace: "ome".into(),
            theme: "default".into(),
            themes: Vec::new(),
            keymap: None,
            history: None,
            demo_clock: None,
            mouse: false,
            live: None,
            fleet: None,
            frame_interval: FRAME_INTERVAL,
            instance_types: Arc::default(),
            snapshot_now: None,
        }
    }
}

/// The app's ends of a data source's channels.
pub struct Channels {
    /// Latest feed.
    pub feed: watch::Receiver<Arc<Feed>>,
    /// Confirmed operator commands.
    pub commands: mpsc::Sender<Command>,
    /// Reads the operator asks for.
    pub fetches: mpsc::Sender<Fetch>,
    /// Replies to both.
    pub updates: mpsc::Receiver<Update>,
}

/// Runs the TUI on `source` until the operator quits or a signal arrives.
pub async fn run_tui(source: DataSource, mut opts: TuiOptions) -> anyhow::Result<Ended> {
    // Before anything takes the terminal, so that no signal can end the process with it taken.
    let mut signals = signals::Signals::new()?;
    let mut snapshot_at = None;
    let channels = match source {
        DataSource::Snapshot(path) => {
            match loading::load(&path, &opts, wall_now(), &mut signals).await? {
                Ok(feed) => {
                    // Aged against its own time: the app's clock stands at the feed's.
                    snapshot_at = Some(feed.analysis.now);
                    offline_channels(feed, path)
                }
                Err(ended) => return Ok(ended),
            }
        }
        DataSource::Channels(channels) => channels,
    };
    let clock = snapshot_at.map_or(AppClock::demo(opts.demo_clock), AppClock::fixed);
    let keys = match opts.keymap.take() {
        Some(keymap) => ConfigKeys(keymap),
        None => ConfigKeys::shipped("default")?,
    };
    let mut state = AppState::new(Box::new(keys), Box::new(RandomIds::new()), clock.now());
    // The zone is read once: shown times are local, as `date` would print them.
    state.set_zone(
        chrono::Local
            .offset_from_utc_datetime(&state.now().naive_utc())
            .fix(),
    );
    if opts.themes.is_empty() {
        opts.themes = THEME_NAMES.iter().map(|n| Theme::by_name(n)).collect();
    }
    let names = opts.themes.iter().map(|t| t.name.clone()).collect();
    state.set_themes(names, &opts.theme);
    if let Some(link) = &opts.live {
        state.set_contexts(live::contexts(&link.params));
    }
    let mut extras = Extras {
        themes: opts.themes,
        history: opts.history,
        clock,
        mouse: opts.mouse,
        live: opts.live,
        fleet: opts.fleet,
        frame_interval: opts.frame_interval,
    };
    if let Some(h) = &extras.history {
        let run = h.cluster().demo_run_started().map(|(_, t)| t);
        state.restore_history(h.dismissed(), run);
    }
    run_with_keys(&mut state, &mut extras, channels, signals).await
}

/// What the loop needs besides the state: themes to draw with and the history store.
pub struct Extras {
    /// Themes by position in `AppState::themes`.
    pub themes: Vec<Theme>,
    /// The history store, when it opened.
    pub history: Option<HistoryHook>,
    /// The time the app runs on.
    pub clock: AppClock,
    /// Whether the terminal's mouse events are captured.
    pub mouse: bool,
    /// The live session and how to open another context (`None`: demo, snapshot).
    pub live: Option<live::LiveLink>,
    /// The watched fleet (`None`: one cluster).
    pub fleet: Option<fleet::FleetRun>,
    /// Shortest time between two frames.
    pub frame_interval: Duration,
}

impl Extras {
    /// The theme named `name`; the first one when the name is unknown. `run_tui` never leaves
    /// `themes` empty, so drawing borrows a theme instead of building one per frame.
    fn theme(&self, name: &str) -> Option<&Theme> {
        self.themes
            .iter()
            .find(|t| t.name == name)
            .or(self.themes.first())
    }

    /// Asks the history store for the open node detail's recorded rows, once per opening
    /// and again after the recorder's new health answers made the reducer drop them.
    fn ask_node_history(&mut self, state: &AppState) {
        let Some(h) = &mut self.history else { return };
        if let Some(DetailKind::Node(node)) = state.detail().as_ref().map(|d| &d.kind) {
            if state.node_history().is_none() {
                h.ask_node_rows(node);
            }
        }
    }

    /// What opening the history store reported, as the reducer's notices.
    fn history_notices(&self) -> Vec<Event> {
        let notices = self.history.as_ref().map(|h| h.notices.clone());
        notices
            .unwrap_or_default()
            .into_iter()
            .map(Event::HistoryFailed)
            .collect()
    }
}

/// Runs the loop with a prepared state (the lead plugs a configured keymap in here). The
/// terminal is given back as it was on every way out: `signals` were registered before the
/// terminal was taken, so none of them can end the process with the screen still taken.
pub async fn run_with_keys(
    state: &mut AppState,
    extras: &mut Extras,
    channels: Channels,
    signals: signals::Signals,
) -> anyhow::Result<Ended> {
    let mut terminal = ratatui::init();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = crossterm::execute!(std::io::stdout(), DisableMouseCapture);
        previous(info);
    }));
    if extras.mouse {
        let _ = crossterm::execute!(std::io::stdout(), EnableMouseCapture);
    }
    let watch = signals.watch(signals::GRACE);
    #[cfg(unix)]
    let (input, tty) = (tty::spawn_input(), tty::Tty::open());
    #[cfg(unix)]
    let lost = || tty.hung_up();
    #[cfg(not(unix))]
    let (input, lost) = (
        std::io::Result::Ok(crossterm::event::EventStream::new()),
        || false,
    );
    let result = match input {
        Ok(input) => {
            let sources = (state, extras, channels, watch);
            event_loop::event_loop(&mut terminal, input, TICK, &lost, sources).await
        }
        Err(e) => Err(e.into()),
    };
    restore_terminal();
    // ratatui's `Terminal` shows a hidden cursor when dropped and prints to stderr when it
    // cannot, which aborts the process when stderr is the terminal that is gone. The cursor
    // was shown by `restore_terminal` as far as it could be: the buffers are left to the exit.
    std::mem::forget(terminal);
    result
}

/// How long giving the terminal back may take: a terminal nobody reads would hold the writes
/// (and the process) forever.
const RESTORE_WAIT: Duration = Duration::from_millis(250);

/// Gives the terminal back: mouse capture off, the alternate screen left, the cursor shown,
/// the tty cooked. Each step is tried even when an earlier one fails (a hung-up terminal), and
/// nothing is printed (stderr may be that terminal). The steps run on a thread of their own and
/// are waited for at most `RESTORE_WAIT`: a terminal that is not read cannot hold the exit.
pub(crate) fn restore_terminal() {
    fn restore_now() {
        let _ = crossterm::execute!(std::io::stdout(), DisableMouseCapture);
        let _ = ratatui::try_restore();
        let _ = crossterm::execute!(std::io::stdout(), crossterm::cursor::Show);
    }
    let (done, restored) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("terminal-restore".into())
        .spawn(move || {
            restore_now();
            let _ = done.send(());
        });
    match spawned {
        Ok(_) => {
            if restored.recv_timeout(RESTORE_WAIT).is_err() {
                tracing::warn!("the terminal was not given back in time: nothing reads it");
            }
        }
        Err(_) => restore_now(),
    }
}

/// Replaces the key resolver (for the config crate's keymap).
pub fn set_keys(state: &mut AppState, keys: Box<dyn KeyResolver>) {
    state.set_keys(keys);
}

/// Runs the TUI on a new multi-threaded runtime (for `main.rs`).
pub fn run_tui_blocking(source: DataSource, opts: TuiOptions) -> anyhow::Result<Ended> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(run_tui(source, opts))
}

#[cfg(test)]
mod frame_tests {
    use super::*;

    #[test]
    fn the_redraw_limit_sets_the_frame_interval() {
        assert_eq!(frame_interval(10), FRAME_INTERVAL);
        assert_eq!(frame_interval(30), Duration::from_nanos(33_333_333));
        assert_eq!(
            frame_interval(0),
            Duration::from_secs(1),
            "never zero frames"
        );
    }
}
