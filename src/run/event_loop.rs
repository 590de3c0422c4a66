//! The TUI's event loop: one turn waits for the first of input, feed, replies to ops and
//! reads, a finished context switch, the history store, the tick, the frame timer or a signal;
//! takes what else is ready; hands it all to the reducer and carries out every effect in one
//! pass; draws when dirty and a frame interval has passed. A terminal that fails or ends ends
//! the loop as SIGHUP would.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crossterm::event::Event as TermEvent;
use futures::{Stream, StreamExt};
use ratatui::backend::Backend;
use ratatui::Terminal;

use super::clock::mono_now;
use super::{fleet, live, signals, Channels, Ended, Extras};
use crate::app::state::AppState;
use crate::app::{update, Effect, Event};
use crate::protocol::{OpOutcome, Update};
use crate::run::history::HistoryHook;
use crate::ui::theme::Theme;

/// What the loop runs on besides the terminal: the state, the loop's extras, the data
/// source's channels and the signal watch.
pub(super) type Sources<'a> = (
    &'a mut AppState,
    &'a mut Extras,
    Channels,
    signals::SignalWatch,
);

/// Events taken from one source before drawing.
const DRAIN_CAP: usize = 256;

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

/// Hands `events` to the reducer in order and carries out every effect of every update in
/// one pass: a write or read that cannot be queued comes back as its failure event, a context
/// switch's first answer and those go behind the events already waiting. Returns `true` on
/// quit.
fn handle(
    state: &mut AppState,
    extras: &mut Extras,
    events: Vec<Event>,
    out: &mut Channels,
    turn: &mut Turn,
) -> bool {
    let mut queue: VecDeque<Event> = events.into();
    let mut quit = false;
    while let Some(e) = queue.pop_front() {
        for effect in update(state, e, extras.clock.now()) {
            match effect {
                Effect::Quit => quit = true,
                Effect::Redraw => turn.dirty = true,
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
                    queue.extend(live::start_switch(live, &mut turn.pending, to));
                }
                Effect::ShowContext(to) => {
                    if let Some(f) = extras.fleet.as_mut() {
                        queue.push_back(f.show(&to, out, &mut extras.history));
                        turn.feed_open = true;
                    }
                }
                Effect::OpenFleet => queue.extend(fleet::open_fleet(extras, out)),
                record @ (Effect::RecordAudit { .. }
                | Effect::RecordDismissal { .. }
                | Effect::ForgetDismissal { .. }) => {
                    if let Some(h) = extras.history.as_mut() {
                        h.record(&record);
                    }
                }
            }
        }
    }
    quit
}

/// What one turn of the loop may change besides the state: a switch under way, a frame to
/// draw, whether the shown feed's channel is open.
struct Turn {
    pending: Option<live::PendingSwitch>,
    dirty: bool,
    feed_open: bool,
}

/// The first events: the terminal's size, the shown feed (or, for `ome-top fleet`, where
/// nothing is shown until the operator opens a cluster, the fleet's contexts; for the demo's
/// fleet both) and what opening the history store reported.
fn opening_events(ch: &mut Channels, extras: &Extras, (w, h): (u16, u16)) -> Vec<Event> {
    let first = ch.feed.borrow_and_update().clone();
    let mut opening = vec![Event::Resize(w, h)];
    match extras.fleet.as_ref() {
        // The demo's fleet: the first cluster on screen, the others a key away.
        Some(f) if f.beside_shown() => opening.extend([Event::Feed(first), f.started()]),
        Some(f) => opening.push(f.started()),
        None => opening.push(Event::Feed(first)),
    }
    opening.extend(extras.history_notices());
    opening
}

/// Takes what the replies, the history store and the fleet have ready now.
fn take_ready(ch: &mut Channels, extras: &mut Extras, events: &mut Vec<Event>) {
    while let Ok(u) = ch.updates.try_recv() {
        events.push(update_event(u));
    }
    if let Some(h) = extras.history.as_mut() {
        events.extend(h.ready_events());
    }
    if let Some(f) = extras.fleet.as_mut() {
        for _ in 0..DRAIN_CAP {
            let Some(msg) = f.ready() else { break };
            events.extend(f.take(msg));
        }
    }
}

/// The fleet's next message; never ready without a fleet.
async fn fleet_msg(fleet: &mut Option<fleet::FleetRun>) -> Option<fleet::FleetMsg> {
    match fleet {
        Some(f) => f.next().await,
        None => std::future::pending().await,
    }
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
pub(super) async fn event_loop<B, S>(
    terminal: &mut Terminal<B>,
    mut input: S,
    tick_every: Duration,
    terminal_lost: &dyn Fn() -> bool,
    (state, extras, channels, mut signals): Sources<'_>,
) -> anyhow::Result<Ended>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
    S: Stream<Item = std::io::Result<TermEvent>> + Unpin,
{
    let mut ch = channels;
    let mut turn = Turn {
        pending: None,
        dirty: true,
        feed_open: true,
    };
    let size = terminal.size()?;
    let opening = opening_events(&mut ch, extras, (size.width, size.height));
    if handle(state, extras, opening, &mut ch, &mut turn) {
        return exit("the operator quit", Ended::Quit);
    }
    let mut tick = tokio::time::interval(tick_every);
    let mut last_draw: Option<Instant> = None;
    loop {
        let since = last_draw.map(|t| mono_now().duration_since(t));
        let interval = extras.frame_interval;
        if turn.dirty && since.is_none_or(|d| d >= interval) {
            if let Err(e) = draw_frame(terminal, state, extras) {
                tracing::warn!("the terminal cannot be written: {e}");
                return exit("the terminal is lost", HANGUP);
            }
            turn.dirty = false;
            last_draw = Some(mono_now());
        }
        let wait = since.map_or(Duration::ZERO, |d| interval.saturating_sub(d));
        let mut events = Vec::new();
        tokio::select! {
            e = input.next() => match e {
                Some(Ok(e)) => events.extend(term_event(e)),
                lost => return input_lost(lost),
            },
            changed = ch.feed.changed(), if turn.feed_open => match changed {
                Ok(()) => events.push(Event::Feed(ch.feed.borrow_and_update().clone())),
                Err(_) => turn.feed_open = false,
            },
            Some(u) = ch.updates.recv() => events.push(update_event(u)),
            (to, result) = live::switch_done(&mut turn.pending) => match result {
                Ok(source) => {
                    events.push(live::finish_switch(source, &mut extras.live, &mut extras.history, &mut ch));
                    turn.feed_open = true;
                }
                Err(error) => events.push(Event::ContextFailed { context: to, error: error.to_string() }),
            },
            e = history_event(&mut extras.history) => events.push(e),
            Some(msg) = fleet_msg(&mut extras.fleet) => {
                if let Some(f) = extras.fleet.as_mut() {
                    events.extend(f.take(msg));
                }
            }
            _ = tick.tick() => {
                // The input thread may be stuck inside crossterm on a terminal that is gone.
                if terminal_lost() {
                    return exit("the terminal hung up", HANGUP);
                }
                events.push(Event::Tick(extras.clock.now()));
            }
            _ = tokio::time::sleep(wait), if turn.dirty => {}
            (name, number) = signals.next() => return exit(name, Ended::Signal(number)),
        }
        drain_ready(&mut input, &mut events).await;
        take_ready(&mut ch, extras, &mut events);
        if handle(state, extras, events, &mut ch, &mut turn) {
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

#[cfg(test)]
mod key_tests;
