//! What the names an operator types refer to. A kill switch that names no
//! agent or tool stops nothing while telling the operator it did, so a
//! typo is refused with the names that do exist.

use super::{App, AppError, Result};

impl App {
    /// Refuses a kill-switch scope that names nothing: an agent that is
    /// not deployed, a tool no agent asks for and this host does not have,
    /// a run that does not exist or has ended. `preemptive` lets an
    /// operator pause an agent or tool before it is deployed.
    pub fn check_scope(&self, scope: &str, preemptive: bool) -> Result<()> {
        if scope == "all" {
            return Ok(());
        }
        if let Some(run_id) = scope.strip_prefix("run:") {
            let run = self.run(run_id)?;
            if run.status.is_ended() {
                return Err(AppError::Conflict(format!(
                    "run {run_id} has ended ({}); a kill switch would stop nothing",
                    run.status.as_str()
                )));
            }
            return Ok(());
        }
        let (what, name, known) = if let Some(agent) = scope.strip_prefix("agent:") {
            ("agent", agent, self.agent_names()?)
        } else if let Some(tool) = scope.strip_prefix("tool:") {
            ("tool", tool, self.tool_names()?)
        } else {
            return Err(AppError::Invalid(format!(
                "`{scope}` is not a kill-switch scope: use all, agent:NAME, run:ID or tool:NAME"
            )));
        };
        if name.is_empty() {
            return Err(AppError::Invalid(format!("the {what} name is empty")));
        }
        if preemptive || known.iter().any(|k| k == name) {
            return Ok(());
        }
        let listed = if known.is_empty() {
            "none".to_string()
        } else {
            known.join(", ")
        };
        Err(AppError::NotFound(format!(
            "no {what} `{name}` exists here ({what}s: {listed}); to pause one that is not \
             deployed yet, say so: --preemptive (API: \"preemptive\": true)"
        )))
    }

    /// Refuses to lift a switch that is not on when its scope names
    /// nothing either (a typo), listing the switches that are on. A real
    /// name that is not paused is not an error: nothing changes.
    pub fn check_resume_scope(&self, scope: &str) -> Result<()> {
        let on = self.store.switches()?;
        if scope.starts_with("run:") || on.iter().any(|s| s.scope == scope) {
            return Ok(());
        }
        self.check_scope(scope, false).map_err(|e| match e {
            AppError::NotFound(_) => {
                let on: Vec<&str> = on.iter().map(|s| s.scope.as_str()).collect();
                AppError::NotFound(format!(
                    "no kill switch `{scope}` is on, and it names nothing that exists; \
                     switches on: {}",
                    if on.is_empty() {
                        "none".to_string()
                    } else {
                        on.join(", ")
                    }
                ))
            }
            other => other,
        })
    }

    /// The names of the deployed agents.
    pub fn agent_names(&self) -> Result<Vec<String>> {
        let mut names: Vec<String> = self.store.agents()?.into_iter().map(|a| a.name).collect();
        names.dedup();
        Ok(names)
    }

    /// Every tool a switch can name: the host's own (`kv`, `lease`,
    /// `callback`), the configured ones (an MCP server by its name, which
    /// pauses all its tools, and each of its allowed tools as
    /// `server/tool`), and any a deployed agent asks for.
    pub fn tool_names(&self) -> Result<Vec<String>> {
        let mut names = self.config.tool_names();
        names.extend(self.config.tools.keys().cloned());
        for agent in self.store.agents()? {
            names.extend(agent.requested_tools);
        }
        names.sort();
        names.dedup();
        Ok(names)
    }
}
