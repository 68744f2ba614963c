//! Callback links: made by the `callback` tool with its ledger row in one
//! transaction, used once by a POST that delivers its body as an event.

use super::db::{Connection, OptionalExtension, Row, params};
use serde_json::json;

use super::SqlStore;
use super::commits::new_token;
use super::tools::{begin_call, record};
use super::triggers::{offer, rfc3339};
use super::{Context, audit, clamp_time, write};
use crate::model::{Event, Millis};
use crate::store::links::token_hash;
use crate::store::{
    Callback, CallbackRefused, Delivery, LedgerWrite, NewCallback, RenderResult, Result,
    StoreError, callback_topic,
};

/// Callback links.
impl SqlStore {
    /// Makes a callback link for the claimed run of `call` (a new random
    /// token, valid from `link.now` for `link.valid_for_ms`) and records its
    /// rendered result in the ledger with a `tool` audit row, in one
    /// transaction under the claim: a retried step replays that result and
    /// no second link exists. `Ok(Err(why))` when the run already has a
    /// link of that id (nothing is written).
    pub fn create_callback(
        &mut self,
        call: &LedgerWrite,
        link: &NewCallback,
        render: RenderResult<'_, Callback>,
    ) -> Result<std::result::Result<Callback, String>> {
        create(&mut self.conn, call, link, render)
    }

    /// The run's callback links, oldest first.
    pub fn callbacks(&self, run_id: &str) -> Result<Vec<Callback>> {
        list(&self.conn, run_id)
    }

    /// A POST to the link `token` arrived at `at` from `from`: puts
    /// `payload` (JSON) in the run's inbox as an event on the link's topic,
    /// marks the link used and appends a `callback` audit row, in one
    /// transaction. Refused (and nothing changes) when the token is unknown,
    /// the link was used, it expired at `at` (a `callback refused` audit row
    /// is appended), or the run ended.
    pub fn use_callback(
        &mut self,
        token: &str,
        payload: &str,
        from: Option<&str>,
        at: Millis,
    ) -> Result<std::result::Result<Callback, CallbackRefused>> {
        use_link(&mut self.conn, token, payload, from, at)
    }
}

const COLUMNS: &str = "token, run_id, id, topic, created_at, expires_at, used_at, used_from";

fn from_row(row: &Row<'_>) -> super::db::Result<Callback> {
    Ok(Callback {
        token: row.get("token")?,
        run_id: row.get("run_id")?,
        id: row.get("id")?,
        topic: row.get("topic")?,
        created_at: row.get("created_at")?,
        expires_at: row.get("expires_at")?,
        used_at: row.get("used_at")?,
        used_from: row.get("used_from")?,
    })
}

pub(super) fn create(
    conn: &mut Connection,
    call: &LedgerWrite,
    link: &NewCallback,
    render: RenderResult<'_, Callback>,
) -> Result<std::result::Result<Callback, String>> {
    let what = format!("making callback link {} of run {}", link.id, call.run_id);
    write(conn, &what, |tx| {
        begin_call(tx, call)?;
        let taken = tx
            .prepare_cached("SELECT 1 FROM callbacks WHERE run_id = ?1 AND id = ?2")
            .and_then(|mut stmt| stmt.exists([&call.run_id, &link.id]))
            .ctx_with(|| format!("looking up callback link {}", link.id))?;
        if taken {
            return Ok(Err(format!(
                "callback: this run already has a link with id `{}`; give a new link a new id",
                link.id
            )));
        }
        let callback = Callback {
            token: new_token()?,
            run_id: call.run_id.clone(),
            id: link.id.clone(),
            topic: callback_topic(&link.id),
            created_at: link.now,
            expires_at: clamp_time(link.now.saturating_add(link.valid_for_ms)),
            used_at: None,
            used_from: None,
        };
        tx.prepare_cached(
            "INSERT INTO callbacks (token, run_id, id, topic, created_at, expires_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )
        .and_then(|mut stmt| {
            stmt.execute(params![
                token_hash(&callback.token),
                callback.run_id,
                callback.id,
                callback.topic,
                callback.created_at,
                callback.expires_at
            ])
        })
        .ctx_with(|| what.clone())?;
        record(tx, call, &Ok(render(&callback)), link.now)?;
        Ok(Ok(callback))
    })
}

pub(super) fn list(conn: &Connection, run_id: &str) -> Result<Vec<Callback>> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM callbacks WHERE run_id = ?1 ORDER BY created_at, id"
    ))
    .and_then(|mut stmt| {
        stmt.query_map([run_id], from_row)?
            .collect::<super::db::Result<Vec<_>>>()
    })
    .ctx_with(|| format!("reading the callback links of run {run_id}"))
}

/// The link whose token has the SHA-256 `hash`.
fn by_token(conn: &Connection, hash: &str) -> Result<Option<Callback>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM callbacks WHERE token = ?1"))
        .and_then(|mut stmt| stmt.query_row([hash], from_row).optional())
        .ctx("looking up a callback link")
}

/// Checks in the order a caller can act on: no such link, used, expired,
/// the run ended; then delivers, marks and audits together.
pub(super) fn use_link(
    conn: &mut Connection,
    token: &str,
    payload: &str,
    from: Option<&str>,
    at: Millis,
) -> Result<std::result::Result<Callback, CallbackRefused>> {
    // The store keeps only each token's SHA-256 (`store::links`).
    let hash = token_hash(token);
    write(conn, "delivering through a callback link", |tx| {
        let Some(mut callback) = by_token(tx, &hash)? else {
            return Ok(Err(CallbackRefused::Unknown));
        };
        let run_id = callback.run_id.clone();
        if let Some(used_at) = callback.used_at {
            return Ok(Err(CallbackRefused::Used {
                used_at,
                used_at_text: rfc3339(used_at),
            }));
        }
        if at >= callback.expires_at {
            audit::insert_kind(
                tx,
                Some(&run_id),
                "callback refused",
                json!({"id": callback.id, "from": from, "reason": "expired",
                    "expires_at": callback.expires_at}),
                at,
            )?;
            return Ok(Err(CallbackRefused::Expired {
                expires_at: callback.expires_at,
                expires_at_text: rfc3339(callback.expires_at),
            }));
        }
        let event = Event {
            // One link per id and run, used once: the id is unique in the
            // run's inbox.
            id: callback.topic.clone(),
            topic: callback.topic.clone(),
            payload: payload.to_string(),
            received_at: at,
        };
        match offer(tx, &run_id, &event)? {
            Delivery::Accepted => {}
            Delivery::Finished => {
                let status: String = tx
                    .prepare_cached("SELECT status FROM runs WHERE run_id = ?1")
                    .and_then(|mut stmt| stmt.query_row([&run_id], |row| row.get(0)))
                    .ctx_with(|| format!("reading the status of run {run_id}"))?;
                return Ok(Err(CallbackRefused::RunEnded {
                    run: run_id,
                    status,
                }));
            }
            Delivery::Duplicate => {
                return Err(StoreError::Corrupt(format!(
                    "run {run_id} already holds event {} although its callback link is unused",
                    event.id
                )));
            }
        }
        tx.prepare_cached("UPDATE callbacks SET used_at = ?2, used_from = ?3 WHERE token = ?1")
            .and_then(|mut stmt| stmt.execute(params![hash, at, from]))
            .ctx_with(|| format!("marking callback link {} of run {run_id} used", callback.id))?;
        audit::insert_kind(
            tx,
            Some(&run_id),
            "callback",
            json!({"id": callback.id, "topic": callback.topic, "from": from,
                "payload_bytes": payload.len()}),
            at,
        )?;
        callback.used_at = Some(at);
        callback.used_from = from.map(str::to_string);
        Ok(Ok(callback))
    })
}
