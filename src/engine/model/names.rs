//! Kubernetes name syntax, as the API server validates it: DNS-1123 subdomains, label
//! tokens (label values and the name part of qualified names) and qualified names (label
//! keys, condition types, topology keys). Shared by the Alfred config validator and the
//! scheduler-config reader so both judge a name the same way.
//!
//! Owns: `is_dns1123_subdomain`, `is_label_token`, `is_qualified_name`. Pure.

/// Kubernetes `IsDNS1123Subdomain`.
pub fn is_dns1123_subdomain(s: &str) -> bool {
    let alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    let label_ok = |l: &str| {
        let b = l.as_bytes();
        let inner = b.iter().all(|c| alnum(c) || *c == b'-');
        inner && b.first().is_some_and(alnum) && b.last().is_some_and(alnum)
    };
    !s.is_empty() && s.len() <= 253 && s.split('.').all(label_ok)
}

/// The name part of a qualified name, and any non-empty label value: ≤ 63 characters of
/// `[A-Za-z0-9._-]`, alphanumeric at both ends.
pub fn is_label_token(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: &u8| c.is_ascii_alphanumeric();
    let inner = b
        .iter()
        .all(|c| alnum(c) || matches!(c, b'-' | b'_' | b'.'));
    s.len() <= 63 && inner && b.first().is_some_and(alnum) && b.last().is_some_and(alnum)
}

/// Kubernetes `IsQualifiedName`: `[prefix/]name`, the prefix a DNS-1123 subdomain.
pub fn is_qualified_name(s: &str) -> bool {
    match s.split_once('/') {
        Some((prefix, name)) => is_dns1123_subdomain(prefix) && is_label_token(name),
        None => is_label_token(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualified_names() {
        for good in [
            "ome.io/topology-key",
            "rack",
            "topology.kubernetes.io/zone",
            "a_b.c",
        ] {
            assert!(is_qualified_name(good), "{good}");
        }
        for bad in ["gpu clique", "", "-a", "a/", "/a", "UPPER.io/x", "a/b/c"] {
            assert!(!is_qualified_name(bad), "{bad}");
        }
    }
}
