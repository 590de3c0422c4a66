//! On-demand reads the operator asks for (`protocol::Fetch`): one GET each, answered with an
//! `Update::Fetched`. Reads only, so a read-only session (`--readonly`) answers them too; they
//! run on their own worker, so a slow read never holds up a write or the other way round.
//!
//! Owns: `node_yaml`, `answer`, `spawn_fetch_worker`.

use k8s_openapi::api::core::v1::Node;
use kube::api::{Api, ApiResource, DynamicObject};
use kube::Client;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::cluster::live::cause::kube_words;
use crate::cluster::live::one_line;
use crate::cluster::object_yaml::object_yaml;
use crate::protocol::{Fetch, FetchError, Update};

/// The error of a read in one line: the API server's own message when it sent one, else
/// the transport's cause.
fn read_error(e: &kube::Error) -> FetchError {
    FetchError::Read(kube_words(e))
}

/// GETs Node `name` (every field, also those ome-top does not model) and writes it as
/// `kubectl get node NAME -o yaml` does: without `managedFields`, keys in order.
pub async fn node_yaml(client: &Client, name: &str) -> Result<String, FetchError> {
    // A dynamic object keeps every field the server sends, not only the typed ones.
    let api: Api<DynamicObject> = Api::all_with(client.clone(), &ApiResource::erase::<Node>(&()));
    let node = api.get(name).await.map_err(|e| read_error(&e))?;
    let mut value = serde_json::to_value(&node).map_err(|e| FetchError::Read(one_line(&e)))?;
    if let Some(obj) = value.as_object_mut() {
        obj.entry("apiVersion").or_insert_with(|| "v1".into());
        obj.entry("kind").or_insert_with(|| "Node".into());
    }
    Ok(object_yaml(value)?)
}

/// Performs one read.
pub async fn answer(client: &Client, fetch: &Fetch) -> Result<String, FetchError> {
    match fetch {
        Fetch::NodeYaml(node) => node_yaml(client, node).await,
    }
}

/// Answers reads one at a time, in arrival order, until `rx` closes or the app stops listening.
pub fn spawn_fetch_worker(
    client: Client,
    mut rx: mpsc::Receiver<Fetch>,
    tx: mpsc::Sender<Update>,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        while let Some(fetch) = rx.recv().await {
            let result = answer(&client, &fetch).await;
            if tx.send(Update::Fetched { fetch, result }).await.is_err() {
                break;
            }
        }
    })
}
