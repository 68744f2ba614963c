//! LangGraph's figures on the same incident workload, measured in the same
//! run by `bench/langgraph/incident.py` (`scripts/bench.sh` runs it and
//! passes its JSON as `--compare-json`), beside wakeful's: a ratio to
//! another framework means something only when both ran on one machine at
//! one time, as the floor does.

use std::path::Path;

use serde::{Deserialize, Serialize};

use wakeful::app::AppError;

use super::Flow;
use crate::figures::round2;

/// What `incident.py` prints (fields it adds beyond these are ignored).
#[derive(Deserialize)]
pub struct Measured {
    framework: String,
    version: String,
    #[serde(default)]
    python: Option<String>,
    #[serde(default)]
    sqlite: Option<String>,
    sequential: Figures,
    in_flight: Figures,
}

#[derive(Deserialize)]
struct Figures {
    incidents: usize,
    steps: usize,
    steps_per_sec: f64,
}

/// LangGraph in the record.
#[derive(Debug, Serialize)]
pub struct LangGraph {
    pub version: String,
    pub python: Option<String>,
    /// Its SQLite durability, as it reported it.
    pub sqlite: Option<String>,
    /// Beside (a) and (b).
    pub sequential: Compared,
    pub in_flight: Compared,
}

#[derive(Debug, Serialize)]
pub struct Compared {
    pub incidents: usize,
    pub steps: usize,
    pub steps_per_sec: f64,
    /// wakeful's steps/s over LangGraph's (the target for (b) is 10).
    pub wakeful_ratio: f64,
}

/// Reads LangGraph's figures from `path`, refusing anything that is not
/// two positive rates from `incident.py`.
pub fn read(path: &Path) -> Result<Measured, AppError> {
    let bad = |what: String| {
        AppError::Invalid(format!(
            "--compare-json {}: {what} (it should hold what bench/langgraph/incident.py \
             prints, e.g. scripts/bench-langgraph.sh > FILE)",
            path.display()
        ))
    };
    let text = std::fs::read_to_string(path).map_err(|e| bad(format!("cannot read it: {e}")))?;
    let measured: Measured = serde_json::from_str(&text)
        .map_err(|e| bad(format!("not LangGraph's figures as JSON: {e}")))?;
    if measured.framework != "langgraph" {
        return Err(bad(format!(
            "the figures are of framework {:?}, not \"langgraph\"",
            measured.framework
        )));
    }
    for (flow, f) in [
        ("sequential", &measured.sequential),
        ("in_flight", &measured.in_flight),
    ] {
        if !(f.steps_per_sec.is_finite() && f.steps_per_sec > 0.0) {
            return Err(bad(format!(
                "{flow}.steps_per_sec is {}, not a positive rate",
                f.steps_per_sec
            )));
        }
        if f.incidents == 0 || f.steps == 0 {
            return Err(bad(format!("{flow} counts no incidents or no steps")));
        }
    }
    Ok(measured)
}

impl Measured {
    /// Sets LangGraph's rates beside wakeful's (a) and (b).
    pub fn compare(self, sequential: &Flow, in_flight: &Flow) -> LangGraph {
        let beside = |f: Figures, wakeful: &Flow| Compared {
            incidents: f.incidents,
            steps: f.steps,
            steps_per_sec: f.steps_per_sec,
            wakeful_ratio: round2(wakeful.steps_per_sec / f.steps_per_sec),
        };
        LangGraph {
            version: self.version,
            python: self.python,
            sqlite: self.sqlite,
            sequential: beside(self.sequential, sequential),
            in_flight: beside(self.in_flight, in_flight),
        }
    }
}
