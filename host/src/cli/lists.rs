//! The commands that read and print: agents, runs, one run, its history,
//! the audit log, hosts and switches; and how a long list is read a page
//! at a time.

use anyhow::{Context, Result, bail};

use super::output;
use crate::app::App;
use crate::store::{RunFilter, RunStatus, StoreError, WaitingOn};

/// Rows a list command reads at a time.
const PAGE: usize = 1000;

/// `wakeful agents`.
pub(super) fn agents(app: &mut App, json: bool) -> Result<()> {
    output::agents(&app.store.agents()?, json)
}

/// The runs `wakeful runs` lists: `--status` and `--waiting-on` checked.
pub(super) fn run_filter(
    status: Option<String>,
    agent: Option<String>,
    version: Option<String>,
    waiting_on: Option<String>,
) -> Result<RunFilter> {
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
    Ok(RunFilter {
        status,
        agent,
        version,
        waiting_on,
    })
}

/// `wakeful runs`: the runs of `filter`, `limit` of them after `after`.
pub(super) fn runs(
    app: &mut App,
    filter: RunFilter,
    limit: Option<usize>,
    after: Option<String>,
    json: bool,
) -> Result<()> {
    let (runs, next) = pages(limit, after, |after, n| {
        let page = app.store.runs_page(&filter, after.as_deref(), n)?;
        Ok((page.items, page.next))
    })?;
    let max_attempts = app.config.limits.max_attempts;
    let page = output::RunsPage {
        runs: &runs,
        next: next.as_deref(),
    };
    output::runs(&page, &app.store.switches()?, max_attempts, json)?;
    more(next);
    Ok(())
}

/// `wakeful show RUN`.
pub(super) fn show(app: &mut App, run: &str, json: bool) -> Result<()> {
    output::show(&app.run_record(run)?, &app.links_base()?, json)
}

/// `wakeful history RUN`.
pub(super) fn history(app: &mut App, run: &str, json: bool) -> Result<()> {
    app.run(run)?;
    output::history(&app.store.checkpoints(run)?, json)
}

/// `wakeful audit [RUN]`: every run's rows, or one run's.
pub(super) fn audit(
    app: &mut App,
    run: Option<String>,
    limit: Option<usize>,
    after: Option<u64>,
    json: bool,
) -> Result<()> {
    if let Some(id) = &run {
        app.check_run_id(id)?;
    }
    let (rows, next) = pages(limit, after, |after, n| {
        let page = app.store.audit_page(run.as_deref(), after, n)?;
        Ok((page.items, page.next))
    })?;
    output::audit(&rows, next, json)?;
    more(next);
    Ok(())
}

/// `wakeful cassette RUN [--out FILE]`: the run's recorded calls as JSON,
/// on standard output or in FILE.
pub(super) fn cassette(app: &mut App, run: &str, out: Option<&std::path::Path>) -> Result<()> {
    let record = app.run(run)?;
    let audit = app.store.audit(Some(run))?;
    let cassette = crate::cassette::of_run(&record, app.store.ledger(run)?, &audit)?;
    let text = serde_json::to_string_pretty(&cassette)? + "\n";
    // The ledger holds what the guest sent and got, which the host redacts
    // before the guest sees it; a configured secret here would be a leak.
    if crate::secrets::redact(&text) != text {
        bail!(
            "the cassette of run {run} would hold a value this host redacts (a secret); not written"
        );
    }
    let Some(file) = out else {
        print!("{text}");
        return Ok(());
    };
    std::fs::write(file, &text).with_context(|| format!("cannot write {}", file.display()))?;
    eprintln!(
        "wrote {} recorded calls of run {run} ({}) to {}",
        cassette.entries.len(),
        cassette.agent,
        file.display()
    );
    Ok(())
}

/// `wakeful hosts`.
pub(super) fn hosts(app: &mut App, json: bool) -> Result<()> {
    output::hosts(&app.hosts()?, json)
}

/// `wakeful switches`.
pub(super) fn switches(app: &mut App, json: bool) -> Result<()> {
    output::switches(&app.store.switches()?, json)
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
