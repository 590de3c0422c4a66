//! OME's migration requests: the request annotation and its rules, building one for an
//! operator's approval, and the durable audit history.

mod approval;
mod draft;
mod history;
mod request;

pub use approval::{format_rfc3339_nano, MigrationRequest};
pub use draft::{DraftError, RequestDraft};
pub use history::{audit_configmap_name, parse_audit_history, AuditHistory};
pub use request::{
    annotation_key, parse_request_annotation, Component, ParsedRequest, RequestError,
    REQUEST_ANNOTATION_PREFIX,
};
