//! Alfred's model check (`alfred.md` §6.4 step 1, `inferencereplica.md` §5): before the
//! eligibility baseline, a component whose model cannot be resolved is `ModelUnresolved`, and
//! one whose model lives on a ReadWriteOnce or ReadWriteOncePod claim is `VolumePinned` (the
//! surge pod could not mount it on another node).
//!
//! Owns: `model_check`, `parse_pvc_uri`. Pure.

use crate::engine::model::vocab::AdvisoryReason;
use crate::engine::model::{BaseModel, ClusterSnapshot, InferenceService};

/// A parsed `pvc://[namespace:]claim/sub-path` storage URI (OME's format; the namespace
/// defaults to the model's own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PvcUri<'a> {
    /// Explicit namespace, if the URI names one.
    pub namespace: Option<&'a str>,
    /// Claim name.
    pub claim: &'a str,
}

/// Parses a `pvc://` URI; `None` for other schemes and for malformed ones (no claim name or no
/// sub-path, which OME rejects).
pub fn parse_pvc_uri(uri: &str) -> Option<PvcUri<'_>> {
    let rest = uri.strip_prefix("pvc://")?;
    let (first, sub_path) = rest.split_once('/')?;
    if sub_path.is_empty() {
        return None;
    }
    let (namespace, claim) = match first.split_once(':') {
        Some((ns, claim)) => (Some(ns).filter(|n| !n.is_empty()), claim),
        None => (None, first),
    };
    (!claim.is_empty()).then_some(PvcUri { namespace, claim })
}

fn find_model<'a>(snap: &'a ClusterSnapshot, isvc: &InferenceService) -> Option<&'a BaseModel> {
    let model = isvc.model.as_ref()?;
    let namespace = match model.kind.as_ref() {
        "ClusterBaseModel" => "",
        "BaseModel" => isvc.namespace().as_ref(),
        _ => return None,
    };
    snap.models
        .iter()
        .find(|m| m.namespace.as_ref() == namespace && m.name == model.name)
}

/// The model check of one InferenceService: `Ok` when the model resolves and is not pinned to
/// one node's volume. A service that names no model, or a snapshot without a model listing,
/// passes (nothing to check).
pub fn model_check(snap: &ClusterSnapshot, isvc: &InferenceService) -> Result<(), AdvisoryReason> {
    if !snap.models_listed || isvc.model.is_none() {
        return Ok(());
    }
    let model = find_model(snap, isvc).ok_or(AdvisoryReason::ModelUnresolved)?;
    let Some(uri) = model.storage_uri.as_deref() else {
        return Ok(());
    };
    if !uri.starts_with("pvc://") {
        return Ok(());
    }
    let pvc = parse_pvc_uri(uri).ok_or(AdvisoryReason::ModelUnresolved)?;
    // A ClusterBaseModel has no namespace of its own; its claim must name one.
    let namespace = pvc
        .namespace
        .or_else(|| (!model.is_cluster_scoped()).then_some(model.namespace.as_ref()))
        .ok_or(AdvisoryReason::ModelUnresolved)?;
    let claim = snap
        .volume_claims
        .iter()
        .find(|c| c.namespace.as_ref() == namespace && c.name.as_ref() == pvc.claim)
        .ok_or(AdvisoryReason::ModelUnresolved)?;
    let pinned = claim
        .access_modes
        .iter()
        .any(|m| matches!(m.as_ref(), "ReadWriteOnce" | "ReadWriteOncePod"));
    if pinned {
        Err(AdvisoryReason::VolumePinned)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::testkit::isvc;
    use crate::engine::model::{ModelRef, VolumeClaim};
    use std::sync::Arc;

    fn model(ns: &str, name: &str, uri: Option<&str>) -> BaseModel {
        BaseModel {
            namespace: Arc::from(ns),
            name: Arc::from(name),
            storage_uri: uri.map(str::to_string),
        }
    }

    fn claim(ns: &str, name: &str, modes: &[&str]) -> VolumeClaim {
        VolumeClaim {
            namespace: Arc::from(ns),
            name: Arc::from(name),
            access_modes: modes.iter().map(|m| Arc::from(*m)).collect(),
        }
    }

    fn serving(kind: &str, name: &str) -> InferenceService {
        let mut s = isvc("prod", "svc");
        s.model = Some(ModelRef {
            kind: Arc::from(kind),
            name: Arc::from(name),
        });
        s
    }

    fn snap(models: Vec<BaseModel>, claims: Vec<VolumeClaim>) -> ClusterSnapshot {
        ClusterSnapshot {
            models: models.into(),
            models_listed: true,
            volume_claims: claims.into(),
            ..ClusterSnapshot::default()
        }
    }

    #[test]
    fn pvc_uris_parse_as_ome_does() {
        let p = parse_pvc_uri("pvc://models/llama").unwrap();
        assert_eq!((p.namespace, p.claim), (None, "models"));
        let p = parse_pvc_uri("pvc://team-a:models/llama/v1").unwrap();
        assert_eq!((p.namespace, p.claim), (Some("team-a"), "models"));
        assert_eq!(parse_pvc_uri("pvc://models"), None);
        assert_eq!(parse_pvc_uri("pvc://models/"), None);
        assert_eq!(parse_pvc_uri("pvc:///x"), None);
        assert_eq!(parse_pvc_uri("hf://org/model"), None);
    }

    #[test]
    fn unlisted_models_and_unnamed_models_pass() {
        let mut s = snap(vec![], vec![]);
        assert_eq!(model_check(&s, &isvc("prod", "svc")), Ok(()));
        s.models_listed = false;
        assert_eq!(model_check(&s, &serving("BaseModel", "gone")), Ok(()));
    }

    #[test]
    fn a_missing_model_is_unresolved() {
        let s = snap(vec![model("other", "llama", None)], vec![]);
        assert_eq!(
            model_check(&s, &serving("BaseModel", "llama")),
            Err(AdvisoryReason::ModelUnresolved)
        );
        assert_eq!(
            model_check(&s, &serving("ClusterBaseModel", "llama")),
            Err(AdvisoryReason::ModelUnresolved)
        );
        assert_eq!(
            model_check(&s, &serving("FineTunedWeight", "llama")),
            Err(AdvisoryReason::ModelUnresolved)
        );
    }

    #[test]
    fn object_storage_models_resolve() {
        let s = snap(vec![model("", "llama", Some("hf://meta/llama"))], vec![]);
        assert_eq!(
            model_check(&s, &serving("ClusterBaseModel", "llama")),
            Ok(())
        );
    }

    #[test]
    fn claims_decide_between_pinned_unresolved_and_shared() {
        let models = vec![
            model("prod", "rwo", Some("pvc://rwo-claim/m")),
            model("prod", "rwop", Some("pvc://rwop-claim/m")),
            model("prod", "rwx", Some("pvc://shared:rwx-claim/m")),
            model("prod", "nopvc", Some("pvc://missing/m")),
            model("", "cluster", Some("pvc://rwx-claim/m")),
        ];
        let claims = vec![
            claim("prod", "rwo-claim", &["ReadWriteOnce"]),
            claim("prod", "rwop-claim", &["ReadWriteOncePod"]),
            claim("shared", "rwx-claim", &["ReadWriteMany", "ReadOnlyMany"]),
        ];
        let s = snap(models, claims);
        let check = |name| model_check(&s, &serving("BaseModel", name));
        assert_eq!(check("rwo"), Err(AdvisoryReason::VolumePinned));
        assert_eq!(check("rwop"), Err(AdvisoryReason::VolumePinned));
        assert_eq!(check("rwx"), Ok(()));
        assert_eq!(check("nopvc"), Err(AdvisoryReason::ModelUnresolved));
        // A ClusterBaseModel's claim without a namespace cannot be located.
        assert_eq!(
            model_check(&s, &serving("ClusterBaseModel", "cluster")),
            Err(AdvisoryReason::ModelUnresolved)
        );
    }
}
