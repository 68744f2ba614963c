#!/usr/bin/env node
// The incident experiments of tests/all/incident.rs, run against a real
// `wakeful` binary with a built incident component (by default the
// TypeScript one), one host process per command as an operator would.
//
//   node e2e.mjs --wakeful PATH [--wasm FILE] [--agent NAME] [--only SUBSTRING]
//
// The binary needs the `failpoints` feature for the two crash experiments
// (`wakeful failpoints` lists them); without it they are reported skipped.
// Every experiment gets its own data directory under a temporary folder;
// they share one compiled-component cache, so the component is compiled once.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

function options() {
  const o = {
    wakeful: process.env.WAKEFUL_BIN,
    wasm: join(here, "..", "target", "ts", "incident.wasm"),
    agent: "incident-ts",
    only: undefined,
  };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === "--wakeful") o.wakeful = resolve(value);
    else if (flag === "--wasm") o.wasm = resolve(value);
    else if (flag === "--agent") o.agent = value;
    else if (flag === "--only") o.only = value;
    else throw new Error(`unknown flag ${flag}`);
  }
  if (!o.wakeful) throw new Error("give the wakeful binary: --wakeful PATH (or WAKEFUL_BIN)");
  return o;
}

const opts = options();
const root = mkdtempSync(join(tmpdir(), "wakeful-ts-e2e-"));
const cache = join(root, "cache");

const INCIDENT_TOOLS = `
[tools.llm]
kind = "static"
result = { action = "scale_out", reason = "memory at 97% after an OutOfMemoryError; scale out" }
`;
const FAST_LIMITS = "[limits]\nclaim_ms = 3000\nstep_deadline_ms = 2500\nretry_backoff_ms = 0\n";
const RUN = "inc-7001";
const REQUEST = "approve-scale_out";
const degraded = () => JSON.stringify({ status: "degraded", memory_pct: 97, actions_applied: 0 });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

class Env {
  constructor(name, config) {
    this.dir = join(root, name);
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(join(this.dir, "wakeful.toml"), config);
    this.env = {
      ...process.env,
      WAKEFUL_DATA: join(this.dir, "data"),
      WAKEFUL_CONFIG: join(this.dir, "wakeful.toml"),
      WAKEFUL_CACHE: cache,
    };
    delete this.env.WAKEFUL_FAILPOINT;
    delete this.env.WAKEFUL_STORE;
  }
  output(args, extraEnv = {}) {
    return spawnSync(opts.wakeful, args, { env: { ...this.env, ...extraEnv }, encoding: "utf8", cwd: this.dir });
  }
  ok(args) {
    const out = this.output(args);
    assert.equal(out.status, 0, `wakeful ${args.join(" ")} failed (${out.status}):\n${out.stdout}\n${out.stderr}`);
    return out.stdout;
  }
  fails(args) {
    const out = this.output(args);
    assert.notEqual(out.status, 0, `wakeful ${args.join(" ")} should have failed:\n${out.stdout}`);
    return out.stderr;
  }
  json(args) {
    return JSON.parse(this.ok([...args, "--json"]));
  }
  show(run) {
    return this.json(["show", run]);
  }
  work() {
    return this.ok(["work", "--until-idle"]);
  }
  deploy() {
    return this.ok(["deploy", opts.wasm, "--grant", "kv", "--grant", "lease", "--grant", "llm"]);
  }
  kv(key) {
    return JSON.parse(this.ok(["kv", "get", key])).value;
  }
  auditRows(run, kind) {
    return this.json(["audit", run]).items.filter((r) => r.kind === kind);
  }
  recordedCalls(run) {
    return this.auditRows(run, "tool").filter((r) => r.data.recorded === true);
  }
  checkpointSeqs(run) {
    return this.json(["history", run]).map((c) => c.seq);
  }
}

/** The operator's address of a service's world: a key of the agent's own namespace. */
const world = (service) => `agent/${opts.agent}/service/${service}`;

function setup(name, input) {
  const env = new Env(name, `${INCIDENT_TOOLS}\n${FAST_LIMITS}`);
  env.ok(["kv", "put", world("payments-api"), degraded()]);
  env.deploy();
  const start = { incident: "INC-7001", service: "payments-api", ...input };
  const id = env.ok(["start", opts.agent, "--input", JSON.stringify(start), "--id", RUN]);
  assert.equal(id.trim(), RUN);
  return env;
}

function untilApproval(env) {
  env.work();
  const show = env.show(RUN);
  assert.equal(show.status, "waiting", JSON.stringify(show));
  assert.equal(show.wake_when, `approval:${REQUEST}`);
  const pending = show.pending_approvals;
  assert.equal(pending.length, 1);
  assert.equal(pending[0].id, REQUEST);
  assert.equal(pending[0].question, "Approve 'scale_out' on payments-api?");
  assert.equal(pending[0].details.action, "scale_out");
  return show;
}

const approve = (env) => env.ok(["approve", RUN, REQUEST, "--by", "on-call engineer"]);
const actionsApplied = (env) => env.kv(world("payments-api")).actions_applied;

function outcome(env) {
  const show = env.show(RUN);
  assert.equal(show.status, "done", JSON.stringify(show));
  return show.outcome;
}

function killedWorker(env, failpoint) {
  const out = env.output(["work", "--until-idle"], { WAKEFUL_FAILPOINT: failpoint });
  assert.equal(out.signal, "SIGKILL", `the worker should die by SIGKILL at ${failpoint}: ${out.stderr}`);
}

const hasFailpoints = spawnSync(opts.wakeful, ["failpoints"], { encoding: "utf8" }).stdout.includes("after-call");

const experiments = {
  "experiment 1: pause at approval and finish from new processes"() {
    const env = setup("exp1", {});
    const waiting = untilApproval(env);
    assert.equal(waiting.steps, 3);
    assert.equal(waiting.state.plan.action, "scale_out");
    approve(env);
    env.work();
    assert.equal(outcome(env), "resolved");
    assert.ok(env.json(["history", RUN]).length >= 6);
    assert.equal(actionsApplied(env), 1);
    const approvals = env.auditRows(RUN, "approval");
    assert.equal(approvals.length, 1);
    assert.equal(approvals[0].data.by, "on-call engineer");
    const trail = env.ok(["audit", RUN]);
    assert.ok(trail.includes("approve-scale_out approved by on-call engineer"), trail);
    assert.equal(trail.split("kv key=INC-7001:scale_out ok").length - 1, 1, trail);
    assert.ok(trail.includes("#6 resume -> done: resolved"), trail);
    const lease = ["lease", "acquire", world("payments-api"), "--holder", "agent-2", "--ttl", "5"];
    assert.ok(env.ok(lease).includes('"granted":true'));
  },
  "a rejected plan is not carried out"() {
    const env = setup("rejected", {});
    untilApproval(env);
    env.ok(["approve", RUN, REQUEST, "--by", "on-call engineer", "--reject", "--comment", "not during the freeze"]);
    env.work();
    assert.equal(outcome(env), "rejected by on-call engineer: not during the freeze");
    assert.equal(actionsApplied(env), 0);
  },
  "experiment 2: crash after the model call"() {
    if (!hasFailpoints) return "skipped: the binary has no failpoints";
    const env = setup("exp2-model", {});
    killedWorker(env, "after-call:INC-7001:diagnose");
    untilApproval(env);
    const calls = env.recordedCalls(RUN).filter((r) => r.data.key === "INC-7001:diagnose");
    assert.equal(calls.length, 1, "the model was called once");
    approve(env);
    env.work();
    assert.equal(outcome(env), "resolved");
    assert.equal(actionsApplied(env), 1);
  },
  "experiment 2: crash after the action, before its checkpoint"() {
    if (!hasFailpoints) return "skipped: the binary has no failpoints";
    const env = setup("exp2-action", {});
    untilApproval(env);
    approve(env);
    killedWorker(env, "after-call:INC-7001:scale_out");
    assert.equal(actionsApplied(env), 1);
    assert.equal(env.show(RUN).status, "active");
    env.work();
    assert.equal(outcome(env), "resolved");
    assert.equal(actionsApplied(env), 1, "the action ran exactly once");
  },
  "experiment 3: a colleague fixes it first"() {
    const env = setup("exp3", {});
    untilApproval(env);
    env.ok(["kv", "put", world("payments-api"), JSON.stringify({ status: "healthy", memory_pct: 40, actions_applied: 0 })]);
    approve(env);
    env.work();
    const o = outcome(env);
    assert.ok(o.startsWith("world changed since the plan"), o);
    assert.ok(o.includes("healthy"), o);
    assert.equal(actionsApplied(env), 0);
  },
  async "experiment 4: a stale approval is refused"() {
    const env = setup("exp4", { approval_valid_ms: 1000 });
    untilApproval(env);
    await sleep(1300);
    const err = env.fails(["approve", RUN, REQUEST, "--by", "on-call engineer"]);
    assert.ok(err.includes("expired"), err);
    env.work();
    assert.equal(outcome(env), "approval expired; needs a fresh plan");
    assert.equal(actionsApplied(env), 0);
    assert.equal(env.auditRows(RUN, "approval refused").length, 1);
  },
  "experiment 5: another holder has the lease"() {
    const env = setup("exp5", {});
    untilApproval(env);
    env.ok(["lease", "acquire", world("payments-api"), "--holder", "agent-2", "--ttl", "300"]);
    const err = env.fails(["lease", "acquire", world("payments-api"), "--holder", "agent-3", "--ttl", "9"]);
    assert.ok(err.includes("agent-2 holds the lease"), err);
    approve(env);
    env.work();
    assert.equal(outcome(env), "agent-2 holds the lease on payments-api; backed off");
    assert.equal(actionsApplied(env), 0);
  },
  "experiment 6: the kill switch pauses without losing anything"() {
    const env = setup("exp6", {});
    untilApproval(env);
    env.ok(["pause", "--all", "--reason", "incident review"]);
    approve(env);
    assert.ok(env.work().includes("idle after 0 step(s)"));
    const paused = env.show(RUN);
    assert.equal(paused.paused, true);
    assert.equal(paused.steps, 3);
    env.ok(["resume", "--all"]);
    env.work();
    assert.equal(outcome(env), "resolved");
    assert.equal(actionsApplied(env), 1);
  },
  "an unknown model action escalates to a human"() {
    const config = '[tools.llm]\nkind = "static"\nresult = { action = "drop_database", reason = "why not" }\n';
    const env = new Env("escalate", `${config}\n${FAST_LIMITS}`);
    env.ok(["kv", "put", world("payments-api"), degraded()]);
    env.deploy();
    env.ok(["start", opts.agent, "--input", JSON.stringify({ incident: "INC-7002", service: "payments-api" }), "--id", RUN]);
    env.work();
    const o = outcome(env);
    assert.ok(o.startsWith("escalated to a human"), o);
    assert.ok(o.includes("drop_database"), o);
    assert.equal(actionsApplied(env), 0);
  },
  async "workers killed at arbitrary moments lose nothing and repeat nothing"() {
    const limits = "[limits]\nclaim_ms = 700\nstep_deadline_ms = 600\nretry_backoff_ms = 0\n";
    const env = new Env("kill-anywhere", `${INCIDENT_TOOLS}\n${limits}`);
    env.deploy();
    const runs = [];
    for (let i = 0; i < 8; i++) {
      env.ok(["kv", "put", world(`svc-${i}`), degraded()]);
      const input = JSON.stringify({ incident: `INC-${i}`, service: `svc-${i}` });
      env.ok(["start", opts.agent, "--id", `inc-${i}`, "--input", input]);
      runs.push(`inc-${i}`);
    }
    const approveAll = () => {
      for (const run of runs) {
        const first = env.show(run).pending_approvals?.[0];
        if (first) env.ok(["approve", run, first.id, "--by", "on-call engineer"]);
      }
      return runs.every((r) => env.show(r).status === "done");
    };
    let killAfter = 5;
    let killed = 0;
    for (let round = 0; round < 40; round++) {
      if (approveAll()) break;
      const worker = spawn(opts.wakeful, ["work", "--until-idle"], { env: env.env, stdio: "ignore" });
      const exited = new Promise((r) => worker.on("exit", r));
      await sleep(killAfter);
      if (worker.exitCode === null && worker.signalCode === null) {
        worker.kill("SIGKILL");
        killed++;
      }
      await exited;
      killAfter = 3 + ((round * 17) % 45);
    }
    assert.ok(killed >= 3, "no worker was killed mid-run");
    for (let i = 0; i < 4; i++) {
      env.work();
      if (approveAll()) break;
    }
    runs.forEach((run, i) => {
      assert.equal(env.show(run).outcome, "resolved", run);
      assert.equal(env.kv(world(`svc-${i}`)).actions_applied, 1, run);
      assert.deepEqual(env.checkpointSeqs(run), [1, 2, 3, 4, 5, 6], run);
      const keys = env.recordedCalls(run).map((r) => r.data.key);
      assert.equal(new Set(keys).size, keys.length, `${run}: a tool call was executed twice: ${keys}`);
    });
    return `${killed} workers killed`;
  },
};

let passed = 0;
let failed = 0;
for (const [name, run] of Object.entries(experiments)) {
  if (opts.only && !name.includes(opts.only)) continue;
  const started = Date.now();
  try {
    const note = await run();
    passed++;
    console.log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)${note ? `: ${note}` : ""}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}\n${e?.stack ?? e}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
if (failed === 0) rmSync(root, { recursive: true, force: true });
else console.log(`data directories kept in ${root}`);
process.exit(failed === 0 ? 0 : 1);
