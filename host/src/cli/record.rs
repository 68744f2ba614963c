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

fn table(r: &Record) -> Vec<String> {
    let c = &r.conditions;
    let floor = r.floor.commits_per_sec;
    let mut out = vec![
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
    ];
    let mut row = |workload: &str, figure: &str, value: String, target: &str| {
        out.push(format!(
            "{workload:<38} {figure:<30} {value:>22}   {target}"
        ));
    };
    for (name, f, target) in [
        (
            format!("(a) {} incidents, one at a time", r.sequential.incidents),
            &r.sequential,
            ">= 0.5x floor",
        ),
        (
            format!(
                "(b) {} incidents in flight, {} workers",
                r.in_flight.incidents, r.in_flight.workers
            ),
            &r.in_flight,
            ">= 2x floor",
        ),
    ] {
        row(
            &name,
            "steps/s (x floor)",
            format!("{} ({:.2}x)", f.steps_per_sec, f.ratio_to_floor),
            target,
        );
        row(
            "",
            "steps/s of each run",
            f.runs_steps_per_sec
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" / "),
            "median above",
        );
        row(
            "",
            "fsyncs per step",
            format!("{:.2}", f.synced_commits_per_step),
            "<= 1.1",
        );
        row(
            "",
            "fsyncs per start / approval",
            format!(
                "{:.2} / {:.2}",
                f.synced_commits_per_start, f.synced_commits_per_approval
            ),
            "<= 1 each",
        );
        row(
            "",
            "starts/s, approvals/s",
            format!("{} / {}", f.starts_per_sec, f.approvals_per_sec),
            "",
        );
        row(
            "",
            "CPU per step (ms)",
            format!("{:.3}", f.cpu_ms_per_step),
            "",
        );
        row(
            "",
            "SQL statements per step",
            format!("{:.1}", f.statements_per_step),
            "",
        );
        row(
            "",
            "worker pass p50 / p99 (ms)",
            format!("{:.3} / {:.3}", f.pass_p50_ms, f.pass_p99_ms),
            "",
        );
        let t = &f.split;
        row(
            "",
            "µs/step: claim, step, commit, look, outside",
            format!(
                "{:.0}, {:.0}, {:.0}, {:.0}, {:.0}",
                t.claim_us, t.step_us, t.commit_us, t.idle_look_us, t.outside_us
            ),
            "",
        );
        row(
            "",
            "bytes per incident (+ free pages)",
            format!("{} (+{})", f.bytes_per_incident, f.free_bytes_per_incident),
            "<= 5000",
        );
    }
    let g = &r.guest;
    row(
        &format!("(c) {} guest, no store", g.agent),
        "instantiate+step p50 / p99 µs",
        format!("{:.1} / {:.1}", g.p50_us, g.p99_us),
        "p50 <= 50 µs",
    );
    let l = &r.event_to_commit;
    row(
        &format!("(d) event -> step committed ({})", l.samples),
        "p50 / p99 / max (ms)",
        format!("{:.2} / {:.2} / {:.2}", l.p50_ms, l.p99_ms, l.max_ms),
        "p99 <= 10 ms",
    );
    let s = &r.sleeping;
    row(
        &format!("(e) {} sleeping runs", s.runs),
        "created in (s), bytes per run",
        format!("{} / {}", s.seed_secs, s.bytes_per_run),
        "",
    );
    row(
        "",
        "claim: none due / one due (ms)",
        format!("{:.3} / {:.3}", s.idle_claim_ms, s.due_claim_ms),
        "",
    );
    row(
        "",
        &format!("{} incidents among them", s.incidents),
        format!("{} ({:.2}x (a))", s.steps_per_sec, s.ratio_to_sequential),
        "within 20% of (a)",
    );
    row(
        "",
        "one event wakes all: deliver (s)",
        format!("{}", s.wake_all_secs),
        "",
    );
    row(
        "",
        "claim among all woken (ms)",
        format!("{:.3}", s.claim_among_woken_ms),
        "= claim with one due",
    );
    match (s.serve_start_ms, &s.serve_note) {
        (Some(start), _) => row(
            "",
            "serve: start (ms), RSS at rest",
            format!(
                "{start:.0} / {}",
                s.serve_rss_kib
                    .map_or("?".into(), |k| format!("{} MB", k / 1024))
            ),
            "<= 2000 ms, <= 200 MB",
        ),
        (None, note) => row(
            "",
            "serve",
            "not measured".into(),
            note.as_deref().unwrap_or(""),
        ),
    }
    match &r.langgraph {
        Some(lg) => {
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
                row(
                    &name,
                    "steps/s (wakeful x LangGraph)",
                    format!("{} ({:.2}x)", f.steps_per_sec, f.wakeful_ratio),
                    target,
                );
            }
        }
        None => row(
            "(g) LangGraph",
            "steps/s",
            "not measured".into(),
            "scripts/bench.sh measures it",
        ),
    }
    out
}
