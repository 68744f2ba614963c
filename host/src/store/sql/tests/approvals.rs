//! Approval requests: answers, expiry, re-asking.

use super::*;

#[test]
fn an_answered_approval_wakes_the_run_once() {
    let (_db, mut store) = setup("approval");
    let details = r#"{"refund":42}"#;
    step_to_wait(
        &mut store,
        100,
        vec![approval_wait("apr_1", details, 10_000)],
    );

    let approvals = store.approvals("r1").unwrap();
    assert_eq!(approvals.len(), 1);
    let request = &approvals[0];
    let digest = crate::model::approval_digest("may I do apr_1?", details);
    assert_eq!(request.details_digest, digest);
    assert_eq!(request.token_sha256.len(), 64);
    assert!(request.token_sha256.chars().all(|c| c.is_ascii_hexdigit()));
    assert!(
        request.token.is_none(),
        "without a link key no link is shown"
    );
    assert_eq!((request.requested_at, request.expires_at), (100, 10_100));
    assert!(request.answer.is_none());
    assert!(claim(&mut store, 200).is_none());

    let yes = answer("apr_1", true, 300);
    assert_eq!(
        store
            .answer_approval("r1", &yes, Some("00ff"))
            .unwrap()
            .unwrap_err(),
        AnswerRefused::DetailsChanged {
            run: "r1".into(),
            request: "apr_1".into()
        }
    );
    assert!(matches!(
        store
            .answer_approval("r1", &answer("apr_9", true, 300), None)
            .unwrap(),
        Err(AnswerRefused::UnknownRequest { .. })
    ));
    assert!(matches!(
        store.answer_approval("ghost", &yes, None).unwrap(),
        Err(AnswerRefused::UnknownRun(_))
    ));
    assert!(claim(&mut store, 301).is_none(), "refusals change nothing");

    let stored = store
        .answer_approval("r1", &yes, Some(&digest))
        .unwrap()
        .unwrap();
    let bound = ApprovalAnswer {
        digest: digest.clone(),
        ..yes.clone()
    };
    assert_eq!(stored.answer.as_ref(), Some(&bound));
    assert_eq!(
        store
            .answer_approval("r1", &answer("apr_1", false, 310), None)
            .unwrap()
            .unwrap_err(),
        AnswerRefused::AlreadyAnswered {
            run: "r1".into(),
            request: "apr_1".into(),
            by: "alice".into()
        }
    );

    let (c, wake) = claim(&mut store, 400).expect("the answer wakes r1");
    assert_eq!(wake, Wake::Approval(bound));
    let waits = vec![event_wait("later")];
    store
        .commit_step(&step(&c, wake, waiting(&waits), waits, 500))
        .unwrap();
    assert!(store.approvals("r1").unwrap()[0].consumed);
    assert!(claim(&mut store, 600).is_none());
    assert_eq!(audit_kinds(&store), ["step", "approval", "step"]);
}

#[test]
fn an_unanswered_approval_expires_and_late_answers_are_refused() {
    let (_db, mut store) = setup("expiry");
    step_to_wait(&mut store, 500, vec![approval_wait("apr_2", "{}", 1_000)]);
    assert!(claim(&mut store, 1_499).is_none());

    let late = answer("apr_2", true, 1_600);
    match store.answer_approval("r1", &late, None).unwrap() {
        Err(AnswerRefused::Expired {
            expires_at,
            expires_at_text,
            ..
        }) => {
            assert_eq!(expires_at, 1_500);
            assert_eq!(expires_at_text, "1970-01-01T00:00:01.500Z");
        }
        other => panic!("expected Expired, got {other:?}"),
    }
    assert!(store.approvals("r1").unwrap()[0].answer.is_none());
    assert_eq!(audit_kinds(&store), ["step", "approval refused"]);

    let (c, wake) = claim(&mut store, 1_500).expect("the expiry wakes r1");
    assert_eq!(
        wake,
        Wake::Expired {
            request_id: "apr_2".into()
        }
    );
    // A clock that lags behind still cannot answer a request that was
    // delivered as expired.
    let skewed = answer("apr_2", true, 1_400);
    assert!(matches!(
        store.answer_approval("r1", &skewed, None).unwrap(),
        Err(AnswerRefused::Expired { .. })
    ));
    let waits = vec![event_wait("x")];
    store
        .commit_step(&step(&c, wake, waiting(&waits), waits, 1_600))
        .unwrap();
    assert!(store.approvals("r1").unwrap()[0].consumed);
    assert!(claim(&mut store, 1_700).is_none());
}

#[test]
fn asking_again_keeps_the_expiry_and_dropped_requests_refuse_answers() {
    let (_db, mut store) = setup("reask");
    step_to_wait(
        &mut store,
        100,
        vec![approval_wait("apr_3", "{}", 1_000), event_wait("x")],
    );
    store.deliver_event("r1", &event("e1", "x", 150)).unwrap();
    let wake = step_to_wait(
        &mut store,
        200,
        vec![approval_wait("apr_3", "{}", 50_000), event_wait("y")],
    );
    assert!(matches!(wake, Wake::Event(_)));
    let request = &store.approvals("r1").unwrap()[0];
    assert_eq!(request.expires_at, 1_100, "the first expiry stands");

    store.deliver_event("r1", &event("e2", "y", 250)).unwrap();
    step_to_wait(&mut store, 300, vec![event_wait("z")]);
    assert_eq!(
        store
            .answer_approval("r1", &answer("apr_3", true, 400), None)
            .unwrap()
            .unwrap_err(),
        AnswerRefused::NotWaiting {
            run: "r1".into(),
            request: "apr_3".into()
        }
    );
}

#[test]
fn an_approval_is_found_by_its_token_only() {
    let (_db, mut store) = setup("approval-token");
    let key = crate::store::links::LinkKey::from_hex(&"ab".repeat(32)).unwrap();
    store.set_link_key(key.clone());
    step_to_wait(&mut store, 100, vec![approval_wait("apr_1", "{}", 10_000)]);
    let request = store.approvals("r1").unwrap().remove(0);
    let token = request.token.clone().expect("the link key shows the link");
    assert_eq!(
        token,
        key.approval_token("r1", "apr_1", &request.details_digest, 100)
    );
    assert_ne!(request.token_sha256, token, "only the hash is stored");
    let found = store.approval_by_token(&token).unwrap().unwrap();
    assert_eq!((found.run_id.as_str(), found.id.as_str()), ("r1", "apr_1"));
    // What a copy of the store holds does not answer.
    assert!(
        store
            .approval_by_token(&request.token_sha256)
            .unwrap()
            .is_none()
    );
    assert!(store.approval_by_token("00").unwrap().is_none());
    assert!(store.approval_by_token("").unwrap().is_none());
}

#[test]
fn answers_wake_a_run_in_the_order_they_were_given_then_by_request_id() {
    let (_db, mut store) = setup("answer order");
    let waits = || {
        ["c", "b", "a"]
            .map(|id| approval_wait(id, "{}", 10_000))
            .to_vec()
    };
    step_to_wait(&mut store, 10, waits());
    for (id, at) in [("c", 30), ("a", 20), ("b", 30)] {
        store
            .answer_approval("r1", &answer(id, true, at), None)
            .unwrap()
            .unwrap();
    }
    let order: Vec<String> = [100, 101, 102]
        .into_iter()
        .map(|now| match step_to_wait(&mut store, now, waits()) {
            Wake::Approval(a) => a.request_id,
            other => panic!("an answer was due, not {other:?}"),
        })
        .collect();
    assert_eq!(order, ["a", "b", "c"]);
    assert!(
        claim(&mut store, 103).is_none(),
        "each answer wakes the run once"
    );
}
