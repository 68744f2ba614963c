//! Turning the waits a guest returns into stored waits: checked, with the
//! time each one is due, and their text form for operators (`wake_when`).

use std::str::FromStr;

use crate::clock::rfc3339;
use crate::model::{Millis, WaitFor, approval_digest};
use crate::store::{Approval, StoredWait};

/// Checks a step's waits and computes when each is due. `existing` are the
/// run's approval requests and `delivered` the request the step's own wake
/// answered or expired, if any. Waiting again on an open request with the
/// same question and details keeps its original expiry, so that re-asking
/// cannot extend an approval's life; changed question or details make it a
/// new request with a new expiry (the store voids the old link and answer).
/// A request that was answered or expired cannot be asked again: a run
/// waiting on it could never be woken.
pub fn plan(
    waits: &[WaitFor],
    now: Millis,
    existing: &[Approval],
    delivered: Option<&str>,
    max_valid_ms: u64,
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
                if req.valid_for_ms > max_valid_ms {
                    return Err(format!(
                        "approval request {} is valid for {} ms; the limit is {max_valid_ms} ms \
                         (`[limits] max_approval_valid_ms`)",
                        req.id, req.valid_for_ms
                    ));
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
                    Some(a) if a.consumed || delivered == Some(req.id.as_str()) => {
                        let what = match &a.answer {
                            Some(ans) if ans.approved => format!("approved by {}", ans.by),
                            Some(ans) => format!("rejected by {}", ans.by),
                            None => "expired".to_string(),
                        };
                        return Err(format!(
                            "approval request {} was already {what}; ask again with a new id",
                            req.id
                        ));
                    }
                    Some(a) if a.details_digest == approval_digest(&req.question, &req.details) => {
                        Some(a.expires_at)
                    }
                    _ => Some(now.saturating_add(req.valid_for_ms)),
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
        let fresh = plan(&waits, 50, &[], None, u64::MAX).unwrap();
        assert_eq!(fresh[0].due_at, Some(1050));
        assert_eq!(wake_when(&waits).as_deref(), Some("approval:a"));
    }

    #[test]
    fn bad_waits_are_refused() {
        assert!(
            plan(
                &[WaitFor::Event { topic: " ".into() }],
                0,
                &[],
                None,
                u64::MAX
            )
            .is_err()
        );
        assert!(
            plan(
                &[WaitFor::Cron {
                    expr: "61 * * * *".into()
                }],
                0,
                &[],
                None,
                u64::MAX
            )
            .is_err()
        );
    }
}
