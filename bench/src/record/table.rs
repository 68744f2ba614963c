//! The table of the benchmark of record: each figure beside its target.

use super::compare::LangGraph;
use super::{Flow, Record};

/// The record's lines: its conditions and floor, then one row per figure.
pub fn table(r: &Record) -> Vec<String> {
    let c = &r.conditions;
    let floor = r.floor.commits_per_sec;
    let mut t = Table {
        out: vec![
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
        ],
    };
    let a = format!("(a) {} incidents, one at a time", r.sequential.incidents);
    t.flow(&a, &r.sequential, ">= 0.5x floor");
    let b = format!(
        "(b) {} incidents in flight, {} workers",
        r.in_flight.incidents, r.in_flight.workers
    );
    t.flow(&b, &r.in_flight, ">= 2x floor");
    t.guest_and_latency(r);
    t.sleeping(r);
    t.langgraph(r.langgraph.as_ref());
    t.out
}

/// The lines so far.
struct Table {
    out: Vec<String>,
}

impl Table {
    fn row(&mut self, workload: &str, figure: &str, value: String, target: &str) {
        self.out.push(format!(
            "{workload:<38} {figure:<30} {value:>22}   {target}"
        ));
    }

    /// (a) or (b), named `name`.
    fn flow(&mut self, name: &str, f: &Flow, target: &str) {
        self.row(
            name,
            "steps/s (x floor)",
            format!("{} ({:.2}x)", f.steps_per_sec, f.ratio_to_floor),
            target,
        );
        self.row(
            "",
            "steps/s of each run",
            f.runs_steps_per_sec
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" / "),
            "median above",
        );
        self.row(
            "",
            "fsyncs per step",
            format!("{:.2}", f.synced_commits_per_step),
            "<= 1.1",
        );
        self.row(
            "",
            "fsyncs per start / approval",
            format!(
                "{:.2} / {:.2}",
                f.synced_commits_per_start, f.synced_commits_per_approval
            ),
            "<= 1 each",
        );
        self.row(
            "",
            "starts/s, approvals/s",
            format!("{} / {}", f.starts_per_sec, f.approvals_per_sec),
            "",
        );
        self.row(
            "",
            "CPU per step (ms)",
            format!("{:.3}", f.cpu_ms_per_step),
            "",
        );
        self.row(
            "",
            "SQL statements per step",
            format!("{:.1}", f.statements_per_step),
            "",
        );
        self.row(
            "",
            "worker pass p50 / p99 (ms)",
            format!("{:.3} / {:.3}", f.pass_p50_ms, f.pass_p99_ms),
            "",
        );
        let split = &f.split;
        self.row(
            "",
            "µs/step: claim, step, commit, look, outside",
            format!(
                "{:.0}, {:.0}, {:.0}, {:.0}, {:.0}",
                split.claim_us,
                split.step_us,
                split.commit_us,
                split.idle_look_us,
                split.outside_us
            ),
            "",
        );
        self.row(
            "",
            "bytes per incident (+ free pages)",
            format!("{} (+{})", f.bytes_per_incident, f.free_bytes_per_incident),
            "<= 5000",
        );
    }

    /// (c) the guest alone and (d) event → committed step.
    fn guest_and_latency(&mut self, r: &Record) {
        let g = &r.guest;
        self.row(
            &format!("(c) {} guest, no store", g.agent),
            "instantiate+step p50 / p99 µs",
            format!("{:.1} / {:.1}", g.p50_us, g.p99_us),
            "p50 <= 50 µs",
        );
        let l = &r.event_to_commit;
        self.row(
            &format!("(d) event -> step committed ({})", l.samples),
            "p50 / p99 / max (ms)",
            format!("{:.2} / {:.2} / {:.2}", l.p50_ms, l.p99_ms, l.max_ms),
            "p99 <= 10 ms",
        );
    }

    /// (e) the sleeping runs.
    fn sleeping(&mut self, r: &Record) {
        let s = &r.sleeping;
        self.row(
            &format!("(e) {} sleeping runs", s.runs),
            "created in (s), bytes per run",
            format!("{} / {}", s.seed_secs, s.bytes_per_run),
            "",
        );
        self.row(
            "",
            "claim: none due / one due (ms)",
            format!("{:.3} / {:.3}", s.idle_claim_ms, s.due_claim_ms),
            "",
        );
        self.row(
            "",
            &format!("{} incidents among them", s.incidents),
            format!("{} ({:.2}x (a))", s.steps_per_sec, s.ratio_to_sequential),
            "within 20% of (a)",
        );
        self.row(
            "",
            "one event wakes all: deliver (s)",
            format!("{}", s.wake_all_secs),
            "",
        );
        self.row(
            "",
            "claim among all woken (ms)",
            format!("{:.3}", s.claim_among_woken_ms),
            "= claim with one due",
        );
        match (s.serve_start_ms, &s.serve_note) {
            (Some(start), _) => self.row(
                "",
                "serve: start (ms), RSS at rest",
                format!(
                    "{start:.0} / {}",
                    s.serve_rss_kib
                        .map_or("?".into(), |k| format!("{} MB", k / 1024))
                ),
                "<= 2000 ms, <= 200 MB",
            ),
            (None, note) => self.row(
                "",
                "serve",
                "not measured".into(),
                note.as_deref().unwrap_or(""),
            ),
        }
    }

    /// (g) LangGraph beside (a) and (b), or that it was not measured.
    fn langgraph(&mut self, langgraph: Option<&LangGraph>) {
        match langgraph {
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
                    self.row(
                        &name,
                        "steps/s (wakeful x LangGraph)",
                        format!("{} ({:.2}x)", f.steps_per_sec, f.wakeful_ratio),
                        target,
                    );
                }
            }
            None => self.row(
                "(g) LangGraph",
                "steps/s",
                "not measured".into(),
                "scripts/bench.sh measures it",
            ),
        }
    }
}
