//! The real `wakeful` binary on the files a power cut left: it opens them
//! (its own header check, SQLite's recovery from the WAL, a full check of
//! every page), then a host finishes what the runs had left to do, and
//! the world sees each call that cannot be repeated once.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::json;

use super::checks::{self, Acks};
use super::history::{World, tools_config};
use super::image::Image;
use crate::harness::Env;

/// A host on the files of `image`, its tools on `world_url`.
pub fn image_env(name: &str, image: &Image, world_url: &str) -> Env {
    let env = Env::sqlite(name, &tools_config(world_url));
    image.write_to(&env.dir.join("data"));
    env
}

/// `wakeful check` on the image, then what was acknowledged, read by the
/// test.
pub fn opens_with_everything_acknowledged(env: &Env, acks: &Acks) -> Result<(), String> {
    let out = env.output(&["check"]);
    if !out.status.success() {
        return Err(format!(
            "`wakeful check` refused the store: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    checks::acknowledged_and_whole(&env.sqlite_file(), acks)
}

/// A host on the image, with the recorded host's compiled agents and its
/// clock moved past every claim the dead host held (`claim_ms`).
pub fn host(env: &Env, cache: &Path) -> Env {
    let clock = env.dir.join("clock-offset-ms");
    std::fs::write(&clock, "20000").unwrap();
    env.clone_with_env("WAKEFUL_CACHE", cache.to_str().unwrap())
        .clone_with_env("WAKEFUL_TEST_CLOCK_FILE", clock.to_str().unwrap())
}

/// A host started again on the image: `work` until nothing is left, an
/// operator settling every call of unknown outcome by asking the world;
/// then every run ended as it should and each call that cannot be
/// repeated reached the world once, counting what it saw before the cut
/// (`acks`).
pub fn finish(env: &Env, cache: &Path, acks: &Acks) -> Result<(), String> {
    let world = World::start(None);
    std::fs::write(
        env.dir.join("wakeful.toml"),
        tools_config(&world.server.url),
    )
    .unwrap();
    let host = host(env, cache);
    states_match(&host)?;
    for _ in 0..6 {
        let out = host.output(&["work", "--until-idle"]);
        if !out.status.success() {
            return Err(format!(
                "`work` failed on the store: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        if settle(&host, acks, &world) == 0 {
            break;
        }
    }
    checks::acknowledged_and_whole(&env.sqlite_file(), acks)?;
    ended_right(env, &seen(acks, &world))
}

/// The state of each of the runs stepped last before the cut is the state
/// of its last checkpoint, as the host reads them back (checkpoints are
/// stored as edits of the one before).
fn states_match(host: &Env) -> Result<(), String> {
    let last = host.sql_query(
        "SELECT run_id FROM checkpoints GROUP BY run_id ORDER BY MAX(at) DESC, run_id LIMIT 3",
    );
    for row in last {
        let run = row[0].as_str().unwrap();
        let history = host.json(&["history", run]);
        let checkpoint = &history.as_array().unwrap().last().unwrap()["state"];
        let state = &host.show(run)["state"];
        if checkpoint != state {
            return Err(format!(
                "{run}: its state is {state} and its last checkpoint's {checkpoint}"
            ));
        }
    }
    Ok(())
}

/// Times the world saw each (tool, run, key), before the cut and after.
fn seen(acks: &Acks, world: &World) -> BTreeMap<(String, String, String), usize> {
    let mut seen = world.effects();
    for (e, n) in &acks.effects {
        *seen
            .entry((e.tool.clone(), e.run.clone(), e.key.clone()))
            .or_default() += n;
    }
    seen
}

/// Settles the calls of unknown outcome of parked runs as an operator
/// would: with the world's answer if it saw the call, else sent again.
fn settle(host: &Env, acks: &Acks, world: &World) -> usize {
    let seen = seen(acks, world);
    let mut settled = 0;
    let parked = host.sql_query("SELECT run_id FROM runs WHERE status = 'parked'");
    for row in parked {
        let run = row[0].as_str().unwrap();
        let show = host.show(run);
        for unknown in show["unknown_outcomes"].as_array().into_iter().flatten() {
            let key = unknown["key"].as_str().unwrap();
            let applied = seen
                .iter()
                .any(|((_, r, k), n)| r == run && k == key && *n > 0);
            if applied {
                let result = json!({"status": 200, "body": {"applied": true}}).to_string();
                host.ok(&[
                    "resolve",
                    run,
                    key,
                    "--result",
                    &result,
                    "--by",
                    "power-cut",
                ]);
            } else {
                host.ok(&["resolve", run, key, "--retry", "--by", "power-cut"]);
            }
            settled += 1;
        }
    }
    settled
}

/// Every caller run done, each refund made once if at all and only when
/// approved, no run parked, and no call that cannot be repeated made twice.
fn ended_right(env: &Env, seen: &BTreeMap<(String, String, String), usize>) -> Result<(), String> {
    let times = |tool: &str, run: &str, key: &str| {
        seen.get(&(tool.to_string(), run.to_string(), key.to_string()))
            .copied()
            .unwrap_or(0)
    };
    for ((tool, run, key), n) in seen {
        if ["llm", "refunds"].contains(&tool.as_str()) && *n > 1 {
            return Err(format!(
                "{tool} call {key} of {run} reached the world {n} times"
            ));
        }
    }
    let runs = env.sql_query("SELECT run_id, agent, status, COALESCE(outcome, '') FROM runs");
    for row in runs {
        let [run, agent, status, outcome] = [0, 1, 2, 3].map(|i| row[i].as_str().unwrap());
        let fine = match agent {
            "caller" => status == "done" && times("llm", run, "k2") == 1,
            "refund-approval" => {
                let refunds = times("refunds", run, &format!("{run}:pay"));
                let refunded = outcome.contains("refunded");
                (status == "waiting" || status == "done") && refunds == usize::from(refunded)
            }
            _ => status == "waiting" || status == "done",
        };
        if !fine {
            let show = env.show(run);
            return Err(format!(
                "{run} ({agent}) ended {status} after the cut: {show}; the world saw {:?}",
                seen.iter()
                    .filter(|((_, r, _), _)| r == run)
                    .collect::<Vec<_>>()
            ));
        }
    }
    Ok(())
}
