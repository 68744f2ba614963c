//! Commands on the host's own state rather than on runs: kv, leases and
//! schedules; and `bench`, which works on a store of its own.

use anyhow::{Context, Result, bail};
use serde_json::json;

use super::commands::{arg_text, more, pages};
use super::output::{self, print_json};
use super::{KvCommand, LeaseCommand, ScheduleCommand};
use crate::app::App;
use crate::bench::{self, BenchWake};
use crate::config::Config;
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
    println!("{}", tools::kv::render(&outcome));
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

/// `wakeful bench`: a built-in workload by name, or a component file with
/// the input and event given here.
pub(super) fn bench_scale(options: &bench::ScaleOptions, config: Config, json: bool) -> Result<()> {
    let report = bench::scale(options, &config).context("the scale bench failed")?;
    if json {
        return print_json(&report);
    }
    println!("steps/s (incident workload; each host its own connection and worker)");
    println!(
        "  {:<10} {:>5} {:>6} {:>10}",
        "STORE", "HOSTS", "RUNS", "STEPS/S"
    );
    for t in &report.throughput {
        println!(
            "  {:<10} {:>5} {:>6} {:>10}",
            t.store, t.hosts, t.runs, t.steps_per_sec
        );
    }
    println!("event accepted -> step committed (another host steps it)");
    for l in &report.latency {
        println!(
            "  {:<10} p50 {:>8.3} ms  p99 {:>8.3} ms  max {:>8.3} ms  ({} samples; woken by {})",
            l.store, l.p50_ms, l.p99_ms, l.max_ms, l.samples, l.woken_by
        );
    }
    println!("claims among sleeping runs");
    for d in &report.due_lookup {
        println!(
            "  {:<10} {} sleeping (seeded in {} s, {} MB): nothing due {:.3} ms, one due {:.3} ms",
            d.store,
            d.sleeping_runs,
            d.seed_secs,
            d.store_bytes / 1_000_000,
            d.idle_claim_ms,
            d.due_claim_ms
        );
    }
    Ok(())
}

pub(super) fn bench(
    agent: &str,
    runs: usize,
    input: Option<String>,
    topic: Option<String>,
    payload: Option<String>,
    config: Config,
    json: bool,
) -> Result<()> {
    let input = input.map(|i| arg_text("--input", i)).transpose()?;
    let payload = payload.map(|p| arg_text("--payload", p)).transpose()?;
    let path = std::path::Path::new(agent);
    let is_file = agent.ends_with(".wasm") || agent.contains(std::path::MAIN_SEPARATOR);
    let mut workload = if is_file || path.is_file() {
        bench::file_workload(path)
    } else {
        bench::workload(agent)?
    };
    if let Some(input) = input {
        workload.input = Box::new(move |_| input.clone());
    }
    workload.wake = match (topic, payload, workload.wake.take()) {
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
    let report =
        bench::run(&workload, runs, config).with_context(|| format!("bench of {agent} failed"))?;
    if json {
        return print_json(&report);
    }
    for (k, v) in serde_json::to_value(&report)?
        .as_object()
        .into_iter()
        .flatten()
    {
        println!("{k:<16} {v}");
    }
    Ok(())
}
