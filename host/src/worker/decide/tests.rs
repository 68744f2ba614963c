//! Each ending, from the results that lead to it.

use std::time::Duration;

use super::*;
use crate::model::{ApprovalRequest, LogLevel, LogLine};
use crate::store::{Effects, RunStatus};

const NOW: Millis = 1_000_000;
const FUEL_PER_STEP: u64 = 1_000;

fn claim() -> Claim {
    Claim {
        run: Run {
            run_id: "r1".into(),
            agent: "mail".into(),
            version: "1.0.0".into(),
            digest: "d".into(),
            status: RunStatus::Active,
            status_text: Some("before".into()),
            state: "{\"n\":1}".into(),
            outcome: None,
            wake_when: None,
            waits: vec![],
            steps: 3,
            fuel_used: 10,
            step_budget: 100,
            fuel_budget: 100_000,
            tokens_used: 0,
            token_budget: 1_000,
            usd_used: 0.0,
            usd_budget: 0.0,
            attempts: 0,
            last_error: None,
            retry_at: None,
            input: "{}".into(),
            created_at: 0,
            updated_at: 0,
            incarnation: "i".into(),
            held_by: None,
        },
        epoch: 7,
        owner: "w".into(),
    }
}

fn decided(claim: &Claim, ran: Ran) -> Ending {
    let facts = Facts {
        claim,
        wake: &Wake::Resume,
        now: NOW,
        fuel_per_step: FUEL_PER_STEP,
        max_approval_valid_ms: 60_000,
        keep_checkpoints: None,
        approvals: &[],
    };
    decide(&facts, ran)
}

fn ran(result: Result<StepResult, StepFailure>, gate: GateOutcome) -> Ran {
    Ran {
        report: StepReport {
            result,
            fuel_used: 42,
            logs: vec![LogLine {
                level: LogLevel::Info,
                source: "log".into(),
                message: "hello".into(),
            }],
            wall: Duration::from_millis(5),
        },
        gate,
    }
}

fn returned(next: Next) -> Result<StepResult, StepFailure> {
    Ok(StepResult {
        state: "{\"n\":2}".into(),
        next,
        status: None,
    })
}

fn stopped(stop: Stop) -> GateOutcome {
    GateOutcome {
        stop: Some(stop),
        ..GateOutcome::default()
    }
}

fn kinds(rows: &[AuditEntry]) -> Vec<&str> {
    rows.iter().map(|r| r.kind.as_str()).collect()
}

#[test]
fn a_step_that_returns_is_a_checkpoint_of_what_it_returned() {
    let claim = claim();
    let gate = GateOutcome {
        executed: 2,
        replayed: 1,
        ..GateOutcome::default()
    };
    let Ending::Checkpoint { commit, end } = decided(&claim, ran(returned(Next::Continue), gate))
    else {
        panic!("not a checkpoint");
    };
    assert!(matches!(
        end,
        StepEnd::Committed {
            seq: 4,
            fuel: 42,
            wall_ms: 5,
            ..
        }
    ));
    assert_eq!(commit.epoch, 7);
    assert_eq!(commit.state, "{\"n\":2}");
    assert_eq!(commit.status_text.as_deref(), Some("before"));
    assert_eq!(commit.state_before.as_deref(), Some("{\"n\":1}"));
    assert_eq!(commit.park, None);
    assert_eq!(kinds(&commit.audit), ["step", "log"]);
    assert_eq!(commit.audit[0].data["tool_calls"], 2);
    assert_eq!(commit.audit[0].data["replayed_tool_calls"], 1);
}

#[test]
fn a_step_that_finishes_says_so_in_its_status_and_audit() {
    let claim = claim();
    let done = Next::Done {
        outcome: "sent".into(),
    };
    let Ending::Checkpoint { commit, .. } =
        decided(&claim, ran(returned(done), GateOutcome::default()))
    else {
        panic!("not a checkpoint");
    };
    assert_eq!(commit.status_text.as_deref(), Some("done: sent"));
    assert_eq!(kinds(&commit.audit), ["step", "log", "done"]);
}

#[test]
fn a_spent_run_budget_parks_the_run_after_its_checkpoint_unless_it_finished() {
    let claim = claim();
    let spent = || GateOutcome {
        budget_spent: Some("token budget of 1000 is spent".into()),
        ..GateOutcome::default()
    };
    let Ending::Checkpoint { commit, end } =
        decided(&claim, ran(returned(Next::Continue), spent()))
    else {
        panic!("not a checkpoint");
    };
    assert!(matches!(&end, StepEnd::Parked { reason } if reason.contains("token budget")));
    assert!(commit.park.is_some());
    let done = Next::Done {
        outcome: "ok".into(),
    };
    let Ending::Checkpoint { commit, end } = decided(&claim, ran(returned(done), spent())) else {
        panic!("not a checkpoint");
    };
    assert!(matches!(end, StepEnd::Committed { .. }));
    assert!(commit.park.is_some());
}

#[test]
fn a_step_that_asks_for_an_approval_waits_for_it_and_audits_the_request() {
    let claim = claim();
    let wait = Next::Wait {
        waits: vec![WaitFor::Approval(ApprovalRequest {
            id: "pay".into(),
            question: "Pay?".into(),
            details: "{}".into(),
            valid_for_ms: 1_000,
        })],
    };
    let ran = ran(returned(wait), GateOutcome::default());
    assert!(ran.waits());
    let Ending::Checkpoint { commit, .. } = decided(&claim, ran) else {
        panic!("not a checkpoint");
    };
    assert_eq!(commit.waits.len(), 1);
    assert_eq!(commit.waits[0].due_at, Some(NOW + 1_000));
    assert_eq!(kinds(&commit.audit), ["step", "log", "approval requested"]);
}

#[test]
fn a_guest_error_is_a_failed_attempt_with_its_logs() {
    let claim = claim();
    let failure = Err(StepFailure::GuestError("boom".into()));
    let Ending::Fail(f) = decided(&claim, ran(failure, GateOutcome::default())) else {
        panic!("not a failure");
    };
    assert_eq!(f.error, "the agent returned an error: boom");
    assert_eq!(f.fuel_used, 42);
    assert!(!f.park);
    assert_eq!(kinds(&f.rows), ["log"]);
}

#[test]
fn running_out_of_the_runs_fuel_or_after_a_spent_budget_parks_at_once() {
    let claim = claim();
    let short = Err(StepFailure::OutOfFuel {
        limit: FUEL_PER_STEP - 1,
    });
    let Ending::Fail(f) = decided(&claim, ran(short, GateOutcome::default())) else {
        panic!("not a failure");
    };
    assert!(f.park, "{f:?}");
    assert!(
        f.error.starts_with("fuel budget of 100000 is spent"),
        "{}",
        f.error
    );

    let per_step = Err(StepFailure::OutOfFuel {
        limit: FUEL_PER_STEP,
    });
    let Ending::Fail(f) = decided(&claim, ran(per_step, GateOutcome::default())) else {
        panic!("not a failure");
    };
    assert!(!f.park, "a step's own limit is retried: {f:?}");

    let spent = GateOutcome {
        budget_spent: Some("money budget is spent".into()),
        ..GateOutcome::default()
    };
    let Ending::Fail(f) = decided(&claim, ran(Err(StepFailure::StackOverflow), spent)) else {
        panic!("not a failure");
    };
    assert!(f.park);
    assert!(
        f.error
            .starts_with("money budget is spent (the step then failed: ")
    );
}

#[test]
fn invalid_waits_are_a_failed_attempt() {
    let claim = claim();
    let wait = Next::Wait {
        waits: vec![WaitFor::Event { topic: " ".into() }],
    };
    let Ending::Fail(f) = decided(&claim, ran(returned(wait), GateOutcome::default())) else {
        panic!("not a failure");
    };
    assert!(f.error.contains("empty topic"), "{}", f.error);
    assert!(!f.park);
}

#[test]
fn a_call_that_stopped_the_step_decides_its_ending_whatever_the_guest_did() {
    let claim = claim();
    let after = || returned(Next::Continue);
    let switch = Switch {
        scope: "all".into(),
        reason: None,
        at: 1,
    };
    let Ending::Hold { switch: held, rows } =
        decided(&claim, ran(after(), stopped(Stop::Held(switch))))
    else {
        panic!("not held");
    };
    assert_eq!(held.scope, "all");
    assert_eq!(kinds(&rows), ["log"]);
    assert!(matches!(
        decided(&claim, ran(after(), stopped(Stop::Conflict("kv key changed".into())))),
        Ending::Void { why, .. } if why == "kv key changed"
    ));
    assert!(matches!(
        decided(&claim, ran(after(), stopped(Stop::UnknownOutcome("unknown".into())))),
        Ending::Park { reason, .. } if reason == "unknown"
    ));
    let failed = Err(StepFailure::HostFault("stopped".into()));
    assert!(matches!(
        decided(&claim, ran(failed, stopped(Stop::Unchain))),
        Ending::Unchain
    ));
    let stopped_waiting = ran(
        returned(Next::Wait { waits: vec![] }),
        stopped(Stop::Unchain),
    );
    assert!(!stopped_waiting.waits(), "no approvals are read for it");
}

#[test]
fn a_spent_step_or_fuel_budget_parks_before_anything_runs() {
    let mut run = claim().run;
    assert!(precheck(&run).is_none());
    run.fuel_used = run.fuel_budget;
    assert!(matches!(precheck(&run), Some(Ending::Park { reason, .. })
        if reason.starts_with("fuel budget of 100000 is spent (100000 used)")));
    run.steps = run.step_budget;
    assert!(matches!(precheck(&run), Some(Ending::Park { reason, .. })
        if reason.starts_with("step budget of 100 steps is spent")));
}

#[test]
fn held_calls_are_written_with_the_checkpoint_only() {
    let claim = claim();
    let mut effects = Effects::default();
    effects.approvals_used.push(crate::store::ApprovalUse {
        run_id: "r1".into(),
        request_id: "pay".into(),
        call_index: 0,
        key: "k".into(),
    });
    let gate = GateOutcome {
        effects,
        ..GateOutcome::default()
    };
    let Ending::Checkpoint { commit, .. } = decided(&claim, ran(returned(Next::Continue), gate))
    else {
        panic!("not a checkpoint");
    };
    assert_eq!(commit.effects.approvals_used.len(), 1);
}
