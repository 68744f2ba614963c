//! TEMPORARY scratch checks against built agents; removed before hand-off.
use super::*;
use crate::model::{ToolError, Wake};
use std::time::Instant;

const DIR: &str = "/work/main/agents/target/wasm32-wasip2/release";

fn rt_with(limits: Limits) -> Runtime {
    let dir = std::env::temp_dir().join("wakeful-scratch-cache");
    Runtime::new(&dir, limits).unwrap()
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DIR}/{name}.wasm")).unwrap()
}

struct Gate(Vec<(String, String, String)>, Option<ToolReply>);
impl ToolGate for Gate {
    fn call(&mut self, name: &str, args: &str, key: &str) -> ToolReply {
        self.0.push((name.into(), args.into(), key.into()));
        self.1.clone().unwrap_or(Ok(Ok("{\"v\":1}".into())))
    }
}

fn input(mode: &str) -> StepInput {
    StepInput {
        run_id: "run_1".into(),
        step_number: 1,
        now_ms: 1_700_000_000_000,
        state: "{}".into(),
        wake: Wake::Start {
            input: format!("{{\"mode\":\"{mode}\",\"tool\":\"kv\",\"args\":{{\"a\":1}}}}"),
        },
    }
}

fn show(r: &StepReport) {
    println!(
        "result: {:?}",
        r.result.as_ref().map(|s| {
            let mut s = s.clone();
            s.state.truncate(300);
            s
        })
    );
    if let Err(e) = &r.result {
        println!("display: {e}");
    }
    println!(
        "fuel_used: {} wall: {:?} logs: {}",
        r.fuel_used,
        r.wall,
        r.logs.len()
    );
    for l in r.logs.iter().take(3).chain(r.logs.iter().rev().take(2)) {
        let mut m = l.message.clone();
        m.truncate(120);
        println!("  {:?} {} {}", l.level, l.source, m);
    }
}

#[test]
fn scratch_all() {
    let t = Instant::now();
    let rt = rt_with(Limits::default());
    println!("runtime: {:?}", t.elapsed());
    let t = Instant::now();
    let bad = rt.load(&read("bad_import"));
    println!(
        "bad_import: {:?} ({:?})",
        bad.as_ref().map(|a| &a.digest).map_err(|e| e.to_string()),
        t.elapsed()
    );
    for name in ["invoice_mail", "incident", "hostile"] {
        let t = Instant::now();
        let a = rt.load(&read(name)).unwrap();
        println!("{name}: loaded {} in {:?}", a.digest, t.elapsed());
        let t = Instant::now();
        println!("  info: {:?} ({:?})", rt.info(&a), t.elapsed());
    }
    let hostile = rt.load(&read("hostile")).unwrap();
    for mode in [
        "ok", "error", "panic", "clock", "files", "tool", "bigstate", "chatty", "recurse",
        "membomb", "spin", "nonsense",
    ] {
        println!("== {mode}");
        let mut gate = Gate(vec![], None);
        let t = Instant::now();
        let r = rt.step(&hostile, &input(mode), &mut gate);
        show(&r);
        println!("  gate calls: {:?}; elapsed {:?}", gate.0, t.elapsed());
    }
    println!("== tool denied");
    let mut gate = Gate(
        vec![],
        Some(Ok(Err(ToolError::Denied("kv not granted".into())))),
    );
    show(&rt.step(&hostile, &input("tool"), &mut gate));
    println!("== tool host fault");
    let mut gate = Gate(vec![], Some(Err(HostFault("ledger write failed".into()))));
    show(&rt.step(&hostile, &input("tool"), &mut gate));
    println!("== spin with small deadline, huge fuel");
    let rt2 = rt_with(Limits {
        fuel_per_step: u64::MAX,
        step_deadline: Duration::from_millis(300),
        ..Limits::default()
    });
    let h2 = rt2.load(&read("hostile")).unwrap();
    let t = Instant::now();
    show(&rt2.step(&h2, &input("spin"), &mut Gate(vec![], None)));
    println!("  elapsed {:?}", t.elapsed());
    println!("== spin with 50ms deadline, default fuel");
    let rt4 = rt_with(Limits {
        step_deadline: Duration::from_millis(50),
        ..Limits::default()
    });
    let h4 = rt4.load(&read("hostile")).unwrap();
    show(&rt4.step(&h4, &input("spin"), &mut Gate(vec![], None)));
    println!("== clock twice same input -> same random");
    let a = rt
        .step(&hostile, &input("clock"), &mut Gate(vec![], None))
        .result
        .unwrap()
        .state;
    let b = rt
        .step(&hostile, &input("clock"), &mut Gate(vec![], None))
        .result
        .unwrap()
        .state;
    let mut i2 = input("clock");
    i2.step_number = 2;
    let c = rt
        .step(&hostile, &i2, &mut Gate(vec![], None))
        .result
        .unwrap()
        .state;
    println!("  {a}\n  {b}\n  {c}");
    println!("== migrate");
    let mut mi = input("ok");
    mi.state = "{\"x\":1}".into();
    println!("  {:?}", rt.migrate(&hostile, &mi, "0.0.1"));
    println!("== load_stored hit without bytes");
    let d = hostile.digest.clone();
    println!(
        "  {:?}",
        rt.load_stored(&d, || panic!("should not be called"))
            .map(|a| a.digest.clone())
    );
    println!("== sleepy");
    let sl = rt
        .load(&std::fs::read("/tmp/sleepy/target/wasm32-wasip2/release/sleepy.wasm").unwrap())
        .unwrap();
    let t = Instant::now();
    let r = rt.step(&sl, &input("ok"), &mut Gate(vec![], None));
    show(&r);
    println!("  elapsed {:?}", t.elapsed());
    println!("== fresh runtime, load from disk cache");
    let rt3 = rt_with(Limits::default());
    let t = Instant::now();
    let h3 = rt3
        .load_stored(&d, || panic!("should not be called"))
        .unwrap();
    println!("  loaded from disk in {:?}", t.elapsed());
    show(&rt3.step(&h3, &input("ok"), &mut Gate(vec![], None)));
}
