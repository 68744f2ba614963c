//! One function per command: parse nothing, decide nothing the app does not;
//! call the app and print.

use anyhow::{Context, Result, bail};
use serde_json::json;

use super::admin;
use super::output::{self, print_json};
use super::{Cli, Command};
use crate::app::App;
use crate::config::Config;
use crate::store::{Delivery, Resolution, RunFilter, RunStatus, StoreError, WaitingOn};
use crate::upgrade;

/// Runs one command line. `bench` works on a store of its own and
/// `migrate-store` on the stores it names; `wit`, `new`, `check FILE` and
/// `cache` use no store: none of them opens (or creates) the store; every
/// other command does.
pub fn run(cli: Cli) -> Result<()> {
    // A compiling child needs nothing of the host's config or store.
    if let Command::CompileComponent {
        component,
        out,
        memory_bytes,
        address_space_bytes,
    } = &cli.command
    {
        crate::runtime::compile::child(component, out, *memory_bytes, *address_space_bytes);
    }
    // A new token needs no config: it is how a refused config is mended.
    if let Command::Tokens {
        op:
            super::TokensCommand::New {
                name,
                scopes,
                agents,
            },
    } = &cli.command
    {
        return super::tokens::new_token(name, scopes, agents, cli.json);
    }
    let config = load_config(&cli)?;
    let Cli {
        data,
        json,
        command,
        by,
        ..
    } = cli;
    match command {
        Command::Bench {
            agents,
            runs,
            input,
            topic,
            payload,
            ..
        } => admin::bench(
            &agents,
            &admin::BenchWakeArgs {
                input,
                topic,
                payload,
            },
            runs,
            config,
            json,
        ),
        Command::MigrateStore { from, to } => admin::migrate_store(&from, &to, &actor()?, json),
        Command::Wit => {
            print!("{}", crate::runtime::inspect::WIT);
            Ok(())
        }
        Command::New { name, lang, dir } => {
            let created = crate::scaffold::new_project(&name, lang, dir.as_deref())?;
            if json {
                return print_json(&created);
            }
            println!(
                "wrote {} ({:?} agent {}, {} files)",
                created.dir.display(),
                created.lang,
                created.name,
                created.files.len()
            );
            println!("next, in {}:", created.dir.display());
            for step in &created.next_steps {
                println!("  {step}");
            }
            Ok(())
        }
        Command::Check {
            file: Some(file),
            no_compile,
        } => super::check::component(&file, no_compile, &data, config, json),
        Command::Cache { op } => super::cache::cache(op, &data, &config, json),
        command => {
            let given_by = by.clone();
            said(given_by.as_deref())?;
            let by = actor()?;
            let app = App::open(&data, config)?;
            operate(app, &data, command, json, &by, given_by.as_deref())
        }
    }
}

/// Runs one command on the store of the data directory `data`.
fn operate(
    mut app: App,
    data: &std::path::Path,
    command: Command,
    json: bool,
    by: &str,
    given_by: Option<&str>,
) -> Result<()> {
    match command {
        Command::Deploy {
            file,
            grants,
            grant_all,
            owner,
        } => {
            let bytes =
                std::fs::read(&file).with_context(|| format!("cannot read {}", file.display()))?;
            let d = app
                .deploy(&bytes, &grants, grant_all, owner.as_deref(), by)
                .with_context(|| format!("cannot deploy {}", file.display()))?;
            if json {
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
        }
        Command::Agents => output::agents(&app.store.agents()?, json)?,
        Command::Start {
            agent,
            input,
            run_id,
        } => {
            let input = input.map(|i| arg_text("--input", i)).transpose()?;
            let run = app.start(&agent, input.as_deref(), run_id.as_deref(), by)?;
            if json {
                return print_json(
                    &json!({"run_id": run.run_id, "agent": run.agent, "version": run.version}),
                );
            }
            println!("{}", run.run_id);
        }
        Command::Work {
            until_idle,
            poll_ms,
        } => super::work::work(&mut app, until_idle, poll_ms, json)?,
        Command::Serve {
            listen,
            workers,
            log_format,
        } => {
            return crate::serve::run(app, data, listen, workers, log_format);
        }
        Command::Runs {
            status,
            agent,
            version,
            waiting_on,
            limit,
            after,
        } => {
            let status = match status.as_deref() {
                Some(s) => Some(RunStatus::parse(s).with_context(|| {
                    format!("--status `{s}` is not one of active, waiting, done, parked, cancelled")
                })?),
                None => None,
            };
            let waiting_on = match waiting_on.as_deref() {
                Some(w) => Some(WaitingOn::parse(w).with_context(|| {
                    format!("--waiting-on `{w}` is empty; name a topic, or approval or timer")
                })?),
                None => None,
            };
            let filter = RunFilter {
                status,
                agent,
                version,
                waiting_on,
            };
            let (runs, next) = pages(limit, after, |after, n| {
                let page = app.store.runs_page(&filter, after.as_deref(), n)?;
                Ok((page.items, page.next))
            })?;
            let max_attempts = app.config.limits.max_attempts;
            output::runs(&runs, &app.store.switches()?, max_attempts, json)?;
            more(next);
        }
        Command::Show { run } => output::show(&app.run_record(&run)?, json)?,
        Command::History { run } => {
            app.run(&run)?;
            output::history(&app.store.checkpoints(&run)?, json)?;
        }
        Command::Audit { run, limit, after } => {
            if let Some(id) = &run {
                app.check_run_id(id)?;
            }
            let (rows, next) = pages(limit, after, |after, n| {
                let page = app.store.audit_page(run.as_deref(), after, n)?;
                Ok((page.items, page.next))
            })?;
            output::audit(&rows, json)?;
            more(next);
        }
        Command::Send {
            run,
            topic,
            event_id,
            payload,
        } => {
            let payload = payload.map(|p| arg_text("--payload", p)).transpose()?;
            let sent = app.send(run.as_deref(), &topic, &event_id, payload.as_deref(), by)?;
            if json {
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
        }
        Command::Approve {
            run,
            request,
            reject,
            comment,
            digest,
        } => {
            let who = crate::app::Acting {
                by,
                said: said(given_by)?,
            };
            let a = app.approve(
                &run,
                &request,
                who,
                !reject,
                comment.as_deref(),
                digest.as_deref(),
            )?;
            if json {
                return print_json(&a);
            }
            let verb = if reject { "rejected" } else { "approved" };
            println!(
                "{verb} {request} of {run} as {by}{}; the run takes it at its next step (a running `serve` at once, else the next `wakeful work`)",
                who.said
                    .map(|s| format!(" (said: {s})"))
                    .unwrap_or_default()
            );
        }
        Command::Resolve {
            run,
            key,
            result,
            retry,
            fail,
        } => {
            let resolution = match (result, retry, fail) {
                (Some(json), _, _) => Resolution::Result(arg_text("--result", json)?),
                (None, true, _) => Resolution::Retry,
                (None, false, Some(reason)) => Resolution::Fail(reason),
                (None, false, None) => bail!("say how the call ended: --result, --retry or --fail"),
            };
            let who = crate::app::Acting {
                by,
                said: said(given_by)?,
            };
            app.resolve(&run, &key, &resolution, who)?;
            println!(
                "settled call {key} of {run}; the run retries its step at the next `wakeful work`"
            );
        }
        Command::Cancel { run, reason } => {
            if app.cancel(&run, &reason, by)? {
                println!("cancelled {run}");
            } else {
                println!("{run} had already ended; nothing changed");
            }
        }
        Command::Pause {
            scope,
            reason,
            preemptive,
        } => {
            let key = scope.key();
            app.pause(&key, reason.as_deref(), preemptive, by)?;
            println!("paused {key}: runs take no step until `wakeful resume`");
        }
        Command::Resume { scope } => {
            let key = scope.key();
            if app.resume(&key, by)? {
                println!("resumed {key}");
            } else {
                println!("{key} was not paused; nothing changed");
            }
        }
        Command::Upgrade {
            run,
            agent,
            to,
            dry_run,
            allow_new_tools,
        } => {
            let runs = match (run, agent) {
                (Some(run), _) => vec![run],
                (None, Some(agent)) => {
                    app.resolve_agent(&agent)?;
                    upgrade::live_runs(&app, &agent)?
                }
                (None, None) => bail!("name a run, or --agent"),
            };
            let options = upgrade::UpgradeOptions {
                dry_run,
                allow_new_tools,
                terms: crate::terms::Terms::Cli,
            };
            let results = upgrade::upgrade_runs(&mut app, &runs, &to, options, by)?;
            let failed = results
                .iter()
                .filter(|r| matches!(r.result, upgrade::UpgradeResult::Failed(_)))
                .count();
            if json {
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
        }
        Command::Backup { file } => {
            app.store.backup(&file)?;
            println!("backed up to {} (checked: ok)", file.display());
        }
        Command::Hosts => output::hosts(&app.hosts()?, json)?,
        Command::Check { file: None, .. } => {
            app.store.check_integrity()?;
            println!("the store is sound");
        }
        Command::Failpoints => {
            if cfg!(feature = "failpoints") {
                for point in crate::failpoint::POINTS {
                    println!("{point}");
                }
            }
        }
        Command::Prune { older_than_days } => {
            let Some(days) = older_than_days.or(app.config.retention.ended_runs_days) else {
                bail!(
                    "say how old: --older-than-days N, or [retention] ended_runs_days in the config"
                );
            };
            let pruned = app.prune(days, by)?;
            println!("pruned {pruned} run(s) that ended more than {days} day(s) ago");
        }
        Command::Schedule { op } => admin::schedule(&mut app, op, json, by)?,
        Command::Switches => output::switches(&app.store.switches()?, json)?,
        // `run` takes bench apart before any store is opened.
        Command::Bench { .. } => bail!("bench runs on a scratch store of its own"),
        Command::MigrateStore { .. } => bail!("migrate-store works on the stores it names"),
        Command::Wit
        | Command::CompileComponent { .. }
        | Command::New { .. }
        | Command::Check { file: Some(_), .. }
        | Command::Cache { .. } => {
            bail!("this command does not use a store")
        }
        Command::Kv { op } => admin::kv(&mut app, op, json, by)?,
        Command::Lease { op } => admin::lease(&mut app, op, by)?,
        Command::Tokens { op } => super::tokens::tokens(&mut app, op, json, by)?,
    }
    Ok(())
}

/// A JSON argument as given, or read from a file (`@PATH`) or standard input
/// (`-`): payloads can be larger than a command line may be.
pub(super) fn arg_text(what: &str, arg: String) -> Result<String> {
    if arg == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .with_context(|| format!("cannot read {what} from standard input"))?;
        Ok(text)
    } else if let Some(path) = arg.strip_prefix('@') {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {what} from {path}"))
    } else {
        Ok(arg)
    }
}

fn load_config(cli: &Cli) -> Result<Config> {
    let mut config = match &cli.config {
        Some(path) => Config::load(path)?,
        None => {
            let default = std::path::PathBuf::from("wakeful.toml");
            if default.exists() {
                Config::load(&default)?
            } else {
                Config::default()
            }
        }
    };
    if let Some(url) = cli.store.as_deref().filter(|u| !u.is_empty()) {
        config.store.url = Some(url.to_string());
    }
    if let Some(dir) = cli.cache.as_ref().filter(|d| !d.as_os_str().is_empty()) {
        config.cache.dir = Some(dir.clone());
    }
    Ok(config)
}

/// Who acts on the store directly: whoever can write the data directory
/// owns the host, so the principal is the OS user the process runs as
/// (`os:<name>`, or `os:uid-<n>` without a name), never a name given.
fn actor() -> Result<String> {
    Ok(format!("{}{}", crate::app::OS_PRINCIPAL, os_user()))
}

/// The name of the effective user, from the password database.
#[allow(unsafe_code)]
fn os_user() -> String {
    // SAFETY: geteuid cannot fail; getpwuid_r writes only into `pwd` and
    // `buf`, whose sizes it is given, and `name` points into `buf` while
    // it lives.
    unsafe {
        let uid = libc::geteuid();
        let mut pwd: libc::passwd = std::mem::zeroed();
        let mut buf = vec![0 as libc::c_char; 4096];
        let mut found: *mut libc::passwd = std::ptr::null_mut();
        let rc = libc::getpwuid_r(uid, &mut pwd, buf.as_mut_ptr(), buf.len(), &mut found);
        if rc == 0 && !found.is_null() && !pwd.pw_name.is_null() {
            let name = std::ffi::CStr::from_ptr(pwd.pw_name).to_string_lossy();
            if !name.is_empty() {
                return name.into_owned();
            }
        }
        format!("uid-{uid}")
    }
}

/// The name given with `--by` (or `WAKEFUL_BY`), recorded as `said`.
fn said(given: Option<&str>) -> Result<Option<&str>> {
    let Some(by) = given else { return Ok(None) };
    if by.trim().is_empty() || by.len() > 128 || by.chars().any(char::is_control) {
        bail!("--by `{by}` is not a name: use 1-128 characters, no control characters");
    }
    Ok(Some(by.trim()))
}

/// The rows a list command prints: `limit` of them after `after`, or with
/// no limit every one, read a page of [`PAGE`] at a time. Returns the
/// cursor of what is left.
pub(super) fn pages<T, C: Clone>(
    limit: Option<usize>,
    mut after: Option<C>,
    mut read: impl FnMut(Option<C>, usize) -> Result<(Vec<T>, Option<C>), StoreError>,
) -> Result<(Vec<T>, Option<C>)> {
    if limit == Some(0) {
        bail!("--limit 0 lists nothing; leave it out to list everything");
    }
    let mut rows = Vec::new();
    loop {
        let want = limit.map_or(PAGE, |l| (l - rows.len()).min(PAGE));
        let (items, next) = read(after.clone(), want)?;
        rows.extend(items);
        let done = limit.is_some_and(|l| rows.len() >= l);
        match next {
            Some(next) if !done => after = Some(next),
            next => return Ok((rows, next)),
        }
    }
}

/// Says on standard error how to read the next page, if there is one.
pub(super) fn more(next: Option<impl std::fmt::Display>) {
    if let Some(next) = next {
        eprintln!("more: pass --after {next}");
    }
}

/// Rows a list command reads at a time.
const PAGE: usize = 1000;
