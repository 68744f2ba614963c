//! The history of an ended run, packed into one compressed row.
//!
//! Once a run has ended, its checkpoints, tool-call ledger and audit rows
//! are only read, and rarely; yet they were most of its bytes on disk: an
//! incident's twenty audit rows, six checkpoints and seven ledger rows each
//! repeat the run id, have keys in two indexes, and repeat the text of the
//! rows beside them (a call's args are in its ledger row and its audit row,
//! a step's wake in its checkpoint and its audit row). Once the transaction
//! that ends a run has committed, they are moved into one row of
//! `run_archives` (`ended.rs`): their columns as one zstd frame, about 2 KB
//! for an incident's 9 KB of history.
//!
//! Nothing is lost or reordered: audit rows keep their ids and times,
//! checkpoints their sequence numbers and stored form. A row written for the
//! run after it ended (an operator's note, a late tool result) lands in its
//! live table as before, and every read of a run sees the archived rows and
//! the live ones as one list. The audit log across runs merges archives in
//! by id; `first_audit_id` and `span` let a page find the archives that hold
//! ids in its range without opening the others.

use std::cell::RefCell;
use std::io::Read;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use zstd::bulk::Compressor;

use super::audit::AuditRecord;
use super::db::{Connection, OptionalExtension, params};
use super::runs::CheckpointRow;
use super::tools::LedgerRow;
use super::{Context, Result};
use crate::model::Millis;
use crate::store::StoreError;

mod ended;

#[cfg(test)]
pub(super) use ended::AFTER_READ;
pub(super) use ended::{pack_after_commit, pack_ended, pack_queued, queue};

/// The format of a packed row: this byte, then one zstd frame of the
/// JSON of [`Packed`], compressed with [`VOCABULARY`] as its dictionary.
const FORMAT: u8 = 1;

/// The JSON the host itself writes into checkpoints, ledger and audit rows
/// (field names, wake and wait shapes, the built-in tools' calls), as a
/// zstd raw-content dictionary: a run's first use of each then costs a
/// reference instead of its text, about a tenth of an incident's archive.
/// Part of [`FORMAT`]: archives written with it are only readable with
/// the same bytes, so a changed vocabulary needs a new format number.
const VOCABULARY: &[u8] = include_bytes!("archive/vocabulary.txt");

/// zstd's level. With the dictionary doing most of the work, level 7 kept
/// an incident in the same pages as this level (`wakeful bench --record`,
/// bytes per incident) for about twice the packing time, which every
/// ended run pays.
const LEVEL: i32 = 3;

/// A run's archived rows, in their tables' column order.
#[derive(Default, Serialize, Deserialize)]
pub(super) struct Packed {
    #[serde(default, rename = "c")]
    checkpoints: Vec<PackedCheckpoint>,
    #[serde(default, rename = "l")]
    ledger: Vec<PackedLedger>,
    #[serde(default, rename = "a")]
    audit: Vec<PackedAudit>,
}

#[derive(Serialize, Deserialize)]
struct PackedCheckpoint(
    u64,
    String,
    Option<String>,
    Option<String>,
    String,
    bool,
    String,
    Option<String>,
    u64,
    Millis,
);

#[derive(Serialize, Deserialize)]
struct PackedLedger(String, String, String, String, Millis);

/// The data is kept as the JSON it is, not as a string of it: escaped
/// quotes would hide its repeats from the compressor.
#[derive(Serialize, Deserialize)]
struct PackedAudit(u64, Millis, String, Box<RawValue>);

impl PackedAudit {
    fn of(a: AuditRecord) -> PackedAudit {
        // Audit data is JSON the store wrote; should a row hold other text,
        // it is kept as a JSON string rather than failing the commit.
        // Read once: `RawValue::from_string` would check the text again.
        let data = serde_json::from_str::<Box<RawValue>>(&a.data).unwrap_or_else(|_| {
            serde_json::value::to_raw_value(&a.data).expect("a string is JSON")
        });
        PackedAudit(a.id, a.at, a.kind, data)
    }
}

impl Packed {
    fn is_empty(&self) -> bool {
        self.checkpoints.is_empty() && self.ledger.is_empty() && self.audit.is_empty()
    }

    pub(super) fn checkpoints(&self, run_id: &str) -> Vec<CheckpointRow> {
        self.checkpoints
            .iter()
            .map(|c| CheckpointRow {
                run_id: run_id.to_string(),
                seq: c.0,
                version: c.1.clone(),
                wake: c.2.clone(),
                upgraded_from: c.3.clone(),
                state: c.4.clone(),
                state_is_edit: c.5,
                next: c.6.clone(),
                status_text: c.7.clone(),
                fuel_used: c.8,
                at: c.9,
            })
            .collect()
    }

    pub(super) fn ledger(&self, run_id: &str) -> impl Iterator<Item = LedgerRow> + '_ {
        let run_id = run_id.to_string();
        self.ledger.iter().map(move |l| LedgerRow {
            run_id: run_id.clone(),
            key: l.0.clone(),
            tool: l.1.clone(),
            args: l.2.clone(),
            result: l.3.clone(),
            at: l.4,
        })
    }

    /// The audit rows with an id above `after`.
    pub(super) fn audit(&self, run_id: &str, after: u64) -> Vec<AuditRecord> {
        self.audit
            .iter()
            .filter(|a| a.0 > after)
            .map(|a| AuditRecord {
                id: a.0,
                at: a.1,
                run_id: Some(run_id.to_string()),
                kind: a.2.clone(),
                data: a.3.get().to_string(),
            })
            .collect()
    }

    fn encode(&self) -> Result<Vec<u8>> {
        let failed = |e: &dyn std::fmt::Display| {
            StoreError::Corrupt(format!("packing a run's history: {e}"))
        };
        let json = serde_json::to_vec(self).map_err(|e| failed(&e))?;
        let mut out = vec![FORMAT];
        // One compressor per thread: making one allocates and clears
        // zstd's tables and loads the dictionary, several times the work
        // of compressing one run.
        thread_local! {
            static COMPRESSOR: RefCell<Option<Compressor<'static>>> = const { RefCell::new(None) };
        }
        let frame = COMPRESSOR
            .with(|cell| {
                let mut cell = cell.borrow_mut();
                let compressor = match cell.as_mut() {
                    Some(c) => c,
                    None => cell.insert(Compressor::with_dictionary(LEVEL, VOCABULARY)?),
                };
                compressor.compress(&json)
            })
            .map_err(|e| failed(&e))?;
        out.extend(frame);
        Ok(out)
    }

    fn decode(run_id: &str, bytes: &[u8]) -> Result<Packed> {
        let damaged = |why: String| {
            StoreError::Corrupt(format!(
                "the archived history of run {run_id} cannot be read ({why}); restore the \
                 store from a backup (`wakeful backup`)"
            ))
        };
        match bytes.split_first() {
            Some((&FORMAT, frame)) => {
                let mut json = Vec::new();
                zstd::stream::read::Decoder::with_dictionary(frame, VOCABULARY)
                    .and_then(|mut d| d.read_to_end(&mut json))
                    .map_err(|e| damaged(e.to_string()))?;
                serde_json::from_slice(&json).map_err(|e| damaged(e.to_string()))
            }
            Some((format, _)) => Err(damaged(format!(
                "format {format}, which this build does not know"
            ))),
            None => Err(damaged("an empty row".into())),
        }
    }
}

/// The archived history of `run_id`; empty when it has none.
pub(super) fn read(conn: &Connection, run_id: &str) -> Result<Packed> {
    let bytes: Option<Vec<u8>> = conn
        .prepare_cached("SELECT data FROM run_archives WHERE run_id = ?1")
        .and_then(|mut stmt| stmt.query_row([run_id], |row| row.get(0)).optional())
        .ctx_with(|| format!("reading the archived history of run {run_id}"))?;
    match bytes {
        Some(bytes) => Packed::decode(run_id, &bytes),
        None => Ok(Packed::default()),
    }
}

/// Moves the history of `run_id` out of the live tables into its archive
/// row, inside the caller's transaction.
pub(super) fn pack(tx: &Connection, run_id: &str) -> Result<()> {
    let (mut packed, replacing) = gather(tx, run_id)?;
    delete_live(tx, run_id)?;
    let row = ArchiveRow::of(&mut packed)?;
    store(tx, run_id, row.as_ref(), replacing)
}

/// The archive of `run_id` with its live rows added, and whether it had
/// an archive row already.
fn gather(conn: &Connection, run_id: &str) -> Result<(Packed, bool)> {
    let mut packed = read(conn, run_id)?;
    // No archive row is ever empty (`store` deletes it instead).
    let replacing = !packed.is_empty();
    let checkpoints = super::runs::live_checkpoints(conn, run_id)?;
    packed.checkpoints.extend(checkpoints.into_iter().map(|c| {
        PackedCheckpoint(
            c.seq,
            c.version,
            c.wake,
            c.upgraded_from,
            c.state,
            c.state_is_edit,
            c.next,
            c.status_text,
            c.fuel_used,
            c.at,
        )
    }));
    let ledger = super::tools::live_ledger(conn, run_id)?;
    packed.ledger.extend(
        ledger
            .into_iter()
            .map(|l| PackedLedger(l.key, l.tool, l.args, l.result, l.at)),
    );
    let audit = super::audit::live_audit(conn, run_id)?;
    packed.audit.extend(audit.into_iter().map(PackedAudit::of));
    Ok((packed, replacing))
}

fn delete_live(tx: &Connection, run_id: &str) -> Result<()> {
    for table in ["checkpoints", "ledger", "audit"] {
        tx.prepare_cached(&format!("DELETE FROM {table} WHERE run_id = ?1"))
            .and_then(|mut stmt| stmt.execute([run_id]))
            .ctx_with(|| format!("moving the {table} rows of run {run_id} to its archive"))?;
    }
    Ok(())
}

/// An archive row as written: its audit id range and packed data.
struct ArchiveRow {
    first: Option<i64>,
    last: Option<i64>,
    span: Option<i64>,
    data: Vec<u8>,
}

impl ArchiveRow {
    /// The row holding `packed`; none when it is empty.
    fn of(packed: &mut Packed) -> Result<Option<ArchiveRow>> {
        if packed.is_empty() {
            return Ok(None);
        }
        packed.checkpoints.sort_by_key(|c| c.0);
        packed.audit.sort_by_key(|a| a.0);
        let first = packed.audit.first().map(|a| a.0 as i64);
        let last = packed.audit.last().map(|a| a.0 as i64);
        let span = first.zip(last).map(|(first, last)| last - first);
        Ok(Some(ArchiveRow {
            first,
            last,
            span,
            data: packed.encode()?,
        }))
    }
}

/// Writes (or, with no row, deletes) the archive row of `run_id`;
/// `replacing` when it may have one already.
fn store(tx: &Connection, run_id: &str, row: Option<&ArchiveRow>, replacing: bool) -> Result<()> {
    if replacing {
        tx.prepare_cached("DELETE FROM run_archives WHERE run_id = ?1")
            .and_then(|mut stmt| stmt.execute([run_id]))
            .ctx_with(|| format!("replacing the archive of run {run_id}"))?;
    }
    let Some(row) = row else {
        return Ok(());
    };
    tx.prepare_cached(
        "INSERT INTO run_archives (run_id, first_audit_id, last_audit_id, span, data) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )
    .and_then(|mut stmt| stmt.execute(params![run_id, row.first, row.last, row.span, row.data]))
    .ctx_with(|| format!("writing the archive of run {run_id}"))?;
    Ok(())
}

/// Pruning a run keeps its audit rows: its archive keeps only them.
pub(super) fn prune(tx: &Connection, run_id: &str) -> Result<()> {
    let mut packed = read(tx, run_id)?;
    packed.checkpoints.clear();
    packed.ledger.clear();
    let row = ArchiveRow::of(&mut packed)?;
    store(tx, run_id, row.as_ref(), true)
}

/// The archived audit rows with ids in `(after, up_to]`, in id order, of
/// every run. Only archives whose audit ids can reach that range are
/// read: those whose first id is at most `up_to` and above `after` minus
/// the widest span any archive has (found off an index of first and last
/// ids), and whose last id is above `after`.
pub(super) fn audit_between(
    conn: &Connection,
    after: u64,
    up_to: Option<u64>,
    limit: usize,
) -> Result<Vec<AuditRecord>> {
    let widest: Option<i64> = conn
        .prepare_cached("SELECT MAX(span) FROM run_archives")
        .and_then(|mut stmt| stmt.query_row(params![], |row| row.get(0)))
        .ctx("reading the widest archive")?;
    let Some(widest) = widest else {
        return Ok(Vec::new());
    };
    let from = (after as i64).saturating_sub(widest).saturating_sub(1);
    let up_to = up_to.map_or(i64::MAX, |u| u as i64);
    let mut rows: Vec<AuditRecord> = Vec::new();
    // Archives in order of their first id, a batch at a time: once `limit`
    // rows are found below the next archive's first id, no later archive
    // can hold a row of the page.
    let mut cursor = from;
    let batch = 64_i64;
    loop {
        let archives: Vec<(String, i64, Vec<u8>)> = conn
            .prepare_cached(
                "SELECT run_id, first_audit_id, data FROM run_archives \
                 WHERE first_audit_id > ?1 AND first_audit_id <= ?2 AND last_audit_id > ?3 \
                 ORDER BY first_audit_id LIMIT ?4",
            )
            .and_then(|mut stmt| {
                stmt.query_map(params![cursor, up_to, after as i64, batch], |row| {
                    Ok((row.get(0)?, row.get(1)?, row.get(2)?))
                })?
                .collect::<super::db::Result<Vec<_>>>()
            })
            .ctx("reading the archived audit log")?;
        let done = (archives.len() as i64) < batch;
        for (run_id, first, data) in archives {
            cursor = first;
            if limit > 0 && rows.len() >= limit && rows[limit - 1].id < first as u64 {
                return Ok(rows);
            }
            let packed = Packed::decode(&run_id, &data)?;
            rows.extend(
                packed
                    .audit(&run_id, after)
                    .into_iter()
                    .filter(|a| a.id as i64 <= up_to),
            );
            rows.sort_by_key(|a| a.id);
            rows.truncate(limit);
        }
        if done {
            return Ok(rows);
        }
    }
}

/// Every archived audit row, of every run.
pub(super) fn all_audit(conn: &Connection) -> Result<Vec<AuditRecord>> {
    audit_between(conn, 0, None, usize::MAX)
}
