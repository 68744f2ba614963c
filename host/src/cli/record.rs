//! `wakeful bench --record`: the table of the benchmark of record, each
//! figure beside its target.

use anyhow::{Context, Result};

use super::output::print_json;
use crate::bench::{self, Record};
use crate::config::Config;

pub(super) fn bench_record(
    options: &bench::RecordOptions,
    config: Config,
    json: bool,
) -> Result<()> {
    let record = bench::record(options, &config).context("the benchmark of record failed")?;
    if json {
        return print_json(&record);
    }
    for line in table(&record) {
        println!("{line}");
    }
    Ok(())
}

/// The lines of the table: the conditions, then one row per figure.
fn table(r: &Record) -> Vec<String> {
    let mut t = Table(header(r));
    flow(&mut t, r, false);
    flow(&mut t, r, true);
    guest_and_latency(&mut t, r);
    sleeping(&mut t, r);
    langgraph(&mut t, r);
    t.0
}

/// The lines of the table.
struct Table(Vec<String>);

impl Table {
    fn row(&mut self, workload: &str, figure: &str, value: String, target: &str) {
        self.0.push(format!(
            "{workload:<38} {figure:<30} {value:>22}   {target}"
        ));
    }
}

/// The conditions of the measurement, the floor (f), and the columns.
fn header(r: &Record) -> Vec<String> {
    let c = &r.conditions;
    let floor = r.floor.commits_per_sec;
    vec![
        format!(
            "{} build, {} CPUs, {}, {} steps per commit, scratch stores in {}",
            c.build, c.cpus, c.store, c.steps_per_commit, c.scratch_dir
        ),
        format!(
            "(f) floor: {floor} one-row commits/s (median of {}), WAL, synchronous=FULL, same disk",
            r.floor
                .samples
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        String::new(),
        format!(
            "{:<38} {:<30} {:>22}   TARGET",
            "WORKLOAD", "FIGURE", "VALUE"
        ),
    ]
}

/// (a) incidents one at a time, or (b) many in flight.
fn flow(t: &mut Table, r: &Record, in_flight: bool) {
    let (name, f, target) = if in_flight {
        let name = format!(
            "(b) {} incidents in flight, {} workers",
            r.in_flight.incidents, r.in_flight.workers
        );
        (name, &r.in_flight, ">= 2x floor")
    } else {
        let name = format!("(a) {} incidents, one at a time", r.sequential.incidents);
        (name, &r.sequential, ">= 0.5x floor")
    };
    t.row(
        &name,
        "steps/s (x floor)",
        format!("{} ({:.2}x)", f.steps_per_sec, f.ratio_to_floor),
        target,
    );
    t.row(
        "",
        "steps/s of each run",
        f.runs_steps_per_sec
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" / "),
        "median above",
    );
    t.row(
        "",
        "fsyncs per step",
        format!("{:.2}", f.synced_commits_per_step),
        "<= 1.1",
    );
    t.row(
        "",
        "fsyncs per start / approval",
        format!(
            "{:.2} / {:.2}",
            f.synced_commits_per_start, f.synced_commits_per_approval
        ),
        "<= 1 each",
    );
    t.row(
        "",
        "starts/s, approvals/s",
        format!("{} / {}", f.starts_per_sec, f.approvals_per_sec),
        "",
    );
    t.row(
        "",
        "CPU per step (ms)",
        format!("{:.3}", f.cpu_ms_per_step),
        "",
    );
    t.row(
        "",
        "SQL statements per step",
        format!("{:.1}", f.statements_per_step),
        "",
    );
    t.row(
        "",
        "worker pass p50 / p99 (ms)",
        format!("{:.3} / {:.3}", f.pass_p50_ms, f.pass_p99_ms),
        "",
    );
    let split = &f.split;
    t.row(
        "",
        "µs/step: claim, step, commit, look, outside",
        format!(
            "{:.0}, {:.0}, {:.0}, {:.0}, {:.0}",
            split.claim_us, split.step_us, split.commit_us, split.idle_look_us, split.outside_us
        ),
        "",
    );
    t.row(
        "",
        "bytes per incident (+ free pages)",
        format!("{} (+{})", f.bytes_per_incident, f.free_bytes_per_incident),
        "<= 5000",
    );
}

/// (c) the guest alone, and (d) an event's way to a committed step.
fn guest_and_latency(t: &mut Table, r: &Record) {
    let g = &r.guest;
    t.row(
        &format!("(c) {} guest, no store", g.agent),
        "instantiate+step p50 / p99 µs",
        format!("{:.1} / {:.1}", g.p50_us, g.p99_us),
        "p50 <= 50 µs",
    );
    let l = &r.event_to_commit;
    t.row(
        &format!("(d) event -> step committed ({})", l.samples),
        "p50 / p99 / max (ms)",
        format!("{:.2} / {:.2} / {:.2}", l.p50_ms, l.p99_ms, l.max_ms),
        "p99 <= 10 ms",
    );
}

/// (e) among many sleeping runs: claims, incidents, a wake of all, and
/// `serve` starting on that store.
fn sleeping(t: &mut Table, r: &Record) {
    let s = &r.sleeping;
    t.row(
        &format!("(e) {} sleeping runs", s.runs),
        "created in (s), bytes per run",
        format!("{} / {}", s.seed_secs, s.bytes_per_run),
        "",
    );
    t.row(
        "",
        "claim: none due / one due (ms)",
        format!("{:.3} / {:.3}", s.idle_claim_ms, s.due_claim_ms),
        "",
    );
    t.row(
        "",
        &format!("{} incidents among them", s.incidents),
        format!("{} ({:.2}x (a))", s.steps_per_sec, s.ratio_to_sequential),
        "within 20% of (a)",
    );
    t.row(
        "",
        "one event wakes all: deliver (s)",
        format!("{}", s.wake_all_secs),
        "",
    );
    t.row(
        "",
        "claim among all woken (ms)",
        format!("{:.3}", s.claim_among_woken_ms),
        "= claim with one due",
    );
    match (s.serve_start_ms, &s.serve_note) {
        (Some(start), _) => t.row(
            "",
            "serve: start (ms), RSS at rest",
            format!(
                "{start:.0} / {}",
                s.serve_rss_kib
                    .map_or("?".into(), |k| format!("{} MB", k / 1024))
            ),
            "<= 2000 ms, <= 200 MB",
        ),
        (None, note) => t.row(
            "",
            "serve",
            "not measured".into(),
            note.as_deref().unwrap_or(""),
        ),
    }
}

/// (g) LangGraph on the same incidents, when it was measured.
fn langgraph(t: &mut Table, r: &Record) {
    let Some(lg) = &r.langgraph else {
        t.row(
            "(g) LangGraph",
            "steps/s",
            "not measured".into(),
            "scripts/bench.sh measures it",
        );
        return;
    };
    for (name, f, target) in [
        (
            format!(
                "(g) LangGraph {}: {} incidents",
                lg.version, lg.sequential.incidents
            ),
            &lg.sequential,
            "",
        ),
        (
            format!("    {} incidents in flight", lg.in_flight.incidents),
            &lg.in_flight,
            ">= 10x LangGraph",
        ),
    ] {
        t.row(
            &name,
            "steps/s (wakeful x LangGraph)",
            format!("{} ({:.2}x)", f.steps_per_sec, f.wakeful_ratio),
            target,
        );
    }
}
