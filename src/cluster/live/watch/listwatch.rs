//! The watcher of one source: ONE plain LIST (a GET without `limit`, so no pagination),
//! decoded object by object while its body arrives (`wire::list::ListSplitter`), then a watch
//! from the list's resourceVersion. kube-runtime's `watcher` reads a list only once its whole
//! body is in; this one keeps its contract otherwise: the same `Event`s (`Init`, an
//! `InitApply` per object, `InitDone`, then `Apply` / `Delete`) and `Error`s, bookmarks asked
//! for, a 410 Gone (or a failed list) starting over with a fresh list, a watch that ends or
//! goes silent for longer than its timeout resumed from the last resourceVersion seen, and
//! errors returned as items so that kube's `default_backoff` paces the retries.
//!
//! Owns: `list_watch`. Talks to the API server through the `Api` it is given.

use std::collections::VecDeque;
use std::fmt::Debug;
use std::pin::Pin;
use std::time::Duration;

use futures::stream::BoxStream;
use futures::{AsyncBufRead, AsyncBufReadExt, Stream, StreamExt};
use kube::api::{Api, ListParams, Resource, ResourceExt, WatchEvent, WatchParams};
use kube::runtime::watcher::{Config, Error, Event};
use serde::de::{DeserializeOwned, Error as _};

use crate::cluster::wire::list::{ListSplitter, SplitError};

/// How long a watch may stay silent beyond its server-side timeout before it is taken for a
/// dead connection and resumed (kube's margin).
const IDLE_MARGIN: Duration = Duration::from_secs(5);

/// The server-side timeout of a watch when the config sets none (kube's).
const WATCH_TIMEOUT: u32 = 290;

/// A list body being read.
type Body = Pin<Box<dyn AsyncBufRead + Send>>;

/// Where the watcher is.
enum State<K> {
    /// The next step lists.
    Empty,
    /// The list's body is arriving; `ready` holds objects decoded but not yet handed over.
    Listing {
        body: Body,
        split: ListSplitter,
        ready: VecDeque<K>,
    },
    /// Listed (or a watch ended): the next step starts a watch from `rv`.
    Listed { rv: String },
    /// Watching from `rv` (the last resourceVersion seen).
    Watching {
        rv: String,
        stream: BoxStream<'static, kube::Result<WatchEvent<K>>>,
    },
}

/// The stream of a source's events (see the module doc); never ends.
pub fn list_watch<K>(api: Api<K>, config: Config) -> impl Stream<Item = Result<Event<K>, Error>>
where
    K: Resource + Clone + DeserializeOwned + Debug + Send + 'static,
{
    futures::stream::unfold(State::Empty, move |mut state| {
        let (api, config) = (api.clone(), config.clone());
        async move {
            loop {
                let (out, next) = step(&api, &config, state).await;
                state = next;
                if let Some(out) = out {
                    return Some((out, state));
                }
            }
        }
    })
}

fn list_params(config: &Config) -> ListParams {
    ListParams {
        label_selector: config.label_selector.clone(),
        field_selector: config.field_selector.clone(),
        ..ListParams::default()
    }
}

fn watch_params(config: &Config) -> WatchParams {
    WatchParams {
        label_selector: config.label_selector.clone(),
        field_selector: config.field_selector.clone(),
        timeout: config.timeout,
        bookmarks: config.bookmarks,
        send_initial_events: false,
    }
}

/// Sends the LIST; its body unread.
async fn start_list<K: Resource + Clone>(api: &Api<K>, config: &Config) -> kube::Result<Body> {
    let mut request = kube::core::Request::new(api.resource_url())
        .list(&list_params(config))
        .map_err(kube::Error::BuildRequest)?;
    request.extensions_mut().insert("list");
    let client = api.clone().into_client();
    let body = client.request_stream(request).await?;
    Ok(Box::pin(body))
}

/// One step: an event or error to hand over (or none yet) and the next state.
async fn step<K>(
    api: &Api<K>,
    config: &Config,
    state: State<K>,
) -> (Option<Result<Event<K>, Error>>, State<K>)
where
    K: Resource + Clone + DeserializeOwned + Debug + Send + 'static,
{
    match state {
        State::Empty => match start_list(api, config).await {
            Ok(body) => {
                let (split, ready) = (ListSplitter::default(), VecDeque::new());
                let listing = State::Listing { body, split, ready };
                (Some(Ok(Event::Init)), listing)
            }
            Err(e) => (Some(Err(Error::InitialListFailed(e))), State::Empty),
        },
        State::Listing {
            mut body,
            mut split,
            mut ready,
        } => {
            if let Some(obj) = ready.pop_front() {
                let listing = State::Listing { body, split, ready };
                return (Some(Ok(Event::InitApply(obj))), listing);
            }
            match read_some(&mut body, &mut split, &mut ready).await {
                Ok(true) => (None, State::Listing { body, split, ready }),
                Ok(false) => listed(split),
                Err(e) => (Some(Err(Error::InitialListFailed(e))), State::Empty),
            }
        }
        State::Listed { rv } => match api.watch(&watch_params(config), &rv).await {
            Ok(stream) => {
                let stream = stream.boxed();
                (None, State::Watching { rv, stream })
            }
            Err(e) => (Some(Err(Error::WatchStartFailed(e))), State::Listed { rv }),
        },
        State::Watching { rv, mut stream } => {
            let next = next_or_idle(&mut stream, config.timeout).await;
            watched(next, rv, stream)
        }
    }
}

/// Reads the next piece of the body into `ready`; `false` at its end.
async fn read_some<K: DeserializeOwned>(
    body: &mut Body,
    split: &mut ListSplitter,
    ready: &mut VecDeque<K>,
) -> kube::Result<bool> {
    let chunk = body.fill_buf().await.map_err(kube::Error::ReadEvents)?;
    let n = chunk.len();
    if n == 0 {
        return Ok(false);
    }
    split.feed::<Decode>(chunk, |item| {
        ready.push_back(serde_json::from_slice(item).map_err(Decode::Item)?);
        Ok(())
    })?;
    body.consume_unpin(n);
    Ok(true)
}

/// Why a list's body could not be read as objects.
#[derive(Debug)]
enum Decode {
    Split(SplitError),
    Item(serde_json::Error),
}

impl From<SplitError> for Decode {
    fn from(e: SplitError) -> Self {
        Decode::Split(e)
    }
}

impl From<Decode> for kube::Error {
    fn from(e: Decode) -> Self {
        let e = match e {
            Decode::Split(e) => serde_json::Error::custom(e),
            Decode::Item(e) => e,
        };
        kube::Error::SerdeError(e)
    }
}

/// The list's body ended: its resourceVersion starts the watch.
fn listed<K>(split: ListSplitter) -> (Option<Result<Event<K>, Error>>, State<K>) {
    let fail = |e: kube::Error| (Some(Err(Error::InitialListFailed(e))), State::Empty);
    let envelope = match split.finish() {
        Ok(envelope) => envelope,
        Err(e) => return fail(Decode::Split(e).into()),
    };
    match envelope
        .metadata
        .resource_version
        .filter(|rv| !rv.is_empty())
    {
        Some(rv) => (Some(Ok(Event::InitDone)), State::Listed { rv }),
        None => (Some(Err(Error::NoResourceVersion)), State::Empty),
    }
}

/// The next watch event, `None` when the stream ended or stayed silent past its timeout.
async fn next_or_idle<S: Stream + Unpin>(stream: &mut S, timeout: Option<u32>) -> Option<S::Item> {
    if timeout == Some(0) {
        return stream.next().await;
    }
    let idle = Duration::from_secs(u64::from(timeout.unwrap_or(WATCH_TIMEOUT))) + IDLE_MARGIN;
    tokio::time::timeout(idle, stream.next())
        .await
        .ok()
        .flatten()
}

/// A watched object handed over as `event`, its resourceVersion the one to resume from.
fn object<K: Resource>(
    obj: K,
    event: fn(K) -> Event<K>,
    stream: BoxStream<'static, kube::Result<WatchEvent<K>>>,
) -> (Option<Result<Event<K>, Error>>, State<K>) {
    match obj.resource_version() {
        Some(rv) if !rv.is_empty() => (Some(Ok(event(obj))), State::Watching { rv, stream }),
        _ => (Some(Err(Error::NoResourceVersion)), State::Empty),
    }
}

/// What a watch event means (kube's semantics: a 410 relists, another error keeps watching,
/// the end of the stream resumes from the last resourceVersion seen).
fn watched<K: Resource>(
    next: Option<kube::Result<WatchEvent<K>>>,
    rv: String,
    stream: BoxStream<'static, kube::Result<WatchEvent<K>>>,
) -> (Option<Result<Event<K>, Error>>, State<K>) {
    match next {
        Some(Ok(WatchEvent::Added(obj) | WatchEvent::Modified(obj))) => {
            object(obj, Event::Apply, stream)
        }
        Some(Ok(WatchEvent::Deleted(obj))) => object(obj, Event::Delete, stream),
        Some(Ok(WatchEvent::Bookmark(bm))) => {
            let rv = bm.metadata.resource_version;
            (None, State::Watching { rv, stream })
        }
        Some(Ok(WatchEvent::Error(status))) => {
            let next = if status.code == 410 {
                State::Empty
            } else {
                State::Watching { rv, stream }
            };
            (Some(Err(Error::WatchError(status))), next)
        }
        Some(Err(e)) => (
            Some(Err(Error::WatchFailed(e))),
            State::Watching { rv, stream },
        ),
        None => (None, State::Listed { rv }),
    }
}
