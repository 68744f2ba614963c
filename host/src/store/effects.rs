//! A step's built-in tool calls, held until the step commits.
//!
//! `kv` and `lease` act on this database and a configured `static` tool
//! acts on nothing, so none of them needs a transaction of its own: the
//! step answers them from what the store holds plus what the step itself
//! wrote, and writes their effects and ledger rows in its commit. Each
//! written key and lease remembers what the step found before its first
//! write; the commit writes it only if the store still holds that, else
//! the whole step is void ([`StoreError::Conflict`](super::StoreError)) and
//! retried, answering from the new value. So a run's kv writes happen
//! exactly when its step commits, two steps can never both be granted one
//! lease, and a failed, held or parked step leaves no effect behind. A
//! call that leaves the host flushes what is held first
//! ([`SqlStore::apply_effects`](super::SqlStore::apply_effects)), so that
//! nothing the world sees depends on a write not yet made.

use std::collections::BTreeMap;

use super::{
    ApprovalUse, KvEntry, KvOp, KvOutcome, KvWrite, LeaseOp, LeaseOutcome, LedgerWrite, Result,
};
use crate::model::{Millis, ToolError};

/// A tool call's result, as the ledger keeps it.
pub type CallResult = std::result::Result<String, ToolError>;

/// A kv key a step wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KvEffect {
    /// The key's version before the step's first write of it (0: never
    /// written); the commit writes only over that version.
    pub found: u64,
    /// What the step leaves: the value (`None`: deleted) and its version.
    pub value: Option<String>,
    pub version: u64,
}

/// A lease as the store holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Held {
    pub holder: String,
    pub expires_at: Millis,
}

/// A lease a step took or gave back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseEffect {
    /// The lease before the step's first change of it; the commit changes
    /// only that.
    pub found: Option<Held>,
    /// What the step leaves (`None`: released).
    pub leaves: Option<Held>,
}

/// What a step's built-in calls did, to be written with its commit.
#[derive(Clone, Debug, Default)]
pub struct Effects {
    pub kv: BTreeMap<String, KvEffect>,
    pub leases: BTreeMap<String, LeaseEffect>,
    /// The calls and their results, in the order they were made: ledger
    /// and audit rows at the commit.
    pub calls: Vec<(LedgerWrite, CallResult)>,
    /// The approved calls the step's calls used: marked used in the same
    /// write as the calls' effects.
    pub approvals_used: Vec<ApprovalUse>,
    /// Bytes of arguments, values and results held.
    bytes: usize,
    /// What earlier steps of the same run left that their commit, in the
    /// same transaction as this step's, has not written yet: read before
    /// the store, never written by this step's commit.
    pub under: Uncommitted,
}

/// The effects of a run's earlier steps whose checkpoints wait for the same
/// commit as the step being taken (steps chained after `continue`).
#[derive(Clone, Debug, Default)]
pub struct Uncommitted {
    /// Each key as those steps left it: value (`None`: deleted), version.
    kv: BTreeMap<String, (Option<String>, u64)>,
    /// Each lease as those steps left it (`None`: released).
    leases: BTreeMap<String, Option<Held>>,
    calls: Vec<(LedgerWrite, CallResult)>,
    approvals_used: Vec<ApprovalUse>,
}

impl Uncommitted {
    /// Adds what a step left, which the next step of the chain must see.
    pub fn absorb(&mut self, step: &Effects) {
        for (key, effect) in &step.kv {
            self.kv
                .insert(key.clone(), (effect.value.clone(), effect.version));
        }
        for (resource, effect) in &step.leases {
            self.leases.insert(resource.clone(), effect.leaves.clone());
        }
        self.calls.extend(step.calls.iter().cloned());
        self.approvals_used
            .extend(step.approvals_used.iter().cloned());
    }
}

impl Effects {
    /// A step's effects on top of what earlier steps of its chain left.
    pub fn over(under: Uncommitted) -> Effects {
        Effects {
            under,
            ..Default::default()
        }
    }

    /// Whether the step itself wrote or called nothing (what earlier
    /// steps of its chain left does not count: their commits write it).
    pub fn is_empty(&self) -> bool {
        self.kv.is_empty()
            && self.leases.is_empty()
            && self.calls.is_empty()
            && self.approvals_used.is_empty()
    }

    /// The key of the call that this step, or an earlier one of its chain
    /// not yet committed, used named call `index` of `request` with.
    pub fn approval_used(&self, request: &str, index: u32) -> Option<&str> {
        self.approvals_used
            .iter()
            .chain(&self.under.approvals_used)
            .find(|u| u.request_id == request && u.call_index == index)
            .map(|u| u.key.as_str())
    }

    /// Bytes held: past a limit the caller writes them out mid-step.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The call this step already made under `key`, if any.
    pub fn recorded(&self, key: &str) -> Option<&(LedgerWrite, CallResult)> {
        self.calls
            .iter()
            .chain(&self.under.calls)
            .find(|(call, _)| call.key == key)
    }

    /// Keeps a call and its result for the ledger.
    pub fn record(&mut self, call: LedgerWrite, result: CallResult) {
        self.bytes += call.args.len() + call.key.len() + result.as_ref().map_or(64, String::len);
        self.calls.push((call, result));
    }

    /// Answers a kv operation from the step's own writes, else from
    /// `stored` (a key's value and version in the store), and holds its
    /// write.
    pub fn kv(
        &mut self,
        op: &KvOp,
        stored: impl FnOnce(&str) -> Result<Option<(Option<String>, u64)>>,
    ) -> Result<KvOutcome> {
        let key = match op {
            KvOp::Get { key } | KvOp::Put { key, .. } | KvOp::Delete { key, .. } => key,
        };
        let (value, version) = match (self.kv.get(key), self.under.kv.get(key)) {
            (Some(held), _) => (held.value.clone(), held.version),
            (None, Some((value, version))) => (value.clone(), *version),
            (None, None) => stored(key)?.map_or((None, 0), |(value, version)| (value, version)),
        };
        let (expected, write) = match op {
            KvOp::Get { .. } => {
                return Ok(KvOutcome::Read(KvEntry {
                    key: key.clone(),
                    value,
                    version,
                }));
            }
            KvOp::Put {
                value,
                expected_version,
                ..
            } => (expected_version, Some(value)),
            KvOp::Delete {
                expected_version, ..
            } => (expected_version, None),
        };
        if expected.is_some_and(|expected| expected != version) {
            return Ok(KvOutcome::Wrote(KvWrite { ok: false, version }));
        }
        if write.is_none() && version == 0 {
            // Never written: nothing to delete, nothing to version.
            return Ok(KvOutcome::Wrote(KvWrite { ok: true, version }));
        }
        let found = self.kv.get(key).map_or(version, |held| held.found);
        self.bytes += key.len() + write.map_or(0, String::len);
        self.kv.insert(
            key.clone(),
            KvEffect {
                found,
                value: write.cloned(),
                version: version + 1,
            },
        );
        Ok(KvOutcome::Wrote(KvWrite {
            ok: true,
            version: version + 1,
        }))
    }

    /// Answers a lease operation at `now` as `kv` does.
    pub fn lease(
        &mut self,
        op: &LeaseOp,
        now: Millis,
        stored: impl FnOnce(&str) -> Result<Option<Held>>,
    ) -> Result<LeaseOutcome> {
        let resource = match op {
            LeaseOp::Acquire { resource, .. } | LeaseOp::Release { resource, .. } => resource,
        };
        let current = match (self.leases.get(resource), self.under.leases.get(resource)) {
            (Some(held), _) => held.leaves.clone(),
            (None, Some(left)) => left.clone(),
            (None, None) => stored(resource)?,
        };
        let (outcome, leaves) = match op {
            LeaseOp::Acquire { holder, ttl_ms, .. } => {
                if let Some(other) = current
                    .as_ref()
                    .filter(|c| c.expires_at > now && c.holder != *holder)
                {
                    return Ok(LeaseOutcome::Acquire {
                        granted: false,
                        holder: other.holder.clone(),
                        expires_at: other.expires_at,
                    });
                }
                // Free, expired, or renewed by the same holder.
                let expires_at = now.saturating_add(*ttl_ms).min(i64::MAX as u64);
                let leaves = Held {
                    holder: holder.clone(),
                    expires_at,
                };
                let outcome = LeaseOutcome::Acquire {
                    granted: true,
                    holder: holder.clone(),
                    expires_at,
                };
                (outcome, Some(leaves))
            }
            LeaseOp::Release { holder, .. } => {
                if current.as_ref().is_none_or(|c| c.holder != *holder) {
                    return Ok(LeaseOutcome::Release { released: false });
                }
                (LeaseOutcome::Release { released: true }, None)
            }
        };
        let found = match self.leases.get(resource) {
            Some(held) => held.found.clone(),
            None => current,
        };
        self.bytes += resource.len() + leaves.as_ref().map_or(0, |l| l.holder.len());
        self.leases
            .insert(resource.clone(), LeaseEffect { found, leaves });
        Ok(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put(key: &str, value: &str, expected: Option<u64>) -> KvOp {
        KvOp::Put {
            key: key.into(),
            value: value.into(),
            expected_version: expected,
        }
    }

    fn wrote(outcome: KvOutcome) -> KvWrite {
        match outcome {
            KvOutcome::Wrote(w) => w,
            KvOutcome::Read(r) => panic!("a write read {r:?}"),
        }
    }

    #[test]
    fn a_step_reads_its_own_writes_and_remembers_what_it_found_first() {
        let mut effects = Effects::default();
        let stored = |_: &str| Ok(Some((Some("1".to_string()), 4)));
        assert_eq!(
            wrote(effects.kv(&put("k", "2", Some(4)), stored).unwrap()),
            KvWrite {
                ok: true,
                version: 5
            }
        );
        // The store is not asked again: the step's own write answers.
        let never = |_: &str| -> Result<Option<(Option<String>, u64)>> {
            panic!("the store was read for a key the step wrote")
        };
        assert_eq!(
            wrote(effects.kv(&put("k", "3", Some(4)), never).unwrap()),
            KvWrite {
                ok: false,
                version: 5
            }
        );
        let deleted = KvOp::Delete {
            key: "k".into(),
            expected_version: Some(5),
        };
        assert!(wrote(effects.kv(&deleted, never).unwrap()).ok);
        match effects.kv(&KvOp::Get { key: "k".into() }, never).unwrap() {
            KvOutcome::Read(entry) => assert_eq!((entry.value, entry.version), (None, 6)),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            effects.kv["k"],
            KvEffect {
                found: 4,
                value: None,
                version: 6
            }
        );
    }

    #[test]
    fn a_chained_step_reads_what_the_step_before_it_left_and_writes_over_that() {
        let mut first = Effects::default();
        let stored = |_: &str| Ok(Some((Some("1".to_string()), 4)));
        assert!(wrote(first.kv(&put("k", "2", Some(4)), stored).unwrap()).ok);
        let acquire = LeaseOp::Acquire {
            resource: "r".into(),
            holder: "a".into(),
            ttl_ms: 500,
        };
        first.lease(&acquire, 1_000, |_| Ok(None)).unwrap();
        let call = LedgerWrite {
            run_id: "run".into(),
            incarnation: "i".into(),
            epoch: 1,
            key: "put:k".into(),
            tool: "kv".into(),
            args: "{}".into(),
        };
        first.record(call, Ok("{}".into()));

        let mut second = Effects::default();
        second.under.absorb(&first);
        let never = |_: &str| -> Result<Option<(Option<String>, u64)>> {
            panic!("the store was read for a key the chain wrote")
        };
        match second.kv(&KvOp::Get { key: "k".into() }, never).unwrap() {
            KvOutcome::Read(entry) => {
                assert_eq!((entry.value.as_deref(), entry.version), (Some("2"), 5))
            }
            other => panic!("{other:?}"),
        }
        assert!(second.is_empty(), "a read holds nothing: {second:?}");
        assert!(wrote(second.kv(&put("k", "3", Some(5)), never).unwrap()).ok);
        // Its commit comes after the first step's: it writes over version 5.
        assert_eq!(
            second.kv["k"],
            KvEffect {
                found: 5,
                value: Some("3".into()),
                version: 6
            }
        );
        let other = LeaseOp::Acquire {
            resource: "r".into(),
            holder: "b".into(),
            ttl_ms: 500,
        };
        let refused = second
            .lease(&other, 1_100, |_| -> Result<Option<Held>> {
                panic!("the store was read for a lease the chain took")
            })
            .unwrap();
        assert!(matches!(
            refused,
            LeaseOutcome::Acquire { granted: false, .. }
        ));
        // The call the first step made is found, not made again.
        assert!(second.recorded("put:k").is_some());
        assert!(second.calls.is_empty());
    }

    #[test]
    fn a_read_or_a_refused_write_holds_nothing() {
        let mut effects = Effects::default();
        let stored = |_: &str| Ok(None);
        effects.kv(&KvOp::Get { key: "k".into() }, stored).unwrap();
        assert!(!wrote(effects.kv(&put("k", "1", Some(3)), stored).unwrap()).ok);
        let delete = KvOp::Delete {
            key: "k".into(),
            expected_version: None,
        };
        assert!(wrote(effects.kv(&delete, stored).unwrap()).ok);
        assert!(effects.is_empty(), "{effects:?}");
    }

    #[test]
    fn a_lease_held_by_another_is_refused_and_a_released_one_remembers_its_holder() {
        let other = Held {
            holder: "b".into(),
            expires_at: 2_000,
        };
        let acquire = |holder: &str| LeaseOp::Acquire {
            resource: "r".into(),
            holder: holder.into(),
            ttl_ms: 500,
        };
        let mut effects = Effects::default();
        let held = effects
            .lease(&acquire("a"), 1_000, |_| Ok(Some(other.clone())))
            .unwrap();
        assert_eq!(
            held,
            LeaseOutcome::Acquire {
                granted: false,
                holder: "b".into(),
                expires_at: 2_000
            }
        );
        assert!(effects.is_empty());
        // Expired: taken over, and the commit checks it is still b's.
        let taken = effects
            .lease(&acquire("a"), 3_000, |_| Ok(Some(other.clone())))
            .unwrap();
        assert_eq!(
            taken,
            LeaseOutcome::Acquire {
                granted: true,
                holder: "a".into(),
                expires_at: 3_500
            }
        );
        let release = LeaseOp::Release {
            resource: "r".into(),
            holder: "a".into(),
        };
        let never = |_: &str| -> Result<Option<Held>> { panic!("the store was read") };
        assert_eq!(
            effects.lease(&release, 3_100, never).unwrap(),
            LeaseOutcome::Release { released: true }
        );
        assert_eq!(
            effects.leases["r"],
            LeaseEffect {
                found: Some(other),
                leaves: None
            }
        );
    }
}
