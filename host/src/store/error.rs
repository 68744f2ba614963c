//! What the store's methods fail with.

/// Failures of the store itself, or requests it refuses.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Db(String),
    #[error(
        "the data file {path} was written by a newer wakeful (schema {found}, this build knows up to {supported}); upgrade wakeful"
    )]
    TooNew {
        path: String,
        found: i64,
        supported: i64,
    },
    #[error("run {0} does not exist")]
    UnknownRun(String),
    #[error("run {0} already exists; choose another --id")]
    RunExists(String),
    #[error(
        "run id {0} belonged to a run that was pruned; run ids are never reused: choose another --id"
    )]
    RunIdRetired(String),
    #[error("no agent version has digest {0}")]
    UnknownDigest(String),
    #[error(
        "{name}@{version} is already deployed with other bytes (digest {existing}); bump the version its `info` reports"
    )]
    VersionConflict {
        name: String,
        version: String,
        existing: String,
    },
    #[error(
        "run {run_id} was claimed by another worker (epoch {epoch} is stale); this step's writes were discarded"
    )]
    LostClaim { run_id: String, epoch: u64 },
    /// A kv key or lease a step wrote was changed by someone else before
    /// the step committed: the step is void and retried.
    #[error("{0} before this step committed; the step is void and is retried")]
    Conflict(String),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    /// A stored value is larger than the limit its read is bounded by: it
    /// stays stored as it is, unread.
    #[error("stored data is too large to read: {0}")]
    TooLarge(String),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;
