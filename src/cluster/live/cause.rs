//! Why a request to the API server failed, in an operator's words. kube's own text for a
//! transport failure names its layer, not the cause ("ServiceError: client error (Connect)");
//! the cause sits at the end of the error's source chain (a refused or timed-out connection,
//! a name that does not resolve, a certificate the client does not trust).
//!
//! Owns: `cause_words`, `kube_words`. Pure: reads error values only.

use std::error::Error;
use std::io;

/// The failure of one request in one line: the API server's own message when it answered,
/// else the deepest cause of the source chain (an I/O error by its kind), else kube's text.
pub fn kube_words(error: &kube::Error) -> String {
    match error {
        kube::Error::Api(status) if !status.message.is_empty() => first_line(&status.message),
        other => cause_words(other),
    }
}

/// The deepest cause of `error`'s source chain in one line; an I/O error is named by its
/// kind ("connection refused"), without the OS error number.
pub fn cause_words(error: &(dyn Error + 'static)) -> String {
    let mut deepest = error;
    let mut next = Some(error);
    while let Some(e) = next {
        if let Some(io) = e.downcast_ref::<io::Error>() {
            if let Some(words) = io_words(io) {
                return words;
            }
        }
        deepest = e;
        next = e.source();
    }
    first_line(&deepest.to_string())
}

/// An I/O error by its kind, when the kind says it better than the text; `None` for an
/// error that wraps another (its inner error is walked next) or says nothing by its kind.
fn io_words(error: &io::Error) -> Option<String> {
    let words = match error.kind() {
        io::ErrorKind::ConnectionRefused => "connection refused",
        io::ErrorKind::TimedOut => "connection timed out",
        io::ErrorKind::ConnectionReset => "connection reset by the server",
        io::ErrorKind::ConnectionAborted => "connection aborted",
        io::ErrorKind::HostUnreachable => "host unreachable",
        io::ErrorKind::NetworkUnreachable => "network unreachable",
        io::ErrorKind::AddrNotAvailable => "address not available",
        io::ErrorKind::PermissionDenied => "connection not permitted",
        _ if error
            .get_ref()
            .is_some_and(|inner| inner.source().is_some()) =>
        {
            return None
        }
        _ => return Some(without_os_code(&first_line(&error.to_string()))),
    };
    Some(words.to_string())
}

/// `text` without a trailing ` (os error N)`.
fn without_os_code(text: &str) -> String {
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_string(),
        _ => text.to_string(),
    }
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or_default().trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("client error (Connect)")]
    struct Layer(#[source] Box<dyn Error + Send + Sync>);

    #[test]
    fn a_refused_connection_is_named_by_its_kind() {
        let io = io::Error::from(io::ErrorKind::ConnectionRefused);
        let chain = Layer(Box::new(Layer(Box::new(io))));
        assert_eq!(cause_words(&chain), "connection refused");
    }

    #[test]
    fn another_io_error_keeps_its_text_without_the_os_code() {
        let io = io::Error::other(
            "failed to lookup address information: Name or service not known (os error -2)",
        );
        assert_eq!(
            cause_words(&Layer(Box::new(io))),
            "failed to lookup address information: Name or service not known"
        );
    }

    #[test]
    fn the_deepest_cause_speaks_when_no_io_error_is_in_the_chain() {
        #[derive(Debug, thiserror::Error)]
        #[error("invalid peer certificate: UnknownIssuer\nmore")]
        struct Tls;
        assert_eq!(
            cause_words(&Layer(Box::new(Tls))),
            "invalid peer certificate: UnknownIssuer"
        );
    }

    #[test]
    fn an_api_answer_is_the_servers_message() {
        let status = kube::core::Status::failure("nodes is forbidden: User \"x\"", "Forbidden")
            .with_code(403);
        let e = kube::Error::Api(Box::new(status));
        assert_eq!(kube_words(&e), "nodes is forbidden: User \"x\"");
    }

    #[tokio::test]
    async fn a_closed_port_reads_as_refused() {
        // Port 1 on loopback: nothing listens there on a test machine.
        let config = kube::Config::new("https://127.0.0.1:1".parse().unwrap());
        let client = kube::Client::try_from(config).unwrap();
        let e = client.apiserver_version().await.unwrap_err();
        assert_eq!(kube_words(&e), "connection refused", "{e:?}");
    }
}
