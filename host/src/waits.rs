//! Turning the waits a guest returns into stored waits: checked, with the
//! time each one is due, and their text form for operators (`wake_when`).

use std::str::FromStr;

use crate::clock::rfc3339;
use crate::model::{Millis, WaitFor};
use crate::store::{Approval, StoredWait};

/// Checks a step's waits and computes when each is due. `existing` are the
/// run's approval requests: waiting again on a request that exists keeps its
/// original expiry, so that re-asking cannot extend an approval's life.
pub fn plan(
    waits: &[WaitFor],
    now: Millis,
    existing: &[Approval],
) -> Result<Vec<StoredWait>, String> {
    let mut planned = Vec::with_capacity(waits.len());
    for wait in waits {
        let due_at = match wait {
            WaitFor::Event { topic } => {
                if topic.trim().is_empty() {
                    return Err("an event wait has an empty topic".into());
                }
                None
            }
            WaitFor::Approval(req) => {
                if req.id.trim().is_empty() {
                    return Err("an approval request has an empty id".into());
                }
                if req.valid_for_ms == 0 {
                    return Err(format!("approval request {} is valid for 0 ms", req.id));
                }
                if serde_json::from_str::<serde_json::Value>(&req.details).is_err() {
                    return Err(format!(
                        "approval request {} has details that are not JSON",
                        req.id
                    ));
                }
                if waits
                    .iter()
                    .filter(|w| matches!(w, WaitFor::Approval(r) if r.id == req.id))
                    .count()
                    > 1
                {
                    return Err(format!(
                        "approval request {} is asked twice in one step",
                        req.id
                    ));
                }
                match existing.iter().find(|a| a.id == req.id) {
                    Some(a) if a.consumed => {
                        return Err(format!(
                            "approval request {} was already answered or expired; ask with a new id",
                            req.id
                        ));
                    }
                    Some(a) => Some(a.expires_at),
                    None => Some(now.saturating_add(req.valid_for_ms)),
                }
            }
            WaitFor::Until { at } => Some(*at),
            WaitFor::Cron { expr } => Some(next_tick(expr, now)?),
        };
        planned.push(StoredWait {
            wait: wait.clone(),
            due_at,
        });
    }
    Ok(planned)
}

/// The first tick of a five-field cron expression (UTC) strictly after `now`.
pub fn next_tick(expr: &str, now: Millis) -> Result<Millis, String> {
    let cron =
        croner::Cron::from_str(expr).map_err(|e| format!("cron expression `{expr}`: {e}"))?;
    let start = chrono::DateTime::from_timestamp_millis(now as i64)
        .ok_or_else(|| format!("time {now} is out of range"))?;
    let next = cron
        .find_next_occurrence(&start, false)
        .map_err(|e| format!("cron expression `{expr}` has no next tick: {e}"))?;
    Ok(next.timestamp_millis() as Millis)
}

/// The operator's text form of a run's waits, e.g.
/// `event:mail:invoice, until:2026-11-30T09:00:00Z`.
pub fn wake_when(waits: &[WaitFor]) -> Option<String> {
    if waits.is_empty() {
        return None;
    }
    let parts: Vec<String> = waits
        .iter()
        .map(|w| match w {
            WaitFor::Event { topic } => format!("event:{topic}"),
            WaitFor::Approval(req) => format!("approval:{}", req.id),
            WaitFor::Until { at } => format!("until:{}", rfc3339(*at)),
            WaitFor::Cron { expr } => format!("cron:{expr}"),
        })
        .collect();
    Some(parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ApprovalRequest;

    const NOV_29_2026: Millis = 1_795_910_400_000; // 2026-11-29T00:00:00Z

    #[test]
    fn cron_ticks_after_now() {
        let next = next_tick("0 9 * * *", NOV_29_2026).unwrap();
        assert_eq!(rfc3339(next), "2026-11-29T09:00:00Z");
        assert!(
            next_tick("not cron", NOV_29_2026)
                .unwrap_err()
                .contains("not cron")
        );
    }

    #[test]
    fn approval_expiry_is_kept_on_re_wait() {
        let req = ApprovalRequest {
            id: "a".into(),
            question: "q".into(),
            details: "{}".into(),
            valid_for_ms: 1000,
        };
        let waits = vec![WaitFor::Approval(req)];
        let fresh = plan(&waits, 50, &[]).unwrap();
        assert_eq!(fresh[0].due_at, Some(1050));
        assert_eq!(wake_when(&waits).as_deref(), Some("approval:a"));
    }

    #[test]
    fn bad_waits_are_refused() {
        assert!(plan(&[WaitFor::Event { topic: " ".into() }], 0, &[]).is_err());
        assert!(
            plan(
                &[WaitFor::Cron {
                    expr: "61 * * * *".into()
                }],
                0,
                &[]
            )
            .is_err()
        );
    }
}
