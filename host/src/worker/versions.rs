//! The agent versions a worker steps, each read from the store once.
//!
//! A deployed version never changes in what a step uses: deploying the
//! same name and version with other bytes is refused, its grants are
//! fixed at that deploy, and versions are never removed (only its owner
//! can change, which no step reads). So its grants are read from the store
//! once and shared with every step's gate, without a statement, a parse or
//! a copy per step.

use std::collections::HashMap;
use std::sync::Arc;

use crate::store::{SqlStore, StoreError};

/// Versions kept at most; past it the worker starts a new set, so that a
/// long-lived worker over many deploys holds a bounded few.
const KEPT: usize = 64;

/// The tools each version was granted, by agent name, then version:
/// looked up without making a key.
#[derive(Default)]
pub(super) struct Versions(HashMap<String, HashMap<String, Arc<[String]>>>);

impl Versions {
    /// The tools `name@version` was granted at its deploy, or `None` when
    /// the store has no such version (not remembered: it may be deployed
    /// later).
    pub(super) fn granted(
        &mut self,
        store: &SqlStore,
        name: &str,
        version: &str,
    ) -> Result<Option<Arc<[String]>>, StoreError> {
        if let Some(found) = self.0.get(name).and_then(|versions| versions.get(version)) {
            return Ok(Some(found.clone()));
        }
        let Some(deployed) = store.agent(name, Some(version))? else {
            return Ok(None);
        };
        if self.0.values().map(HashMap::len).sum::<usize>() >= KEPT {
            self.0.clear();
        }
        let granted: Arc<[String]> = deployed.granted_tools.into();
        self.0
            .entry(name.to_string())
            .or_default()
            .insert(version.to_string(), granted.clone());
        Ok(Some(granted))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::AgentVersion;
    use crate::store::sql::SqlStore;

    fn deployed(version: &str) -> AgentVersion {
        AgentVersion {
            name: "mail".into(),
            version: version.into(),
            digest: format!("d-{version}"),
            description: String::new(),
            requested_tools: vec!["kv".into()],
            granted_tools: vec!["kv".into()],
            size: 4,
            deployed_at: 1,
            owner: None,
            deployed_by: None,
        }
    }

    #[test]
    fn a_version_is_read_once_and_one_not_deployed_is_looked_up_again() {
        let dir = std::env::temp_dir().join(format!("wakeful-versions-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut store = SqlStore::open(dir.join("store.db")).unwrap();
        store.put_agent(&deployed("1.0.0"), b"one").unwrap();
        let mut versions = Versions::default();

        let first = versions.granted(&store, "mail", "1.0.0").unwrap();
        assert_eq!(first.as_deref(), Some(&["kv".to_string()][..]));
        let statements = store.statements_run();
        let again = versions.granted(&store, "mail", "1.0.0").unwrap();
        assert_eq!(again.as_deref(), Some(&["kv".to_string()][..]));
        assert_eq!(
            store.statements_run(),
            statements,
            "read from the store again"
        );

        assert!(versions.granted(&store, "mail", "2.0.0").unwrap().is_none());
        let mut two = deployed("2.0.0");
        two.granted_tools = vec!["kv".into(), "pager".into()];
        store.put_agent(&two, b"two").unwrap();
        let later = versions.granted(&store, "mail", "2.0.0").unwrap();
        assert_eq!(later.as_deref().map(<[String]>::len), Some(2));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
