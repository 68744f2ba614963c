//! The dispatch of a command line: the commands that need no store run
//! here, the rest on the store of the data directory ([`operate`]). Each
//! command is a function of the module of its concern; none parses
//! anything or decides anything the app does not.

use anyhow::{Context, Result, bail};

use super::args::{Acting, actor, said};
use super::output::print_json;
use super::{Cli, Command, admin, host, lists, runs};
use crate::app::App;
use crate::config::Config;

/// Runs one command line. `bench` works on a store of its own and
/// `migrate-store` on the stores it names; `wit`, `new`, `check FILE` and
/// `cache` use no store: none of them opens (or creates) the store; every
/// other command does.
pub fn run(cli: Cli) -> Result<()> {
    // A compiling child needs nothing of the host's config or store.
    if let Command::CompileComponent(child) = &cli.command {
        child.run();
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
    // A new project needs no config: a broken `wakeful.toml` where it is
    // written must not stop it.
    if let Command::New { name, lang, dir } = &cli.command {
        return new_project(name, *lang, dir.as_deref(), cli.json);
    }
    if let Command::Sdk { out } = &cli.command {
        return sdk_packages(out, cli.json);
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
            let acting = Acting {
                json,
                by: &by,
                given_by: given_by.as_deref(),
            };
            operate(app, &data, command, acting)
        }
    }
}

/// `wakeful new NAME --lang L`: a new agent project.
fn new_project(
    name: &str,
    lang: crate::scaffold::Lang,
    dir: Option<&std::path::Path>,
    json: bool,
) -> Result<()> {
    let created = crate::scaffold::new_project(name, lang, dir)?;
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

/// `wakeful sdk --out DIR`.
fn sdk_packages(out: &std::path::Path, json: bool) -> Result<()> {
    let written = crate::scaffold::packages::write(out)
        .with_context(|| format!("cannot write the SDK packages in {}", out.display()))?;
    if json {
        return print_json(&written);
    }
    println!(
        "wrote the SDK packages of WIT wakeful:agent@{}:",
        written.version
    );
    for file in &written.files {
        println!("  {}", file.display());
    }
    Ok(())
}

/// Runs one command on the store of the data directory `data`.
fn operate(
    mut app: App,
    data: &std::path::Path,
    command: Command,
    acting: Acting<'_>,
) -> Result<()> {
    let Acting { json, by, .. } = acting;
    match command {
        command @ (Command::Agents
        | Command::Runs { .. }
        | Command::Show { .. }
        | Command::History { .. }
        | Command::Audit { .. }
        | Command::Cassette { .. }
        | Command::Hosts
        | Command::Switches) => read(&mut app, command, json),
        command @ (Command::Pause { .. }
        | Command::Resume { .. }
        | Command::Backup { .. }
        | Command::Check { file: None, .. }
        | Command::Failpoints
        | Command::Prune { .. }) => act_on_host(&mut app, command, by),
        command @ (Command::Deploy { .. }
        | Command::Start { .. }
        | Command::Send { .. }
        | Command::Approve { .. }
        | Command::Resolve { .. }
        | Command::Cancel { .. }
        | Command::Upgrade { .. }) => change(&mut app, command, acting),
        Command::Work {
            until_idle,
            poll_ms,
        } => super::work::work(&mut app, until_idle, poll_ms, json),
        Command::Serve {
            listen,
            workers,
            log_format,
        } => crate::serve::run(app, data, listen, workers, log_format),
        Command::Schedule { op } => admin::schedule(&mut app, op, json, by),
        // `run` runs these before any store is opened: `bench` and
        // `migrate-store` work on stores of their own, the rest on none.
        Command::Bench { .. }
        | Command::MigrateStore { .. }
        | Command::Wit
        | Command::CompileComponent(_)
        | Command::New { .. }
        | Command::Sdk { .. }
        | Command::Check { file: Some(_), .. }
        | Command::Cache { .. } => bail!("this command does not use a store"),
        Command::Kv { op } => admin::kv(&mut app, op, json, by),
        Command::Lease { op } => admin::lease(&mut app, op, by),
        Command::Tokens { op } => super::tokens::tokens(&mut app, op, json, by),
    }
}

/// Runs one command that changes agents or runs.
fn change(app: &mut App, command: Command, acting: Acting<'_>) -> Result<()> {
    let by = acting.by;
    match command {
        Command::Deploy {
            file,
            grants,
            grant_all,
            owner,
        } => runs::deploy(app, &file, &grants, grant_all, owner.as_deref(), acting),
        Command::Start {
            agent,
            input,
            run_id,
        } => runs::start(app, &agent, input, run_id.as_deref(), acting),
        Command::Send {
            run,
            topic,
            event_id,
            payload,
        } => runs::send(app, run.as_deref(), &topic, &event_id, payload, acting),
        Command::Approve {
            run,
            request,
            reject,
            comment,
            digest,
        } => {
            let (comment, digest) = (comment.as_deref(), digest.as_deref());
            runs::approve(app, &run, &request, !reject, comment, digest, acting)
        }
        Command::Resolve {
            run,
            key,
            result,
            retry,
            fail,
        } => {
            let resolution = runs::resolution(result, retry, fail)?;
            runs::resolve(app, &run, &key, &resolution, acting)
        }
        Command::Cancel { run, reason } => runs::cancel(app, &run, &reason, by),
        Command::Upgrade {
            run,
            agent,
            to,
            dry_run,
            allow_new_tools,
        } => runs::upgrade(app, run, agent, &to, dry_run, allow_new_tools, acting),
        _ => unreachable!("`operate` hands only changes to agents and runs here"),
    }
}

/// Runs one command that reads and prints.
fn read(app: &mut App, command: Command, json: bool) -> Result<()> {
    match command {
        Command::Agents => lists::agents(app, json),
        Command::Runs {
            status,
            agent,
            version,
            waiting_on,
            limit,
            after,
        } => {
            let filter = lists::run_filter(status, agent, version, waiting_on)?;
            lists::runs(app, filter, limit, after, json)
        }
        Command::Show { run } => lists::show(app, &run, json),
        Command::History { run } => lists::history(app, &run, json),
        Command::Audit { run, limit, after } => lists::audit(app, run, limit, after, json),
        Command::Cassette { run, out } => lists::cassette(app, &run, out.as_deref()),
        Command::Hosts => lists::hosts(app, json),
        Command::Switches => lists::switches(app, json),
        _ => unreachable!("`operate` hands only reads here"),
    }
}

/// Runs one command that acts on the host as a whole.
fn act_on_host(app: &mut App, command: Command, by: &str) -> Result<()> {
    match command {
        Command::Pause {
            scope,
            reason,
            preemptive,
        } => host::pause(app, &scope, reason.as_deref(), preemptive, by),
        Command::Resume { scope } => host::resume(app, &scope, by),
        Command::Backup { file } => host::backup(app, &file),
        Command::Check { file: None, .. } => host::check_store(app),
        Command::Failpoints => host::failpoints(),
        Command::Prune { older_than_days } => host::prune(app, older_than_days, by),
        _ => unreachable!("`operate` hands only the host's commands here"),
    }
}

fn load_config(cli: &Cli) -> Result<Config> {
    Ok(Config::for_command(
        cli.config.as_deref(),
        cli.store.as_deref(),
        cli.cache.as_deref(),
    )?)
}
