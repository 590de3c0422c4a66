//! The TUI's composition root: owns the terminal (raw mode, alternate screen, mouse, restored
//! on every exit path including panics and SIGHUP/SIGINT/SIGQUIT/SIGTERM, `signals`), wires a data source's channels to
//! the reducer, and runs the event loop: select over input, feed, replies to ops and reads, and
//! ticks; drain what is ready; draw only when dirty, at most 10 frames a second. With
//! `main.rs`, the only place that reads the clock (in its `clock` submodule).
//!
//! Owns: `DataSource`, `Channels`, `TuiOptions`, `Ended`, `run_tui`; re-exports `AppClock` and
//! `RandomIds` from `run::clock` and `snapshot_feed` from `run::offline` (the `--snapshot`
//! source).

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{Offset, TimeZone};
use crossterm::event::{DisableMouseCapture, EnableMouseCapture, Event as TermEvent};
use futures::{Stream, StreamExt};
use ratatui::backend::Backend;
use ratatui::Terminal;
use tokio::sync::{mpsc, watch};

use crate::app::detail::DetailKind;
use crate::app::keys::KeyResolver;
use crate::app::keys_config::ConfigKeys;
use crate::app::state::AppState;
use crate::app::{update, Effect, Event};
use crate::protocol::{Command, Feed, Fetch, OpOutcome, Update};
use crate::run::history::HistoryHook;
use crate::sim::demo::DemoClock;

mod clock;
pub mod demo;
pub mod history;
pub mod launch;
pub mod live;
mod loading;
mod offline;
mod recorder;
pub mod signals;
#[cfg(unix)]
pub mod tty;
use crate::ui::theme::{Theme, THEME_NAMES};
use clock::{mono_now, wall_now};
pub use clock::{AppClock, RandomIds};
use offline::offline_channels;
pub use offline::{snapshot_feed, LOADING_SCREEN_FROM};
pub use signals::Ended;

/// Shortest time between two frames by default (≤ 10 redraws a second;
/// `max-redraws-per-second` in config.toml sets another).
const FRAME_INTERVAL: Duration = Duration::from_millis(100);

/// The shortest time between two frames for at most `per_second` redraws a second (at least
/// one a second).
pub fn frame_interval(per_second: u32) -> Duration {
    Duration::from_secs(1) / per_second.max(1)
}
/// Events taken from one source before drawing.
const DRAIN_CAP: usize = 256;
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
    /// Shortest time between two frames (`frame_interval` of `max-redraws-per-second`).
    pub frame_interval: Duration,
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
            frame_interval: FRAME_INTERVAL,
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
    state.utc_offset = chrono::Local
        .offset_from_utc_datetime(&state.now().naive_utc())
        .fix();
    if opts.themes.is_empty() {
        opts.themes = THEME_NAMES.iter().map(|n| Theme::by_name(n)).collect();
    }
    state.themes = opts.themes.iter().map(|t| t.name.clone()).collect();
    state.theme = state
        .themes
        .iter()
        .position(|t| *t == opts.theme)
        .unwrap_or(0);
    if let Some(link) = &opts.live {
        state.contexts.list = live::contexts(&link.params);
    }
    let mut extras = Extras {
        themes: opts.themes,
        history: opts.history,
        clock,
        mouse: opts.mouse,
        live: opts.live,
        frame_interval: opts.frame_interval,
    };
    if let Some(h) = &extras.history {
        state.dismissed.extend(h.dismissed());
        state.history_run_started = h.cluster().demo_run_started().map(|(_, t)| t);
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
    /// and again after the recorder's new fleet answers made the reducer drop them.
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
    let result = {
        let tty = tty::Tty::open();
        let lost = || tty.hung_up();
        match tty::spawn_input() {
            Ok(input) => {
                event_loop(
                    &mut terminal,
                    input,
                    TICK,
                    &lost,
                    state,
                    extras,
                    channels,
                    watch,
                )
                .await
            }
            Err(e) => Err(e.into()),
        }
    };
    #[cfg(not(unix))]
    let result = {
        let input = crossterm::event::EventStream::new();
        let lost = || false;
        event_loop(
            &mut terminal,
            input,
            TICK,
            &lost,
            state,
            extras,
            channels,
            watch,
        )
        .await
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
    state.keys = keys;
}

fn term_event(e: TermEvent) -> Option<Event> {
    match e {
        TermEvent::Key(k) => Some(Event::Key(k)),
        TermEvent::Mouse(m) => Some(Event::Mouse(m)),
        TermEvent::Resize(w, h) => Some(Event::Resize(w, h)),
        _ => None,
    }
}

/// Puts `text` on the clipboard through the terminal (OSC 52), which also works over ssh and
/// inside tmux (`set-clipboard on`). A terminal that ignores the sequence prints nothing.
fn copy_to_clipboard(text: &str) {
    use base64::Engine as _;
    use std::io::Write as _;
    let encoded = base64::engine::general_purpose::STANDARD.encode(text);
    let mut out = std::io::stdout();
    // Best effort: a failed write leaves the clipboard as it was and the notice still shows.
    let _ = write!(out, "\x1b]52;c;{encoded}\x07").and_then(|()| out.flush());
}

/// The event an update from the data source is to the reducer.
fn update_event(u: Update) -> Event {
    match u {
        Update::OpDone { id, outcome } => Event::OpDone { id, outcome },
        Update::Fetched { fetch, result } => Event::Fetched { fetch, result },
    }
}

/// Where effects go: the data source's command and read channels.
struct Outbox<'a> {
    commands: &'a mpsc::Sender<Command>,
    fetches: &'a mpsc::Sender<Fetch>,
}

/// Hands `events` to the reducer in order and carries out every effect of every update in
/// one pass: a write or read that cannot be queued comes back as its failure event, a context
/// switch's first answer and those go behind the events already waiting. Returns `true` on
/// quit.
fn handle(
    state: &mut AppState,
    extras: &mut Extras,
    events: Vec<Event>,
    out: &Outbox<'_>,
    pending: &mut Option<live::PendingSwitch>,
    dirty: &mut bool,
) -> bool {
    let mut queue: VecDeque<Event> = events.into();
    let mut quit = false;
    while let Some(e) = queue.pop_front() {
        for effect in update(state, e, extras.clock.now()) {
            match effect {
                Effect::Quit => quit = true,
                Effect::Redraw => *dirty = true,
                Effect::Copy(text) => copy_to_clipboard(&text),
                Effect::Send(cmd) => {
                    let id = cmd.id;
                    if let Err(e) = out.commands.try_send(cmd) {
                        let message = format!("not sent: {e}");
                        tracing::warn!(id, "{message}");
                        let outcome = OpOutcome::Failed { message };
                        queue.push_back(Event::OpDone { id, outcome });
                    }
                }
                Effect::Fetch(fetch) => {
                    if let Err(e) = out.fetches.try_send(fetch.clone()) {
                        let result =
                            Err(crate::protocol::FetchError::Read(format!("not sent: {e}")));
                        queue.push_back(Event::Fetched { fetch, result });
                    }
                }
                Effect::SwitchContext(to) => {
                    let live = extras.live.as_ref();
                    queue.extend(live::start_switch(live, pending, to));
                }
                record @ (Effect::RecordAudit { .. } | Effect::RecordDismissal { .. }) => {
                    if let Some(h) = extras.history.as_mut() {
                        h.record(&record);
                    }
                }
            }
        }
    }
    quit
}

/// The history store's next event; never ready without a store.
async fn history_event(history: &mut Option<HistoryHook>) -> Event {
    match history {
        Some(h) => h.next_event().await,
        None => std::future::pending().await,
    }
}

/// Takes the input events that are ready now, at most `DRAIN_CAP`, so a burst of keys costs
/// one frame. The stream is polled with this task's own waker: a stream such as crossterm's
/// `EventStream` (the input where `run::tty`'s thread is not used) keeps
/// the waker of the poll that found it empty and wakes only that one when the next key comes,
/// so a poll with a no-op waker (`now_or_never`) would leave that key unnoticed until another
/// source (the tick, a feed) woke the loop.
async fn drain_ready<S>(input: &mut S, events: &mut Vec<Event>)
where
    S: Stream<Item = std::io::Result<TermEvent>> + Unpin,
{
    for _ in 0..DRAIN_CAP {
        let next = std::future::poll_fn(|cx| match input.poll_next_unpin(cx) {
            std::task::Poll::Ready(Some(Ok(e))) => std::task::Poll::Ready(Some(e)),
            // Pending (this task's waker is now the one kept), an error or the end: the
            // select at the top of the loop reports the last two.
            _ => std::task::Poll::Ready(None),
        })
        .await;
        match next {
            Some(e) => events.extend(term_event(e)),
            None => break,
        }
    }
}

/// The select loop: one turn waits for the first of input, feed, replies, a finished context
/// switch, the tick, the frame timer or a signal; takes what else is ready; hands it all to
/// the reducer; draws when dirty and a frame interval has passed.
#[allow(clippy::too_many_arguments)] // The loop's sources, each of its own kind.
async fn event_loop<B, S>(
    terminal: &mut Terminal<B>,
    mut input: S,
    tick_every: Duration,
    terminal_lost: &dyn Fn() -> bool,
    state: &mut AppState,
    extras: &mut Extras,
    channels: Channels,
    mut signals: signals::SignalWatch,
) -> anyhow::Result<Ended>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
    S: Stream<Item = std::io::Result<TermEvent>> + Unpin,
{
    let mut ch = channels;
    let mut pending: Option<live::PendingSwitch> = None;
    let size = terminal.size()?;
    let mut dirty = true;
    let first = ch.feed.borrow_and_update().clone();
    let mut opening = vec![Event::Resize(size.width, size.height), Event::Feed(first)];
    opening.extend(extras.history_notices());
    let out = Outbox {
        commands: &ch.commands,
        fetches: &ch.fetches,
    };
    if handle(state, extras, opening, &out, &mut pending, &mut dirty) {
        return exit("the operator quit", Ended::Quit);
    }
    let mut tick = tokio::time::interval(tick_every);
    let mut feed_open = true;
    let mut last_draw: Option<Instant> = None;
    loop {
        let since = last_draw.map(|t| mono_now().duration_since(t));
        let interval = extras.frame_interval;
        if dirty && since.is_none_or(|d| d >= interval) {
            if let Err(e) = draw_frame(terminal, state, extras) {
                tracing::warn!("the terminal cannot be written: {e}");
                return exit("the terminal is lost", HANGUP);
            }
            dirty = false;
            last_draw = Some(mono_now());
        }
        let wait = since.map_or(Duration::ZERO, |d| interval.saturating_sub(d));
        let mut events = Vec::new();
        tokio::select! {
            e = input.next() => match e {
                Some(Ok(e)) => events.extend(term_event(e)),
                lost => return input_lost(lost),
            },
            changed = ch.feed.changed(), if feed_open => match changed {
                Ok(()) => events.push(Event::Feed(ch.feed.borrow_and_update().clone())),
                Err(_) => feed_open = false,
            },
            Some(u) = ch.updates.recv() => events.push(update_event(u)),
            (to, result) = live::switch_done(&mut pending) => match result {
                Ok(source) => {
                    events.push(live::finish_switch(source, &mut extras.live, &mut extras.history, &mut ch));
                    feed_open = true;
                }
                Err(error) => events.push(Event::ContextFailed { context: to, error: error.to_string() }),
            },
            e = history_event(&mut extras.history) => events.push(e),
            _ = tick.tick() => {
                // The input thread may be stuck inside crossterm on a terminal that is gone.
                if terminal_lost() {
                    return exit("the terminal hung up", HANGUP);
                }
                events.push(Event::Tick(extras.clock.now()));
            }
            _ = tokio::time::sleep(wait), if dirty => {}
            (name, number) = signals.next() => return exit(name, Ended::Signal(number)),
        }
        drain_ready(&mut input, &mut events).await;
        while let Ok(u) = ch.updates.try_recv() {
            events.push(update_event(u));
        }
        if let Some(h) = extras.history.as_mut() {
            events.extend(h.ready_events());
        }
        let out = Outbox {
            commands: &ch.commands,
            fetches: &ch.fetches,
        };
        if handle(state, extras, events, &out, &mut pending, &mut dirty) {
            return exit("the operator quit", Ended::Quit);
        }
        extras.ask_node_history(state);
    }
}

/// Draws one frame with the current theme.
fn draw_frame<B: Backend>(
    terminal: &mut Terminal<B>,
    state: &AppState,
    extras: &Extras,
) -> Result<(), B::Error> {
    let fallback;
    let theme = match extras.theme(state.theme_name()) {
        Some(t) => t,
        None => {
            fallback = Theme::default_theme();
            &fallback
        }
    };
    terminal.draw(|f| crate::ui::draw(f, state, theme))?;
    Ok(())
}

/// The end of a terminal whose input failed or ended.
fn input_lost(input: Option<std::io::Result<TermEvent>>) -> anyhow::Result<Ended> {
    match input {
        Some(Err(e)) => {
            tracing::warn!("the terminal cannot be read: {e}");
            exit("the terminal is lost", HANGUP)
        }
        _ => exit("the terminal's input ended", HANGUP),
    }
}

/// How the TUI ends when its terminal is lost: as SIGHUP would end it (exit status 129).
const HANGUP: Ended = Ended::Signal(1);

/// Logs why the TUI ends.
fn exit(reason: &str, ended: Ended) -> anyhow::Result<Ended> {
    tracing::info!(reason, "the TUI ends");
    Ok(ended)
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
mod key_tests;

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
