//! The loop answers a key at once: driven with no tick (an hour apart) and a feed that never
//! changes, a key typed after an earlier one must still be handled. The key source behaves as
//! crossterm's `EventStream` does: when it finds nothing ready it keeps the waker of that poll
//! and wakes only that one when the next key comes, so a loop that polls it with a no-op waker
//! sleeps through the key.

use std::sync::{Arc, Mutex};
use std::task::{Poll, Waker};
use std::time::Duration;

use crossterm::event::{Event as TermEvent, KeyCode, KeyEvent, KeyModifiers};
use futures::Stream;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use tokio::sync::{mpsc, watch};

use super::*;
use crate::app::state::IdSource;
use crate::run::keymap::ConfigKeys;
use crate::run::{AppClock, FRAME_INTERVAL};
use crate::sim::demo::DemoWorld;

/// Keys pushed by the test; the stream keeps the first waker of a quiet spell only.
#[derive(Clone, Default)]
struct Keys(Arc<Mutex<(Vec<TermEvent>, Option<Waker>)>>);

impl Keys {
    fn push(&self, code: char) {
        let mut inner = self.0.lock().unwrap();
        let key = KeyEvent::new(KeyCode::Char(code), KeyModifiers::NONE);
        inner.0.push(TermEvent::Key(key));
        if let Some(w) = inner.1.take() {
            w.wake();
        }
    }
}

impl Stream for Keys {
    type Item = std::io::Result<TermEvent>;

    fn poll_next(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> Poll<Option<Self::Item>> {
        let mut inner = self.0.lock().unwrap();
        if !inner.0.is_empty() {
            return Poll::Ready(Some(Ok(inner.0.remove(0))));
        }
        // crossterm starts one waiting thread with this poll's waker and no other until it
        // has fired.
        if inner.1.is_none() {
            inner.1 = Some(cx.waker().clone());
        }
        Poll::Pending
    }
}

struct Counting(u64);

impl IdSource for Counting {
    fn next_uuid(&mut self) -> String {
        self.0 += 1;
        format!("00000000-0000-4000-8000-{:012}", self.0)
    }
}

#[tokio::test]
async fn a_key_is_handled_with_no_tick_and_no_feed() {
    let now = chrono::DateTime::parse_from_rfc3339("2026-11-01T12:00:00Z")
        .unwrap()
        .to_utc();
    let feed = DemoWorld::new(1, 40, now).feed_default(0, now);
    let (_feed_tx, feed_rx) = watch::channel(Arc::new(feed));
    let (cmd_tx, _cmd_rx) = mpsc::channel(4);
    let (fetch_tx, _fetch_rx) = mpsc::channel(4);
    let (_upd_tx, upd_rx) = mpsc::channel(4);
    let channels = Channels {
        feed: feed_rx,
        commands: cmd_tx,
        fetches: fetch_tx,
        updates: upd_rx,
    };
    let keys = ConfigKeys::shipped("default").unwrap();
    let mut state = AppState::new(Box::new(keys), Box::new(Counting(0)), now);
    let mut extras = Extras {
        themes: vec![Theme::default_theme()],
        history: None,
        clock: AppClock::wall(),
        mouse: false,
        live: None,
        fleet: None,
        frame_interval: FRAME_INTERVAL,
    };
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let input = Keys::default();
    // The first key is handled on the loop's first turn; the loop then finds the stream
    // empty while draining, and sleeps until the next key.
    input.push('j');
    let later = input.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(400)).await;
        // `q` asks "Quit ome-top? y/n"; `y` answers.
        later.push('q');
        later.push('y');
    });
    // The loop runs as a task of its own: the test's deadline below must not wake it.
    let local = tokio::task::LocalSet::new();
    let ended = local
        .run_until(async move {
            let run = tokio::task::spawn_local(async move {
                let signals = signals::Signals::new().unwrap().watch(signals::GRACE);
                let hour = Duration::from_secs(3600);
                let sources = (&mut state, &mut extras, channels, signals);
                event_loop(&mut terminal, input, hour, &|| false, sources).await
            });
            tokio::time::timeout(Duration::from_secs(10), run).await
        })
        .await
        .expect("the second key was not handled: the loop waited for a tick or a feed")
        .unwrap()
        .unwrap();
    assert_eq!(ended, Ended::Quit);
}
