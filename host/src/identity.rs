//! This process among the hosts sharing a store: its host id, the lock
//! that proves it alive, and taking over the claims of hosts proven gone.
//!
//! A host's id is `<hostname>:h<n>`, `n` the lowest slot whose lock no
//! live process holds (`store/sql/host_locks.rs`): a `serve` or `work`
//! restarted on the same machine takes its predecessor's id back, and two
//! live processes never share one. On PostgreSQL, where a lock is lost
//! with its session, a slot is also passed over while its row's heartbeat
//! is live.
//!
//! A host whose process is gone leaves claims that would hold its runs
//! until they run out (`[limits] claim_ms`). A host takes them over as
//! soon as it can prove that process gone: when it starts, those of the
//! process that had its id; when it starts and at every heartbeat, those
//! of any other host of this form whose lock is free (on PostgreSQL, and
//! whose heartbeat has fallen silent). Taking over ends the claims, with
//! a `takeover` audit row on each run, as their running out would: the
//! steps they held are taken again, and a call of unknown outcome is sent
//! again only to a tool that deduplicates it.

use std::sync::OnceLock;

use crate::app::{App, AppError, Result};
use crate::model::Millis;
use crate::store::sql::host_locks::HostLocks;
use crate::store::{HostRecord, SqlStore};

/// The id this process took, once it took one.
static ID: OnceLock<String> = OnceLock::new();

/// Slots tried before giving up: more processes than this claiming runs
/// on one machine at once is a mistake.
const SLOTS: u32 = 1024;

/// Why a host's claims are taken over, as its audit rows say.
const GONE: &str = "its process is gone";

/// This process's host id, the start of the owner of every claim its
/// workers take: the one it took, else `<hostname>:<pid>` (benchmarks and
/// tests that step runs without taking one).
pub fn host_id() -> String {
    match ID.get() {
        Some(id) => id.clone(),
        None => format!("{}:{}", hostname(), std::process::id()),
    }
}

fn hostname() -> String {
    let host = std::fs::read_to_string("/etc/hostname").unwrap_or_default();
    match host.trim() {
        "" => "localhost".to_string(),
        host => host.to_string(),
    }
}

/// The id of the host whose claims `owner` names, if it is of the form
/// this module gives (`<hostname>:h<n>`, then `:<thread>` or nothing).
fn slot_host(owner: &str) -> Option<&str> {
    let mut parts = owner.splitn(3, ':');
    let hostname = parts.next()?;
    let slot = parts.next()?;
    let digits = slot.strip_prefix('h')?;
    let is_slot = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    is_slot.then(|| &owner[..hostname.len() + 1 + slot.len()])
}

/// Whether host `id`'s row says it is alive at `now`: not stopped, and a
/// heartbeat within three beats (as `wakeful hosts` counts).
fn heartbeat_live(hosts: &[HostRecord], id: &str, now: Millis) -> bool {
    let silent_after = 3 * crate::config::HEARTBEAT.as_millis() as Millis;
    hosts.iter().any(|h| {
        h.id == id && h.stopped_at.is_none() && now.saturating_sub(h.heartbeat_at) <= silent_after
    })
}

/// This process's host identity, held for as long as the value lives.
pub struct Identity {
    id: String,
    locks: HostLocks,
}

impl Identity {
    /// Takes the lowest free slot of this machine as this process's host
    /// id, then takes over the claims its predecessor under that id left,
    /// and those of other hosts proven gone.
    pub fn take(app: &mut App) -> Result<Identity> {
        let mut locks = HostLocks::open(app.store_url(), app.data_dir())?;
        let hostname = hostname();
        let now = app.now();
        let rows = if locks.can_be_lost() {
            app.store.hosts(now)?
        } else {
            Vec::new()
        };
        let mut taken = None;
        for n in 1..=SLOTS {
            let id = format!("{hostname}:h{n}");
            if heartbeat_live(&rows, &id, now) {
                continue;
            }
            if locks.take(&id)? {
                taken = Some(id);
                break;
            }
        }
        let id = taken.ok_or_else(|| {
            AppError::Invalid(format!(
                "every host id from {hostname}:h1 to {hostname}:h{SLOTS} is held by a live \
                 process on this store"
            ))
        })?;
        // A process of a test or benchmark may take an identity twice.
        let _ = ID.set(id.clone());
        tracing::info!(host = %id, "took this host's id");
        let mut identity = Identity { id, locks };
        // Left to the claims' running out (and the next heartbeat) when it
        // fails: a store that cannot take this write now is no reason not
        // to start.
        if let Err(e) = identity.take_over_at_start(app, now) {
            tracing::warn!(error = %e, "taking over the claims of hosts that are gone failed");
        }
        Ok(identity)
    }

    /// The claims this id's previous process left, then those of other
    /// hosts proven gone.
    fn take_over_at_start(&mut self, app: &mut App, now: Millis) -> Result<()> {
        let runs = app.store.release_claims_of(&self.id, &self.id, GONE, now)?;
        if !runs.is_empty() {
            tracing::info!(
                host = %self.id,
                runs = runs.join(","),
                "took over the claims this host's previous process left"
            );
        }
        self.take_over_gone(app)?;
        Ok(())
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    /// Takes over the claims of every other host proven gone. Returns
    /// how many runs it gave back.
    pub fn take_over_gone(&mut self, app: &mut App) -> Result<usize> {
        let now = app.now();
        let mut hosts: Vec<String> = app
            .store
            .claim_owners(now)?
            .iter()
            .filter_map(|owner| slot_host(owner))
            .filter(|host| *host != self.id)
            .map(str::to_string)
            .collect();
        hosts.sort();
        hosts.dedup();
        if hosts.is_empty() {
            return Ok(0);
        }
        let rows = if self.locks.can_be_lost() {
            app.store.hosts(now)?
        } else {
            Vec::new()
        };
        let mut released = 0;
        for host in hosts {
            if heartbeat_live(&rows, &host, now) {
                continue;
            }
            let store: &mut SqlStore = &mut app.store;
            let by = self.id.as_str();
            let runs = self
                .locks
                .while_gone(&host, || store.release_claims_of(&host, by, GONE, now))?;
            if let Some(runs) = runs.filter(|r| !r.is_empty()) {
                tracing::info!(
                    from = %host,
                    runs = runs.join(","),
                    "took over the claims of a host whose process is gone"
                );
                released += runs.len();
            }
        }
        Ok(released)
    }

    /// Checks that this process still holds its id (see
    /// [`HostLocks::keep`]); an error when another process took it, which
    /// must stop this one.
    pub fn keep(&mut self) -> Result<()> {
        match self.locks.keep() {
            Ok(true) => Ok(()),
            Ok(false) => Err(AppError::Invalid(format!(
                "another process took host id {} while this one had lost its lock's \
                 connection to the store; this process stops, so that two are never one host",
                self.id
            ))),
            Err(e) => {
                tracing::warn!(error = %e, host = %self.id, "cannot check this host's lock yet");
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::slot_host;

    #[test]
    fn only_owners_of_slot_hosts_are_read_as_such() {
        assert_eq!(slot_host("box:h1:worker-0"), Some("box:h1"));
        assert_eq!(slot_host("box:h12"), Some("box:h12"));
        assert_eq!(slot_host("box.example:h3:main"), Some("box.example:h3"));
        assert_eq!(slot_host("box:4242:worker-0"), None, "a process id");
        assert_eq!(slot_host("upgrade:4242"), None);
        assert_eq!(slot_host("box:h:worker-0"), None);
        assert_eq!(slot_host("box:hx1"), None);
    }
}
