//! `GET /metrics`: Prometheus text for scraping, behind the bearer token
//! like every operator route (the counts tell who runs what). Counts of
//! runs by status are counted by the database, never by reading runs; step
//! counts are this process's own.

use std::fmt::Write;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;

use crate::server::admission::Admission;
use crate::server::{ApiError, ApiState, blocking};

pub async fn metrics(State(state): State<Arc<ApiState>>) -> Result<impl IntoResponse, ApiError> {
    let counters = state.counters.clone();
    let (by_status, due_claimed) = blocking(&state, |app| {
        let by_status = app.store.run_counts()?;
        let now = app.now();
        Ok((by_status, app.store.due_but_claimed(now)?))
    })
    .await?;
    let mut text = String::new();
    let _ = writeln!(text, "# HELP wakeful_runs Runs in the store, by status.");
    let _ = writeln!(text, "# TYPE wakeful_runs gauge");
    for (status, n) in by_status {
        let _ = writeln!(text, "wakeful_runs{{status=\"{}\"}} {n}", status.as_str());
    }
    let _ = writeln!(
        text,
        "# HELP wakeful_steps_total Steps this process's workers ended, by result."
    );
    let _ = writeln!(text, "# TYPE wakeful_steps_total counter");
    for (result, c) in [
        ("committed", &counters.committed),
        ("failed", &counters.failed),
        ("parked", &counters.parked),
        ("lost_claim", &counters.lost_claim),
        ("held", &counters.held),
    ] {
        let _ = writeln!(
            text,
            "wakeful_steps_total{{result=\"{result}\"}} {}",
            c.load(Ordering::Relaxed)
        );
    }
    let _ = writeln!(
        text,
        "# HELP wakeful_worker_seconds_total Time this process's workers spent in their passes, \
         by part: claiming runs, stepping them (guests and tool calls), committing (the SQL, \
         the wait for the writer, the flush to disk)."
    );
    let _ = writeln!(text, "# TYPE wakeful_worker_seconds_total counter");
    for (part, c) in [
        ("claim", &counters.claim_ns),
        ("step", &counters.step_ns),
        ("commit", &counters.commit_ns),
    ] {
        let seconds = c.load(Ordering::Relaxed) as f64 / 1e9;
        let _ = writeln!(
            text,
            "wakeful_worker_seconds_total{{part=\"{part}\"}} {seconds:.6}"
        );
    }
    let _ = writeln!(
        text,
        "# HELP wakeful_runs_due_claimed Runs with a wake now that a worker holds (being stepped)."
    );
    let _ = writeln!(text, "# TYPE wakeful_runs_due_claimed gauge");
    let _ = writeln!(text, "wakeful_runs_due_claimed {due_claimed}");
    connections(&mut text, &state.connections);
    Ok(([(CONTENT_TYPE, "text/plain; version=0.0.4")], text))
}

/// The API's connections: open now, and closed or refused by each rule of
/// [`admission`](crate::server::admission).
fn connections(text: &mut String, admission: &Admission) {
    let (waiting, handled) = admission.open();
    let _ = writeln!(
        text,
        "# HELP wakeful_api_connections Connections open now: waiting on their client \
         (sending a request, reading an answer, idle) or handled."
    );
    let _ = writeln!(text, "# TYPE wakeful_api_connections gauge");
    let _ = writeln!(
        text,
        "wakeful_api_connections{{state=\"waiting\"}} {waiting}"
    );
    let _ = writeln!(
        text,
        "wakeful_api_connections{{state=\"handled\"}} {handled}"
    );
    let _ = writeln!(
        text,
        "# HELP wakeful_api_connections_closed_total Connections closed, or requests refused \
         (refused_kind_full), under the [api] connection limits, by limit."
    );
    let _ = writeln!(text, "# TYPE wakeful_api_connections_closed_total counter");
    for (rule, n) in admission.closed.by_rule() {
        let _ = writeln!(
            text,
            "wakeful_api_connections_closed_total{{limit=\"{rule}\"}} {n}"
        );
    }
}
