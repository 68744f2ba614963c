//! Several worker processes at once never step one run twice.

use std::collections::HashMap;

use crate::harness::Env;

#[test]
fn two_workers_at_once_never_step_a_run_twice() {
    let env = Env::new("race", "");
    env.deploy("invoice-mail", &["kv"]);
    let runs: Vec<String> = (0..8)
        .map(|i| {
            let id = format!("race-{i}");
            env.ok(&["start", "invoice-mail", "--id", &id]);
            // Delivered before the run waits: each run needs exactly 2 steps.
            env.ok(&[
                "send",
                &id,
                "--topic",
                "mail:invoice",
                "--id",
                &format!("m{i}"),
            ]);
            id
        })
        .collect();
    let workers: Vec<_> = (0..2)
        .map(|_| {
            env.command(&["work", "--until-idle"])
                .spawn()
                .expect("spawn worker")
        })
        .collect();
    for mut w in workers {
        assert!(w.wait().unwrap().success());
    }
    let mut steps_per_run: HashMap<String, usize> = HashMap::new();
    for row in env.audit_json(&["audit"]).as_array().unwrap() {
        if row["kind"] == "step" {
            *steps_per_run
                .entry(row["run_id"].as_str().unwrap().to_string())
                .or_default() += 1;
        }
    }
    for run in &runs {
        let show = env.show(run);
        assert_eq!(show["status"], "done", "{show}");
        assert_eq!(env.checkpoint_seqs(run), vec![1, 2], "{run}");
        assert_eq!(steps_per_run.get(run), Some(&2), "{run} was stepped twice");
        let filed: serde_json::Value = serde_json::from_str(&env.ok(&[
            "kv",
            "get",
            &format!("agent/invoice-mail/invoices/m{}", &run[5..]),
        ]))
        .unwrap();
        assert_eq!(filed["version"], 1);
    }
}
