//! Loading a large snapshot file behind a screen that shows how far it is: the file is read
//! and analysed on a thread of its own while the terminal shows the bytes and objects read
//! (at most 10 frames a second); `q`, Ctrl-C or a signal give the terminal back and end the
//! run at once.
//!
//! Owns: `load`. Composition only.

use std::path::Path;
use std::time::Duration;

use anyhow::anyhow;
use crossterm::event::{Event as TermEvent, EventStream, KeyCode, KeyModifiers};
use futures::StreamExt;

use crate::engine::model::Time;
use crate::protocol::Feed;
use crate::run::offline::{feed_with, snapshot_feed, LOADING_SCREEN_FROM};
use crate::run::signals::Signals;
use crate::run::{restore_terminal, Ended, TuiOptions};
use crate::ui::loading::{draw_loading, Loading};
use crate::ui::theme::Theme;

/// Whether a key asks to stop (`q`, Ctrl-C).
fn stops(e: &TermEvent) -> bool {
    let TermEvent::Key(k) = e else { return false };
    matches!(k.code, KeyCode::Char('q'))
        || (k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL))
}

/// The feed of the snapshot at `path`, or how the run ended while it loaded. A small file is
/// read in place; a large one behind the loading screen (the terminal stays taken for the
/// TUI after a load, and is given back when the load fails or is stopped).
pub async fn load(
    path: &Path,
    opts: &TuiOptions,
    now: Time,
    signals: &mut Signals,
) -> anyhow::Result<Result<Feed, Ended>> {
    let size = std::fs::metadata(path).map_or(0, |m| m.len());
    if size < LOADING_SCREEN_FROM {
        return Ok(Ok(snapshot_feed(path, opts, now)?));
    }
    let start = Loading::Reading {
        bytes: 0,
        total: size,
        objects: 0,
    };
    let (tx, mut progress) = tokio::sync::watch::channel(start);
    let (done_tx, mut done) = tokio::sync::oneshot::channel();
    let (file, alfred, scheduler, table, asked) = (
        path.to_path_buf(),
        opts.alfred_namespace.clone(),
        opts.scheduler_namespace.clone(),
        opts.instance_types.clone(),
        opts.snapshot_now,
    );
    // A thread of its own, not the runtime's blocking pool: a stopped load is left behind
    // and ends with the process instead of holding the runtime's shutdown.
    std::thread::Builder::new()
        .name("snapshot-load".into())
        .spawn(move || {
            let namespaces = (alfred.as_str(), scheduler.as_str());
            let fed = feed_with(&file, namespaces, &table, (asked, now), &mut |l| {
                tx.send_replace(l);
            });
            let _ = done_tx.send(fed);
        })?;
    let theme = opts
        .themes
        .iter()
        .find(|t| t.name == opts.theme)
        .cloned()
        .unwrap_or_else(|| Theme::by_name(&opts.theme));
    let shown = path.display().to_string();
    let mut terminal = ratatui::init();
    let mut input = EventStream::new();
    let mut open = true;
    let ended = loop {
        let now_at = *progress.borrow_and_update();
        if let Err(e) = terminal.draw(|f| draw_loading(f, &theme, &shown, now_at)) {
            restore_terminal();
            return Err(e.into());
        }
        tokio::select! {
            fed = &mut done => break fed.map_err(|_| anyhow!("the snapshot load stopped")),
            changed = progress.changed(), if open => match changed {
                Ok(()) => tokio::time::sleep(Duration::from_millis(100)).await,
                Err(_) => open = false,
            },
            Some(Ok(e)) = input.next() => if stops(&e) {
                tracing::info!("the operator stopped the snapshot load");
                restore_terminal();
                return Ok(Err(Ended::Quit));
            },
            (name, number) = signals.next() => {
                tracing::info!(reason = name, "the snapshot load ends");
                restore_terminal();
                return Ok(Err(Ended::Signal(number)));
            }
        }
    };
    match ended {
        Ok(Ok(feed)) => {
            // The TUI's terminal starts from a blank buffer and redraws only what differs, so
            // the screen is cleared for it (best effort: a failure leaves stray cells only).
            drop(input);
            let clear = crossterm::terminal::Clear(crossterm::terminal::ClearType::All);
            let _ = crossterm::execute!(std::io::stdout(), clear);
            Ok(Ok(feed))
        }
        Ok(Err(e)) => {
            restore_terminal();
            Err(e.into())
        }
        Err(e) => {
            restore_terminal();
            Err(e)
        }
    }
}
