//! The schema, as the migrations that build it. Append only: a migration
//! that has shipped is never edited.

/// Schema migrations: entry `i` takes the schema from version `i` to `i + 1`.
/// Append only; never edit a migration that has shipped.
pub(super) const MIGRATIONS: &[&str] = &[
    SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5, SCHEMA_V6, SCHEMA_V7, SCHEMA_V8,
    SCHEMA_V9, SCHEMA_V10, SCHEMA_V11, SCHEMA_V12, SCHEMA_V13, SCHEMA_V14, SCHEMA_V15, SCHEMA_V16,
];

/// The schema version this build writes (`PRAGMA user_version`).
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

const SCHEMA_V1: &str = r#"
CREATE TABLE agents (
    name            TEXT NOT NULL,
    version         TEXT NOT NULL,
    digest          TEXT NOT NULL UNIQUE,
    bytes           BLOB NOT NULL,
    description     TEXT NOT NULL,
    requested_tools TEXT NOT NULL,          -- JSON array of tool names
    granted_tools   TEXT NOT NULL,          -- JSON array of tool names
    size            INTEGER NOT NULL,
    deployed_at     INTEGER NOT NULL,
    owner           TEXT,                   -- the human who answers for this version
    UNIQUE (name, version)
);

CREATE TABLE runs (
    run_id        TEXT PRIMARY KEY NOT NULL,
    agent         TEXT NOT NULL,
    version       TEXT NOT NULL,
    digest        TEXT NOT NULL REFERENCES agents (digest),
    status        TEXT NOT NULL CHECK (status IN ('active', 'waiting', 'done', 'parked', 'cancelled')),
    status_text   TEXT,
    state         TEXT NOT NULL,
    outcome       TEXT,
    wake_when     TEXT,
    waits         TEXT NOT NULL,            -- JSON array of WaitFor
    steps         INTEGER NOT NULL,
    fuel_used     INTEGER NOT NULL,
    step_budget   INTEGER NOT NULL,         -- u64 stored bit for bit
    fuel_budget   INTEGER NOT NULL,         -- u64 stored bit for bit
    tokens_used   INTEGER NOT NULL DEFAULT 0,
    token_budget  INTEGER NOT NULL,         -- u64 stored bit for bit
    usd_used      REAL NOT NULL DEFAULT 0,
    usd_budget    REAL NOT NULL,            -- 0: no money limit
    attempts      INTEGER NOT NULL,
    last_error    TEXT,
    retry_at      INTEGER,
    input         TEXT NOT NULL,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    -- The wake an active run has to deliver that no other table holds.
    pending_wake  TEXT CHECK (pending_wake IN ('start', 'resume')),
    lease_owner   TEXT,
    lease_expires INTEGER,
    -- Bumped by every claim; writes under a claim must carry the current one.
    epoch         INTEGER NOT NULL
);
CREATE INDEX runs_by_status ON runs (status, updated_at);

CREATE TABLE checkpoints (
    run_id      TEXT NOT NULL REFERENCES runs (run_id),
    seq         INTEGER NOT NULL,
    version     TEXT NOT NULL,
    wake        TEXT,                       -- JSON Wake; NULL for an upgrade
    upgraded_from TEXT,                     -- the version an upgrade moved the run from
    state       TEXT NOT NULL,
    next        TEXT NOT NULL,              -- JSON Next
    status_text TEXT,
    fuel_used   INTEGER NOT NULL,
    at          INTEGER NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

-- The current waits of each run, replaced at every commit. `key` is the
-- event topic, the approval id, the `until` time or the cron expression.
CREATE TABLE waits (
    run_id TEXT NOT NULL REFERENCES runs (run_id),
    pos    INTEGER NOT NULL,
    kind   TEXT NOT NULL CHECK (kind IN ('event', 'approval', 'until', 'cron')),
    key    TEXT NOT NULL,
    due_at INTEGER,
    wait   TEXT NOT NULL,                   -- JSON WaitFor
    PRIMARY KEY (run_id, pos)
) WITHOUT ROWID;
CREATE INDEX waits_by_key ON waits (kind, key);
CREATE INDEX waits_by_due ON waits (due_at) WHERE due_at IS NOT NULL;

CREATE TABLE inbox (
    run_id           TEXT NOT NULL REFERENCES runs (run_id),
    event_id         TEXT NOT NULL,
    topic            TEXT NOT NULL,
    payload          TEXT NOT NULL,
    received_at      INTEGER NOT NULL,
    consumed_at_step INTEGER,
    UNIQUE (run_id, event_id)
);
CREATE INDEX inbox_unconsumed ON inbox (run_id, topic) WHERE consumed_at_step IS NULL;

CREATE TABLE approvals (
    run_id         TEXT NOT NULL REFERENCES runs (run_id),
    id             TEXT NOT NULL,
    question       TEXT NOT NULL,
    details        TEXT NOT NULL,
    details_digest TEXT NOT NULL,           -- lowercase hex SHA-256 of details
    token          TEXT NOT NULL UNIQUE,    -- 32 random bytes, hex
    requested_at   INTEGER NOT NULL,
    expires_at     INTEGER NOT NULL,
    answered       INTEGER NOT NULL CHECK (answered IN (0, 1)),
    approved       INTEGER CHECK (approved IN (0, 1)),
    answered_by    TEXT,
    answered_at    INTEGER,
    comment        TEXT,
    consumed       INTEGER NOT NULL CHECK (consumed IN (0, 1)),
    -- Set when a claim delivers `Expired` for this request: from then on no
    -- answer is taken, whatever time the answering process read.
    expiry_delivered INTEGER NOT NULL DEFAULT 0 CHECK (expiry_delivered IN (0, 1)),
    PRIMARY KEY (run_id, id)
);
-- Answers (and delivered expiries) waiting to be consumed by a step.
CREATE INDEX approvals_ready ON approvals (run_id)
    WHERE consumed = 0 AND (answered = 1 OR expiry_delivered = 1);

CREATE TABLE ledger (
    run_id TEXT NOT NULL REFERENCES runs (run_id),
    key    TEXT NOT NULL,
    tool   TEXT NOT NULL,
    args   TEXT NOT NULL,
    result TEXT NOT NULL,                   -- JSON {"Ok": text} or {"Err": ToolError}
    at     INTEGER NOT NULL,
    PRIMARY KEY (run_id, key)
) WITHOUT ROWID;

CREATE TABLE kv (
    key     TEXT PRIMARY KEY NOT NULL,
    value   TEXT,             -- NULL: deleted; the row keeps the version
    version INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE leases (
    resource   TEXT PRIMARY KEY NOT NULL,
    holder     TEXT NOT NULL,
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE switches (
    scope  TEXT PRIMARY KEY NOT NULL,
    reason TEXT,
    at     INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE audit (
    id     INTEGER PRIMARY KEY AUTOINCREMENT,
    at     INTEGER NOT NULL,
    run_id TEXT,
    kind   TEXT NOT NULL,
    data   TEXT NOT NULL                    -- JSON
);
CREATE INDEX audit_by_run ON audit (run_id, id);

-- Agents started at each tick of a cron expression. A run started by a
-- schedule has an id derived from the schedule and the tick, so a tick
-- fired twice (by two workers, or again after a crash) starts one run.
CREATE TABLE schedules (
    id          TEXT PRIMARY KEY NOT NULL,
    agent       TEXT NOT NULL,              -- name, or name@version
    cron        TEXT NOT NULL,
    input       TEXT NOT NULL,
    overlap     TEXT NOT NULL CHECK (overlap IN ('skip', 'allow')),
    next_at     INTEGER NOT NULL,
    last_run_id TEXT,
    created_at  INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX schedules_by_due ON schedules (next_at);
"#;

/// Exactly-once bookkeeping and runs told apart across id reuse.
const SCHEMA_V2: &str = r#"
-- Random per run: a run id reused after pruning is another incarnation, so
-- the idempotency keys it sends to the world never repeat the old ones.
ALTER TABLE runs ADD COLUMN incarnation TEXT NOT NULL DEFAULT '';
UPDATE runs SET incarnation = lower(hex(randomblob(16)));
-- The last broadcast sent before the run was created: broadcasts after it
-- reach the run whenever it waits on their topic.
ALTER TABLE runs ADD COLUMN broadcast_floor INTEGER NOT NULL DEFAULT 0;

-- SHA-256 of (tool, args): a key repeated with another call is refused.
-- NULL on rows recorded before this column existed.
ALTER TABLE ledger ADD COLUMN args_digest TEXT;

-- A call about to leave the host: written durably before it is sent, and
-- deleted in the transaction that records its result. An intent without a
-- result is a call whose outcome is unknown.
CREATE TABLE intents (
    run_id      TEXT NOT NULL REFERENCES runs (run_id),
    key         TEXT NOT NULL,
    tool        TEXT NOT NULL,
    args        TEXT NOT NULL,
    args_digest TEXT NOT NULL,
    epoch       INTEGER NOT NULL,
    at          INTEGER NOT NULL,
    PRIMARY KEY (run_id, key)
) WITHOUT ROWID;

-- Events sent to a topic, kept for `[retention] broadcast_hours` so that a
-- run live at the send receives it when it next waits on the topic.
CREATE TABLE broadcasts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    topic       TEXT NOT NULL,
    event_id    TEXT NOT NULL,
    payload     TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    UNIQUE (topic, event_id)
);
CREATE INDEX broadcasts_by_topic ON broadcasts (topic, id);
CREATE INDEX broadcasts_by_expiry ON broadcasts (expires_at);
"#;

/// Lists paged newest first, with or without a filter, read in index order
/// instead of sorting every run for each page.
const SCHEMA_V3: &str = r#"
CREATE INDEX runs_by_created ON runs (created_at, run_id);
CREATE INDEX runs_by_status_created ON runs (status, created_at, run_id);
CREATE INDEX runs_by_agent_created ON runs (agent, created_at, run_id);
"#;

/// Steps held by a kill switch, and run ids that outlive their runs.
const SCHEMA_V4: &str = r#"
-- The kill switch (its scope) that stopped a step in flight: the step was
-- abandoned unchanged, and the run is not claimed while that switch is on.
ALTER TABLE runs ADD COLUMN held_by TEXT;

-- Runs deleted by `prune`: their ids are never given to another run, and
-- their audit rows stay readable under the id.
CREATE TABLE retired_runs (
    run_id     TEXT PRIMARY KEY NOT NULL,
    agent      TEXT NOT NULL,
    version    TEXT NOT NULL,
    status     TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    ended_at   INTEGER NOT NULL,
    pruned_at  INTEGER NOT NULL
) WITHOUT ROWID;
"#;

/// Callback links: single-use URLs a run hands to another system, whose
/// POST becomes an event on the link's topic.
const SCHEMA_V5: &str = r#"
CREATE TABLE callbacks (
    token      TEXT PRIMARY KEY NOT NULL,   -- 32 random bytes, hex: the link's capability
    run_id     TEXT NOT NULL REFERENCES runs (run_id),
    id         TEXT NOT NULL,               -- the guest's name for the link
    topic      TEXT NOT NULL,               -- `callback:<id>`
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER,                     -- set once, by the POST that delivered
    used_from  TEXT,                        -- the client address of that POST
    UNIQUE (run_id, id)
) WITHOUT ROWID;
"#;

/// The hosts sharing a store, and an index to find what each is stepping.
pub(super) const SCHEMA_V6: &str = r#"
-- BIGINT, which SQLite reads as INTEGER: this text builds both stores.
-- Every `serve` (and `work`) process that uses the store: written at start
-- and at each heartbeat, marked stopped at a clean exit. A host whose
-- heartbeat is old died without saying so.
CREATE TABLE hosts (
    id           TEXT PRIMARY KEY NOT NULL,  -- <hostname>:<pid>, the prefix of its claims' owner
    kind         TEXT NOT NULL,              -- serve or work
    listen       TEXT,                       -- the API's address, for serve
    started_at   BIGINT NOT NULL,
    heartbeat_at BIGINT NOT NULL,
    stopped_at   BIGINT
);
CREATE INDEX runs_by_lease_owner ON runs (lease_owner) WHERE lease_owner IS NOT NULL;
"#;

/// A component's bytes move out of its `agents` row. SQLite keeps a row's
/// columns in order and a large value in a chain of overflow pages, so
/// every read of a column after `bytes` (the tools, the owner) walked the
/// whole component: tens of megabytes per step for a Python agent.
const SCHEMA_V7: &str = r#"
CREATE TABLE components (
    digest TEXT PRIMARY KEY NOT NULL REFERENCES agents (digest),
    bytes  BLOB NOT NULL
);
INSERT INTO components (digest, bytes) SELECT digest, bytes FROM agents;
ALTER TABLE agents DROP COLUMN bytes;
"#;

/// What woke a run, in the order it happened, so that a claim reads the
/// first woken runs off an index with a `LIMIT` instead of collecting and
/// sorting every woken run (20,000 runs woken by one event made each claim
/// sort 20,000 rows). Due waits already have `waits_by_due`.
pub(super) const SCHEMA_V8: &str = r#"
CREATE INDEX inbox_pending ON inbox (received_at) WHERE consumed_at_step IS NULL;
CREATE INDEX approvals_answered ON approvals (answered_at)
    WHERE consumed = 0 AND (answered = 1 OR expiry_delivered = 1);
"#;

/// A checkpoint's state stored as an edit of the previous checkpoint's
/// (`delta.rs`): 1 when `state` is such an edit, 0 when it is the whole
/// state text. Rows written before are whole.
pub(super) const SCHEMA_V9: &str = r#"
ALTER TABLE checkpoints ADD COLUMN state_is_edit INTEGER NOT NULL DEFAULT 0;
"#;

/// The history of ended runs, packed into one compressed row each
/// (`archive.rs`). No reference to `runs`: a pruned run's archive keeps its
/// audit rows.
pub(super) const SCHEMA_V10: &str = r#"
CREATE TABLE run_archives (
    run_id         TEXT PRIMARY KEY NOT NULL,
    first_audit_id INTEGER,                 -- the run's audit ids, first and last
    last_audit_id  INTEGER,
    span           INTEGER,                 -- last_audit_id - first_audit_id
    data           BLOB NOT NULL            -- format byte + zstd frame
);
CREATE INDEX run_archives_by_audit_ids ON run_archives (first_audit_id, last_audit_id);
CREATE INDEX run_archives_by_span ON run_archives (span);
"#;

/// Runs whose ending has committed and whose history is not packed into
/// its archive yet (`archive/ended.rs`): packed just after, outside the
/// ending transaction; a row stays only when the process stopped between.
pub(super) const SCHEMA_V11: &str = r#"
CREATE TABLE unpacked_runs (
    run_id TEXT PRIMARY KEY NOT NULL
) WITHOUT ROWID;
"#;

/// The checks on `runs.status` and `waits.kind` as comparisons instead of
/// `IN` lists. SQLite evaluates an `IN` list of more than two values
/// through a temporary table, built for every row written: every step's
/// commit paid for one per run row and per wait. The same values pass.
///
/// Only the text SQLite keeps for each table changes, not a page of its
/// data (SQLite's documented way of changing a constraint in place;
/// `sqlite::migrate` then bumps the schema cookie, so that every open
/// connection reads the new text).
pub(super) const SCHEMA_V12: &str = r#"
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
   SET sql = replace(sql,
       'CHECK (status IN (''active'', ''waiting'', ''done'', ''parked'', ''cancelled''))',
       'CHECK (status = ''active'' OR status = ''waiting'' OR status = ''done'' OR status = ''parked'' OR status = ''cancelled'')')
 WHERE type = 'table' AND name = 'runs';
UPDATE sqlite_schema
   SET sql = replace(sql,
       'CHECK (kind IN (''event'', ''approval'', ''until'', ''cron''))',
       'CHECK (kind = ''event'' OR kind = ''approval'' OR kind = ''until'' OR kind = ''cron'')')
 WHERE type = 'table' AND name = 'waits';
PRAGMA writable_schema = OFF;
"#;

/// Approvals the gate enforces: the answers counted towards a request's
/// quorum (a JSON list of `{by, approved, at, comment}`, one per
/// principal) and the calls it names that a tool call used (a JSON object
/// from the call's index in `details.calls` to that call's idempotency
/// key). Text on both stores: one SQL serves both.
pub(super) const SCHEMA_V13: &str = r#"
ALTER TABLE approvals ADD COLUMN votes TEXT NOT NULL DEFAULT '[]';
ALTER TABLE approvals ADD COLUMN used_calls TEXT NOT NULL DEFAULT '{}';
"#;

/// Who acted, as the host authenticated them, beside what they said.
/// `answered_said`: the name an approver typed (kept beside the
/// authenticated `answered_by`). `deployed_by`: the principal who deployed
/// a version, whom separation of duties keeps from answering its runs'
/// requests; NULL on versions deployed before it was recorded.
///
/// Link tokens are kept as their SHA-256 from this version on: SQLite's
/// migration hashes the stored ones in Rust (`sqlite::hash_link_tokens`),
/// PostgreSQL's in SQL (`PG_SCHEMA_V14`).
pub(super) const SCHEMA_V14: &str = r#"
ALTER TABLE approvals ADD COLUMN answered_said TEXT;
ALTER TABLE agents ADD COLUMN deployed_by TEXT;
"#;

/// The version whose migration hashes the stored link tokens.
pub(super) const HASHED_LINKS_VERSION: usize = 14;

/// Each principal's console sessions (`sessions.rs`): the generation baked
/// into their cookies' MAC, bumped by `wakeful tokens revoke`, and the
/// secret that keys it.
pub(super) const SCHEMA_V15: &str = r#"
CREATE TABLE principal_sessions (
    name       TEXT PRIMARY KEY NOT NULL,
    generation INTEGER NOT NULL,
    secret     TEXT NOT NULL
);
"#;

/// `kv` keys and leases move into namespaces (`tools/namespace.rs`): a
/// guest's bare key `K` is now stored as `agent/<agent>/K`. Who wrote an
/// existing key is not known (the ledger of pruned and archived runs is
/// gone, and operators' writes have none), so each key is copied into the
/// namespace of every agent that has a version granted `kv`: every such
/// agent reads what it read before, and none gains access to anything, as
/// every one of them could read every key. The key is also kept as
/// `shared/legacy/K`, so that nothing is lost when no agent has `kv`; only
/// a version granted `kv:shared/legacy` reaches it. A key already shaped like a
/// shared address (`shared/<ns>/<name>`) keeps it: its guests' address
/// means that namespace now, opened by `--grant kv:shared/<ns>`. Leases
/// are copied likewise, with their holders: a lease taken before stays
/// taken until it expires (its old holder string is no run's). The same
/// text runs on both stores.
pub(super) const SCHEMA_V16: &str = r#"
CREATE TABLE kv_before_namespaces AS SELECT key, value, version FROM kv;
DELETE FROM kv;
INSERT INTO kv (key, value, version)
SELECT key, value, version FROM kv_before_namespaces
 WHERE substr(key, 1, 7) = 'shared/' AND key LIKE 'shared/_%/_%';
INSERT INTO kv (key, value, version)
SELECT 'agent/' || a.name || '/' || k.key, k.value, k.version
  FROM kv_before_namespaces k,
       (SELECT DISTINCT name FROM agents WHERE granted_tools LIKE '%"kv"%') a
 WHERE NOT (substr(k.key, 1, 7) = 'shared/' AND k.key LIKE 'shared/_%/_%');
INSERT INTO kv (key, value, version)
SELECT 'shared/legacy/' || key, value, version FROM kv_before_namespaces
 WHERE NOT (substr(key, 1, 7) = 'shared/' AND key LIKE 'shared/_%/_%')
ON CONFLICT (key) DO NOTHING;
DROP TABLE kv_before_namespaces;

CREATE TABLE leases_before_namespaces AS SELECT resource, holder, expires_at FROM leases;
DELETE FROM leases;
INSERT INTO leases (resource, holder, expires_at)
SELECT resource, holder, expires_at FROM leases_before_namespaces
 WHERE substr(resource, 1, 7) = 'shared/' AND resource LIKE 'shared/_%/_%';
INSERT INTO leases (resource, holder, expires_at)
SELECT 'agent/' || a.name || '/' || l.resource, l.holder, l.expires_at
  FROM leases_before_namespaces l,
       (SELECT DISTINCT name FROM agents WHERE granted_tools LIKE '%"lease"%') a
 WHERE NOT (substr(l.resource, 1, 7) = 'shared/' AND l.resource LIKE 'shared/_%/_%');
DROP TABLE leases_before_namespaces;
"#;
