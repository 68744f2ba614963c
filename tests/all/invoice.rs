//! The invoice agent (seed 000): a run that waits for an email, files it once,
//! and ignores a second delivery of the same mail.

use serde_json::json;

use crate::harness::Env;

#[test]
fn invoice_mail_is_filed_once_despite_a_duplicated_delivery() {
    let env = Env::new("invoice", "");
    env.deploy("invoice-mail", &["kv"]);
    let run = env.ok(&["start", "invoice-mail"]).trim().to_string();
    assert!(run.starts_with("run_"), "{run}");
    env.work();
    let show = env.show(&run);
    assert_eq!(show["status"], "waiting");
    assert_eq!(show["status_text"], "waiting on the invoice email");
    assert_eq!(show["wake_when"], "event:mail:invoice");

    let mail = json!({"from": "billing@acme.test", "amount": 120}).to_string();
    // By topic: every run waiting on it gets the mail.
    let sent = env.ok(&[
        "send",
        "--topic",
        "mail:invoice",
        "--id",
        "mail-42",
        "--payload",
        &mail,
    ]);
    assert!(
        sent.contains(&format!("delivered mail-42 to {run}")),
        "{sent}"
    );
    // The same mail again, by run id: recognised, nothing changes.
    let again = env.ok(&[
        "send",
        &run,
        "--topic",
        "mail:invoice",
        "--id",
        "mail-42",
        "--payload",
        &mail,
    ]);
    assert!(again.contains("already has event mail-42"), "{again}");

    env.work();
    let show = env.show(&run);
    assert_eq!(show["status"], "done", "{show}");
    assert!(
        show["outcome"].as_str().unwrap().contains("mail-42"),
        "{show}"
    );
    assert_eq!(show["steps"], 2);
    let filed = env.ok(&["kv", "get", "agent/invoice-mail/invoices/mail-42"]);
    let filed: serde_json::Value = serde_json::from_str(&filed).unwrap();
    assert_eq!(filed["version"], 1, "filed exactly once: {filed}");
    assert_eq!(filed["value"]["amount"], 120);

    // After the run is done, a late duplicate is refused and stores nothing.
    let err = env.fails(&["send", &run, "--topic", "mail:invoice", "--id", "mail-43"]);
    assert!(err.contains("has ended"), "{err}");
    env.work();
    assert_eq!(env.json(&["history", &run]).as_array().unwrap().len(), 2);
}

#[test]
fn an_event_sent_before_the_run_waits_is_kept_for_it() {
    let env = Env::new("invoice-early", "");
    env.deploy("invoice-mail", &["kv"]);
    let run = env
        .ok(&["start", "invoice-mail", "--id", "early"])
        .trim()
        .to_string();
    env.ok(&[
        "send",
        &run,
        "--topic",
        "mail:invoice",
        "--id",
        "mail-1",
        "--payload",
        "{}",
    ]);
    env.work();
    let show = env.show(&run);
    assert_eq!(show["status"], "done", "{show}");
    assert!(show["outcome"].as_str().unwrap().contains("mail-1"));
}

#[test]
fn a_deployed_component_is_compiled_once_and_cached_on_disk() {
    let env = Env::new("cache", "");
    let deployed = env.json(&[
        "deploy",
        crate::harness::agent("invoice-mail").to_str().unwrap(),
        "--grant",
        "kv",
        "--owner",
        "billing-team",
    ]);
    let digest = deployed["agent"]["digest"].as_str().unwrap().to_string();
    assert_eq!(deployed["agent"]["owner"], "billing-team");
    assert!(env.ok(&["agents"]).contains("billing-team"));
    let cached: Vec<String> = std::fs::read_dir(env.dir.join("data/cache"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|name| name != "functions" && name != "key")
        .collect();
    // Its functions are kept too, for the next build of the agent to reuse.
    assert!(
        std::fs::read_dir(env.dir.join("data/cache/functions"))
            .unwrap()
            .count()
            > 10
    );
    assert_eq!(cached.len(), 1, "{cached:?}");
    assert!(
        cached[0].starts_with(&digest) && cached[0].ends_with(".cwasm"),
        "{cached:?}"
    );
    // A new process steps the run from the precompiled artifact; a corrupt
    // artifact is detected and rebuilt rather than trusted.
    let artifact = env.dir.join("data/cache").join(&cached[0]);
    std::fs::write(&artifact, b"garbage").unwrap();
    env.ok(&["start", "invoice-mail", "--id", "c"]);
    env.work();
    assert_eq!(env.show("c")["status"], "waiting");
    assert!(
        std::fs::metadata(&artifact).unwrap().len() > 1000,
        "the artifact was rebuilt"
    );
    // Deploying the same bytes again changes nothing.
    let again = env.ok(&[
        "deploy",
        crate::harness::agent("invoice-mail").to_str().unwrap(),
        "--grant",
        "kv",
    ]);
    assert!(
        again.starts_with("already deployed invoice-mail@0.1.0"),
        "{again}"
    );
}

#[test]
fn bench_measures_a_real_agent_end_to_end() {
    let env = Env::new("bench", "");
    let wasm = crate::harness::agent("invoice-mail");
    let report = env.json(&[
        "bench",
        wasm.to_str().unwrap(),
        "--runs",
        "5",
        "--topic",
        "mail:invoice",
    ]);
    assert_eq!(report["runs"], 5);
    assert_eq!(
        report["steps"], 10,
        "start and event steps of every run: {report}"
    );
    assert!(report["steps_per_sec"].as_f64().unwrap() > 0.0, "{report}");
    assert_eq!(
        report["component_bytes"],
        std::fs::metadata(&wasm).unwrap().len(),
        "{report}"
    );
    for measured in [
        "deploy_ms",
        "redeploy_ms",
        "artifact_bytes",
        "guest_call_p50_ms",
        "guest_call_p99_ms",
        "stepping_rss_kib",
        "peak_rss_kib",
        // Compiled in a child process, whose peak is its own.
        "compiler_peak_rss_kib",
    ] {
        assert!(
            report[measured].as_f64().is_some_and(|v| v > 0.0),
            "{measured}: {report}"
        );
    }
    assert!(
        report["stepping_rss_kib"].as_f64() <= report["peak_rss_kib"].as_f64(),
        "{report}"
    );
    assert!(
        !env.dir.join("data").exists(),
        "bench works on a store of its own"
    );
}

#[test]
fn bench_compares_several_agents_in_one_run() {
    let env = Env::new("bench-compare", "");
    crate::harness::agent("invoice-mail");
    let out = env.ok(&["bench", "invoice", "incident", "--runs", "2"]);
    let row = |key: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("{key} ")))
            .unwrap_or_else(|| panic!("no {key} row: {out}"))
            .to_string()
    };
    assert!(row("agent").contains("\"invoice-mail@0.1.0\""), "{out}");
    assert!(row("agent").contains("\"incident@0.1.0\""), "{out}");
    // Triage, diagnose, ask; then revalidate, act, verify: 3x the invoice's.
    assert!(row("steps").ends_with("(3.00x of the first)"), "{out}");
    let both = env.json(&["bench", "invoice", "incident", "--runs", "2"]);
    assert_eq!(both.as_array().map(Vec::len), Some(2), "{both}");
}

#[test]
fn a_python_invoice_step_stays_within_its_instruction_budget() {
    // Fuel counts the wasm instructions a step ran: unlike its time, it
    // does not move with the machine. The Python SDK's glue was most of a
    // Python step (the invoice agent's steps cost 406,323 and 654,927
    // before the SDK was written for its interpreter, 167,539 and 301,572
    // after); these bounds keep that from creeping back.
    use crate::harness::{FAST_LIMITS, Lang};
    let env =
        Env::new("invoice-py-fuel", FAST_LIMITS).deploy_in(Lang::Python, "invoice_mail", &["kv"]);
    env.ok(&["start", "invoice-mail-py", "--id", "inv"]);
    env.work();
    let mail = json!({"from": "billing@acme.test", "amount": 120}).to_string();
    env.ok(&[
        "send",
        "inv",
        "--topic",
        "mail:invoice",
        "--id",
        "m1",
        "--payload",
        &mail,
    ]);
    env.work();
    assert_eq!(env.show("inv")["status"], "done");
    let history = env.json(&["history", "inv"]);
    let fuel: Vec<u64> = history
        .as_array()
        .expect("history is a list of checkpoints")
        .iter()
        .map(|c| c["fuel_used"].as_u64().unwrap())
        .collect();
    assert_eq!(fuel.len(), 2, "{history}");
    assert!(fuel[0] < 250_000, "the first step (a start): {fuel:?}");
    assert!(
        fuel[1] < 400_000,
        "the second step (kv put, log, done): {fuel:?}"
    );
}
