//! Commands on the host's own state rather than on runs: kv, leases and
//! schedules; `bench`, which works on a store of its own; and
//! `migrate-store`, which works on the two stores it names.

use anyhow::{Context, Result, bail};
use serde_json::json;

use super::args::arg_text;
use super::lists::{more, pages};
use super::output::{self, print_json};
use super::{KvCommand, LeaseCommand, ScheduleCommand};
use crate::app::App;
use crate::config::Config;
use crate::measure::{self, BenchWake};
use crate::model::Millis;
use crate::store::{AuditEntry, KvOp, KvOutcome, LeaseOp, LeaseOutcome};
use crate::tools;

pub(super) fn kv(app: &mut App, op: KvCommand, json: bool, by: &str) -> Result<()> {
    let op = match op {
        KvCommand::List {
            prefix,
            limit,
            after,
        } => {
            let prefix = prefix.unwrap_or_default();
            let (entries, next) = pages(limit, after, |after, n| {
                let page = app.store.kv_page(&prefix, after.as_deref(), n)?;
                Ok((page.items, page.next))
            })?;
            output::kv_entries(&entries, json)?;
            more(next);
            return Ok(());
        }
        KvCommand::Get { key } => KvOp::Get { key },
        KvCommand::Put {
            key,
            value,
            expected_version,
        } => {
            let value = arg_text("the value", value)?;
            app.check_json("the value", &value)?;
            // Stored as serde_json writes it, as the API and guests' puts
            // are: reads splice the stored text into their result.
            let value = serde_json::from_str::<serde_json::Value>(&value)
                .context("the value is not JSON")?
                .to_string();
            KvOp::Put {
                key,
                value,
                expected_version,
            }
        }
        KvCommand::Delete { key } => KvOp::Delete {
            key,
            expected_version: None,
        },
    };
    let outcome = app.kv(&op, by)?;
    println!("{}", tools::kv::render_for_operator(&outcome));
    if let KvOutcome::Wrote(w) = outcome
        && !w.ok
    {
        bail!(
            "the key is at version {}, not the expected one; nothing was written",
            w.version
        );
    }
    Ok(())
}

pub(super) fn lease(app: &mut App, op: LeaseCommand, by: &str) -> Result<()> {
    let now = app.now();
    let op = match op {
        LeaseCommand::Acquire {
            resource,
            holder,
            ttl,
        } => {
            if ttl == 0 {
                bail!("--ttl must be at least 1 second");
            }
            LeaseOp::Acquire {
                resource,
                holder,
                ttl_ms: ttl.saturating_mul(1000),
            }
        }
        LeaseCommand::Release { resource, holder } => LeaseOp::Release { resource, holder },
    };
    let mut data = match &op {
        LeaseOp::Acquire {
            resource,
            holder,
            ttl_ms,
        } => json!({"op": "acquire", "resource": resource, "holder": holder, "ttl_ms": ttl_ms}),
        LeaseOp::Release { resource, holder } => {
            json!({"op": "release", "resource": resource, "holder": holder})
        }
    };
    let resource = match &op {
        LeaseOp::Acquire { resource, .. } | LeaseOp::Release { resource, .. } => resource,
    };
    tools::namespace::operator_address(resource).map_err(anyhow::Error::msg)?;
    data["by"] = json!(by);
    // The lease and its audit row are one transaction: no act unrecorded.
    let audit = |outcome: &LeaseOutcome| {
        let mut data = data.clone();
        data["result"] = json!(outcome);
        AuditEntry {
            run_id: None,
            kind: "lease".into(),
            data,
        }
    };
    let outcome = app.store.lease_audited(&op, &audit, now)?;
    println!("{}", tools::lease::render(&outcome));
    if let LeaseOutcome::Acquire {
        granted: false,
        holder,
        expires_at,
    } = outcome
    {
        bail!(
            "{holder} holds the lease until {}; nothing changed",
            crate::clock::rfc3339(expires_at)
        );
    }
    Ok(())
}

pub(super) fn schedule(app: &mut App, op: ScheduleCommand, json: bool, by: &str) -> Result<()> {
    match op {
        ScheduleCommand::Add {
            id,
            agent,
            cron,
            input,
            overlap,
            replace,
        } => {
            let Some(overlap) = crate::store::Overlap::parse(&overlap) else {
                bail!("--overlap must be `skip` or `allow`, not `{overlap}`");
            };
            let input = input.map(|i| arg_text("--input", i)).transpose()?;
            let new = crate::schedule::NewSchedule {
                id: &id,
                agent: &agent,
                cron: &cron,
                input: input.as_deref(),
                overlap,
                replace,
            };
            let s = crate::schedule::add(app, &new, by)?;
            if json {
                return print_json(&s);
            }
            println!(
                "schedule {id}: {agent} at `{cron}`, next at {}",
                crate::clock::rfc3339(s.next_at)
            );
        }
        ScheduleCommand::List => output::schedules(&app.store.schedules()?, json)?,
        ScheduleCommand::Remove { id } => {
            if !crate::schedule::remove(app, &id, by)? {
                bail!("there is no schedule {id}; `wakeful schedule list` lists them");
            }
            println!("removed schedule {id}; the runs it started go on");
        }
    }
    Ok(())
}

/// What `bench` gives every run of a workload instead of its defaults.
pub(super) struct BenchWakeArgs {
    pub input: Option<String>,
    pub topic: Option<String>,
    pub payload: Option<String>,
}

/// `wakeful bench`: built-in workloads by name, or component files with
/// the input and event given here.
pub(super) fn bench(
    agents: &[String],
    args: &BenchWakeArgs,
    runs: usize,
    config: Config,
    json: bool,
) -> Result<()> {
    let mut reports = Vec::new();
    for agent in agents {
        let workload = bench_workload(agent, args)?;
        let report = measure::run(&workload, runs, config.clone())
            .with_context(|| format!("bench of {agent} failed"))?;
        reports.push(report);
    }
    if json {
        return match reports.as_slice() {
            [one] => print_json(one),
            all => print_json(&all),
        };
    }
    let rows: Vec<serde_json::Map<String, serde_json::Value>> = reports
        .iter()
        .map(|r| match serde_json::to_value(r) {
            Ok(serde_json::Value::Object(map)) => map,
            _ => serde_json::Map::new(),
        })
        .collect();
    let Some(first) = rows.first() else {
        return Ok(());
    };
    for key in first.keys() {
        let cells: Vec<String> = rows
            .iter()
            .map(|row| row.get(key).map_or_else(String::new, |v| v.to_string()))
            .collect();
        let ratios: Vec<String> = rows[1..]
            .iter()
            .filter_map(|row| {
                let (a, b) = (first.get(key)?.as_f64()?, row.get(key)?.as_f64()?);
                (a > 0.0).then(|| format!("{:.2}x", b / a))
            })
            .collect();
        let ratio = if ratios.is_empty() || rows.len() < 2 {
            String::new()
        } else {
            format!("  ({} of the first)", ratios.join(", "))
        };
        println!(
            "{key:<18} {}{ratio}",
            cells
                .iter()
                .map(|c| format!("{c:<24} "))
                .collect::<String>()
                .trim_end()
        );
    }
    Ok(())
}

/// The workload `agent` names (built in, or a file), with the operator's
/// input and wake in place of its own.
fn bench_workload(agent: &str, args: &BenchWakeArgs) -> Result<measure::Workload> {
    let input = args
        .input
        .clone()
        .map(|i| arg_text("--input", i))
        .transpose()?;
    let payload = args
        .payload
        .clone()
        .map(|p| arg_text("--payload", p))
        .transpose()?;
    let path = std::path::Path::new(agent);
    let is_file = agent.ends_with(".wasm") || agent.contains(std::path::MAIN_SEPARATOR);
    let mut workload = if is_file || path.is_file() {
        measure::file_workload(path)
    } else {
        measure::workload(agent)?
    };
    if let Some(input) = input {
        workload.input = Box::new(move |_| input.clone());
    }
    workload.wake = match (args.topic.clone(), payload, workload.wake.take()) {
        (Some(topic), payload, old) => {
            let payload = payload.or(match old {
                Some(BenchWake::Event { payload, .. }) => Some(payload),
                _ => None,
            });
            Some(BenchWake::Event {
                topic,
                payload: payload.unwrap_or_else(|| "{}".into()),
            })
        }
        (None, Some(payload), Some(BenchWake::Event { topic, .. })) => {
            Some(BenchWake::Event { topic, payload })
        }
        (None, Some(_), _) => bail!("--payload is the payload of an event: give its --topic"),
        (None, None, old) => old,
    };
    Ok(workload)
}

/// `wakeful migrate-store`: the copy, then what it found and proved.
pub(super) fn migrate_store(from: &str, to: &str, by: &str, json: bool) -> Result<()> {
    use crate::clock::Clock;
    let at = crate::clock::SystemClock.now();
    // A host is live for three heartbeats after its last, as `wakeful
    // hosts` counts.
    let live_for = 3 * crate::config::HEARTBEAT.as_millis() as Millis;
    let order = crate::store::sql::CopyOrder {
        from,
        to,
        by,
        at,
        live_since: at.saturating_sub(live_for),
    };
    let copied = crate::store::sql::copy_store(&order)?;
    if json {
        return print_json(&copied);
    }
    if let Some(old) = copied.source_migrated_from {
        println!(
            "the source was at schema {old}: opening it migrated it to schema {}",
            copied.schema_version
        );
    }
    output::copied_tables(&copied.tables);
    println!(
        "copied {} row(s) from {} to {}: verified (every table's row count and SHA-256 \
         match on both sides, and the source was not written during the copy)",
        copied.rows, copied.from, copied.to
    );
    println!(
        "the target's audit log records it (`store migrated`); point every host at {} \
         (--store, WAKEFUL_STORE or [store] url) before starting them again",
        copied.to
    );
    Ok(())
}
