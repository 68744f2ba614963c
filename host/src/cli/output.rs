//! Rendering for the CLI: aligned tables for people, JSON for scripts.

use anyhow::Result;
use serde::Serialize;

use crate::app::RunRecord;
use crate::clock::rfc3339;
use crate::store::{AgentVersion, AuditRow, Checkpoint, KvEntry, Run, Switch};
use crate::tools::namespace::namespace_of;
use crate::view;
use crate::worker::{next_summary, wake_summary};

pub fn print_json<T: Serialize + ?Sized>(value: &T) -> Result<()> {
    println!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}

pub fn list(items: &[String]) -> String {
    if items.is_empty() {
        "-".into()
    } else {
        items.join(",")
    }
}

/// Prints rows as columns padded to their widest cell.
fn table(header: &[&str], rows: Vec<Vec<String>>) {
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<String>| {
        let last = cells.len() - 1;
        let text: Vec<String> = cells
            .into_iter()
            .enumerate()
            .map(|(i, c)| {
                if i == last {
                    c
                } else {
                    format!("{c:<w$}", w = widths[i])
                }
            })
            .collect();
        println!("{}", text.join("  ").trim_end());
    };
    line(header.iter().map(|h| h.to_string()).collect());
    for row in rows {
        line(row);
    }
}

/// The tables `migrate-store` copied: rows, and the start of each digest.
pub fn copied_tables(tables: &[crate::store::sql::TableCopied]) {
    table(
        &["TABLE", "ROWS", "SHA256"],
        tables
            .iter()
            .map(|t| {
                vec![
                    t.table.to_string(),
                    t.rows.to_string(),
                    t.sha256.chars().take(16).collect(),
                ]
            })
            .collect(),
    );
}

pub fn agents(agents: &[AgentVersion], json: bool) -> Result<()> {
    if json {
        return print_json(agents);
    }
    table(
        &["AGENT", "DIGEST", "TOOLS", "GRANTED", "OWNER", "DEPLOYED"],
        agents
            .iter()
            .map(|a| {
                vec![
                    format!("{}@{}", a.name, a.version),
                    a.digest.chars().take(12).collect(),
                    list(&a.requested_tools),
                    list(&a.granted_tools),
                    a.owner.clone().unwrap_or_else(|| "-".into()),
                    rfc3339(a.deployed_at),
                ]
            })
            .collect(),
    );
    Ok(())
}

pub fn hosts(hosts: &[crate::app::HostView], json: bool) -> Result<()> {
    if json {
        return print_json(hosts);
    }
    table(
        &[
            "HOST",
            "KIND",
            "STATE",
            "LISTEN",
            "STARTED",
            "HEARTBEAT",
            "STEPPING",
        ],
        hosts
            .iter()
            .map(|h| {
                vec![
                    h.host.id.clone(),
                    h.host.kind.clone(),
                    h.state.to_string(),
                    h.host.listen.clone().unwrap_or_else(|| "-".into()),
                    rfc3339(h.host.started_at),
                    format!(
                        "{} ({} s ago)",
                        rfc3339(h.host.heartbeat_at),
                        h.silent_for_ms / 1000
                    ),
                    list(&h.host.stepping),
                ]
            })
            .collect(),
    );
    Ok(())
}

/// The runs one `wakeful runs` lists, and the cursor of what is left.
pub struct RunsPage<'a> {
    pub runs: &'a [Run],
    /// The `--after` of the next page, if there is one.
    pub next: Option<&'a str>,
}

/// `wakeful runs`; `--json` is a page as `GET /v1/runs` answers it:
/// `{"items": [...], "next": RUN_ID | null}`.
pub fn runs(page: &RunsPage<'_>, switches: &[Switch], max_attempts: u32, json: bool) -> Result<()> {
    let runs = page.runs;
    if json {
        return print_json(&serde_json::json!({
            "items": view::runs(runs, switches, max_attempts),
            "next": page.next,
        }));
    }
    table(
        &[
            "RUN",
            "AGENT",
            "STATUS",
            "STEPS",
            "WAKE WHEN",
            "STATUS TEXT",
        ],
        runs.iter()
            .map(|r| {
                vec![
                    r.run_id.clone(),
                    format!("{}@{}", r.agent, r.version),
                    view::status_word(r, switches).into(),
                    r.steps.to_string(),
                    r.wake_when.clone().unwrap_or_else(|| "-".into()),
                    view::condition(r, switches, max_attempts)
                        .or_else(|| r.status_text.clone())
                        .unwrap_or_default(),
                ]
            })
            .collect(),
    );
    Ok(())
}

/// `wakeful show`. Whoever runs it can answer the run's requests (with
/// `approve`), so it shows their answer links too: in full, on `base`.
pub fn show(record: &RunRecord, base: &str, json: bool) -> Result<()> {
    let doc = record.doc();
    if json {
        return print_json(&view::show(&doc));
    }
    let run = &record.run;
    let pending = view::pending_approvals(run, &record.approvals);
    println!("run        {}", run.run_id);
    println!("agent      {}@{}", run.agent, run.version);
    println!("status     {}", run.status.as_str());
    if let Some(t) = &run.status_text {
        println!("           {t}");
    }
    if let Some(c) = view::condition(run, &record.switches, record.max_attempts) {
        println!("now        {c}");
    }
    if let Some(claim) = &record.claim {
        println!("claim      {}", view::claim_text(claim));
    }
    for i in &record.intents {
        let fate = view::Fate::of(i, record.claim.as_ref(), &record.resent_tools);
        println!(
            "unknown    outcome of {} call {} (sent {} as Idempotency-Key {}): {}",
            i.tool,
            i.key,
            crate::clock::rfc3339(i.at),
            view::sent_key(run, i),
            fate.text(&run.run_id, i)
        );
    }
    for c in &record.sent_calls {
        println!(
            "sent       {} call {} ({}) as Idempotency-Key {}",
            c.tool,
            c.key,
            if c.result.is_ok() { "ok" } else { "failed" },
            crate::model::sent_key(&run.run_id, &run.incarnation, &c.key)
        );
    }
    if let Some(w) = &run.wake_when {
        println!("wake when  {w}");
    }
    for e in record.inbox.iter().filter(|e| e.consumed_at_step.is_none()) {
        println!(
            "held event {} on `{}` (received {}), delivered when the run waits on `{}`",
            e.event.id,
            e.event.topic,
            rfc3339(e.event.received_at),
            e.event.topic
        );
    }
    for c in &record.callbacks {
        let standing = match c.used_at {
            Some(at) => format!(
                "used at {}{}",
                rfc3339(at),
                c.used_from
                    .as_deref()
                    .map(|f| format!(" from {f}"))
                    .unwrap_or_default()
            ),
            None => format!("expires {}", rfc3339(c.expires_at)),
        };
        println!("callback   {} on `{}`: {standing}", c.id, c.topic);
    }
    if let Some(o) = &run.outcome {
        println!("outcome    {o}");
    }
    println!("steps      {} of {}", run.steps, run.step_budget);
    println!("fuel       {} of {}", run.fuel_used, run.fuel_budget);
    if run.tokens_used > 0 || run.usd_used > 0.0 {
        println!(
            "tokens     {} of {} (${:.4} of ${:.2})",
            run.tokens_used, run.token_budget, run.usd_used, run.usd_budget
        );
    }
    if let Some(e) = &run.last_error {
        println!("last error {e} (attempts: {})", run.attempts);
    }
    for a in pending {
        println!(
            "approval   {}: {} (expires {})",
            a.id,
            a.question,
            rfc3339(a.expires_at)
        );
        println!("           details {}", a.details);
        println!("           digest {}", a.details_digest);
        println!(
            "           wakeful approve {} {} --digest {} [--reject]",
            run.run_id, a.id, a.details_digest
        );
        // A link made before tokens were derived from the link key (or
        // with another host's key) cannot be shown again.
        if let Some(token) = &a.token {
            println!("           link {base}{}", view::answer_path(token));
        }
    }
    println!("state      {}", run.state);
    Ok(())
}

pub fn history(checkpoints: &[Checkpoint], json: bool) -> Result<()> {
    if json {
        return print_json(&view::history(checkpoints));
    }
    table(
        &["SEQ", "AT", "WAKE", "NEXT", "STATUS"],
        checkpoints
            .iter()
            .map(|c| {
                vec![
                    c.seq.to_string(),
                    rfc3339(c.at),
                    match (&c.wake, &c.upgraded_from) {
                        (Some(wake), _) => wake_summary(wake),
                        (None, from) => {
                            format!("upgrade from {}", from.as_deref().unwrap_or("?"))
                        }
                    },
                    next_summary(&c.next),
                    c.status_text.clone().unwrap_or_default(),
                ]
            })
            .collect(),
    );
    Ok(())
}

/// Audit rows; as JSON, the API's page: `{"items": rows, "next": id}`.
pub fn audit(rows: &[AuditRow], next: Option<u64>, json: bool) -> Result<()> {
    if json {
        return print_json(&serde_json::json!({"items": rows, "next": next}));
    }
    for r in rows {
        println!(
            "{}  {:<18} {:<18} {}",
            rfc3339(r.at),
            r.run_id.as_deref().unwrap_or("-"),
            r.kind,
            audit_text(&r.kind, &r.data)
        );
    }
    Ok(())
}

/// Who acted, and the name they gave when there is one.
fn by_said(d: &serde_json::Value) -> String {
    let by = d["by"].as_str().unwrap_or_default();
    match d["said"].as_str() {
        Some(said) => format!("{by} (said: {said})"),
        None => by.to_string(),
    }
}

/// The line of a tool call's row (`tool`), or of one send of it (`tool
/// sent`, with the `Idempotency-Key` it carried).
fn tool_text(kind: &str, d: &serde_json::Value) -> String {
    use serde_json::Value;
    let s = |key: &str| match &d[key] {
        Value::String(text) => text.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    if kind == "tool sent" {
        let again = if d["resend"] == Value::Bool(true) {
            " again"
        } else {
            ""
        };
        return format!(
            "{} key={} sent{again} as Idempotency-Key {}",
            s("tool"),
            s("key"),
            s("sent_key")
        );
    }
    // Rows written before outcomes were recorded have only `ok`.
    let outcome = match (&d["outcome"], &d["ok"]) {
        (Value::String(o), _) => o.clone(),
        (_, Value::Bool(true)) => "ok".into(),
        _ => "failed".into(),
    };
    let mut line = format!("{} key={} {outcome}", s("tool"), s("key"));
    if let Some(status) = d["status"].as_u64() {
        line.push_str(&format!(" (status {status})"));
    }
    if d["error"].is_string() {
        line.push_str(&format!(": {}", s("error")));
    }
    line
}

/// One line an operator reads at 3 am; `--json` has every field.
fn audit_text(kind: &str, d: &serde_json::Value) -> String {
    use serde_json::Value;
    let s = |key: &str| match &d[key] {
        Value::String(text) => text.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    match kind {
        "step" => {
            let status = s("status");
            let status = if status.is_empty() {
                String::new()
            } else {
                format!(" ({status})")
            };
            format!("#{} {} -> {}{status}", s("seq"), s("wake"), s("next"))
        }
        "tool" if d["outcome"] == "not audited" => {
            format!("{} more call(s) not audited ({})", d["calls"], s("why"))
        }
        "tool" | "tool sent" => tool_text(kind, d),
        "log" => format!("[{}] {}", s("level"), s("message")),
        "approval requested" => format!(
            "{} \"{}\" expires {}",
            s("id"),
            s("question"),
            s("expires_at")
        ),
        "approval" => {
            let verdict = if d["approved"] == Value::Bool(true) {
                "approved"
            } else {
                "rejected"
            };
            let comment = s("comment");
            let comment = if comment.is_empty() {
                String::new()
            } else {
                format!(": {comment}")
            };
            format!("{} {verdict} by {}{comment}", s("request_id"), by_said(d))
        }
        "done" => s("outcome"),
        "lease" => format!(
            "{} {} by {}: {}",
            s("op"),
            s("resource"),
            s("holder"),
            s("result")
        ),
        "owner changed" => {
            let old = s("old");
            let old = if old.is_empty() { "none".into() } else { old };
            format!("{}@{} {old} -> {}", s("agent"), s("version"), s("new"))
        }
        "schedule replaced" => {
            let side = |key: &str| {
                let v = &d[key];
                let agent = v["agent"].as_str().unwrap_or_default();
                let cron = v["cron"].as_str().unwrap_or_default();
                format!("{agent} `{cron}` input {}", v["input"])
            };
            format!("{}: {} -> {}", s("id"), side("old"), side("new"))
        }
        "step failed" => format!("attempt {}: {}", s("attempt"), s("error")),
        "store migrated" => {
            let rows: u64 = d["rows"]
                .as_object()
                .map(|tables| tables.values().filter_map(Value::as_u64).sum())
                .unwrap_or(0);
            format!(
                "{rows} row(s) copied from {} to {} by {}",
                s("from"),
                s("to"),
                s("by")
            )
        }
        _ => d.to_string(),
    }
}

pub fn upgrade_result(result: &crate::upgrade::UpgradeResult) -> String {
    use crate::upgrade::UpgradeResult::*;
    match result {
        Upgraded => "upgraded".into(),
        WouldUpgrade => "would upgrade (dry run)".into(),
        AlreadyOnVersion => "already on that version".into(),
        Ended => "has ended; left as it is".into(),
        Busy => "is being stepped; try again".into(),
        Failed(e) => format!("not upgraded: {e}"),
    }
}

pub fn schedules(schedules: &[crate::store::Schedule], json: bool) -> Result<()> {
    if json {
        return print_json(schedules);
    }
    table(
        &[
            "SCHEDULE", "AGENT", "CRON", "OVERLAP", "NEXT", "LAST RUN", "INPUT",
        ],
        schedules
            .iter()
            .map(|s| {
                vec![
                    s.id.clone(),
                    s.agent.clone(),
                    s.cron.clone(),
                    s.overlap.as_str().into(),
                    rfc3339(s.next_at),
                    s.last_run_id.clone().unwrap_or_else(|| "-".into()),
                    s.input.clone(),
                ]
            })
            .collect(),
    );
    Ok(())
}

/// kv entries as `{"key", "value", "version"}` documents (the value as
/// JSON, as `kv get` prints it), or a table.
pub fn kv_entries(entries: &[KvEntry], json: bool) -> Result<()> {
    let value = |e: &KvEntry| -> serde_json::Value {
        e.value
            .as_deref()
            .and_then(|v| serde_json::from_str(v).ok())
            .unwrap_or_default()
    };
    if json {
        let docs: Vec<_> = entries
            .iter()
            .map(|e| {
                serde_json::json!({"key": e.key, "namespace": namespace_of(&e.key),
                    "value": value(e), "version": e.version})
            })
            .collect();
        return print_json(&docs);
    }
    table(
        &["NAMESPACE", "KEY", "VERSION", "VALUE"],
        entries
            .iter()
            .map(|e| {
                vec![
                    namespace_of(&e.key).unwrap_or("-").to_string(),
                    e.key.clone(),
                    e.version.to_string(),
                    value(e).to_string(),
                ]
            })
            .collect(),
    );
    Ok(())
}

pub fn switches(switches: &[Switch], json: bool) -> Result<()> {
    if json {
        return print_json(switches);
    }
    if switches.is_empty() {
        println!("no kill switch is on");
    }
    for s in switches {
        println!(
            "{}  {}  {}",
            s.scope,
            rfc3339(s.at),
            s.reason.as_deref().unwrap_or("")
        );
    }
    Ok(())
}
