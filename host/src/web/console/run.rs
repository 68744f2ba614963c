//! A run's page: where it stands, what it waits for, its budgets, the acts
//! an operator can take, and its timeline — each checkpoint with its wake,
//! tool calls (keys and results), approvals, and what it changed in the
//! state.

use std::sync::Arc;

use axum::Extension;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Json, Response};
use maud::{Markup, html};
use serde_json::{Value, json};

use super::lists::html_response;
use super::{csrf_field, frame};
use crate::app::RunRecord;
use crate::model::Millis;
use crate::server::{ApiState, blocking};
use crate::store::{AuditRow, Checkpoint, LedgerEntry, Run};
use crate::view::{self, json_or_text};
use crate::web::diff;
use crate::web::json_html;
use crate::web::page::time_from_now;
use crate::web::session::Operator;
use crate::worker::{next_summary, wake_summary};

struct Read {
    record: RunRecord,
    checkpoints: Vec<Checkpoint>,
    ledger: Vec<LedgerEntry>,
    /// The tools of the ledger's calls that leave the host, each call sent
    /// with an `Idempotency-Key`.
    external: Vec<String>,
    audit: Vec<AuditRow>,
    versions: Vec<String>,
    now: Millis,
}

/// Audit rows a run page reads at most.
const AUDIT_ROWS: usize = 5000;

/// `GET /ui/runs/{id}`.
pub async fn page(
    State(state): State<Arc<ApiState>>,
    Extension(op): Extension<Operator>,
    Path(id): Path<String>,
) -> Response {
    let read = blocking(&state, move |app| {
        let record = app.run_record(&id)?;
        let versions = app
            .store
            .agents()?
            .into_iter()
            .filter(|a| a.name == record.run.agent)
            .map(|a| a.version)
            .collect();
        let ledger = app.store.ledger(&id)?;
        let mut external: Vec<String> = ledger
            .iter()
            .filter(|call| app.tools.is_external(&call.tool))
            .map(|call| call.tool.clone())
            .collect();
        external.sort();
        external.dedup();
        Ok(Read {
            checkpoints: app.store.checkpoints(&id)?,
            ledger,
            external,
            audit: app.store.audit_page(Some(&id), None, AUDIT_ROWS)?.items,
            versions,
            now: app.now(),
            record,
        })
    })
    .await;
    match read {
        Ok(r) => {
            let url = format!("/ui/runs/{}/stamp", r.record.run.run_id);
            let stamp = run_stamp(&r.record.run, r.record.switches.len());
            let title = format!("Run {}", r.record.run.run_id);
            html_response(frame(&title, &op, Some((&url, &stamp)), body(&r, &op)))
        }
        Err(e) => super::acts::refusal(&op, &e.to_string()),
    }
}

/// `GET /ui/runs/{id}/stamp`: changes whenever the page would.
pub async fn stamp(State(state): State<Arc<ApiState>>, Path(id): Path<String>) -> Response {
    let read = blocking(&state, move |app| {
        Ok(run_stamp(&app.run(&id)?, app.store.switches()?.len()))
    })
    .await;
    Json(json!({"stamp": read.unwrap_or_default()})).into_response()
}

/// What a run's page depends on: the run's status, steps, last change and
/// attempts, and how many kill switches are on.
fn run_stamp(r: &Run, switches: usize) -> String {
    format!(
        "{}:{}:{}:{}:{switches}",
        r.status.as_str(),
        r.steps,
        r.updated_at,
        r.attempts
    )
}

/// The run's page below the frame, section by section.
fn body(r: &Read, op: &Operator) -> Markup {
    html! {
        (now(r))
        (pending_approvals(r, op))
        (unknown_calls(r, op))
        (acts(r, op))
        section aria-labelledby="timeline" {
            h2 #timeline { "Timeline" }
            (timeline(r))
        }
        (callback_links(r))
        (held_events(r))
        (state_now(r))
    }
}

/// Where the run stands now, and its budgets.
fn now(r: &Read) -> Markup {
    let run = &r.record.run;
    let doc = r.record.doc();
    html! {
        section aria-labelledby="now" {
            h2 #now { "Now" }
            dl.facts {
                dt { "Agent" } dd { (run.agent) "@" (run.version) }
                dt { "Status" } dd {
                    strong { (view::status_word(run, doc.switches)) }
                    @if let Some(t) = &run.status_text { " — " (t) }
                }
                @if let Some(c) = view::condition(run, doc.switches, doc.max_attempts) {
                    dt { "Going through" } dd { (c) }
                }
                @if let Some(claim) = doc.claim {
                    dt { "Claim" } dd { (view::claim_text(claim)) " (" (crate::web::page::relative(claim.expires, r.now)) ")" }
                }
                dt { "Waits for" } dd { (run.wake_when.as_deref().unwrap_or("nothing")) }
                dt { "Since" } dd { (time_from_now(run.updated_at, r.now)) }
                @if let Some(o) = &run.outcome { dt { "Outcome" } dd { (o) } }
                @if let Some(e) = &run.last_error { dt { "Last error" } dd { (e) " (attempts: " (run.attempts) ")" } }
                dt { "Started" } dd { (time_from_now(run.created_at, r.now)) }
            }
            table.budgets {
                caption { "Budgets" }
                thead { tr { th scope="col" { "" } th scope="col" { "Used" } th scope="col" { "Budget" } th scope="col" { "Left" } } }
                tbody {
                    (budget_row("Steps", run.steps as f64, run.step_budget as f64))
                    (budget_row("Fuel", run.fuel_used as f64, run.fuel_budget as f64))
                    (budget_row("Tokens", run.tokens_used as f64, run.token_budget as f64))
                    @if run.usd_budget > 0.0 { (budget_row("USD", run.usd_used, run.usd_budget)) }
                }
            }
        }
    }
}

/// The requests the run waits on, each with its answer form.
fn pending_approvals(r: &Read, op: &Operator) -> Markup {
    let run = &r.record.run;
    let pending = view::pending_approvals(run, &r.record.approvals);
    html! {
        @if !pending.is_empty() {
            section aria-labelledby="approvals" {
                h2 #approvals { "Waiting for approval" }
                @for a in &pending {
                    article.approval {
                        p.question { (a.question) }
                        (json_html::render(&json_or_text(&a.details)))
                        p.small {
                            "Expires " (time_from_now(a.expires_at, r.now))
                            @if let Some(token) = &a.token {
                                " · " a href={ "/v1/approve/" (token) } { "approval page (the link to send)" }
                            }
                        }
                        form method="post" action="/ui/act" {
                            (csrf_field(op))
                            input type="hidden" name="run" value=(run.run_id);
                            input type="hidden" name="request" value=(a.id);
                            input type="hidden" name="digest" value=(a.details_digest);
                            p { label for={ "comment-" (a.id) } { "Comment" } input id={ "comment-" (a.id) } name="comment" type="text"; }
                            p.buttons {
                                button.approve type="submit" name="action" value="approve" { "Approve…" }
                                button.reject type="submit" name="action" value="reject" { "Reject…" }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Tool calls whose outcome is not known, each with the form that settles
/// it when it can be settled here.
fn unknown_calls(r: &Read, op: &Operator) -> Markup {
    let run = &r.record.run;
    let doc = r.record.doc();
    html! {
        @if !r.record.intents.is_empty() {
            section aria-labelledby="unknown" {
                h2 #unknown { "Calls of unknown outcome" }
                @for i in &r.record.intents {
                    @let fate = view::Fate::of(i, doc.claim, doc.resent_tools);
                    article {
                        p { code { (i.tool) } " call " code { (i.key) } " was sent " (time_from_now(i.at, r.now)) " and what it did is not known." }
                        p.small { "Sent with " code { "Idempotency-Key: " (view::sent_key(run, i)) } ": ask the system it reached about that key." }
                        @if fate != view::Fate::Settle {
                            p.note { (fate.text(&run.run_id, i)) }
                        } @else {
                        form method="post" action="/ui/act" {
                            (csrf_field(op))
                            input type="hidden" name="run" value=(run.run_id);
                            input type="hidden" name="key" value=(i.key);
                            p { label for={ "result-" (i.key) } { "Its result (JSON), if it took effect" } input id={ "result-" (i.key) } name="result" type="text"; }
                            p { label for={ "fail-" (i.key) } { "Or: why it failed" } input id={ "fail-" (i.key) } name="reason" type="text"; }
                            p.buttons {
                                button type="submit" name="action" value="resolve-result" { "It took effect…" }
                                button type="submit" name="action" value="resolve-retry" { "Send it again…" }
                                button type="submit" name="action" value="resolve-fail" { "It failed…" }
                            }
                        }
                        }
                    }
                }
            }
        }
    }
}

/// The callback links the run made, used or not.
fn callback_links(r: &Read) -> Markup {
    html! {
        @if !r.record.callbacks.is_empty() {
            section aria-labelledby="callbacks" {
                h2 #callbacks { "Callback links" }
                ul {
                    @for c in &r.record.callbacks {
                        li {
                            code { (c.id) } " on " code { (c.topic) } ": "
                            @match c.used_at {
                                Some(at) => { "used " (time_from_now(at, r.now)) @if let Some(f) = &c.used_from { " from " (f) } }
                                None => { "expires " (time_from_now(c.expires_at, r.now)) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The events held in the run's inbox, if any.
fn held_events(r: &Read) -> Markup {
    html! {
        @let held = view::held_events(&r.record.inbox);
        @if held.as_array().is_some_and(|h| !h.is_empty()) {
            section aria-labelledby="held" {
                h2 #held { "Events held for this run" }
                (json_html::render(&held))
            }
        }
    }
}

/// The run's state as it is now.
fn state_now(r: &Read) -> Markup {
    let run = &r.record.run;
    html! {
        section aria-labelledby="state" {
            h2 #state { "State now" }
            (json_html::render(&json_or_text(&run.state)))
            (json_html::raw(&json_or_text(&run.state)))
        }
    }
}

fn budget_row(what: &str, used: f64, budget: f64) -> Markup {
    html! {
        tr {
            th scope="row" { (what) }
            td { (fmt_num(used)) }
            td { (fmt_num(budget)) }
            td { (fmt_num((budget - used).max(0.0))) }
        }
    }
}

fn fmt_num(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n:.4}")
    }
}

fn acts(r: &Read, op: &Operator) -> Markup {
    let run = &r.record.run;
    if run.status.is_ended() {
        return html! {};
    }
    html! {
        section aria-labelledby="acts" {
            h2 #acts { "Act on this run" }
            details {
                summary { "Send an event" }
                form method="post" action="/ui/act" {
                    (csrf_field(op))
                    input type="hidden" name="action" value="send";
                    input type="hidden" name="run" value=(run.run_id);
                    p { label for="topic" { "Topic" } input #topic name="topic" type="text" required; }
                    p { label for="event" { "Event id" } input #event name="event" type="text" required; }
                    p { label for="payload" { "Payload (JSON)" } textarea #payload name="payload" rows="3" { "null" } }
                    button type="submit" { "Send…" }
                }
            }
            details {
                summary { "Pause, resume, cancel or upgrade" }
                form method="post" action="/ui/act" {
                    (csrf_field(op))
                    input type="hidden" name="run" value=(run.run_id);
                    input type="hidden" name="scope" value={ "run:" (run.run_id) };
                    p { label for="why" { "Reason (for a pause or a cancel)" } input #why name="reason" type="text"; }
                    p.buttons {
                        button type="submit" name="action" value="pause" { "Pause this run…" }
                        button type="submit" name="action" value="resume" { "Resume this run…" }
                        button.reject type="submit" name="action" value="cancel" { "Cancel this run…" }
                    }
                }
                @if r.versions.len() > 1 {
                    form method="post" action="/ui/act" {
                        (csrf_field(op))
                        input type="hidden" name="action" value="upgrade";
                        input type="hidden" name="run" value=(run.run_id);
                        p {
                            label for="to" { "Upgrade to version" }
                            select #to name="to" {
                                @for v in r.versions.iter().filter(|v| **v != run.version) {
                                    option value=(v) { (v) }
                                }
                            }
                        }
                        button type="submit" { "Upgrade…" }
                    }
                }
            }
        }
    }
}

/// Each checkpoint, newest first, with the audit rows and recorded calls of
/// its step and what it changed in the state.
fn timeline(r: &Read) -> Markup {
    let rows = rows_by_step(&r.audit);
    let mut previous = Value::Null;
    let mut entries = vec![];
    let mut calls = r.ledger.iter().peekable();
    for c in &r.checkpoints {
        let state = json_or_text(&c.state);
        let changes = diff::changes(&previous, &state, 50);
        // A call belongs to the first checkpoint at or after its time.
        let mut mine = vec![];
        while let Some(call) = calls.next_if(|call| call.at <= c.at) {
            mine.push(call);
        }
        entries.push((c, changes, mine));
        previous = state;
    }
    html! {
        @if entries.is_empty() { p.empty { "No step yet." } }
        ol.timeline reversed {
            @for (c, changes, mine) in entries.iter().rev() {
                // Numbered by the step itself: a reversed list counts the
                // `summary` inside each item too (it is a list item in CSS).
                li value=(c.seq) {
                    h3 {
                        "Step " (c.seq) " · "
                        @match (&c.wake, &c.upgraded_from) {
                            (Some(w), _) => { (wake_summary(w)) }
                            (None, from) => { "upgrade from " (from.as_deref().unwrap_or("?")) }
                        }
                    }
                    dl.facts {
                        dt { "At" } dd { (crate::clock::rfc3339(c.at)) }
                        dt { "Then" } dd { (next_summary(&c.next)) }
                        @if let Some(s) = &c.status_text { dt { "Status" } dd { (s) } }
                        dt { "Fuel" } dd { (c.fuel_used) }
                    }
                    @if !mine.is_empty() {
                        table.calls {
                            caption { "Tool calls" }
                            thead { tr { th scope="col" { "Tool" } th scope="col" { "Key" } th scope="col" { "Idempotency-Key sent" } th scope="col" { "Result" } } }
                            tbody {
                                @for call in mine {
                                    tr {
                                        td { (call.tool) }
                                        td { code { (call.key) } }
                                        td {
                                            @if r.external.contains(&call.tool) {
                                                code.wrap { (crate::model::sent_key(&r.record.run.run_id, &r.record.run.incarnation, &call.key)) }
                                            } @else {
                                                span.empty { "(not sent out)" }
                                            }
                                        }
                                        td { (result_text(&call.result)) }
                                    }
                                }
                            }
                        }
                    }
                    @if let Some(step_rows) = rows.iter().find(|(seq, _)| *seq == c.seq).map(|(_, r)| r) {
                        @let notable: Vec<&&AuditRow> = step_rows.iter().filter(|r| r.kind != "step" && !(r.kind == "tool" && r.data["recorded"] == true)).collect();
                        @if !notable.is_empty() {
                            ul.events {
                                @for row in notable {
                                    li { strong { (row.kind) } " " code.wrap { (row.data.to_string()) } }
                                }
                            }
                        }
                    }
                    @if changes.is_empty() {
                        p.small { "The state did not change." }
                    } @else {
                        table.diff {
                            caption { "State changes" }
                            thead { tr { th scope="col" { "Path" } th scope="col" { "Before" } th scope="col" { "After" } } }
                            tbody {
                                @for ch in changes {
                                    tr {
                                        td { code { (ch.path) } }
                                        td.before { (opt_json(&ch.before)) }
                                        td.after { (opt_json(&ch.after)) }
                                    }
                                }
                            }
                        }
                    }
                    details { summary { "State after this step" } (json_html::raw(&json_or_text(&c.state))) }
                }
            }
        }
    }
}

/// The audit rows of each step, by checkpoint number: rows naming a `seq`,
/// the rest of a commit's rows (logs, approvals) with the step row before
/// them, and calls recorded during a step with the step row after them.
fn rows_by_step(rows: &[AuditRow]) -> Vec<(u64, Vec<&AuditRow>)> {
    let mut steps: Vec<(u64, Vec<&AuditRow>)> = vec![];
    let mut waiting: Vec<&AuditRow> = vec![];
    let mut current: Option<u64> = None;
    for row in rows {
        let seq = row.data["seq"].as_u64();
        let slot = |steps: &mut Vec<(u64, Vec<&AuditRow>)>, seq: u64| -> usize {
            match steps.iter().position(|(s, _)| *s == seq) {
                Some(i) => i,
                None => {
                    steps.push((seq, vec![]));
                    steps.len() - 1
                }
            }
        };
        if row.kind == "step" {
            let seq = seq.unwrap_or(0);
            let i = slot(&mut steps, seq);
            steps[i].1.append(&mut waiting);
            steps[i].1.push(row);
            current = Some(seq);
        } else if let Some(seq) = seq {
            let i = slot(&mut steps, seq);
            steps[i].1.push(row);
        } else if row.data["recorded"] == true {
            waiting.push(row);
        } else if let Some(seq) = current {
            let i = slot(&mut steps, seq);
            steps[i].1.push(row);
        }
    }
    steps
}

fn result_text(result: &Result<String, crate::model::ToolError>) -> Markup {
    match result {
        Ok(text) => {
            let short: String = text.chars().take(200).collect();
            html! { code.wrap { (short) @if text.chars().count() > 200 { "…" } } }
        }
        Err(e) => html! { span.bad { (e.to_string()) } },
    }
}

fn opt_json(v: &Option<Value>) -> Markup {
    match v {
        Some(v) => {
            let text = v.to_string();
            let short: String = text.chars().take(200).collect();
            html! { code.wrap { (short) } }
        }
        None => html! { span.empty { "(absent)" } },
    }
}
