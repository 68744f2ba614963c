//! `wakeful work`: steps due runs in this process, once until idle or
//! for good, beside (or instead of) `serve`.

use anyhow::{Context, Result};

use crate::app::App;
use crate::identity::Identity;
use crate::store::ClaimedRun;
use crate::worker::Worker;

pub(super) fn work(app: &mut App, until_idle: bool, poll_ms: u64, json: bool) -> Result<()> {
    // On a thread with a guest's stack, so that steps run their guest in
    // place rather than handing it to a guest thread and back.
    crate::runtime::run_on_worker("work".into(), || work_here(app, until_idle, poll_ms, json))
        .context("cannot start the worker thread")?
}

fn work_here(app: &mut App, until_idle: bool, poll_ms: u64, json: bool) -> Result<()> {
    let print = |s: &crate::worker::Stepped| {
        if json {
            println!("{}", serde_json::to_string(s).unwrap_or_default());
            return;
        }
        println!("{s}");
    };
    // On standard error, so that `--json` output stays one document a line.
    let waiting = |c: &ClaimedRun, now: u64| {
        eprintln!(
            "waiting for run {}: claimed by {} until {} ({} s from now); that host is \
             stepping it, or, if its process is gone and cannot be proven so, its claim runs \
             out then",
            c.run_id,
            c.owner,
            crate::clock::rfc3339(c.expires),
            c.expires.saturating_sub(now).div_ceil(1000)
        )
    };
    // Runs ended by a process that stopped before it packed them. Their
    // history reads the same unpacked, so a failure here stops no step.
    loop {
        match app.store.pack_queued(256) {
            Ok(256) => continue,
            Ok(_) => break,
            Err(e) => {
                eprintln!("warning: packing the history of ended runs failed: {e}");
                break;
            }
        }
    }
    // Taken before the worker's first claim, which carries the id; held
    // until the command ends.
    let mut identity = Identity::take(app).context("cannot take this host's id")?;
    // Declared before the worker, so that it is dropped after it: it then
    // packs what the worker handed it before the command ends.
    let packer = app.start_packer()?;
    app.store.pack_by(packer.signal());
    let mut worker = Worker::new(app);
    if until_idle {
        let steps = worker.until_idle(print, waiting)?;
        if !json {
            println!("idle after {steps} step(s)");
        }
        return Ok(());
    }
    // A long-lived worker is a host among those sharing the store
    // (`wakeful hosts`); a `--until-idle` pass is too short to list.
    let host = identity.id().to_string();
    let now = worker.app().now();
    worker.app().store.host_started(&host, "work", None, now)?;
    let mut beat_at = std::time::Instant::now();
    loop {
        if beat_at.elapsed() >= crate::config::HEARTBEAT {
            identity.keep()?;
            let now = worker.app().now();
            worker.app().store.heartbeat(&host, "work", None, now)?;
            identity.take_over_gone(worker.app())?;
            beat_at = std::time::Instant::now();
        }
        worker.until_idle(print, waiting)?;
        std::thread::sleep(std::time::Duration::from_millis(poll_ms));
    }
}
