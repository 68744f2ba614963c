//! The commands that change agents and runs: deploy an agent; start a run,
//! send it an event, answer its approval request, settle its tool call,
//! cancel it, upgrade it.

use std::path::Path;

use anyhow::{Context, Result, bail};
use serde_json::json;

use super::args::{Acting, arg_text, said};
use super::output::{self, print_json};
use crate::app::App;
use crate::store::{Delivery, Resolution};
use crate::upgrade;

/// `wakeful deploy FILE`.
pub(super) fn deploy(
    app: &mut App,
    file: &Path,
    grants: &[String],
    grant_all: bool,
    owner: Option<&str>,
    acting: Acting<'_>,
) -> Result<()> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let d = app
        .deploy(&bytes, grants, grant_all, owner, acting.by)
        .with_context(|| format!("cannot deploy {}", file.display()))?;
    if acting.json {
        return print_json(&d);
    }
    let label = format!("{}@{}", d.agent.name, d.agent.version);
    if let Some(change) = &d.owner_changed {
        let was = change
            .was
            .as_deref()
            .map_or("had none".into(), |w| format!("was {w}"));
        let now = d.agent.owner.as_deref().unwrap_or_default();
        println!("owner of {label} is now {now} ({was})");
    } else if d.already_deployed {
        println!("already deployed {label}; nothing changed");
    } else {
        println!("deployed {label}");
    }
    println!("digest sha256:{}", d.agent.digest);
    println!("granted {}", output::list(&d.agent.granted_tools));
    if let Some(owner) = &d.agent.owner {
        println!("owner {owner}");
    }
    for t in &d.unconfigured_tools {
        eprintln!(
            "warning: tool `{t}` is granted but not configured on this host; its calls fail with `unknown` until wakeful.toml adds it"
        );
    }
    Ok(())
}

/// `wakeful start AGENT`.
pub(super) fn start(
    app: &mut App,
    agent: &str,
    input: Option<String>,
    run_id: Option<&str>,
    acting: Acting<'_>,
) -> Result<()> {
    let input = input.map(|i| arg_text("--input", i)).transpose()?;
    let run = app.start(agent, input.as_deref(), run_id, acting.by)?;
    if acting.json {
        return print_json(
            &json!({"run_id": run.run_id, "agent": run.agent, "version": run.version}),
        );
    }
    println!("{}", run.run_id);
    Ok(())
}

/// `wakeful send [RUN] --topic T --id E`: to one run, or to every run
/// waiting on the topic.
pub(super) fn send(
    app: &mut App,
    run: Option<&str>,
    topic: &str,
    event_id: &str,
    payload: Option<String>,
    acting: Acting<'_>,
) -> Result<()> {
    let payload = payload.map(|p| arg_text("--payload", p)).transpose()?;
    let sent = app.send(run, topic, event_id, payload.as_deref(), acting.by)?;
    if acting.json {
        return print_json(&sent);
    }
    if sent.is_empty() && run.is_none() {
        println!(
            "no run waits on {topic} now; event {event_id} is kept {} h for the runs \
             live now, each gets it when it waits on {topic}",
            app.config.retention.broadcast_hours
        );
    }
    for s in &sent {
        match s.delivery {
            Delivery::Accepted => match &s.held {
                Some(why) => println!("held {event_id}: {why}"),
                None => println!("delivered {event_id} to {}", s.run_id),
            },
            Delivery::Duplicate => {
                println!("{} already has event {event_id}; nothing changed", s.run_id)
            }
            Delivery::Finished => {
                bail!(
                    "run {} has ended; event {event_id} was not stored",
                    s.run_id
                )
            }
        }
    }
    Ok(())
}

/// `wakeful approve RUN REQUEST`: approve it, or reject it
/// (`approve` false).
pub(super) fn approve(
    app: &mut App,
    run: &str,
    request: &str,
    approve: bool,
    comment: Option<&str>,
    digest: Option<&str>,
    acting: Acting<'_>,
) -> Result<()> {
    let by = acting.by;
    let who = crate::app::Acting {
        by,
        said: said(acting.given_by)?,
    };
    let a = app.approve(run, request, who, approve, comment, digest)?;
    if acting.json {
        return print_json(&a);
    }
    let verb = if approve { "approved" } else { "rejected" };
    println!(
        "{verb} {request} of {run} as {by}{}; the run takes it at its next step (a running `serve` at once, else the next `wakeful work`)",
        who.said
            .map(|s| format!(" (said: {s})"))
            .unwrap_or_default()
    );
    Ok(())
}

/// How `wakeful resolve` says a call ended: `--result`, `--retry` or
/// `--fail`.
pub(super) fn resolution(
    result: Option<String>,
    retry: bool,
    fail: Option<String>,
) -> Result<Resolution> {
    Ok(match (result, retry, fail) {
        (Some(json), _, _) => Resolution::Result(arg_text("--result", json)?),
        (None, true, _) => Resolution::Retry,
        (None, false, Some(reason)) => Resolution::Fail(reason),
        (None, false, None) => bail!("say how the call ended: --result, --retry or --fail"),
    })
}

/// `wakeful resolve RUN KEY`.
pub(super) fn resolve(
    app: &mut App,
    run: &str,
    key: &str,
    resolution: &Resolution,
    acting: Acting<'_>,
) -> Result<()> {
    let who = crate::app::Acting {
        by: acting.by,
        said: said(acting.given_by)?,
    };
    app.resolve(run, key, resolution, who)?;
    println!("settled call {key} of {run}; the run retries its step at the next `wakeful work`");
    Ok(())
}

/// `wakeful cancel RUN`.
pub(super) fn cancel(app: &mut App, run: &str, reason: &str, by: &str) -> Result<()> {
    if app.cancel(run, reason, by)? {
        println!("cancelled {run}");
    } else {
        println!("{run} had already ended; nothing changed");
    }
    Ok(())
}

/// `wakeful upgrade`: one run, or every live run of `--agent`, to `to`.
pub(super) fn upgrade(
    app: &mut App,
    run: Option<String>,
    agent: Option<String>,
    to: &str,
    dry_run: bool,
    allow_new_tools: bool,
    acting: Acting<'_>,
) -> Result<()> {
    let runs = match (run, agent) {
        (Some(run), _) => vec![run],
        (None, Some(agent)) => {
            app.resolve_agent(&agent)?;
            upgrade::live_runs(app, &agent)?
        }
        (None, None) => bail!("name a run, or --agent"),
    };
    let options = upgrade::UpgradeOptions {
        dry_run,
        allow_new_tools,
        terms: crate::app::terms::Terms::Cli,
    };
    let results = upgrade::upgrade_runs(app, &runs, to, options, acting.by)?;
    let failed = results
        .iter()
        .filter(|r| matches!(r.result, upgrade::UpgradeResult::Failed(_)))
        .count();
    if acting.json {
        print_json(&results)?;
    } else {
        if results.is_empty() {
            println!("no live run to upgrade");
        }
        for r in &results {
            println!(
                "{}  {} -> {}  {}",
                r.run_id,
                r.from,
                r.to,
                output::upgrade_result(&r.result)
            );
        }
    }
    if failed > 0 {
        bail!("{failed} run(s) were not upgraded; they stay on their version");
    }
    Ok(())
}
