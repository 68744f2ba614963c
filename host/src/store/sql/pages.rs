//! Lists read a page at a time, and counts the database makes itself: what
//! the API serves, so that its answers take the same time at a hundred
//! runs or a hundred thousand. Pages are keyset-paged (a cursor, never an
//! offset) along an index: runs by `(created_at, run_id)` newest first,
//! audit rows by id oldest first, kv keys in key order.

use super::db::{Connection, OptionalExtension, ToSql, params};

use super::Context;
use super::SqlStore;
use super::audit::{self, AuditRecord};
use super::runs::RunRow;
use crate::model::Millis;
use crate::store::{
    AuditRow, KvEntry, Page, Result, Run, RunFilter, RunStatus, StoreError, WaitingOn,
};

/// Lists a page at a time, and counts, for the API.
impl SqlStore {
    /// Up to `limit` runs matching `filter`, newest first (by creation
    /// time, then id), after the run `after` names (the previous page's
    /// `next`). A list shows summaries: each run's `state` and `input` are
    /// left empty, `run` reads one whole. [`StoreError::UnknownRun`] when
    /// `after` names no run (it was pruned meanwhile).
    pub fn runs_page(
        &self,
        filter: &RunFilter,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Page<Run, String>> {
        runs_page(&self.conn, filter, after, limit)
    }

    /// Up to `limit` audit rows with an id above `after`, oldest first;
    /// only one run's rows with `run_id`.
    pub fn audit_page(
        &self,
        run_id: Option<&str>,
        after: Option<u64>,
        limit: usize,
    ) -> Result<Page<AuditRow, u64>> {
        audit_page(&self.conn, run_id, after, limit)
    }

    /// How many runs have each status (every status, zeros included),
    /// counted by the database without reading a run.
    pub fn run_counts(&self) -> Result<Vec<(RunStatus, u64)>> {
        run_counts(&self.conn)
    }

    /// Up to `limit` kv keys that start with `prefix` and have a value, in
    /// key order, after the key `after` (the previous page's `next`).
    pub fn kv_page(
        &self,
        prefix: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Page<KvEntry, String>> {
        kv_page(&self.conn, prefix, after, limit)
    }
}

/// The columns `RunRow::from_row` reads, with the two that can be large
/// (state, input) left out of a list.
const RUN_SUMMARY_COLUMNS: &str = "run_id, agent, version, digest, status, status_text, \
     '' AS state, outcome, wake_when, waits, steps, fuel_used, step_budget, fuel_budget, \
     tokens_used, token_budget, usd_used, usd_budget, attempts, last_error, retry_at, \
     '' AS input, created_at, updated_at, incarnation, held_by";

/// Reads `limit + 1` rows to learn whether there is a next page; its
/// cursor is the last row shown.
fn page<T, C>(mut rows: Vec<T>, limit: usize, cursor: impl Fn(&T) -> C) -> Page<T, C> {
    let next = if rows.len() > limit {
        rows.truncate(limit);
        rows.last().map(cursor)
    } else {
        None
    };
    Page { items: rows, next }
}

pub(super) fn runs_page(
    conn: &Connection,
    filter: &RunFilter,
    after: Option<&str>,
    limit: usize,
) -> Result<Page<Run, String>> {
    let status = filter.status.map(RunStatus::as_str);
    let after_key: Option<(Millis, &str)> = match after {
        None => None,
        Some(run_id) => {
            let created_at: Option<Millis> = conn
                .prepare_cached("SELECT created_at FROM runs WHERE run_id = ?1")
                .and_then(|mut stmt| stmt.query_row([run_id], |row| row.get(0)).optional())
                .ctx_with(|| format!("looking up run {run_id}"))?;
            let created_at = created_at.ok_or_else(|| StoreError::UnknownRun(run_id.into()))?;
            Some((created_at, run_id))
        }
    };
    // One statement per combination of filters, each a plain conjunction
    // that an index of (filter, created_at, run_id) serves in order.
    let mut sql = format!("SELECT {RUN_SUMMARY_COLUMNS} FROM runs WHERE 1 = 1");
    let mut args: Vec<&dyn ToSql> = Vec::new();
    if let Some(status) = &status {
        args.push(status);
        sql.push_str(&format!(" AND status = ?{}", args.len()));
    }
    if let Some(agent) = &filter.agent {
        args.push(agent);
        sql.push_str(&format!(" AND agent = ?{}", args.len()));
    }
    if let Some(version) = &filter.version {
        args.push(version);
        sql.push_str(&format!(" AND version = ?{}", args.len()));
    }
    // A run's current waits are its rows in `waits` (replaced at each
    // commit, dropped when it ends), found through `waits_by_key`.
    match &filter.waiting_on {
        None => {}
        Some(WaitingOn::Topic(topic)) => {
            args.push(topic);
            sql.push_str(&format!(
                " AND run_id IN (SELECT run_id FROM waits WHERE kind = 'event' AND key = ?{})",
                args.len()
            ));
        }
        Some(WaitingOn::Approval) => {
            sql.push_str(" AND run_id IN (SELECT run_id FROM waits WHERE kind = 'approval')")
        }
        Some(WaitingOn::Timer) => sql
            .push_str(" AND run_id IN (SELECT run_id FROM waits WHERE kind IN ('until', 'cron'))"),
    }
    if let Some((created_at, run_id)) = &after_key {
        args.push(created_at);
        args.push(run_id);
        sql.push_str(&format!(
            " AND (created_at, run_id) < (?{}, ?{})",
            args.len() - 1,
            args.len()
        ));
    }
    let fetch = limit.saturating_add(1) as i64;
    args.push(&fetch);
    sql.push_str(&format!(
        " ORDER BY created_at DESC, run_id DESC LIMIT ?{}",
        args.len()
    ));
    let rows = conn
        .prepare_cached(&sql)
        .and_then(|mut stmt| {
            stmt.query_map(&args[..], RunRow::from_row)?
                .collect::<super::db::Result<Vec<_>>>()
        })
        .ctx("listing runs")?;
    let runs = rows
        .into_iter()
        .map(RunRow::into_run)
        .collect::<Result<Vec<_>>>()?;
    Ok(page(runs, limit, |r| r.run_id.clone()))
}

pub(super) fn audit_page(
    conn: &Connection,
    run_id: Option<&str>,
    after: Option<u64>,
    limit: usize,
) -> Result<Page<AuditRow, u64>> {
    let after_id = after.unwrap_or(0);
    let (after, fetch) = (after_id as i64, limit.saturating_add(1));
    let mut records = match run_id {
        Some(run_id) => {
            let live = conn
                .prepare_cached(
                    "SELECT id, at, run_id, kind, data FROM audit \
                     WHERE run_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3",
                )
                .and_then(|mut stmt| {
                    stmt.query_map(params![run_id, after, fetch as i64], AuditRecord::from_row)?
                        .collect::<super::db::Result<Vec<_>>>()
                })
                .ctx_with(|| format!("reading the audit log of run {run_id}"))?;
            let archived = super::archive::read(conn, run_id)?.audit(run_id, after_id);
            audit::merge(live, archived)
        }
        None => {
            let live = conn
                .prepare_cached(
                    "SELECT id, at, run_id, kind, data FROM audit WHERE id > ?1 \
                     ORDER BY id LIMIT ?2",
                )
                .and_then(|mut stmt| {
                    stmt.query_map(params![after, fetch as i64], AuditRecord::from_row)?
                        .collect::<super::db::Result<Vec<_>>>()
                })
                .ctx("reading the audit log")?;
            // A full page of live rows bounds the ids archived rows can
            // take a place in it with.
            let up_to = (live.len() >= fetch).then(|| live[fetch - 1].id);
            let archived = super::archive::audit_between(conn, after_id, up_to, fetch)?;
            audit::merge(live, archived)
        }
    };
    records.truncate(fetch);
    let rows = records
        .into_iter()
        .map(AuditRecord::into_row)
        .collect::<Result<Vec<_>>>()?;
    Ok(page(rows, limit, |r| r.id))
}

/// The keys that start with `prefix` and have a value (a deleted key is
/// absent), in key order, after the key `after`. Both bounds are ranges of
/// the primary key: a page reads its own rows and the next one, never the
/// keys outside the prefix.
pub(super) fn kv_page(
    conn: &Connection,
    prefix: &str,
    after: Option<&str>,
    limit: usize,
) -> Result<Page<KvEntry, String>> {
    let (lower_op, lower) = match after {
        Some(after) if after >= prefix => (">", after),
        _ => (">=", prefix),
    };
    let upper = prefix_end(prefix);
    let fetch = limit.saturating_add(1) as i64;
    let mut args: Vec<&dyn ToSql> = vec![&lower, &fetch];
    let mut sql =
        format!("SELECT key, value, version FROM kv WHERE key {lower_op} ?1 AND value IS NOT NULL");
    if let Some(upper) = &upper {
        args.push(upper);
        sql.push_str(" AND key < ?3");
    }
    sql.push_str(" ORDER BY key LIMIT ?2");
    let rows = conn
        .prepare_cached(&sql)
        .and_then(|mut stmt| {
            stmt.query_map(&args[..], |row| {
                Ok(KvEntry {
                    key: row.get(0)?,
                    value: row.get(1)?,
                    version: row.get(2)?,
                })
            })?
            .collect::<super::db::Result<Vec<_>>>()
        })
        .ctx_with(|| format!("listing kv keys starting with `{prefix}`"))?;
    Ok(page(rows, limit, |e| e.key.clone()))
}

/// The least string above every string that starts with `prefix` (`None`:
/// no bound). SQLite compares text as UTF-8 bytes, which order like the
/// code points, so the prefix with its last character bumped will do.
fn prefix_end(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(last) = chars.pop() {
        let bumped = (last as u32 + 1..=char::MAX as u32).find_map(char::from_u32);
        if let Some(bumped) = bumped {
            chars.push(bumped);
            return Some(chars.into_iter().collect());
        }
    }
    None
}

pub(super) fn run_counts(conn: &Connection) -> Result<Vec<(RunStatus, u64)>> {
    let counted: Vec<(String, u64)> = conn
        .prepare_cached("SELECT status, COUNT(*) FROM runs GROUP BY status")
        .and_then(|mut stmt| {
            stmt.query_map(params![], |row| Ok((row.get(0)?, row.get(1)?)))?
                .collect::<super::db::Result<Vec<_>>>()
        })
        .ctx("counting runs by status")?;
    let all = [
        RunStatus::Active,
        RunStatus::Waiting,
        RunStatus::Done,
        RunStatus::Parked,
        RunStatus::Cancelled,
    ];
    Ok(all
        .into_iter()
        .map(|status| {
            let n = counted
                .iter()
                .find(|(s, _)| s == status.as_str())
                .map_or(0, |(_, n)| *n);
            (status, n)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::SqlStore;
    use crate::store::{
        AgentVersion, AuditEntry, KvOp, KvOutcome, LeaseOp, NewRun, RunFilter, RunStatus,
        StoreError, Switch, WaitingOn,
    };

    fn store(name: &str) -> (SqlStore, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("wakeful-pages-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut store = SqlStore::open(dir.join("wakeful.db")).unwrap();
        for name in ["mail", "pager"] {
            let version = AgentVersion {
                name: name.into(),
                version: "1.0.0".into(),
                digest: format!("d-{name}"),
                description: String::new(),
                requested_tools: vec![],
                granted_tools: vec![],
                size: 4,
                deployed_at: 1,
                owner: None,
                deployed_by: None,
            };
            store.put_agent(&version, b"\0asm").unwrap();
        }
        (store, dir)
    }

    fn start(store: &mut SqlStore, run_id: &str, agent: &str, created_at: u64) {
        store
            .create_run(&NewRun {
                run_id: run_id.into(),
                agent: agent.into(),
                version: "1.0.0".into(),
                digest: format!("d-{agent}"),
                input: "{\"big\":true}".into(),
                step_budget: 10,
                fuel_budget: 10,
                token_budget: 10,
                usd_budget: 0.0,
                created_at,
            })
            .unwrap();
    }

    fn entry(kind: &str) -> AuditEntry {
        AuditEntry {
            run_id: None,
            kind: kind.into(),
            data: json!({}),
        }
    }

    #[test]
    fn runs_come_newest_first_a_page_at_a_time_ties_broken_by_id() {
        let (mut store, dir) = store("runs");
        // Two runs created in the same millisecond.
        for (id, agent, at) in [
            ("a", "mail", 1),
            ("b", "pager", 2),
            ("c", "mail", 2),
            ("d", "mail", 3),
        ] {
            start(&mut store, id, agent, at);
        }
        let all = RunFilter::default();
        let first = store.runs_page(&all, None, 2).unwrap();
        let ids: Vec<_> = first.items.iter().map(|r| r.run_id.as_str()).collect();
        assert_eq!((ids, first.next.as_deref()), (vec!["d", "c"], Some("c")));
        assert!(first.items[0].input.is_empty(), "a list leaves input out");
        let second = store.runs_page(&all, Some("c"), 2).unwrap();
        let ids: Vec<_> = second.items.iter().map(|r| r.run_id.as_str()).collect();
        assert_eq!((ids, second.next), (vec!["b", "a"], None));

        let mail = RunFilter {
            status: Some(RunStatus::Active),
            agent: Some("mail".into()),
            ..RunFilter::default()
        };
        let page = store.runs_page(&mail, Some("d"), 10).unwrap();
        let ids: Vec<_> = page.items.iter().map(|r| r.run_id.as_str()).collect();
        assert_eq!(ids, ["c", "a"]);
        let done = RunFilter {
            status: Some(RunStatus::Done),
            ..RunFilter::default()
        };
        assert!(store.runs_page(&done, None, 10).unwrap().items.is_empty());
        assert!(matches!(
            store.runs_page(&all, Some("ghost"), 10),
            Err(StoreError::UnknownRun(id)) if id == "ghost"
        ));

        let counts = store.run_counts().unwrap();
        assert_eq!(counts.len(), 5);
        assert!(counts.contains(&(RunStatus::Active, 4)));
        assert!(counts.contains(&(RunStatus::Done, 0)));
        drop(store);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn runs_are_filtered_by_version_and_by_what_they_wait_on() {
        let (mut store, dir) = store("waiting");
        for (id, agent) in [("t", "mail"), ("a", "mail"), ("c", "pager"), ("n", "pager")] {
            start(&mut store, id, agent, 1);
        }
        store
            .conn
            .execute_batch(
                "UPDATE runs SET version = '2.0.0' WHERE run_id = 'c';
                 INSERT INTO waits (run_id, pos, kind, key, due_at, wait) VALUES
                   ('t', 0, 'event', 'mail:invoice', NULL, '{}'),
                   ('t', 1, 'until', '', 5, '{}'),
                   ('a', 0, 'approval', 'ok?', NULL, '{}'),
                   ('c', 0, 'cron', '0 9 * * *', 7, '{}');",
            )
            .unwrap();
        let ids = |filter: RunFilter| -> Vec<String> {
            let page = store.runs_page(&filter, None, 10).unwrap();
            page.items.into_iter().map(|r| r.run_id).collect()
        };
        let on = |text: &str| RunFilter {
            waiting_on: WaitingOn::parse(text),
            ..RunFilter::default()
        };
        assert_eq!(ids(on("mail:invoice")), ["t"]);
        assert_eq!(ids(on("approval")), ["a"]);
        assert_eq!(ids(on("timer")), ["t", "c"]);
        assert!(ids(on("ok?")).is_empty(), "an approval is not a topic");
        let v2 = RunFilter {
            version: Some("2.0.0".into()),
            ..RunFilter::default()
        };
        assert_eq!(ids(v2), ["c"]);
        let v1_timer = RunFilter {
            version: Some("1.0.0".into()),
            ..on("timer")
        };
        assert_eq!(ids(v1_timer), ["t"]);
        drop(store);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn audit_rows_come_oldest_first_after_a_cursor() {
        let (mut store, dir) = store("audit");
        start(&mut store, "a", "mail", 1);
        for n in 0..5 {
            store.append_audit(&entry(&format!("k{n}")), n).unwrap();
        }
        let whole = store.audit(None).unwrap();
        let first = store.audit_page(None, None, 4).unwrap();
        assert_eq!(first.items.len(), 4);
        assert_eq!(first.next, Some(first.items[3].id));
        let rest = store.audit_page(None, first.next, 4).unwrap();
        assert_eq!(rest.next, None);
        let paged: Vec<u64> = first
            .items
            .iter()
            .chain(&rest.items)
            .map(|r| r.id)
            .collect();
        let ids: Vec<u64> = whole.iter().map(|r| r.id).collect();
        assert_eq!(paged, ids);
        let of_run = store.audit_page(Some("a"), None, 10).unwrap();
        assert_eq!(of_run.items.len(), store.audit(Some("a")).unwrap().len());
        drop(store);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn kv_keys_come_in_order_within_their_prefix_a_page_at_a_time() {
        let (mut store, dir) = store("kv");
        for key in ["a/2", "a/1", "a", "a0", "b/1", "a/3", "a/\u{10FFFF}"] {
            let put = KvOp::Put {
                key: key.into(),
                value: format!("\"{key}\""),
                expected_version: None,
            };
            store.kv(&put).unwrap();
        }
        let delete = KvOp::Delete {
            key: "a/3".into(),
            expected_version: None,
        };
        store.kv(&delete).unwrap();
        let keys = |page: &crate::store::Page<crate::store::KvEntry, String>| {
            page.items.iter().map(|e| e.key.clone()).collect::<Vec<_>>()
        };
        let first = store.kv_page("a/", None, 2).unwrap();
        assert_eq!(keys(&first), ["a/1", "a/2"]);
        assert_eq!(first.next.as_deref(), Some("a/2"));
        assert_eq!(first.items[0].value.as_deref(), Some("\"a/1\""));
        assert_eq!(first.items[0].version, 1);
        let rest = store.kv_page("a/", first.next.as_deref(), 2).unwrap();
        assert_eq!(keys(&rest), ["a/\u{10FFFF}"], "a deleted key is not listed");
        assert_eq!(rest.next, None);
        let all = store.kv_page("", None, 100).unwrap();
        assert_eq!(keys(&all), ["a", "a/1", "a/2", "a/\u{10FFFF}", "a0", "b/1"]);
        let after_b = store.kv_page("", Some("a0"), 100).unwrap();
        assert_eq!(keys(&after_b), ["b/1"]);
        assert!(store.kv_page("c", None, 10).unwrap().items.is_empty());
        assert_eq!(super::prefix_end("a/"), Some("a0".into()));
        assert_eq!(super::prefix_end("\u{10FFFF}"), None);
        assert_eq!(super::prefix_end("x\u{D7FF}"), Some("x\u{E000}".into()));
        drop(store);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn an_operator_write_whose_audit_row_fails_changes_nothing() {
        let (mut store, dir) = store("audited");
        store
            .conn
            .execute_batch(
                "CREATE TRIGGER no_audit BEFORE INSERT ON audit \
                 BEGIN SELECT RAISE(ABORT, 'the audit log is full'); END;",
            )
            .unwrap();
        let put = KvOp::Put {
            key: "k".into(),
            value: "1".into(),
            expected_version: None,
        };
        assert!(store.kv_audited(&put, &|_| entry("kv write"), 1).is_err());
        let read = store.kv(&KvOp::Get { key: "k".into() }).unwrap();
        assert!(
            matches!(read, KvOutcome::Read(e) if e.version == 0),
            "no write"
        );

        let run = NewRun {
            run_id: "r1".into(),
            agent: "mail".into(),
            version: "1.0.0".into(),
            digest: "d-mail".into(),
            input: "null".into(),
            step_budget: 10,
            fuel_budget: 10,
            token_budget: 10,
            usd_budget: 0.0,
            created_at: 1,
        };
        assert!(store.create_run_audited(&run, &entry("start")).is_err());
        assert!(store.run("r1").unwrap().is_none(), "no run without its row");
        start(&mut store, "r2", "mail", 1);
        let event = crate::model::Event {
            id: "e1".into(),
            topic: "go".into(),
            payload: "null".into(),
            received_at: 2,
        };
        assert!(
            store
                .deliver_event_audited("r2", &event, &entry("event"))
                .is_err()
        );
        assert!(
            store.inbox("r2").unwrap().is_empty(),
            "no event without its row"
        );

        let take = LeaseOp::Acquire {
            resource: "r".into(),
            holder: "bob".into(),
            ttl_ms: 60_000,
        };
        assert!(store.lease_audited(&take, &|_| entry("lease"), 1).is_err());
        assert_eq!(store.lease_peek("r").unwrap(), None, "no lease was taken");

        let switch = Switch {
            scope: "all".into(),
            reason: None,
            at: 1,
        };
        assert!(store.set_switch_audited(&switch, &entry("pause")).is_err());
        assert!(store.switches().unwrap().is_empty(), "no switch");

        store.conn.execute_batch("DROP TRIGGER no_audit").unwrap();
        store.set_switch_audited(&switch, &entry("pause")).unwrap();
        store
            .conn
            .execute_batch(
                "CREATE TRIGGER no_audit BEFORE INSERT ON audit \
                 BEGIN SELECT RAISE(ABORT, 'the audit log is full'); END;",
            )
            .unwrap();
        assert!(
            store
                .clear_switch_audited("all", &entry("resume"), 2)
                .is_err()
        );
        assert_eq!(store.switches().unwrap().len(), 1, "still paused");
        drop(store);
        let _ = std::fs::remove_dir_all(dir);
    }
}
