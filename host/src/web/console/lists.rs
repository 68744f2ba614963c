//! The console's lists: runs (filtered, paged, newest first), agents and
//! their versions, schedules, kill switches, and the audit log.

use std::sync::Arc;

use axum::Extension;
use axum::extract::{Query, State};
use axum::response::{Html, IntoResponse, Json, Response};
use maud::{Markup, html};
use serde::Deserialize;
use serde_json::json;

use super::{csrf_field, frame};
use crate::server::{ApiError, ApiState, blocking};
use crate::store::{Run, RunFilter, RunStatus, WaitingOn};
use crate::view;
use crate::web::page::time_from_now;
use crate::web::session::Operator;

/// Rows a console page lists.
const PAGE: usize = 50;

#[derive(Deserialize, Default)]
pub struct RunsQuery {
    #[serde(default)]
    status: String,
    #[serde(default)]
    agent: String,
    #[serde(default)]
    version: String,
    #[serde(default)]
    waiting_on: String,
    #[serde(default)]
    after: String,
}

impl RunsQuery {
    fn filter(&self) -> Result<RunFilter, ApiError> {
        let status = match self.status.as_str() {
            "" => None,
            s => Some(RunStatus::parse(s).ok_or_else(|| {
                ApiError::BadRequest(format!(
                    "status `{s}` is not one of active, waiting, done, parked, cancelled"
                ))
            })?),
        };
        let some = |s: &str| Some(s.trim().to_string()).filter(|s| !s.is_empty());
        Ok(RunFilter {
            status,
            agent: some(&self.agent),
            version: some(&self.version),
            waiting_on: WaitingOn::parse(self.waiting_on.trim()),
        })
    }

    /// The query string of these filters, with another cursor.
    fn link(&self, after: Option<&str>) -> String {
        let mut parts = vec![];
        for (k, v) in [
            ("status", &self.status),
            ("agent", &self.agent),
            ("version", &self.version),
            ("waiting_on", &self.waiting_on),
        ] {
            if !v.is_empty() {
                parts.push(format!("{k}={}", urlencode(v)));
            }
        }
        if let Some(a) = after {
            parts.push(format!("after={}", urlencode(a)));
        }
        format!("/ui/?{}", parts.join("&"))
    }
}

/// `GET /ui/`: runs, newest first.
pub async fn runs(
    State(state): State<Arc<ApiState>>,
    Extension(op): Extension<Operator>,
    Query(q): Query<RunsQuery>,
) -> Response {
    let filter = match q.filter() {
        Ok(f) => f,
        Err(e) => return super::acts::refusal(&op, &e.to_string()),
    };
    let after = Some(q.after.clone()).filter(|a| !a.is_empty());
    let read = blocking(&state, move |app| {
        let page = app.store.runs_page(&filter, after.as_deref(), PAGE)?;
        let switches = app.store.switches()?;
        // The stamp follows the first page, which an older page is not.
        let stamp = match after {
            None => runs_stamp(&page.items, switches.len()),
            Some(_) => runs_stamp(
                &app.store.runs_page(&filter, None, PAGE)?.items,
                switches.len(),
            ),
        };
        Ok((
            page,
            switches,
            stamp,
            app.config.limits.max_attempts,
            app.now(),
        ))
    })
    .await;
    let (page, switches, stamp, max_attempts, now) = match read {
        Ok(r) => r,
        Err(e) => return super::acts::refusal(&op, &e.to_string()),
    };
    let body = html! {
        form.filters method="get" action="/ui/" role="search" {
            (select("status", "Status", &q.status, &["", "active", "waiting", "parked", "done", "cancelled"]))
            (text_filter("agent", "Agent", &q.agent))
            (text_filter("version", "Version", &q.version))
            (text_filter("waiting_on", "Waiting on (topic, approval, timer)", &q.waiting_on))
            button type="submit" { "Filter" }
        }
        @if page.items.is_empty() {
            p.empty { "No run matches." }
        } @else {
            table {
                thead { tr {
                    th scope="col" { "Run" } th scope="col" { "Agent" } th scope="col" { "Status" }
                    th scope="col" { "Waits for" } th scope="col" { "Since" } th scope="col" { "Steps" }
                } }
                tbody {
                    @for r in &page.items {
                        tr {
                            td { a href={ "/ui/runs/" (r.run_id) } { code { (r.run_id) } } }
                            td { (r.agent) "@" (r.version) }
                            td {
                                span class={ "status " (view::status_word(r, &switches)) } { (view::status_word(r, &switches)) }
                                @if let Some(c) = view::condition(r, &switches, max_attempts).or_else(|| r.status_text.clone()) {
                                    br; span.small { (c) }
                                }
                            }
                            td { (r.wake_when.as_deref().unwrap_or("-")) }
                            td { (time_from_now(r.updated_at, now)) }
                            td { (r.steps) }
                        }
                    }
                }
            }
        }
        @if let Some(next) = &page.next {
            p { a href=(q.link(Some(next))) rel="next" { "Older runs →" } }
        }
    };
    html_response(frame("Runs", &op, Some((&stamp_url(&q), &stamp)), body))
}

fn stamp_url(q: &RunsQuery) -> String {
    q.link(None).replacen("/ui/?", "/ui/stamp?", 1)
}

/// `GET /ui/stamp`: changes whenever the first page of runs would.
pub async fn stamp(State(state): State<Arc<ApiState>>, Query(q): Query<RunsQuery>) -> Response {
    let Ok(filter) = q.filter() else {
        return Json(json!({"stamp": ""})).into_response();
    };
    let read = blocking(&state, move |app| {
        let page = app.store.runs_page(&filter, None, PAGE)?;
        Ok(runs_stamp(&page.items, app.store.switches()?.len()))
    })
    .await;
    Json(json!({"stamp": read.unwrap_or_default()})).into_response()
}

/// What a list of runs depends on: the first page's runs as they stand,
/// and how many kill switches are on.
fn runs_stamp(first_page: &[Run], switches: usize) -> String {
    format!(
        "{}|{switches}",
        first_page
            .iter()
            .map(|r| format!(
                "{}:{}:{}:{}",
                r.run_id,
                r.status.as_str(),
                r.steps,
                r.updated_at
            ))
            .collect::<Vec<_>>()
            .join(",")
    )
}

/// `GET /ui/agents`: versions, grants, owners, live runs per version.
pub async fn agents(
    State(state): State<Arc<ApiState>>,
    Extension(op): Extension<Operator>,
) -> Response {
    let read = blocking(&state, move |app| {
        let mut rows = vec![];
        for a in app.store.agents()? {
            let mut live = 0;
            for status in [RunStatus::Active, RunStatus::Waiting, RunStatus::Parked] {
                let filter = RunFilter {
                    status: Some(status),
                    agent: Some(a.name.clone()),
                    version: Some(a.version.clone()),
                    waiting_on: None,
                };
                live += app.store.runs_page(&filter, None, 1000)?.items.len();
            }
            rows.push((a, live));
        }
        Ok((rows, app.now()))
    })
    .await;
    let (rows, now) = match read {
        Ok(r) => r,
        Err(e) => return super::acts::refusal(&op, &e.to_string()),
    };
    let body = html! {
        @if rows.is_empty() { p.empty { "No agent is deployed." } }
        table {
            thead { tr {
                th scope="col" { "Agent" } th scope="col" { "Version" } th scope="col" { "Granted tools" }
                th scope="col" { "Owner" } th scope="col" { "Live runs" } th scope="col" { "Deployed" }
            } }
            tbody {
                @for (a, live) in &rows {
                    tr {
                        td { (a.name) }
                        td { code { (a.version) } }
                        td { (if a.granted_tools.is_empty() { "none".to_string() } else { a.granted_tools.join(", ") }) }
                        td { (a.owner.as_deref().unwrap_or("-")) }
                        td { a href={ "/ui/?agent=" (urlencode(&a.name)) "&version=" (urlencode(&a.version)) } { (live) (if *live >= 1000 { "+" } else { "" }) } }
                        td { (time_from_now(a.deployed_at, now)) }
                    }
                }
            }
        }
    };
    html_response(frame("Agents", &op, None, body))
}

/// `GET /ui/schedules`.
pub async fn schedules(
    State(state): State<Arc<ApiState>>,
    Extension(op): Extension<Operator>,
) -> Response {
    let read = blocking(&state, move |app| Ok((app.store.schedules()?, app.now()))).await;
    let (schedules, now) = match read {
        Ok(r) => r,
        Err(e) => return super::acts::refusal(&op, &e.to_string()),
    };
    let body = html! {
        @if schedules.is_empty() { p.empty { "No schedule. `wakeful schedule add` makes one." } }
        table {
            thead { tr {
                th scope="col" { "Schedule" } th scope="col" { "Agent" } th scope="col" { "Cron (UTC)" }
                th scope="col" { "Next tick" } th scope="col" { "Last run" } th scope="col" { "Overlap" }
            } }
            tbody {
                @for s in &schedules {
                    tr {
                        td { code { (s.id) } }
                        td { (s.agent) }
                        td { code { (s.cron) } }
                        td { (time_from_now(s.next_at, now)) }
                        td { @if let Some(r) = &s.last_run_id { a href={ "/ui/runs/" (r) } { code { (r) } } } @else { "-" } }
                        td { (s.overlap.as_str()) }
                    }
                }
            }
        }
    };
    html_response(frame("Schedules", &op, None, body))
}

/// `GET /ui/switches`: the switches that are on, and the one control that
/// pauses everything.
pub async fn switches(
    State(state): State<Arc<ApiState>>,
    Extension(op): Extension<Operator>,
) -> Response {
    let read = blocking(&state, move |app| {
        let switches = app.store.switches()?;
        let first = app.store.runs_page(&RunFilter::default(), None, PAGE)?;
        let stamp = runs_stamp(&first.items, switches.len());
        Ok((switches, stamp, app.now()))
    })
    .await;
    let (switches, stamp, now) = match read {
        Ok(r) => r,
        Err(e) => return super::acts::refusal(&op, &e.to_string()),
    };
    let everything_on = switches.iter().any(|s| s.scope == "all");
    let body = html! {
        section.panic {
            @if everything_on {
                p.refused role="status" { strong { "Everything is paused." } " No run takes a step; nothing is lost." }
            } @else {
                form method="post" action="/ui/act" {
                    (csrf_field(&op))
                    input type="hidden" name="action" value="pause";
                    input type="hidden" name="scope" value="all";
                    p {
                        label for="reason" { "Why" }
                        input #reason name="reason" type="text" placeholder="e.g. incident review";
                    }
                    button.reject.big type="submit" { "Pause everything" }
                }
            }
        }
        h2 { "Switches on" }
        @if switches.is_empty() { p.empty { "None: every run steps." } }
        ul.switches {
            @for s in &switches {
                li {
                    code { (s.scope) }
                    @if let Some(r) = &s.reason { ": " (r) }
                    " · since " (time_from_now(s.at, now))
                    form.inline method="post" action="/ui/act" {
                        (csrf_field(&op))
                        input type="hidden" name="action" value="resume";
                        input type="hidden" name="scope" value=(s.scope);
                        button type="submit" { "Resume " (s.scope) }
                    }
                }
            }
        }
        h2 { "Pause one agent, run or tool" }
        form method="post" action="/ui/act" {
            (csrf_field(&op))
            input type="hidden" name="action" value="pause";
            p {
                label for="scope" { "Scope (agent:NAME, run:ID or tool:NAME)" }
                input #scope name="scope" type="text" required;
            }
            p { label for="reason2" { "Why" } input #reason2 name="reason" type="text"; }
            button type="submit" { "Pause" }
        }
    };
    html_response(frame(
        "Kill switches",
        &op,
        Some(("/ui/stamp", &stamp)),
        body,
    ))
}

#[derive(Deserialize, Default)]
pub struct AuditQuery {
    #[serde(default)]
    q: String,
    #[serde(default)]
    run: String,
    #[serde(default)]
    after: String,
}

/// Rows the audit search reads at most per page it shows.
const AUDIT_SCAN: usize = 20_000;

/// `GET /ui/audit?q=&run=&after=`: the log, oldest first, with the rows
/// whose kind, run or data contain `q` (any case).
pub async fn audit(
    State(state): State<Arc<ApiState>>,
    Extension(op): Extension<Operator>,
    Query(aq): Query<AuditQuery>,
) -> Response {
    let needle = aq.q.trim().to_lowercase();
    let run = Some(aq.run.trim().to_string()).filter(|r| !r.is_empty());
    let start: Option<u64> = aq.after.parse().ok();
    let read = blocking(&state, move |app| {
        let mut found = vec![];
        let mut after = start;
        let mut scanned = 0;
        let mut more = None;
        while found.len() < PAGE && scanned < AUDIT_SCAN {
            let page = app.store.audit_page(run.as_deref(), after, 500)?;
            scanned += page.items.len();
            for row in page.items {
                let id = row.id;
                let text = format!(
                    "{} {} {}",
                    row.kind,
                    row.run_id.as_deref().unwrap_or(""),
                    row.data
                )
                .to_lowercase();
                if needle.is_empty() || text.contains(&needle) {
                    found.push(row);
                }
                after = Some(id);
                if found.len() >= PAGE {
                    break;
                }
            }
            match page.next {
                Some(_) => more = after,
                None => {
                    more = None;
                    break;
                }
            }
        }
        Ok((found, more))
    })
    .await;
    let (rows, more) = match read {
        Ok(r) => r,
        Err(e) => return super::acts::refusal(&op, &e.to_string()),
    };
    let body = html! {
        form.filters method="get" action="/ui/audit" role="search" {
            (text_filter("q", "Contains", &aq.q))
            (text_filter("run", "Run", &aq.run))
            button type="submit" { "Search" }
        }
        @if rows.is_empty() { p.empty { "No row matches." } }
        table {
            thead { tr { th scope="col" { "#" } th scope="col" { "At" } th scope="col" { "Run" } th scope="col" { "Kind" } th scope="col" { "What" } } }
            tbody {
                @for r in &rows {
                    tr {
                        td { (r.id) }
                        td { (crate::clock::rfc3339(r.at)) }
                        td { @if let Some(id) = &r.run_id { a href={ "/ui/runs/" (id) } { code { (id) } } } }
                        td { (r.kind) }
                        td { code.wrap { (r.data.to_string()) } }
                    }
                }
            }
        }
        @if let Some(next) = more {
            p { a rel="next" href={ "/ui/audit?q=" (urlencode(&aq.q)) "&run=" (urlencode(&aq.run)) "&after=" (next) } { "Later rows →" } }
        }
    };
    html_response(frame("Audit log", &op, None, body))
}

fn select(name: &str, label: &str, chosen: &str, options: &[&str]) -> Markup {
    html! {
        p {
            label for=(name) { (label) }
            select #(name) name=(name) {
                @for o in options {
                    option value=(o) selected[*o == chosen] { (if o.is_empty() { "any" } else { o }) }
                }
            }
        }
    }
}

fn text_filter(name: &str, label: &str, value: &str) -> Markup {
    html! {
        p {
            label for=(name) { (label) }
            input #(name) name=(name) type="text" value=(value);
        }
    }
}

pub fn html_response(markup: Markup) -> Response {
    Html(markup.into_string()).into_response()
}

/// Percent-encodes a query value.
pub fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~:@".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
