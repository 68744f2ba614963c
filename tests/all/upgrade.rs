//! Moving live runs to a new agent version through its `migrate` export.

use serde_json::{Value, json};

use crate::harness::Env;

/// Moves every counter run to 2.0.0, allowing it tools 1.0.0 was not granted.
const TO_V2_WITH_NEW_TOOLS: [&str; 6] = [
    "upgrade",
    "--agent",
    "counter",
    "--to",
    "2.0.0",
    "--allow-new-tools",
];

fn results(env: &Env, args: &[&str]) -> Vec<Value> {
    let mut all = args.to_vec();
    all.push("--json");
    let out = env.output(&all);
    serde_json::from_slice::<Value>(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)))
        .as_array()
        .unwrap()
        .clone()
}

fn result_of<'a>(results: &'a [Value], run: &str) -> &'a Value {
    results.iter().find(|r| r["run_id"] == run).unwrap()
}

#[test]
fn runs_move_to_a_new_version_through_migrate_and_failures_stay_put() {
    let env = Env::new("upgrade", "");
    env.deploy("counter-v1", &[]);
    for (run, input) in [
        ("a", json!({})),
        ("b", json!({"poison": true})),
        ("c", json!({})),
    ] {
        env.ok(&[
            "start",
            "counter",
            "--id",
            run,
            "--input",
            &input.to_string(),
        ]);
    }
    env.work();
    env.ok(&["send", "--topic", "tick", "--id", "t1"]);
    env.work();
    env.deploy("counter-v2", &["kv"]);
    assert_eq!(
        env.show("a")["version"],
        "1.0.0",
        "deploying changes no running run"
    );

    let refused = results(
        &env,
        &[
            "upgrade",
            "--agent",
            "counter",
            "--to",
            "2.0.0",
            "--dry-run",
        ],
    );
    assert_eq!(refused.len(), 3);
    for r in &refused {
        assert!(
            r["detail"].as_str().unwrap().contains("--allow-new-tools"),
            "{r}"
        );
    }

    let dry = [
        "upgrade",
        "--agent",
        "counter",
        "--to",
        "2.0.0",
        "--dry-run",
        "--allow-new-tools",
    ];
    let planned = results(&env, &dry);
    assert_eq!(result_of(&planned, "a")["result"], "would_upgrade");
    assert!(
        result_of(&planned, "b")["detail"]
            .as_str()
            .unwrap()
            .contains("poison")
    );
    assert_eq!(env.show("a")["version"], "1.0.0", "a dry run saves nothing");
    assert_eq!(env.show("a")["state"]["n"], 1);

    let err = env.fails(&TO_V2_WITH_NEW_TOOLS);
    assert!(err.contains("1 run(s) were not upgraded"), "{err}");
    let a = env.show("a");
    assert_eq!(
        (a["version"].clone(), a["state"].clone()),
        (json!("2.0.0"), json!({"count": 1}))
    );
    assert_eq!(a["step_budget"], 101, "an upgrade does not spend a step");
    let b = env.show("b");
    assert_eq!(
        b["version"], "1.0.0",
        "a failed migration leaves the run untouched"
    );
    assert_eq!(b["state"], json!({"n": 1, "poison": true}));
    assert_eq!(env.audit_rows("b", "upgrade failed").len(), 1);
    let last = env
        .json(&["history", "a"])
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(
        (last["wake"].clone(), last["upgraded_from"].clone()),
        (Value::Null, json!("1.0.0"))
    );

    env.ok(&["send", "--topic", "tick", "--id", "t2"]);
    env.work();
    assert_eq!(env.show("a")["status_text"], "v2 counted 2");
    assert_eq!(env.show("b")["status_text"], "v1 counted 2");

    assert!(
        env.ok(&["upgrade", "a", "--to", "2.0.0"])
            .contains("already on that version")
    );
    let err = env.fails(&["upgrade", "a", "--to", "9.9.9"]);
    assert!(err.contains("no version 9.9.9 of agent counter"), "{err}");
    env.ok(&["cancel", "c", "--reason", "done with it"]);
    let ended = results(&env, &["upgrade", "c", "--to", "1.0.0"]);
    assert_eq!(ended[0]["result"], "ended");
}

#[test]
fn a_run_whose_history_is_trimmed_still_upgrades_and_keeps_counting() {
    let env = Env::new("upgrade-trimmed", "[retention]\ncheckpoints_per_run = 1\n");
    env.deploy("counter-v1", &[]);
    env.start("counter", "a", json!({}));
    env.work();
    for tick in ["t1", "t2"] {
        env.ok(&["send", "a", "--topic", "tick", "--id", tick]);
        env.work();
    }
    assert_eq!(env.show("a")["state"]["n"], 2);
    assert_eq!(env.checkpoint_seqs("a"), [3], "only the newest is kept");

    env.deploy("counter-v2", &["kv"]);
    env.ok(&TO_V2_WITH_NEW_TOOLS);
    let a = env.show("a");
    assert_eq!(
        (a["version"].clone(), a["state"].clone()),
        (json!("2.0.0"), json!({"count": 2})),
        "{a}"
    );
    env.ok(&["send", "a", "--topic", "tick", "--id", "t3"]);
    env.work();
    let a = env.show("a");
    assert_eq!(a["state"], json!({"count": 3}), "{a}");
    assert_eq!(a["status_text"], "v2 counted 3", "{a}");
    assert_eq!(env.checkpoint_seqs("a").len(), 1, "still only the newest");
}

#[test]
fn an_agents_runs_are_upgraded_in_groups_of_one_flush_each() {
    // Groups of four: ten runs are three groups. The flushes counted are
    // those of the SQLite file's WAL, whatever store the other tests use.
    let env = Env::sqlite("upgrade-groups", "[limits]\nsteps_per_commit = 4\n");
    env.deploy("counter-v1", &[]);
    let runs: Vec<String> = (0..10).map(|i| format!("r{i}")).collect();
    for run in &runs {
        env.start("counter", run, json!({}));
    }
    env.work();
    env.deploy("counter-v2", &["kv"]);
    assert_eq!(
        crate::fsyncs::commits(&env, &TO_V2_WITH_NEW_TOOLS),
        3,
        "one flushed commit per group of four runs"
    );
    for run in &runs {
        let shown = env.show(run);
        assert_eq!(
            (shown["version"].clone(), shown["state"].clone()),
            (json!("2.0.0"), json!({"count": 0})),
            "{run}: {shown}"
        );
        assert_eq!(env.audit_rows(run, "upgrade").len(), 1, "{run}");
    }
}
