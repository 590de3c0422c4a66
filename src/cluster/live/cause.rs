//! Why a request to the API server failed, in an operator's words. kube's own text for a
//! transport failure names its layer, not the cause ("ServiceError: client error (Connect)");
//! the cause sits at the end of the error's source chain (a refused or timed-out connection,
//! a name that does not resolve, a certificate the client does not trust).
//!
//! An answer that is not a Kubernetes `Status` (a proxy's or a load balancer's plain text or
//! HTML, an empty body) reaches kube as a `Status` it made up with the reason "Failed to parse
//! error data"; that phrase is kube's, not the server's, and is never shown: the answer is
//! named by its HTTP status and the first line of its body.
//!
//! Owns: `cause_words`, `kube_words`, `status_words`, `has_message`. Pure: reads error values only.

use std::error::Error;
use std::io;

/// The failure of one request in one line: the API server's own message when it answered,
/// else the deepest cause of the source chain (an I/O error by its kind), else kube's text.
pub fn kube_words(error: &kube::Error) -> String {
    match error {
        kube::Error::Api(status) => status_words(status),
        other => cause_words(other),
    }
}

/// The reason kube gives the `Status` it makes up for an answer that is not one.
const NOT_A_STATUS: &str = "Failed to parse error data";

/// Whether the server answered with a Kubernetes `Status` carrying a message (not kube's
/// stand-in for a plain-text, HTML or empty answer).
pub fn has_message(status: &kube::core::Status) -> bool {
    status.reason != NOT_A_STATUS && !status.message.trim().is_empty()
}

/// The API server's answer in one line: its message; for an answer that was not a Kubernetes
/// `Status` (or one without a message), the HTTP status and the body's first line:
/// `HTTP 503 Service Unavailable: upstream connect error`.
pub fn status_words(status: &kube::core::Status) -> String {
    let body = first_line(&status.message);
    if has_message(status) {
        return body;
    }
    let code = http::StatusCode::from_u16(status.code).ok();
    let name = code.and_then(|c| c.canonical_reason()).unwrap_or_default();
    let http = format!("HTTP {} {name}", status.code);
    let http = http.trim_end();
    match (body.is_empty(), status.reason.as_str()) {
        (false, _) => format!("{http}: {body}"),
        (true, NOT_A_STATUS | "") => format!("{http} with an empty answer"),
        (true, reason) => format!("{http}: {reason}"),
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

    #[test]
    fn an_answer_that_is_not_a_status_is_named_by_its_http_status_and_first_line() {
        // What kube-client makes of a proxy's plain-text or empty answer.
        let made_up = |code: u16, body: &str| {
            let status = kube::core::Status::failure(body, NOT_A_STATUS).with_code(code);
            kube::Error::Api(Box::new(status))
        };
        let words = kube_words(&made_up(
            503,
            "upstream connect error\nreset reason: overflow",
        ));
        assert_eq!(
            words,
            "HTTP 503 Service Unavailable: upstream connect error"
        );
        let words = kube_words(&made_up(502, ""));
        assert_eq!(words, "HTTP 502 Bad Gateway with an empty answer");
        let words = kube_words(&made_up(404, "404 page not found"));
        assert_eq!(words, "HTTP 404 Not Found: 404 page not found");
        for e in [made_up(503, "x"), made_up(502, "")] {
            assert!(!kube_words(&e).contains("parse"), "{}", kube_words(&e));
        }
        let empty = kube::core::Status::failure("", "ServiceUnavailable").with_code(503);
        assert_eq!(
            status_words(&empty),
            "HTTP 503 Service Unavailable: ServiceUnavailable"
        );
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
