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

use super::SqlStore;
use super::audit::AuditRecord;
use super::db::{Connection, OptionalExtension, params};
use super::runs::CheckpointRow;
use super::tools::LedgerRow;
use super::{Context, Result};
use crate::model::Millis;
use crate::store::StoreError;

/// Packing ended runs' history, by this handle or by its packer thread.
impl SqlStore {
    /// Packs into their archives up to `max` ended runs whose history is
    /// still live: those whose ending committed in a process that stopped
    /// before it packed them (a step that ends a run is packed just after
    /// its commit, by the handle or by the packer thread it was given).
    /// Returns how many it packed.
    pub fn pack_queued(&mut self, max: usize) -> Result<usize> {
        let packed = pack_queued(&mut self.conn, max);
        self.checkpoint_when_due();
        packed
    }

    /// Packs those of the ended runs `run_ids` still queued for packing,
    /// and returns how many it packed. One whose history cannot be packed
    /// is left queued, and the others are packed all the same: the error
    /// names the runs left.
    pub fn pack_ended(&mut self, run_ids: &[&str]) -> Result<usize> {
        let packed = pack_ended(&mut self.conn, run_ids);
        self.checkpoint_when_due();
        packed
    }

    /// Hands the runs this handle's commits end to `packer` instead of
    /// packing them after each commit, and leaves it to copy SQLite's WAL
    /// into the database file ([`SqlStore::checkpoint`]): a commit of this
    /// handle no longer does it in the middle of a worker's steps.
    pub fn pack_by(&mut self, packer: crate::store::PackSignal) {
        self.packer = Some(packer);
        self.conn.leave_checkpoints_to_packer();
    }

    /// Packs the runs whose ending this handle just committed, or hands
    /// them to its packer thread. The commit stands either way: a run not
    /// packed stays queued with its history live.
    pub(super) fn pack_after_commit(&mut self, run_ids: &[&str]) {
        match &self.packer {
            Some(packer) => packer.ended(run_ids),
            None => pack_after_commit(&mut self.conn, run_ids),
        }
    }
}

mod ended;

#[cfg(test)]
pub(super) use ended::AFTER_READ;
pub(super) use ended::{pack_after_commit, pack_ended, pack_queued, queue};

#[cfg(test)]
thread_local! {
    /// Tests set a smaller bound on the history an archive holds here.
    pub(super) static HISTORY_BOUND: std::cell::Cell<Option<usize>> =
        const { std::cell::Cell::new(None) };
}

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

    fn to_json(&self) -> Result<Vec<u8>> {
        serde_json::to_vec(self)
            .map_err(|e| StoreError::Corrupt(format!("packing a run's history: {e}")))
    }

    fn encode(json: &[u8]) -> Result<Vec<u8>> {
        let failed = |e: &dyn std::fmt::Display| {
            StoreError::Corrupt(format!("packing a run's history: {e}"))
        };
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
                compressor.compress(json)
            })
            .map_err(|e| failed(&e))?;
        out.extend(frame);
        Ok(out)
    }

    fn decode(run_id: &str, bytes: &[u8]) -> Result<Packed> {
        let damaged = |why: String| damaged(run_id, why);
        match bytes.split_first() {
            Some((&FORMAT, frame)) => {
                let json = decompress(frame).map_err(damaged)?;
                serde_json::from_slice(&json).map_err(|e| damaged(e.to_string()))
            }
            Some((format, _)) => Err(damaged(format!(
                "format {format}, which this build does not know"
            ))),
            None => Err(damaged("an empty row".into())),
        }
    }
}

/// The archive of `run_id` cannot be read, for `why`.
fn damaged(run_id: &str, why: String) -> StoreError {
    StoreError::Corrupt(format!(
        "the archived history of run {run_id} cannot be read ({why}); restore the store \
         from a backup (`wakeful backup`)"
    ))
}

/// The most JSON one archive holds: a history that would be larger stays
/// in the live tables ([`ArchiveRow::of`]). Reading an archive allocates
/// no more than this, whatever its row says.
const MAX_HISTORY: usize = 64 << 20;

fn history_bound() -> usize {
    #[cfg(test)]
    if let Some(bound) = HISTORY_BOUND.with(std::cell::Cell::get) {
        return bound;
    }
    MAX_HISTORY
}

/// The longest row an archive within [`history_bound`] can have: its
/// format byte and zstd's worst case for that many bytes. A longer row is
/// refused before it is read.
fn max_row() -> usize {
    1 + zstd::zstd_safe::compress_bound(history_bound())
}

/// The largest window a frame may ask the decoder to keep, as a power of
/// two. [`LEVEL`] compresses with a window of at most 2^21 bytes; a frame
/// asking for more than 2^23 was not written by this host, and is refused
/// before zstd allocates its window.
const WINDOW_LOG_MAX: u32 = 23;

/// `bytes` as a size a person reads: `64 MiB`, `1 KiB`, `900 bytes`.
fn shown(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// Decompresses an archive's frame, refusing one that declares, or gives,
/// more than [`history_bound`] bytes: it is streamed through the decoder
/// and stops one byte past the bound.
fn decompress(frame: &[u8]) -> std::result::Result<Vec<u8>, String> {
    let bound = history_bound();
    let too_large = |what: String| {
        format!(
            "it {what} more than {}, the most history an archive holds",
            shown(bound)
        )
    };
    if let Ok(Some(declared)) = zstd::zstd_safe::get_frame_content_size(frame)
        && declared > bound as u64
    {
        return Err(too_large(format!("says it holds {declared} bytes,")));
    }
    let mut decoder = zstd::stream::read::Decoder::with_dictionary(frame, VOCABULARY)
        .map_err(|e| e.to_string())?;
    decoder
        .window_log_max(WINDOW_LOG_MAX)
        .map_err(|e| e.to_string())?;
    let mut json = Vec::new();
    decoder
        .take(bound as u64 + 1)
        .read_to_end(&mut json)
        .map_err(|e| e.to_string())?;
    if json.len() > bound {
        return Err(too_large("decompresses to".into()));
    }
    Ok(json)
}

/// The packed data of an archive row read with its length first, so that
/// a row longer than any archive can be is refused unread.
fn row_data(run_id: &str, length: i64, data: Option<Vec<u8>>) -> Result<Vec<u8>> {
    data.ok_or_else(|| {
        damaged(
            run_id,
            format!(
                "its row is {length} bytes, more than an archive of at most {} of history \
                 takes",
                shown(history_bound())
            ),
        )
    })
}

/// The archived history of `run_id`; empty when it has none.
pub(super) fn read(conn: &Connection, run_id: &str) -> Result<Packed> {
    let row: Option<(i64, Option<Vec<u8>>)> = conn
        .prepare_cached(
            "SELECT CAST(length(data) AS BIGINT), \
             CASE WHEN length(data) <= CAST(?2 AS BIGINT) THEN data END \
             FROM run_archives WHERE run_id = ?1",
        )
        .and_then(|mut stmt| {
            stmt.query_row(params![run_id, max_row()], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })
            .optional()
        })
        .ctx_with(|| format!("reading the archived history of run {run_id}"))?;
    match row {
        Some((length, data)) => Packed::decode(run_id, &row_data(run_id, length, data)?),
        None => Ok(Packed::default()),
    }
}

/// Moves the history of `run_id` out of the live tables into its archive
/// row, inside the caller's transaction.
pub(super) fn pack(tx: &Connection, run_id: &str) -> Result<()> {
    let (mut packed, replacing) = gather(tx, run_id)?;
    match ArchiveRow::of(run_id, &mut packed)? {
        Packing::Row(row) => {
            delete_live(tx, run_id)?;
            store(tx, run_id, row.as_ref(), replacing)
        }
        Packing::StaysLive => Ok(()),
    }
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

/// What packing a run's history gives.
enum Packing {
    /// The archive row to write; none for an empty history.
    Row(Option<ArchiveRow>),
    /// Its history is larger than an archive holds ([`history_bound`]):
    /// it stays in the live tables as it is, its archive row (if any)
    /// unchanged, and is read from both as before.
    StaysLive,
}

impl ArchiveRow {
    /// The row holding `packed`, the history of `run_id`.
    fn of(run_id: &str, packed: &mut Packed) -> Result<Packing> {
        if packed.is_empty() {
            return Ok(Packing::Row(None));
        }
        packed.checkpoints.sort_by_key(|c| c.0);
        packed.audit.sort_by_key(|a| a.0);
        let json = packed.to_json()?;
        if json.len() > history_bound() {
            tracing::warn!(
                run = run_id,
                bytes = json.len(),
                "the history of an ended run is larger than an archive holds ({}); it stays in \
                 the live tables",
                shown(history_bound())
            );
            return Ok(Packing::StaysLive);
        }
        let first = packed.audit.first().map(|a| a.0 as i64);
        let last = packed.audit.last().map(|a| a.0 as i64);
        let span = first.zip(last).map(|(first, last)| last - first);
        Ok(Packing::Row(Some(ArchiveRow {
            first,
            last,
            span,
            data: Packed::encode(&json)?,
        })))
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
    match ArchiveRow::of(run_id, &mut packed)? {
        Packing::Row(row) => store(tx, run_id, row.as_ref(), true),
        // Audit rows alone are fewer than the archive they were read from.
        Packing::StaysLive => Ok(()),
    }
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
        type Found = (String, i64, i64, Option<Vec<u8>>);
        let archives: Vec<Found> = conn
            .prepare_cached(
                "SELECT run_id, first_audit_id, CAST(length(data) AS BIGINT), \
                 CASE WHEN length(data) <= CAST(?5 AS BIGINT) THEN data END FROM run_archives \
                 WHERE first_audit_id > ?1 AND first_audit_id <= ?2 AND last_audit_id > ?3 \
                 ORDER BY first_audit_id LIMIT ?4",
            )
            .and_then(|mut stmt| {
                let bound = max_row();
                stmt.query_map(params![cursor, up_to, after as i64, batch, bound], |row| {
                    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
                })?
                .collect::<super::db::Result<Vec<_>>>()
            })
            .ctx("reading the archived audit log")?;
        let done = (archives.len() as i64) < batch;
        for (run_id, first, length, data) in archives {
            cursor = first;
            if limit > 0 && rows.len() >= limit && rows[limit - 1].id < first as u64 {
                return Ok(rows);
            }
            let packed = Packed::decode(&run_id, &row_data(&run_id, length, data)?)?;
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
