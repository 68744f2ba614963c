//! The commands that act on the host as a whole: pause and resume (kill
//! switches), back up and check the store, prune ended runs.

use std::path::Path;

use anyhow::{Result, bail};

use super::Scope;
use crate::app::App;

/// `wakeful pause`: runs of the scope take no step until resumed.
pub(super) fn pause(
    app: &mut App,
    scope: &Scope,
    reason: Option<&str>,
    preemptive: bool,
    by: &str,
) -> Result<()> {
    let key = scope.key();
    app.pause(&key, reason, preemptive, by)?;
    println!("paused {key}: runs take no step until `wakeful resume`");
    Ok(())
}

/// `wakeful resume`.
pub(super) fn resume(app: &mut App, scope: &Scope, by: &str) -> Result<()> {
    let key = scope.key();
    if app.resume(&key, by)? {
        println!("resumed {key}");
    } else {
        println!("{key} was not paused; nothing changed");
    }
    Ok(())
}

/// `wakeful backup FILE`.
pub(super) fn backup(app: &mut App, file: &Path) -> Result<()> {
    app.store.backup(file)?;
    println!("backed up to {} (checked: ok)", file.display());
    Ok(())
}

/// `wakeful check` without a file: the store's integrity.
pub(super) fn check_store(app: &mut App) -> Result<()> {
    app.store.check_integrity()?;
    println!("the store is sound");
    Ok(())
}

/// `wakeful failpoints`: the failpoints of a build with them.
pub(super) fn failpoints() -> Result<()> {
    if cfg!(feature = "failpoints") {
        for point in crate::failpoint::POINTS {
            println!("{point}");
        }
    }
    Ok(())
}

/// `wakeful prune`: ended runs older than `--older-than-days`, or
/// `[retention] ended_runs_days`.
pub(super) fn prune(app: &mut App, older_than_days: Option<u64>, by: &str) -> Result<()> {
    let Some(days) = older_than_days.or(app.config.retention.ended_runs_days) else {
        bail!("say how old: --older-than-days N, or [retention] ended_runs_days in the config");
    };
    let pruned = app.prune(days, by)?;
    println!("pruned {pruned} run(s) that ended more than {days} day(s) ago");
    Ok(())
}
