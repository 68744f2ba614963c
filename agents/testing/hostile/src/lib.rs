//! A hostile agent for the host's sandbox tests. The start input
//! `{"mode": "..."}` picks one misbehaviour:
//!
//! | mode | what the first step does |
//! |---|---|
//! | `spin` | loops forever (fuel or wall time must stop it) |
//! | `membomb` | allocates and touches 1 MiB chunks until memory runs out |
//! | `recurse` | recurses without end (the wasm stack must overflow) |
//! | `panic` | panics with "hostile panic" |
//! | `bigstate` | returns a 2 MiB state |
//! | `chatty` | prints 512 KiB to stdout and 512 KiB to stderr, then waits for event `never` |
//! | `error` | fails with "hostile error" |
//! | `clock` | done; state `{"now", "wall", "random", "run"}`: logical time, system time (ms), 8 random bytes (hex), run id; logs "clocks read by <run>" |
//! | `files` | done; state `{"read_dir", "env"}`: what `/` and the environment showed |
//! | `tool` | calls tool `input.tool` with `input.args` under key `k1`; done with `ok: <result>` or `err: <error>` |
//! | `toolflood` | calls tool `input.tool` 200 times (keys `f0`..`f199`) with `input.args` (default `{}`); done with how many were refused |
//! | `memory` | done; state `{"data", "bss", "scattered"}`: a static that starts at 7 and one that starts at 0, each incremented, and a byte incremented on each of 64 pages with a clean page between each two, summed (8, 1 and 64 unless memory outlived an earlier call) |
//! | `hoist` | loops forever; each pass enters an inner loop whose never-taken branch holds ~1,000 pure operations a compiler may hoist out of it (fuel must still stop it) |
//! | `secret` | writes a secret at the start of each of the 64 scattered pages of `memory`, then loops forever without touching them (a test pushes the process's pages out to swap meanwhile) |
//! | `secret_seen` | writes that secret, then done like `snoop` (64: the scan sees what is there) |
//! | `snoop` | done; state `{"secrets"}`: how many pages of the whole linear memory start with that secret |
//! | `ok` | done with "ok" |

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher, RandomState};
use std::hint::black_box;
use std::io::Write;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use wakeful_sdk::prelude::*;

#[derive(Deserialize)]
struct Input {
    mode: String,
    #[serde(default)]
    tool: String,
    #[serde(default)]
    args: Value,
}

struct Hostile;

impl Agent for Hostile {
    // Free-form: each mode leaves what it observed.
    type State = Value;
    const TOOLS: &'static [&'static str] = &["kv"];
    const DESCRIPTION: &'static str =
        "Misbehaves on purpose, one way per start input, to prove the host's sandbox limits.";

    fn step(state: &mut Value, wake: Wake) -> Result<Step, String> {
        if !matches!(wake, Wake::Start(_)) {
            return Ok(Step::done(format!(
                "woken by {}; nothing to do",
                wake.kind()
            )));
        }
        let input: Input = wake.input()?;
        match input.mode.as_str() {
            "spin" => spin(),
            "membomb" => membomb(),
            "recurse" => Ok(Step::done(format!("recursion returned {}", recurse(0)))),
            "panic" => panic!("hostile panic"),
            "bigstate" => {
                *state = json!({"blob": "x".repeat(2 << 20)});
                Ok(Step::done("returned a 2 MiB state"))
            }
            "chatty" => chatty(),
            "error" => Err("hostile error".to_owned()),
            "clock" => {
                *state = clock();
                Ok(Step::done("read the clocks"))
            }
            "files" => {
                *state = files();
                Ok(Step::done("looked at files and environment"))
            }
            "tool" => Ok(Step::done(
                match tools::call_raw(&input.tool, &input.args.to_string(), "k1") {
                    Ok(result) => format!("ok: {result}"),
                    Err(e) => format!("err: {e}"),
                },
            )),
            "toolflood" => {
                let args = match input.args {
                    Value::Null => "{}".to_owned(),
                    args => args.to_string(),
                };
                let refused = (0..200)
                    .filter(|n| tools::call_raw(&input.tool, &args, &format!("f{n}")).is_err())
                    .count();
                Ok(Step::done(format!("{refused} calls refused")))
            }
            "manywaits" => Ok(Step::wait(
                (0..17).map(|i| Wait::event(format!("topic-{i}"))),
            )),
            "bigquestion" => Ok(Step::wait_approval(
                "q",
                "?".repeat(5 << 10),
                json!({}),
                1_000,
            )),
            "bigdetails" => Ok(Step::wait_approval(
                "q",
                "ok?",
                json!({"blob": "x".repeat(65 << 10)}),
                1_000,
            )),
            "longtopic" => Ok(Step::wait_event("t".repeat(300))),
            "forever" => Ok(Step::wait_approval("q", "ok?", json!({}), u64::MAX)),
            "bigoutcome" => Ok(Step::done("x".repeat(17 << 10))),
            "longkey" => Ok(Step::done(
                match tools::call_raw("kv", r#"{"op":"get","key":"k"}"#, &"k".repeat(600)) {
                    Ok(result) => format!("ok: {result}"),
                    Err(e) => format!("err: {e}"),
                },
            )),
            "memory" => {
                *state = memory();
                Ok(Step::done("counted"))
            }
            "hoist" => hoist(),
            "secret" => {
                write_secret();
                spin()
            }
            "secret_seen" => {
                write_secret();
                *state = json!({"secrets": count_secrets()});
                Ok(Step::done("wrote and found the secret"))
            }
            "snoop" => {
                *state = json!({"secrets": count_secrets()});
                Ok(Step::done("snooped"))
            }
            "ok" => Ok(Step::done("ok")),
            other => Err(format!(
                "unknown mode '{other}'; expected spin, membomb, recurse, panic, bigstate, \
                 chatty, error, clock, files, tool, manywaits, bigquestion, bigdetails, \
                 longtopic, forever, bigoutcome, longkey, memory or ok"
            )),
        }
    }
}

wakeful_sdk::export_agent!(Hostile);

fn spin() -> ! {
    let mut n = 0u64;
    loop {
        // The optimizer cannot see through black_box, so the loop stays.
        n = black_box(n.wrapping_add(1));
    }
}

/// Cranelift may move pure computation out of a loop, even out of a branch
/// that never runs; fuel is charged where the branch is. A step whose
/// passes each did that work unmetered would run for far longer than its
/// fuel allows: the fuel stop must come first.
fn hoist() -> ! {
    let mut a = black_box(1u64);
    loop {
        a = a.wrapping_add(1);
        let mut i = 0u32;
        while i < black_box(1) {
            if black_box(false) {
                black_box(heavy(a));
            }
            i += 1;
        }
    }
}

/// ~1,000 dependent pure operations on `x`, unrolled (no loop, no call).
#[inline(always)]
fn heavy(x: u64) -> u64 {
    let mut h = x;
    macro_rules! round {
        () => {
            h = (h.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ x).rotate_left(17);
        };
    }
    macro_rules! x16 {
        () => {
            round!();
            round!();
            round!();
            round!();
            round!();
            round!();
            round!();
            round!();
            round!();
            round!();
            round!();
            round!();
            round!();
            round!();
            round!();
            round!();
        };
    }
    x16!();
    x16!();
    x16!();
    x16!();
    x16!();
    x16!();
    x16!();
    x16!();
    x16!();
    x16!();
    x16!();
    x16!();
    x16!();
    x16!();
    x16!();
    x16!();
    x16!();
    x16!();
    x16!();
    x16!();
    h
}

fn membomb() -> Result<Step, String> {
    let mut chunks: Vec<Vec<u8>> = Vec::new();
    loop {
        let mut chunk = vec![0u8; 1 << 20];
        // Touch every page so the memory is really committed.
        for page in chunk.chunks_mut(4096) {
            page[0] = 1;
        }
        chunks.push(black_box(chunk));
        black_box(&chunks);
    }
}

/// Each level is one frame on the wasm call stack, which must overflow: the
/// result is used after the call (no tail call), and the subtraction is not
/// an accumulator the optimizer can turn into a loop. Nothing is kept in
/// linear memory, so the shadow stack does not run out first. The base case
/// only keeps the optimizer from proving the recursion endless.
#[inline(never)]
fn recurse(depth: u64) -> u64 {
    if depth == u64::MAX {
        return depth;
    }
    recurse(depth + 1).wrapping_sub(depth)
}

fn chatty() -> Result<Step, String> {
    let line = format!("{}\n", "chatty ".repeat(146)); // 1023 bytes
    let lines = (512 << 10) / line.len() + 1;
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    for _ in 0..lines {
        // Write errors (a closed or full pipe) are the host's business here.
        let _ = out.write_all(line.as_bytes());
        let _ = err.write_all(line.as_bytes());
    }
    let _ = out.flush();
    Ok(Step::wait_event("never").status("chatted 1 MiB"))
}

fn clock() -> Value {
    let wall = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    // std seeds RandomState from the host's randomness.
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(0);
    log::info(format!("clocks read by {}", run_id()));
    json!({"now": now(), "wall": wall, "random": format!("{:016x}", hasher.finish()), "run": run_id()})
}

/// In the memory's initial image (`.data`) and after it (`.bss`).
static DATA: AtomicU64 = AtomicU64::new(7);
static BSS: AtomicU64 = AtomicU64::new(0);

/// Pages written one in two: more separate runs of written pages than the
/// host's reset scans for (32), so that the rest must be reset another way.
const SCATTERED_PAGES: usize = 64;
const PAGE: usize = 4096;
static SCATTERED: [AtomicU8; 2 * SCATTERED_PAGES * PAGE] =
    [const { AtomicU8::new(0) }; 2 * SCATTERED_PAGES * PAGE];

fn memory() -> Value {
    let data = DATA.fetch_add(1, Ordering::Relaxed) + 1;
    let bss = BSS.fetch_add(1, Ordering::Relaxed) + 1;
    let scattered: u64 = (0..SCATTERED_PAGES)
        .map(|i| u64::from(SCATTERED[2 * i * PAGE].fetch_add(1, Ordering::Relaxed)) + 1)
        .sum();
    json!({"data": data, "bss": bss, "scattered": scattered})
}

fn files() -> Value {
    let read_dir = match std::fs::read_dir("/") {
        Ok(entries) => json!({"entries": entries
            .map(|e| e.map_or_else(|e| format!("error: {e}"), |e| e.path().display().to_string()))
            .collect::<Vec<_>>()}),
        Err(e) => json!({"error": e.to_string()}),
    };
    let env: HashMap<String, String> = std::env::vars().collect();
    json!({"read_dir": read_dir, "env": env})
}

/// The secret's two words, each kept as a mask and a key so that neither the
/// module's data nor its code holds the secret itself: only the pages written
/// by `secret` do. They are compared as values in wasm locals, never through
/// linear memory, so the scan cannot find its own copy.
const SECRET_MASKS: [u64; 2] = [0x5a5a_5a5a_5a5a_5a5a, 0xa5a5_a5a5_a5a5_a5a5];
const SECRET_KEYS: [u64; 2] = [0x2d3b_313f_3c2f_3671, 0xd6c0_c6d7_c0d1_84d5];

fn secret_word(i: usize) -> u64 {
    black_box(SECRET_MASKS[i]) ^ black_box(SECRET_KEYS[i])
}

/// Writes the secret at the start of 64 pages, one in two, of `SCATTERED`
/// (whose first page need not start on a page boundary).
fn write_secret() {
    let first = (PAGE - SCATTERED.as_ptr() as usize % PAGE) % PAGE;
    for i in 0..SCATTERED_PAGES {
        let page = &SCATTERED[first + 2 * i * PAGE..];
        for (w, word) in [secret_word(0), secret_word(1)].into_iter().enumerate() {
            for k in 0..8 {
                page[8 * w + k].store((word >> (8 * k)) as u8, Ordering::Relaxed);
            }
        }
    }
}

/// Pages of the whole linear memory (the first excepted: address 0 is not
/// readable from Rust) that start with the secret.
#[allow(unsafe_code)]
fn count_secrets() -> u64 {
    let bytes = linear_memory_bytes();
    let mut found = 0;
    for start in (PAGE..bytes).step_by(PAGE) {
        let words = start as *const u64;
        // SAFETY: `start` and `start + 8` lie below the memory's size, and
        // linear memory is readable everywhere below it; the reads are
        // volatile so that none is assumed from what the program wrote.
        let (a, b) = unsafe {
            (
                std::ptr::read_volatile(words),
                std::ptr::read_volatile(words.add(1)),
            )
        };
        if a == secret_word(0) && b == secret_word(1) {
            found += 1;
        }
    }
    found
}

#[cfg(target_arch = "wasm32")]
fn linear_memory_bytes() -> usize {
    core::arch::wasm32::memory_size(0) * 65536
}

/// Built natively only for the SDK's fake host, which never snoops.
#[cfg(not(target_arch = "wasm32"))]
fn linear_memory_bytes() -> usize {
    panic!("`snoop` scans a WebAssembly linear memory; it runs only as a component")
}
