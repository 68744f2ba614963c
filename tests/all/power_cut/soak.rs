//! A thousand power cuts in one recorded history: runs started on the
//! command line and through the API, stepped by `work` and by `serve`
//! with two workers (so that commits are flushed after the writer's turn),
//! approvals answered from another process, callbacks POSTed, calls made
//! to tools that can and cannot drop a repeat. The history runs once; each
//! cut is an image built from its log, opened by the real binary.

use serde_json::json;

use super::history::{Recording, caller_input, same_file};
use super::image::{Keep, Replay, Rng};
use super::log::{Change, Log, Record};
use super::{Cut, cut_at, knob, resume};
use crate::harness::Env;
use crate::serve_process::Server;

/// Size: `WAKEFUL_POWER_CUT_RUNS` caller runs on the command line (8),
/// three times as many through `serve`: enough for its WAL to be copied
/// into the data file and begun again from its start while it runs.
fn soak_history(runs: usize) -> Recording {
    let rec = Recording::new("power-cut-soak");
    rec.env.deploy("caller", &["pager", "llm", "kv"]);
    rec.env.deploy("waiter", &[]);
    rec.env
        .deploy("refund-approval", &["callback", "approvals", "refunds"]);
    for i in 0..runs {
        let run = format!("c-{i:03}");
        rec.start("caller", &run, &caller_input(&run));
    }
    let approval = json!({"approval_ms": 3_600_000});
    for i in 0..3 {
        rec.start("waiter", &format!("w-{i}"), &approval);
    }
    rec.work();
    for i in 0..3 {
        rec.approve(&format!("w-{i}"), "ok?");
    }
    rec.work();
    let server = rec.env.serve_with(&["--workers", "2"]);
    let mut started = vec![];
    let mut start = |agent: &str, run: String, input: serde_json::Value| {
        let body = json!({"agent": agent, "id": run, "input": input});
        let (status, answer) = server.post("/v1/runs", &body);
        assert_eq!(status, 201, "{answer}");
        rec.mark(&format!("start {run}"));
        started.push(run);
    };
    for i in 0..3 * runs {
        let run = format!("s-{i:03}");
        start("caller", run.clone(), caller_input(&run));
    }
    for i in 0..3 {
        let input = json!({"order": format!("o{i}"), "amount_usd": 10.0, "customer": "ann",
            "valid_for_ms": 3_600_000});
        start("refund-approval", format!("refund-o{i}"), input);
        start("waiter", format!("v-{i}"), approval.clone());
    }
    answer_links(&rec, &server, 3);
    for i in 0..3 {
        let run = format!("v-{i}");
        server.wait_run(&run, "waiting", |r| r["status"] == "waiting");
        rec.approve(&run, "ok?");
    }
    for run in &started {
        server.wait_run(run, "done", |r| r["status"] == "done");
    }
    server.terminate();
    rec
}

/// POSTs an approval to each of the `n` callback links the world is sent.
fn answer_links(rec: &Recording, server: &Server, n: usize) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while rec.world.links.lock().unwrap().len() < n {
        assert!(
            std::time::Instant::now() < deadline,
            "the refund runs never sent their links"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let links = rec.world.links.lock().unwrap().clone();
    for (_, url) in links {
        let path = url
            .strip_prefix(&server.base)
            .unwrap_or_else(|| panic!("{url}"));
        let (status, body) =
            server.post_as(path, None, &json!({"approved": true, "by": "finance"}));
        assert_eq!(status, 200, "{body}");
        let token = path.rsplit('/').next().unwrap();
        rec.mark(&format!("callback {token}"));
    }
}

/// `n` cuts: while the store is being made (before its WAL exists, when
/// SQLite writes the new file through a rollback journal), eight of each
/// partial kind at every record; right after each acknowledgement keeping
/// only what was flushed (an acknowledgement the host made before its
/// flush fails there), right before each flush keeping any part of what
/// it was about to flush, and at random; as many as `n` allows. Every
/// `n / resumes`-th one is also finished by a host.
fn soak_cuts(log: &Log, n: usize, resumes: usize, seed: u64) -> Vec<Cut> {
    let mut rng = Rng(seed);
    let cut = |at: usize, keep: Keep, rng: &mut Rng| Cut {
        at,
        keep,
        seed: rng.below(1 << 31),
        resume: false,
    };
    let making = log
        .records
        .iter()
        .position(|(_, r)| matches!(r, Record::Create(f) if f.ends_with("-wal")))
        .unwrap_or(0);
    let mut first = vec![];
    for at in 1..=making {
        for keep in [Keep::Any, Keep::InOrder] {
            first.extend((0..8).map(|seed| Cut {
                at,
                keep,
                seed,
                resume: false,
            }));
        }
    }
    let mut cuts = vec![];
    for (at, _) in log.marks() {
        cuts.push(cut(at, Keep::Flushed, &mut rng));
    }
    for (at, (_, record)) in log.records.iter().enumerate() {
        if matches!(record, Record::Flush { .. }) {
            let keep = [Keep::Any, Keep::InOrder][rng.below(2) as usize];
            cuts.push(cut(at, keep, &mut rng));
        }
    }
    let n = n.saturating_sub(first.len());
    while cuts.len() > n {
        let i = rng.below(cuts.len() as u64) as usize;
        cuts.swap_remove(i);
    }
    let kinds = [Keep::Flushed, Keep::All, Keep::Any, Keep::InOrder];
    while cuts.len() < n {
        let at = rng.below(log.records.len() as u64 + 1) as usize;
        let keep = kinds[rng.below(4) as usize];
        cuts.push(cut(at, keep, &mut rng));
    }
    cuts.extend(first);
    cuts.sort_by_key(|c| c.at);
    let n = cuts.len();
    let every = (n / resumes.max(1)).max(1);
    for (i, c) in cuts.iter_mut().enumerate() {
        c.resume = resumes > 0 && i % every == every / 2;
    }
    cuts
}

/// How many times a WAL was begun again from its start (its header
/// written over frames of an earlier generation): where a power cut
/// finds the new header and old frames, or the reverse.
fn wal_restarts(log: &Log) -> usize {
    let mut fresh = std::collections::BTreeSet::new();
    let mut restarts = 0;
    for (_, record) in &log.records {
        match record {
            Record::Create(file) => {
                fresh.insert(file.clone());
            }
            Record::Change {
                file,
                change: Change::Write { at, .. },
            } if file.ends_with("-wal") => {
                if *at == 0 && !fresh.contains(file) {
                    restarts += 1;
                }
                if *at > 0 {
                    fresh.remove(file);
                }
            }
            _ => {}
        }
    }
    restarts
}

/// The log replayed whole, keeping everything, is the files on disk: the
/// log misses no write.
fn replays_to_the_files_on_disk(rec: &Recording, log: &Log) {
    let mut replay = Replay::new(log);
    replay.advance(log.records.len());
    let all = replay.cut(Keep::All, &mut Rng(0));
    let data = rec.env.dir.join("data");
    for file in ["wakeful.db", "wakeful.db-wal", "wakeful.db-journal"] {
        match all.files.get(file) {
            Some(contents) => same_file(&data, file, contents).unwrap(),
            None => assert!(!data.join(file).exists(), "{file} is not in the log"),
        }
    }
}

/// Size: `WAKEFUL_POWER_CUT_CUTS` (1000), of which
/// `WAKEFUL_POWER_CUT_RESUMES` (20) are finished by a host;
/// `WAKEFUL_POWER_CUT_SEED` repeats the choice of cuts on one log.
#[test]
fn soak_a_thousand_power_cuts_lose_nothing_acknowledged() {
    let runs = knob("WAKEFUL_POWER_CUT_RUNS", 8) as usize;
    let n = knob("WAKEFUL_POWER_CUT_CUTS", 1000) as usize;
    let resumes = knob("WAKEFUL_POWER_CUT_RESUMES", 20) as usize;
    let seed = knob("WAKEFUL_POWER_CUT_SEED", u64::from(std::process::id()));
    let rec = soak_history(runs);
    let log = Log::read(&rec.log);
    replays_to_the_files_on_disk(&rec, &log);
    assert!(
        wal_restarts(&log) > 0,
        "the history never began a WAL again: raise WAKEFUL_POWER_CUT_RUNS"
    );
    let cuts = soak_cuts(&log, n, resumes, seed);
    eprintln!(
        "power-cut soak: {} records ({} bytes) in {}, {} cuts, seed {seed}",
        log.records.len(),
        log.bytes.len(),
        rec.log.display(),
        cuts.len()
    );
    let cache = rec.cache();
    let finish = |env: &Env, acks: &super::Acks| resume::finish(env, &cache, acks);
    let failures = cut_at(&log, &cuts, &finish);
    assert!(
        failures.is_empty(),
        "{} of {} cuts failed:\n{}",
        failures.len(),
        cuts.len(),
        failures.join("\n")
    );
}
