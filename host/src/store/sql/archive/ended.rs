//! Packing an ended run's history after the transaction that ended it,
//! not inside it.
//!
//! Reading a run's rows, encoding and compressing them is about a sixth of
//! the instructions of an incident's steps. Inside the ending step's commit
//! it ran under SQLite's one write lock, which every other worker of the
//! file waits for. The ending transaction now only queues the run
//! (`unpacked_runs`); once it has committed, its history is read and
//! packed with no lock held, and a short transaction swaps the live rows
//! for the archive row after checking that they are still the rows read.
//!
//! That transaction is not synced: lost to a power cut, it leaves the run
//! queued with its rows live, and every read gives the same history either
//! way (live and archived rows are read as one list). Runs left queued by
//! a process that stopped between the two are packed by [`pack_queued`],
//! which `serve` runs with its upkeep.

use super::super::db::{Connection, Isolation, params, write_deferred};
use super::super::{Context, Result, StoreError};
use super::{ArchiveRow, Packing, delete_live, gather, pack, store};

#[cfg(test)]
thread_local! {
    /// Tests write to the store here, after a run's history was read for
    /// packing and before the swap; it runs once.
    pub(in crate::store::sql) static AFTER_READ: std::cell::RefCell<Option<Box<dyn FnMut()>>> =
        const { std::cell::RefCell::new(None) };
}

/// Marks `run_id`, which the caller's transaction ends, for packing once
/// that transaction has committed.
pub(in crate::store::sql) fn queue(tx: &Connection, run_id: &str) -> Result<()> {
    tx.prepare_cached("INSERT INTO unpacked_runs (run_id) VALUES (?1) ON CONFLICT DO NOTHING")
        .and_then(|mut stmt| stmt.execute([run_id]))
        .ctx_with(|| format!("queueing the history of run {run_id} for its archive"))?;
    Ok(())
}

/// What a run's history was when it was read for packing: how many live
/// rows it had in each table, and its archive row's size. An ended run's
/// rows are only ever added (a late audit row or tool result) or deleted
/// (pruning, packing by another host), never changed in place, so the same
/// counts mean the same rows.
#[derive(PartialEq, Eq)]
struct Seen {
    checkpoints: i64,
    ledger: i64,
    audit: i64,
    archive: Option<i64>,
}

fn seen(conn: &Connection, run_id: &str) -> Result<Seen> {
    conn.prepare_cached(
        "SELECT (SELECT COUNT(*) FROM checkpoints WHERE run_id = ?1), \
                (SELECT COUNT(*) FROM ledger WHERE run_id = ?1), \
                (SELECT COUNT(*) FROM audit WHERE run_id = ?1), \
                (SELECT CAST(length(data) AS BIGINT) FROM run_archives WHERE run_id = ?1)",
    )
    .and_then(|mut stmt| {
        stmt.query_row([run_id], |row| {
            Ok(Seen {
                checkpoints: row.get(0)?,
                ledger: row.get(1)?,
                audit: row.get(2)?,
                archive: row.get(3)?,
            })
        })
    })
    .ctx_with(|| format!("counting the history of run {run_id}"))
}

/// A run's history packed outside any transaction, with what it was read
/// from.
struct Prepared<'a> {
    run_id: &'a str,
    seen: Seen,
    replacing: bool,
    packing: Packing,
}

/// Packs those of the ended runs `run_ids` that are still queued, and
/// returns how many it packed. They are packed in one transaction; when
/// that fails, each is packed alone, so that one whose history cannot be
/// read (a damaged archive row) stays queued without keeping the others
/// live: the error then names the runs left queued, and the others are
/// packed all the same.
pub(in crate::store::sql) fn pack_ended(conn: &mut Connection, run_ids: &[&str]) -> Result<usize> {
    for run_id in run_ids {
        crate::failpoint::hit("before-pack", run_id);
    }
    let e = match pack_together(conn, run_ids) {
        Err(e) if run_ids.len() > 1 => e,
        packed => return packed,
    };
    tracing::warn!(error = %e, "packing ended runs together failed; packing each alone");
    let (mut packed, mut left, mut first) = (0, Vec::new(), None);
    for &run_id in run_ids {
        match pack_together(conn, &[run_id]) {
            Ok(n) => packed += n,
            Err(e) => {
                left.push(run_id);
                first.get_or_insert(e);
            }
        }
    }
    let Some(e) = first else {
        return Ok(packed);
    };
    let what = format!(
        "packed {packed} of {} ended runs; run(s) {} stay queued with their history live",
        run_ids.len(),
        left.join(", ")
    );
    Err(match e {
        StoreError::Corrupt(why) => StoreError::Corrupt(format!("{what}: {why}")),
        e => StoreError::Db(format!("{what}: {e}")),
    })
}

/// Packs those of `run_ids` still queued in one transaction. Each is read
/// and packed first, with no transaction open; the swap checks that its
/// rows are still the ones read, and packs it again inside the transaction
/// when they are not.
fn pack_together(conn: &mut Connection, run_ids: &[&str]) -> Result<usize> {
    if run_ids.is_empty() {
        return Ok(0);
    }
    // Counted before the rows are read: a row added or removed after this
    // makes the counts in the swap differ, whichever read it saw.
    let prepared = run_ids
        .iter()
        .map(|&run_id| {
            let seen = seen(conn, run_id)?;
            let (mut packed, replacing) = gather(conn, run_id)?;
            Ok(Prepared {
                run_id,
                seen,
                replacing,
                packing: ArchiveRow::of(run_id, &mut packed)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    // Taken out before it runs, so that a hook may pack (and meet this
    // point) itself.
    #[cfg(test)]
    if let Some(mut hook) = AFTER_READ.with(|hook| hook.borrow_mut().take()) {
        hook();
    }
    write_deferred(
        conn,
        "packing the history of ended runs",
        Isolation::Serializable,
        |tx| {
            let mut packed = 0;
            for p in &prepared {
                let queued = tx
                    .prepare_cached("DELETE FROM unpacked_runs WHERE run_id = ?1")
                    .and_then(|mut stmt| stmt.execute([p.run_id]))
                    .ctx_with(|| format!("taking run {} off the packing queue", p.run_id))?;
                if queued == 0 {
                    // Packed already, by another worker or host.
                    continue;
                }
                if seen(tx, p.run_id)? == p.seen {
                    if let Packing::Row(row) = &p.packing {
                        delete_live(tx, p.run_id)?;
                        store(tx, p.run_id, row.as_ref(), p.replacing)?;
                    }
                } else {
                    pack(tx, p.run_id)?;
                }
                packed += 1;
            }
            Ok(packed)
        },
    )
}

/// Packs up to `max` of the runs still queued: those whose ending
/// committed in a process that stopped before it packed them.
pub(in crate::store::sql) fn pack_queued(conn: &mut Connection, max: usize) -> Result<usize> {
    let run_ids: Vec<String> = conn
        .prepare_cached("SELECT run_id FROM unpacked_runs LIMIT ?1")
        .and_then(|mut stmt| {
            stmt.query_map(params![max as i64], |row| row.get(0))?
                .collect::<super::super::db::Result<Vec<_>>>()
        })
        .ctx("reading the runs queued for packing")?;
    let run_ids: Vec<&str> = run_ids.iter().map(String::as_str).collect();
    pack_ended(conn, &run_ids)
}

/// [`pack_ended`] after a commit that ended `run_ids`, whose outcome it
/// cannot change: the commit stands, and a run that could not be packed
/// stays queued with its history live.
pub(in crate::store::sql) fn pack_after_commit(conn: &mut Connection, run_ids: &[&str]) {
    if let Err(e) = pack_ended(conn, run_ids) {
        tracing::warn!(error = %e, runs = run_ids.join(","), "packing ended runs failed; they stay queued");
    }
}
