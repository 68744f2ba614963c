//! Events sent to a topic reach every run that was live when they were
//! sent, whenever it next waits on the topic, once.

use serde_json::json;

use crate::harness::Env;

#[test]
fn a_broadcast_reaches_runs_that_were_live_when_it_was_sent() {
    let env = Env::new("broadcast-kept", "");
    env.deploy("waiter", &[]);
    // Not stepped yet: it waits on nothing when the mail is sent.
    env.start("waiter", "early", json!({"topic": "mail:invoice"}));
    // Stepped later, after two continue slices.
    env.start(
        "waiter",
        "slow",
        json!({"topic": "mail:invoice", "slices": 2}),
    );
    env.ok(&["send", "--topic", "mail:invoice", "--id", "m1"]);
    env.start("waiter", "late", json!({"topic": "mail:invoice"}));
    env.work();

    for run in ["early", "slow"] {
        let show = env.show(run);
        assert_eq!(show["status"], "done", "{show}");
        assert_eq!(show["outcome"], "event m1 on mail:invoice");
    }
    let late = env.show("late");
    assert_eq!(
        late["status"], "waiting",
        "a run started after the send does not get it: {late}"
    );

    // Once per run: sending it again reaches only the run that never had it.
    env.ok(&["send", "--topic", "mail:invoice", "--id", "m1"]);
    env.work();
    assert_eq!(env.show("late")["outcome"], "event m1 on mail:invoice");
    assert_eq!(env.audit_rows("early", "step").len(), 2);
    // The run that took it at the send has the send's row, once.
    let sent = env.audit_rows("late", "event");
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0]["data"]["id"], "m1");
    assert_eq!(sent[0]["data"]["topic"], "mail:invoice");
}

#[test]
fn a_broadcast_is_kept_only_for_its_retention() {
    let env = Env::new("broadcast-retention", "[retention]\nbroadcast_hours = 0\n");
    env.deploy("waiter", &[]);
    env.start("waiter", "r", json!({"topic": "t"}));
    env.ok(&["send", "--topic", "t", "--id", "e1"]);
    env.work();
    let show = env.show("r");
    assert_eq!(
        show["status"], "waiting",
        "with no retention, only runs waiting then get it: {show}"
    );
}

#[test]
fn a_sender_killed_inside_a_broadcast_delivers_to_nobody_and_the_same_send_again_reaches_all() {
    use std::os::unix::process::ExitStatusExt;
    let env = Env::new("broadcast-crash", "");
    env.deploy("waiter", &[]);
    let runs = ["a", "b", "c"];
    for run in runs {
        env.start("waiter", run, json!({"topic": "pager"}));
    }
    env.work();
    for run in runs {
        assert_eq!(env.show(run)["status"], "waiting");
    }

    // Killed with every run's delivery and audit row written, before the
    // commit.
    let out = env
        .clone_with_env("WAKEFUL_FAILPOINT", "broadcast:p1")
        .output(&["send", "--topic", "pager", "--id", "p1"]);
    assert_eq!(
        out.status.signal(),
        Some(9),
        "the sender dies inside the broadcast: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    env.work();
    for run in runs {
        let show = env.show(run);
        assert_eq!(show["status"], "waiting", "nothing was delivered: {show}");
        assert!(env.audit_rows(run, "event").is_empty(), "{run}");
    }
    assert_eq!(
        env.sql_query("SELECT COUNT(*) FROM broadcasts"),
        [[json!(0)]],
        "the event is not kept either"
    );
    env.ok(&["check"]);

    // The sender sends it again: every run takes it once, with its row.
    env.ok(&["send", "--topic", "pager", "--id", "p1"]);
    env.work();
    for run in runs {
        let show = env.show(run);
        assert_eq!(show["status"], "done", "{show}");
        assert_eq!(show["outcome"], "event p1 on pager");
        assert_eq!(env.audit_rows(run, "event").len(), 1, "{run}");
    }
}
