//! Write transactions: their durability, their isolation on PostgreSQL,
//! their turn at SQLite's one writer, and running one again after a
//! conflict.

use std::time::Duration;

use super::{Connection, Dialect, Result, db_error, wal};
use crate::store::Result as StoreResult;

/// A write transaction; rolled back when dropped without [`commit`].
///
/// [`commit`]: Transaction::commit
pub struct Transaction<'c> {
    conn: &'c Connection,
    open: bool,
    durability: Durability,
}

impl<'c> Transaction<'c> {
    fn begin(
        conn: &'c Connection,
        isolation: Isolation,
        durability: Durability,
    ) -> Result<Transaction<'c>> {
        // A synced transaction must never run with the flush turned off:
        // setting it back failed once, so it is set again here or the
        // transaction does not start. A commit on the shared writer may be
        // flushed by the thread that made it, after its turn (`write_as`).
        conn.set_sync_full(durability == Durability::Synced && !conn.flush_after_turn.get())?;
        conn.control(match (conn.dialect(), isolation) {
            // Takes the write lock up front, so a transaction never fails
            // halfway on a lock upgrade.
            (Dialect::Sqlite, _) => "BEGIN IMMEDIATE",
            (Dialect::Postgres, Isolation::Serializable) => "BEGIN ISOLATION LEVEL SERIALIZABLE",
            (Dialect::Postgres, Isolation::RowLocks) => "BEGIN ISOLATION LEVEL READ COMMITTED",
        })?;
        conn.set_in_transaction(true);
        let tx = Transaction {
            conn,
            open: true,
            durability,
        };
        if durability == Durability::Deferred && conn.dialect() == Dialect::Postgres {
            // Asynchronous commit: PostgreSQL flushes its WAL in order, so
            // the next synchronous commit on any connection flushes this
            // one with it.
            conn.execute_batch("SET LOCAL synchronous_commit TO OFF")?;
        }
        Ok(tx)
    }

    pub fn commit(mut self) -> Result<()> {
        self.open = false;
        let committed = self.conn.control("COMMIT");
        self.conn.set_in_transaction(false);
        if committed.is_err() {
            // SQLite keeps the transaction open after a failed COMMIT;
            // PostgreSQL has ended it already and only warns here.
            let _ = self.conn.control("ROLLBACK");
        } else if self.durability == Durability::Synced && !self.conn.flush_after_turn.get() {
            self.conn
                .synced_commits
                .set(self.conn.synced_commits.get() + 1);
        }
        self.restore_sync();
        committed
    }

    /// Turns the flush back on after a deferred transaction, so that
    /// statements outside transactions are synced as before. Should this
    /// fail, the next synced transaction sets it before it begins. The
    /// shared writer runs transactions only, each setting it as it begins.
    fn restore_sync(&self) {
        if self.durability == Durability::Deferred && !self.conn.shared_writer {
            let _ = self.conn.set_sync_full(true);
        }
    }
}

impl std::ops::Deref for Transaction<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.conn
    }
}

impl Drop for Transaction<'_> {
    fn drop(&mut self) {
        if self.open {
            self.conn.set_in_transaction(false);
            // A connection whose rollback failed is broken; its next
            // statement reports that (or, on PostgreSQL, connects again).
            let _ = self.conn.control("ROLLBACK");
            self.restore_sync();
        }
    }
}

/// How often a transaction that PostgreSQL aborted for a conflict is run
/// again before the conflict is reported.
const CONFLICT_RETRIES: u32 = 100;

/// Runs `f` in one write transaction and commits when it returns `Ok`; an
/// `Err` rolls everything back. A transaction aborted for a conflict with a
/// concurrent one is run again from the start, after a short random pause
/// that keeps two conflicting writers from meeting again.
pub fn write<T>(
    conn: &mut Connection,
    what: &str,
    f: impl FnMut(&Transaction<'_>) -> StoreResult<T>,
) -> StoreResult<T> {
    write_with(conn, what, Isolation::Serializable, f)
}

/// Whether a write transaction's commit waits for the disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// On disk when the commit returns: an fsync of SQLite's WAL, a flush
    /// of PostgreSQL's.
    Synced,
    /// Written to the log, but forced to disk only by the next synced
    /// commit (both logs are flushed in order, so a synced commit carries
    /// every earlier one with it). A crash of the process loses nothing; a
    /// power loss may lose it, together with everything that came after
    /// it and was not synced. Only for writes whose loss is harmless
    /// because nothing outside the store has seen their effect before the
    /// next synced commit: a claim (the run is claimed again), a built-in
    /// tool call (its step has not committed; the step runs again and so
    /// does the call).
    Deferred,
}

/// [`write_with`] for a [`Durability::Deferred`] transaction.
pub fn write_deferred<T>(
    conn: &mut Connection,
    what: &str,
    isolation: Isolation,
    f: impl FnMut(&Transaction<'_>) -> StoreResult<T>,
) -> StoreResult<T> {
    write_as(conn, what, isolation, Durability::Deferred, f)
}

/// How a PostgreSQL write transaction keeps concurrent ones apart (SQLite
/// always has one writer at a time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isolation {
    /// As if transactions ran one after another: the default.
    Serializable,
    /// Each statement sees what is committed when it starts; the
    /// transaction keeps others off the rows it locks (`FOR UPDATE`). For
    /// claims, which take one row each with `SKIP LOCKED` and check it
    /// again once locked: serializable claimers reading the same due runs
    /// would abort each other.
    RowLocks,
}

/// [`write`] with the isolation given.
pub fn write_with<T>(
    conn: &mut Connection,
    what: &str,
    isolation: Isolation,
    f: impl FnMut(&Transaction<'_>) -> StoreResult<T>,
) -> StoreResult<T> {
    write_as(conn, what, isolation, Durability::Synced, f)
}

fn write_as<T>(
    conn: &mut Connection,
    what: &str,
    isolation: Isolation,
    durability: Durability,
    f: impl FnMut(&Transaction<'_>) -> StoreResult<T>,
) -> StoreResult<T> {
    let Some(gate) = conn.writer.clone() else {
        return transact(conn, what, isolation, durability, f);
    };
    // Past its patience the caller goes on without a turn, on its own
    // connection, and SQLite's lock decides (as between processes).
    let Some(turn) = gate.enter(super::super::sqlite::BUSY_TIMEOUT) else {
        return transact(conn, what, isolation, durability, f);
    };
    let Some(mut shared) = turn.connection() else {
        return transact(conn, what, isolation, durability, f);
    };
    let writer = shared.as_mut().expect("opened by `connection`");
    // With another writer waiting for the turn, a synced commit is flushed
    // after the turn is given back, so that the flush overlaps that
    // writer's transaction. So is one made under a turn its caller holds
    // across several transactions (a group commit, then the next group's
    // claim): the other workers are stepping then, and want the turn as
    // soon as their steps are done. Alone, a commit flushes in itself: a
    // flush made by SQLite there was found quicker than one made after it.
    let after_turn =
        durability == Durability::Synced && (gate.others_waiting() || turn.inside_held());
    writer.flush_after_turn.set(after_turn);
    let (synced, statements) = (writer.synced_commits(), writer.statements());
    let out = wal::as_handle(conn.checkpoints_by_packer.get(), || {
        transact(writer, what, isolation, durability, f)
    });
    writer.flush_after_turn.set(false);
    if out.is_ok() && after_turn {
        // On disk before this returns: flushed when `turn` is dropped
        // below, or when the turn this one is held inside is.
        turn.flush_when_left();
        conn.synced_commits.set(conn.synced_commits() + 1);
    }
    // Counted as this handle's work, as if it had run on its connection.
    conn.synced_commits
        .set(conn.synced_commits() + writer.synced_commits() - synced);
    conn.statements
        .set(conn.statements() + writer.statements() - statements);
    drop(shared);
    drop(turn);
    out
}

/// Runs `f` in a write transaction on `conn`, again after a conflict.
fn transact<T>(
    conn: &mut Connection,
    what: &str,
    isolation: Isolation,
    durability: Durability,
    mut f: impl FnMut(&Transaction<'_>) -> StoreResult<T>,
) -> StoreResult<T> {
    let mut attempt = 0;
    loop {
        // A failure outside this transaction must not make it run again.
        conn.take_conflict();
        let outcome = Transaction::begin(conn, isolation, durability)
            .map_err(|e| db_error(&format!("starting a transaction for {what}"), e))
            .and_then(|tx| {
                let value = f(&tx)?;
                tx.commit()
                    .map_err(|e| db_error(&format!("committing {what}"), e))?;
                Ok(value)
            });
        match outcome {
            Err(_) if conn.take_conflict() && attempt < CONFLICT_RETRIES => {
                attempt += 1;
                let pause = rand::random_range(0..=(attempt.min(20) as u64) * 2);
                std::thread::sleep(Duration::from_millis(pause));
            }
            outcome => return outcome,
        }
    }
}
