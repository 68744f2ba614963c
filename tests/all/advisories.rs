//! The guest-triggerable bugs that wasmtime 48.0.9 and 48.0.11 fixed, tried
//! on the real host by guests written for them, while another run steps:
//!
//! - GHSA-rc4p-x33f-vpr2 (RUSTSEC-2026-0570): in a build without the `gc`
//!   feature (this host's), a `call_indirect` whose expected type is a
//!   non-final function type needs a subtype check that 48.0.8 could not
//!   make, and aborted the host.
//! - GHSA-2674-w29h-wqvj: in a build without `threads` (this host's),
//!   shared memories and atomics must be refused when the module is
//!   validated, never reach the runtime.
//! - GHSA-fc7q-w4mv-833p: a list crossing the boundary must cost hostcall
//!   fuel by its length, so that a guest cannot make the host iterate or
//!   allocate without bound. The agent world has no list of a zero-sized
//!   type (its lists are of `wait-for` and `string`), so the guests here
//!   send the longest lists it allows instead.
//!
//! The guests are made here from WAT: a core module that implements the
//! `agent` world by hand (canonical ABI, no SDK) and is wrapped into a
//! component by `wit-component`, so that each holds exactly the pattern.

use serde_json::{Value, json};

use crate::api::{api_config, deploy};
use crate::api_guard::error_of;
use crate::harness::{API_TOKEN, repo};
use crate::serve_process::Server;

/// One attempt per step, so that a failing step parks its run at once.
const LIMITS: &str = "[limits]\nmax_attempts = 1\n";

/// Where the template keeps its constant strings, and the return areas.
const NAME_AT: u32 = 16;
const VERSION_AT: u32 = 64;
const STATE_AT: u32 = 80;
const DESCRIPTION_AT: u32 = 96;
const INFO_AREA: u32 = 1024;
const STEP_AREA: u32 = 2048;
/// Bytes of one `wait-for` in guest memory: a tag, then an 8-aligned
/// payload of at most 32 bytes (an approval request).
const WAIT_FOR_BYTES: u32 = 40;

/// The core module of an agent named `name`: `info` describes it, `migrate`
/// keeps the state, and `step` runs `step` (WAT instructions leaving the
/// return area's address, made with `$done` or `$wait`). `extra` adds
/// types, tables, functions and data; `info` may be replaced whole.
///
/// The imported `now` makes it an agent of this host's contract (a
/// component importing nothing of `wakeful:agent` is refused).
fn agent_wat(name: &str, extra: &str, step: &str, info: Option<&str>) -> String {
    let standard_info = format!(
        "(func (export \"info\") (result i32)
          (i32.store (i32.const {INFO_AREA}) (i32.const {NAME_AT}))
          (i32.store (i32.const {}) (i32.const {}))
          (i32.store (i32.const {}) (i32.const {VERSION_AT}))
          (i32.store (i32.const {}) (i32.const 5))
          (i32.store (i32.const {}) (i32.const 0))
          (i32.store (i32.const {}) (i32.const 0))
          (i32.store (i32.const {}) (i32.const {DESCRIPTION_AT}))
          (i32.store (i32.const {}) (i32.const 8))
          (i32.const {INFO_AREA}))",
        INFO_AREA + 4,
        name.len(),
        INFO_AREA + 8,
        INFO_AREA + 12,
        INFO_AREA + 16,
        INFO_AREA + 20,
        INFO_AREA + 24,
        INFO_AREA + 28,
    );
    let info = info.map_or(standard_info, str::to_owned);
    format!(
        r#"(module
  (import "wakeful:agent/host@0.2.0" "now" (func $now (result i64)))
  (memory (export "memory") 2)
  (global $heap (mut i32) (i32.const 8192))
  (data (i32.const {NAME_AT}) "{name}")
  (data (i32.const {VERSION_AT}) "1.0.0")
  (data (i32.const {STATE_AT}) "{{}}")
  (data (i32.const {DESCRIPTION_AT}) "advisory")

  ;; A bump allocator for what the host passes in; it never frees.
  (func (export "cabi_realloc") (param i32 i32) (param $align i32) (param $size i32) (result i32)
    (local $at i32)
    (local.set $at (i32.and
      (i32.add (global.get $heap) (i32.sub (local.get $align) (i32.const 1)))
      (i32.sub (i32.const 0) (local.get $align))))
    (global.set $heap (i32.add (local.get $at) (local.get $size)))
    (if (i32.gt_u (global.get $heap) (i32.shl (memory.size) (i32.const 16)))
      (then
        (if (i32.eq (i32.const -1) (memory.grow (i32.add (i32.const 1)
              (i32.shr_u (i32.sub (global.get $heap) (i32.shl (memory.size) (i32.const 16)))
                         (i32.const 16)))))
          (then unreachable))))
    (local.get $at))

  ;; `ok({{state: "{{}}", next: <tag>(<ptr>, <len>), status: none}})`
  (func $result (param $tag i32) (param $ptr i32) (param $len i32) (result i32)
    (i32.store8 (i32.const {STEP_AREA}) (i32.const 0))
    (i32.store (i32.const {}) (i32.const {STATE_AT}))
    (i32.store (i32.const {}) (i32.const 2))
    (i32.store8 (i32.const {}) (local.get $tag))
    (i32.store (i32.const {}) (local.get $ptr))
    (i32.store (i32.const {}) (local.get $len))
    (i32.store8 (i32.const {}) (i32.const 0))
    (i32.const {STEP_AREA}))
  ;; `next: done(outcome)`
  (func $done (param i32 i32) (result i32)
    (call $result (i32.const 2) (local.get 0) (local.get 1)))
  ;; `next: wait(list)`, `len` elements of `list<wait-for>` at `ptr`
  (func $wait (param i32 i32) (result i32)
    (call $result (i32.const 1) (local.get 0) (local.get 1)))

  {info}

  ;; step(state: string, wake: wake) -> result<step-result, string>
  (func (export "step")
    (param i32 i32 i32 i64 i32 i32 i32 i32 i64 i64 i32 i32 i32 i32) (result i32)
    {step})

  ;; migrate(from-version: string, state: string) -> result<string, string>:
  ;; the state, unchanged.
  (func (export "migrate") (param i32 i32 i32 i32) (result i32)
    (i32.store8 (i32.const {STEP_AREA}) (i32.const 0))
    (i32.store (i32.const {}) (local.get 2))
    (i32.store (i32.const {}) (local.get 3))
    (i32.const {STEP_AREA}))

  {extra}
)"#,
        STEP_AREA + 4,
        STEP_AREA + 8,
        STEP_AREA + 12,
        STEP_AREA + 16,
        STEP_AREA + 20,
        STEP_AREA + 24,
        STEP_AREA + 4,
        STEP_AREA + 8,
    )
}

/// The component of the core module `wat`, exporting the `agent` world of
/// the host's own WIT.
fn component(wat: &str) -> Vec<u8> {
    let mut module = wat::parse_str(wat).unwrap_or_else(|e| panic!("{e}\n{wat}"));
    let mut resolve = wit_parser::Resolve::default();
    let wit = std::fs::read_to_string(repo().join("wit/agent.wit")).unwrap();
    let package = resolve.push_str("agent.wit", &wit).unwrap();
    let world = resolve.select_world(&[package], Some("agent")).unwrap();
    wit_component::embed_component_metadata(
        &mut module,
        &resolve,
        world,
        wit_component::StringEncoding::UTF8,
    )
    .unwrap();
    wit_component::ComponentEncoder::default()
        .module(&module)
        .unwrap()
        .validate(true)
        .encode()
        .unwrap_or_else(|e| panic!("{e:#}"))
}

/// `POST /v1/agents` with `bytes`: the status and body.
fn post_agent(server: &Server, bytes: Vec<u8>) -> (u16, Value) {
    server.request(
        "POST",
        "/v1/agents",
        Some(API_TOKEN),
        Some(("application/wasm", bytes)),
    )
}

/// A host serving `counter-v1`, with one run of it that has taken its
/// first step: what must go on whatever the hostile guests do.
fn host_with_a_steady_run(name: &str, limits: &str) -> (crate::harness::Env, Server) {
    let env = crate::harness::Env::new(name, &api_config(limits));
    let server = env.serve();
    deploy(&server, "counter-v1", &[]);
    let (status, run) = server.post("/v1/runs", &json!({"agent": "counter", "id": "steady"}));
    assert_eq!(status, 201, "{run}");
    server.wait_run("steady", "its first step", |r| {
        r["status_text"] == "v1 counted 0"
    });
    (env, server)
}

/// The host still answers and still steps the steady run (its `n`th tick).
fn still_steps(server: &Server, n: u32) {
    let (status, health) = server.get("/v1/health");
    assert_eq!(status, 200, "{health}");
    let tick = json!({"topic": "tick", "id": format!("t{n}")});
    let (status, sent) = server.post("/v1/runs/steady/events", &tick);
    assert_eq!(status, 200, "{sent}");
    let counted = format!("v1 counted {n}");
    server.wait_run("steady", &counted, |r| r["status_text"] == counted);
}

/// Deploys `bytes` (status 201) and starts one run of agent `agent` named
/// `run`; returns the run once it is done or parked.
fn run_to_an_end(server: &Server, bytes: Vec<u8>, agent: &str, run: &str) -> Value {
    let (status, body) = post_agent(server, bytes);
    assert_eq!(status, 201, "{body}");
    let (status, started) = server.post("/v1/runs", &json!({"agent": agent, "id": run}));
    assert_eq!(status, 201, "{started}");
    server.wait_run(run, "an end", |r| {
        r["status"] == "done" || r["status"] == "parked"
    })
}

fn assert_parked_with(show: &Value, needle: &str) {
    assert_eq!(show["status"], "parked", "{show}");
    let error = show["last_error"].as_str().unwrap_or_default();
    assert!(error.contains(needle), "expected `{needle}` in: {show}");
}

/// Two non-final function types, `$g` a subtype of `$f`, and a table of
/// one function of each. (Their parameter is there so that no function of
/// the template, written with inline types, takes one of them as its type.)
const SUBTYPES: &str = r#"
  (type $f (sub (func (param f64) (result i32))))
  (type $g (sub $f (func (param f64) (result i32))))
  (table 2 2 funcref)
  (elem (i32.const 0) func $sub $super)
  (func $sub (type $g) (i32.const 7))
  (func $super (type $f) (i32.const 9))
"#;

/// GHSA-rc4p-x33f-vpr2: a `call_indirect` expecting a non-final function
/// type needs a subtype check at run time (the callee's type differs from
/// the expected one, so no equality short-cut answers it), the check that
/// aborted 48.0.8 hosts built without `gc`. This host refuses the GC and
/// typed-function-references proposals when it validates a component
/// (`runtime::engine`), so such a guest never runs: its deploy is refused
/// with the reason, whichever way it casts, and the other run steps on.
#[test]
fn a_non_final_function_type_is_refused_at_deploy_and_the_host_steps_on() {
    let (_env, server) = host_with_a_steady_run("advisory-subtype", LIMITS);
    // A `$g` called as an `$f` (a subtype, which would run) and an `$f`
    // called as a `$g` (which would trap).
    let upcast = agent_wat(
        "subtype-up",
        SUBTYPES,
        "(drop (call_indirect (type $f) (f64.const 0) (i32.const 0)))
         (call $done (i32.const 0) (i32.const 0))",
        None,
    );
    let downcast = agent_wat(
        "subtype-down",
        SUBTYPES,
        "(drop (call_indirect (type $g) (f64.const 0) (i32.const 1)))
         (call $done (i32.const 0) (i32.const 0))",
        None,
    );
    for (n, wat) in [upcast, downcast].iter().enumerate() {
        let (status, body) = post_agent(&server, component(wat));
        assert_eq!(status, 400, "{body}");
        let said = error_of(&body);
        assert!(said.starts_with("invalid agent component"), "{said}");
        assert!(said.contains("gc proposal"), "{said}");
        still_steps(&server, u32::try_from(n).unwrap() + 1);
    }
    let (_, agents) = server.get("/v1/agents");
    assert_eq!(agents.as_array().unwrap().len(), 1, "{agents}");
}

/// GHSA-2674-w29h-wqvj: this host is built without wasmtime's `threads`,
/// so a shared memory or an atomic instruction is refused when the
/// component is deployed, with the reason, and nothing is kept.
#[test]
fn shared_memory_and_atomics_are_refused_at_deploy_naming_threads() {
    let (_env, server) = host_with_a_steady_run("advisory-threads", LIMITS);
    let shared = agent_wat(
        "shared-memory",
        "(memory $shared 1 1 shared)
         (func (export \"add\") (result i32)
           (i32.atomic.rmw.add $shared (i32.const 0) (i32.const 1)))",
        "(call $done (i32.const 0) (i32.const 0))",
        None,
    );
    let atomics = agent_wat(
        "atomics",
        "(func (export \"add\") (result i32)
           (i32.atomic.rmw.add (i32.const 0) (i32.const 1)))",
        "(call $done (i32.const 0) (i32.const 0))",
        None,
    );
    let cases = [
        (shared, "threads must be enabled for shared memories"),
        (atomics, "threads support is not enabled"),
    ];
    for (n, (wat, needle)) in cases.iter().enumerate() {
        let (status, body) = post_agent(&server, component(wat));
        assert_eq!(status, 400, "{body}");
        let said = error_of(&body);
        assert!(said.starts_with("invalid agent component"), "{said}");
        assert!(said.contains(needle), "{said}");
        still_steps(&server, u32::try_from(n).unwrap() + 1);
    }
    let (_, agents) = server.get("/v1/agents");
    assert_eq!(agents.as_array().unwrap().len(), 1, "{agents}");
}

/// GHSA-fc7q-w4mv-833p's pattern with the lists the `agent` world has: a
/// guest that grows its memory to hundreds of MiB and returns a list as
/// long as that memory holds. Lifting it would cost the host more than
/// the 128 MiB of hostcall fuel a call may use, so the call fails before
/// the list is read, within the step; a list within the fuel is read and
/// refused by the host's own bound on waits. The run is parked with the
/// reason and the other run steps on.
#[test]
fn a_list_as_long_as_the_guests_memory_is_stopped_by_hostcall_fuel() {
    let (_env, server) = host_with_a_steady_run(
        "advisory-lists",
        "[limits]\nmax_attempts = 1\nmemory_mib = 512\n",
    );
    // 400 MiB of zeros: 10 million `wait-for`s, each `event("")`.
    let pages = 6400;
    let waits = |name: &str, count: u32| {
        agent_wat(
            name,
            "",
            &format!(
                "(drop (memory.grow (i32.const {pages})))
                 (call $wait (i32.const 131072) (i32.const {count}))"
            ),
            None,
        )
    };
    let most = pages * 65536 / WAIT_FOR_BYTES;
    let show = run_to_an_end(
        &server,
        component(&waits("waits-all", most)),
        "waits-all",
        "all",
    );
    assert_parked_with(&show, "fuel allocated for hostcalls has been exhausted");
    still_steps(&server, 1);

    let show = run_to_an_end(
        &server,
        component(&waits("waits-some", 100_000)),
        "waits-some",
        "some",
    );
    assert_parked_with(&show, "the step waits for 100000 things; the limit is 16");
    still_steps(&server, 2);

    // `info`'s `tools: list<string>` of empty strings, 8 bytes each in the
    // guest: 50 million of them in 400 MiB, refused at deploy.
    let tools_at = 131072;
    let count = pages * 65536 / 8;
    let info = format!(
        "(func (export \"info\") (result i32)
          (drop (memory.grow (i32.const {pages})))
          (i32.store (i32.const {INFO_AREA}) (i32.const {NAME_AT}))
          (i32.store (i32.const {}) (i32.const 5))
          (i32.store (i32.const {}) (i32.const {VERSION_AT}))
          (i32.store (i32.const {}) (i32.const 5))
          (i32.store (i32.const {}) (i32.const {tools_at}))
          (i32.store (i32.const {}) (i32.const {count}))
          (i32.store (i32.const {}) (i32.const {DESCRIPTION_AT}))
          (i32.store (i32.const {}) (i32.const 8))
          (i32.const {INFO_AREA}))",
        INFO_AREA + 4,
        INFO_AREA + 8,
        INFO_AREA + 12,
        INFO_AREA + 16,
        INFO_AREA + 20,
        INFO_AREA + 24,
        INFO_AREA + 28,
    );
    let tools = agent_wat(
        "tools",
        "",
        "(call $done (i32.const 0) (i32.const 0))",
        Some(&info),
    );
    let (status, body) = post_agent(&server, component(&tools));
    assert_eq!(status, 400, "{body}");
    let said = error_of(&body);
    assert!(
        said.contains("`info` export failed")
            && said.contains("fuel allocated for hostcalls has been exhausted"),
        "{said}"
    );
    still_steps(&server, 3);
}
