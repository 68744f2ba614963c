//! Schedules (DESIGN.md, "Triggers"): an agent started at each tick of a
//! cron expression. Each tick starts at most one run, whose id is derived
//! from the schedule and the tick; ticks missed while the host was down (or
//! paused) start one run when it is back, not one per tick; and with the
//! `skip` overlap policy a tick starts nothing while the previous run lives.

use serde::Serialize;
use serde_json::json;

use crate::app::{App, AppError};
use crate::clock::rfc3339;
use crate::store::{Overlap, PutSchedule, RunStatus, Schedule, StoreError};
use crate::waits::next_tick;

/// What a due schedule did at its tick.
#[derive(Debug, Serialize)]
pub struct Fired {
    pub schedule: String,
    pub tick: String,
    /// The run started at this tick; `None` when the tick was skipped.
    pub run_id: Option<String>,
}

/// The longest schedule id: its runs' ids, `<id>-YYYYMMDDTHHMMSSZ`, must
/// still be valid run ids (128 bytes).
const MAX_SCHEDULE_ID: usize = 128 - 17;

/// A schedule as an operator asks for it.
#[derive(Clone, Copy, Debug)]
pub struct NewSchedule<'a> {
    pub id: &'a str,
    /// AGENT or AGENT@VERSION.
    pub agent: &'a str,
    pub cron: &'a str,
    /// The start input of every run (JSON); `None`: `null`.
    pub input: Option<&'a str>,
    pub overlap: Overlap,
    /// Replace a schedule with the same id instead of refusing.
    pub replace: bool,
}

/// Records a schedule after checking its agent, cron expression and input.
/// An id already in use is refused, naming the schedule it has, unless
/// `replace` is set: then the new schedule takes the old one's place
/// whole, and the audit row shows both.
/// `by` is who asked, for the audit log.
pub fn add(app: &mut App, new: &NewSchedule<'_>, by: &str) -> Result<Schedule, AppError> {
    let NewSchedule {
        id,
        agent,
        cron,
        input,
        overlap,
        replace,
    } = *new;
    crate::app::check_id("schedule id", id)?;
    if id.len() > MAX_SCHEDULE_ID {
        return Err(AppError::Invalid(format!(
            "schedule id `{id}` is {} bytes; its runs are named `<id>-<tick>` (17 bytes more) \
             and a run id may be 128 bytes: use at most {MAX_SCHEDULE_ID}",
            id.len()
        )));
    }
    app.resolve_agent(agent)?;
    let input = input.unwrap_or("null");
    app.check_input("input", input)?;
    let now = app.now();
    let next_at = next_tick(cron, now).map_err(AppError::Invalid)?;
    let schedule = Schedule {
        id: id.to_string(),
        agent: agent.to_string(),
        cron: cron.to_string(),
        input: input.to_string(),
        overlap,
        next_at,
        last_run_id: None,
        created_at: now,
    };
    match app.store.put_schedule(&schedule, replace)? {
        PutSchedule::Added => app.audit(
            None,
            "schedule",
            json!({"id": id, "agent": agent, "cron": cron, "input": input_json(input),
            "overlap": overlap.as_str(), "next": rfc3339(next_at), "by": by}),
        )?,
        PutSchedule::Replaced(old) => app.audit(
            None,
            "schedule replaced",
            json!({"id": id, "old": described(&old), "new": described(&schedule),
            "next": rfc3339(next_at), "by": by}),
        )?,
        PutSchedule::Exists(old) => {
            return Err(AppError::Conflict(format!(
                "schedule {id} already exists: {} at `{}` with input {} (overlap {}); \
                 pass --replace to replace it whole, or choose another id",
                old.agent,
                old.cron,
                old.input,
                old.overlap.as_str()
            )));
        }
    }
    Ok(schedule)
}

/// What an audit row shows of a schedule.
fn described(s: &Schedule) -> serde_json::Value {
    json!({"agent": s.agent, "cron": s.cron, "input": input_json(&s.input),
    "overlap": s.overlap.as_str()})
}

/// A stored input as JSON in an audit row (checked JSON text; kept as text
/// should it ever not parse).
fn input_json(input: &str) -> serde_json::Value {
    serde_json::from_str(input).unwrap_or_else(|_| json!(input))
}

/// Removes a schedule (the runs it started go on). Returns false when there
/// was none.
pub fn remove(app: &mut App, id: &str, by: &str) -> Result<bool, AppError> {
    if !app.store.remove_schedule(id)? {
        return Ok(false);
    }
    app.audit(None, "schedule removed", json!({"id": id, "by": by}))?;
    Ok(true)
}

/// Starts the runs of every schedule whose tick has come. Cheap when none
/// has: one indexed read.
pub fn fire_due(app: &mut App) -> Result<Vec<Fired>, AppError> {
    let now = app.now();
    let due = app.store.due_schedules(now)?;
    if due.is_empty() {
        return Ok(vec![]);
    }
    let paused: Vec<String> = app.store.switches()?.into_iter().map(|s| s.scope).collect();
    let mut fired = Vec::new();
    for s in due {
        let agent_name = s.agent.split('@').next().unwrap_or(&s.agent);
        // A paused schedule neither fires nor advances: once resumed it
        // fires once for the ticks it missed, as after downtime.
        if paused
            .iter()
            .any(|p| p == "all" || *p == format!("agent:{agent_name}"))
        {
            continue;
        }
        let next_at = match next_tick(&s.cron, now) {
            Ok(t) => t,
            Err(e) => {
                app.audit(None, "schedule failed", json!({"id": s.id, "error": e}))?;
                continue;
            }
        };
        let run_id = start_for_tick(app, &s)?;
        if app.store.advance_schedule(
            &s.id,
            s.next_at,
            next_at,
            run_id.as_deref().or(s.last_run_id.as_deref()),
        )? {
            fired.push(Fired {
                schedule: s.id.clone(),
                tick: rfc3339(s.next_at),
                run_id,
            });
        }
    }
    Ok(fired)
}

/// Starts the run of one tick, unless the overlap policy skips it. A run
/// that already exists for this tick (a worker fired it and crashed before
/// advancing the schedule) counts as started.
fn start_for_tick(app: &mut App, s: &Schedule) -> Result<Option<String>, AppError> {
    if s.overlap == Overlap::Skip
        && let Some(last) = &s.last_run_id
        && let Some(run) = app.store.run(last)?
        && matches!(
            run.status,
            RunStatus::Active | RunStatus::Waiting | RunStatus::Parked
        )
    {
        app.audit(
            None,
            "schedule skipped",
            json!({"id": s.id, "tick": rfc3339(s.next_at),
            "reason": format!("run {last} is still {}", run.status.as_str())}),
        )?;
        return Ok(None);
    }
    let tick = chrono::DateTime::from_timestamp_millis(s.next_at as i64)
        .map(|t| t.format("%Y%m%dT%H%M%SZ").to_string())
        .unwrap_or_else(|| s.next_at.to_string());
    let run_id = format!("{}-{tick}", s.id);
    crate::failpoint::hit("schedule-fire", &run_id);
    let by = format!("schedule:{}", s.id);
    match app.start(&s.agent, Some(&s.input), Some(&run_id), &by) {
        // The tick's run was started before (and perhaps pruned since).
        Ok(_) | Err(AppError::Store(StoreError::RunExists(_) | StoreError::RunIdRetired(_))) => {
            Ok(Some(run_id))
        }
        Err(e) => {
            // The agent may have been removed: say so, and move on to the
            // next tick rather than retrying this one forever.
            app.audit(
                None,
                "schedule failed",
                json!({"id": s.id, "tick": rfc3339(s.next_at),
                "error": e.to_string()}),
            )?;
            Ok(None)
        }
    }
}
