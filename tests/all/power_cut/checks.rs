//! What must hold of the store a power cut left: what was acknowledged
//! before the cut is there, and the file is whole and consistent.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A call that reached a sink: the world saw it, so the host must know it
/// was made (its intent, or its result, is on disk).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Effect {
    pub tool: String,
    pub run: String,
    /// The guest's key for the call.
    pub key: String,
    /// The run's steps that are on disk for sure when this call leaves
    /// the host: a caller run's call `n` is made by step `n`, after step
    /// `n - 1` committed.
    pub steps_before: u64,
}

/// What the host acknowledged before a point of the history, read from
/// the test's marks up to it.
#[derive(Default, Debug)]
pub struct Acks {
    pub starts: BTreeSet<String>,
    /// The highest step of each run that `work` reported committed.
    pub steps: BTreeMap<String, u64>,
    /// (run, approval request id) answered.
    pub answers: BTreeSet<(String, String)>,
    /// Tokens of callback links a POST was answered 200 on.
    pub callbacks: BTreeSet<String>,
    /// How many times the world saw each call.
    pub effects: BTreeMap<Effect, usize>,
}

impl Acks {
    /// Takes in one mark (`start RUN`, `step RUN SEQ`, `answer RUN ID`,
    /// `callback TOKEN`, `effect TOOL RUN KEY STEPS`); other marks (a
    /// failpoint's) say nothing about what was acknowledged.
    pub fn note(&mut self, mark: &str) {
        let words: Vec<&str> = mark.split(' ').collect();
        match words[..] {
            ["start", run] => {
                self.starts.insert(run.into());
            }
            ["step", run, seq] => {
                let seq = seq.parse().unwrap();
                let best = self.steps.entry(run.into()).or_default();
                *best = (*best).max(seq);
            }
            ["answer", run, id] => {
                self.answers.insert((run.into(), id.into()));
            }
            ["callback", token] => {
                self.callbacks.insert(token.into());
            }
            ["effect", tool, run, key, steps] => {
                let effect = Effect {
                    tool: tool.into(),
                    run: run.into(),
                    key: key.into(),
                    steps_before: steps.parse().unwrap(),
                };
                *self.effects.entry(effect).or_default() += 1;
            }
            _ => assert!(mark.starts_with("failpoint "), "unknown mark {mark:?}"),
        }
    }

    pub fn count(&self) -> usize {
        self.starts.len()
            + self.steps.len()
            + self.answers.len()
            + self.callbacks.len()
            + self.effects.len()
    }
}

/// SQLite's own verdict on the file, and what the host acknowledged, on
/// the store at `db` (opened by the test, after the host has opened it).
pub fn acknowledged_and_whole(db: &Path, acks: &Acks) -> Result<(), String> {
    let conn = rusqlite::Connection::open(db).map_err(|e| format!("opening {e}"))?;
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .map_err(|e| format!("integrity_check: {e}"))?;
    if check != "ok" {
        return Err(format!("integrity_check: {check}"));
    }
    if acks.count() == 0 && !has_table(&conn, "runs") {
        // Cut before the store was made: nothing was acknowledged.
        return Ok(());
    }
    let one = |sql: &str, args: &[&str]| -> Result<bool, String> {
        conn.query_row(sql, rusqlite::params_from_iter(args), |r| r.get(0))
            .map_err(|e| format!("{sql}: {e}"))
    };
    for run in &acks.starts {
        if !one(
            "SELECT EXISTS (SELECT 1 FROM runs WHERE run_id = ?1)",
            &[run],
        )? {
            return Err(format!("the start of {run} was acknowledged and is lost"));
        }
    }
    for (run, seq) in &acks.steps {
        let steps = steps_of(&conn, run)?;
        if steps < *seq {
            return Err(format!(
                "step {seq} of {run} was reported and is lost: the run has {steps} step(s)"
            ));
        }
    }
    for (run, id) in &acks.answers {
        let sql = "SELECT EXISTS (SELECT 1 FROM approvals WHERE run_id = ?1 AND id = ?2 \
                   AND answered = 1) OR EXISTS (SELECT 1 FROM run_archives WHERE run_id = ?1)";
        if !one(sql, &[run, id])? {
            return Err(format!(
                "the answer to {id} of {run} was acknowledged and is lost"
            ));
        }
    }
    for token in &acks.callbacks {
        // The store keeps a link's token as its SHA-256 only.
        use sha2::Digest;
        let stored = hex::encode(sha2::Sha256::digest(token.as_bytes()));
        let sql =
            "SELECT EXISTS (SELECT 1 FROM callbacks WHERE token = ?1 AND used_at IS NOT NULL)";
        if !one(sql, &[&stored])? {
            return Err(format!(
                "a POST to callback link {token} was answered and is lost"
            ));
        }
    }
    for e in acks.effects.keys() {
        let sql = "SELECT EXISTS (SELECT 1 FROM intents WHERE run_id = ?1 AND key = ?2) \
                   OR EXISTS (SELECT 1 FROM ledger WHERE run_id = ?1 AND key = ?2) \
                   OR EXISTS (SELECT 1 FROM run_archives WHERE run_id = ?1)";
        if !one(sql, &[&e.run, &e.key])? {
            return Err(format!(
                "{} call {} of {} reached the world and the host has no record of it",
                e.tool, e.key, e.run
            ));
        }
        let steps = steps_of(&conn, &e.run)?;
        if steps < e.steps_before {
            return Err(format!(
                "{} call {} of {} left the host after step {} committed, and the run has {steps} \
                 step(s)",
                e.tool, e.key, e.run, e.steps_before
            ));
        }
    }
    checkpoints_whole(&conn)
}

fn has_table(conn: &rusqlite::Connection, table: &str) -> bool {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1)",
        [table],
        |r| r.get(0),
    )
    .unwrap_or(false)
}

fn steps_of(conn: &rusqlite::Connection, run: &str) -> Result<u64, String> {
    use rusqlite::OptionalExtension;
    conn.query_row("SELECT steps FROM runs WHERE run_id = ?1", [run], |r| {
        r.get(0)
    })
    .optional()
    .map(Option::unwrap_or_default)
    .map_err(|e| format!("reading the steps of {run}: {e}"))
}

/// Every run's live checkpoints are numbered up to its steps with no gap
/// (the oldest may be trimmed; a run whose history is packed has none
/// left live): a step's checkpoint and its run's row are written together
/// or not at all.
pub fn checkpoints_whole(conn: &rusqlite::Connection) -> Result<(), String> {
    let sql = "SELECT r.run_id, r.steps, COUNT(c.seq), COALESCE(MIN(c.seq), 0), \
               COALESCE(MAX(c.seq), 0), \
               EXISTS (SELECT 1 FROM run_archives a WHERE a.run_id = r.run_id) \
               FROM runs r LEFT JOIN checkpoints c ON c.run_id = r.run_id GROUP BY r.run_id";
    let mut stmt = conn.prepare(sql).map_err(|e| e.to_string())?;
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, bool>(5)?,
            ))
        })
        .map_err(|e| e.to_string())?;
    for row in rows {
        let (run, steps, count, min, max, packed) = row.map_err(|e| e.to_string())?;
        let whole = if count == 0 {
            packed || steps == 0
        } else {
            max - min + 1 == count && max == steps
        };
        if !whole {
            return Err(format!(
                "{run}: {steps} step(s), live checkpoints {min}..={max} ({count} of them), \
                 packed: {packed}"
            ));
        }
    }
    Ok(())
}
