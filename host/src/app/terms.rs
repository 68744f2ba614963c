//! How each front end names what an operation takes: a refusal that says
//! what to do must say it in the words of the interface it reaches. The app
//! returns structured errors ([`AppError::BadInput`],
//! [`AppError::MissingGrants`], unknown runs and agents); the CLI words
//! them as flags and commands, the API as fields, parameters and routes.

use crate::app::AppError;
use crate::store::StoreError;

/// The interface an operator is using.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Terms {
    /// `wakeful` and its flags (`--topic`).
    #[default]
    Cli,
    /// The HTTP API: JSON fields and query parameters (`topic`), routes.
    Api,
}

impl Terms {
    /// An operation's input: `--word` on the command line, `` `word` `` (a
    /// JSON field or query parameter of the same name) in the API.
    pub fn input(self, word: &str) -> String {
        match self {
            Terms::Cli => format!("--{word}"),
            Terms::Api => format!("`{word}`"),
        }
    }

    /// Where the deployed agents are listed.
    pub fn agents_list(self) -> &'static str {
        match self {
            Terms::Cli => "`wakeful agents` lists what is",
            Terms::Api => "GET /v1/agents lists what is",
        }
    }

    /// Where the runs are listed.
    pub fn runs_list(self) -> &'static str {
        match self {
            Terms::Cli => "`wakeful runs` lists the runs",
            Terms::Api => "GET /v1/runs lists the runs",
        }
    }

    /// Where one run's audit rows are read.
    pub fn run_audit(self, run: &str) -> String {
        match self {
            Terms::Cli => format!("`wakeful audit {run}`"),
            Terms::Api => format!("GET /v1/runs/{run}/audit"),
        }
    }

    /// How to grant tools at a deploy.
    pub fn grant(self, tools: &[String]) -> String {
        match self {
            Terms::Cli => {
                let flags: Vec<String> = tools.iter().map(|t| format!("--grant {t}")).collect();
                format!("pass {} (or --grant-all)", flags.join(" "))
            }
            Terms::Api => {
                let params: Vec<String> = tools.iter().map(|t| format!("grant={t}")).collect();
                format!("add {} to the query (or grant_all=true)", params.join("&"))
            }
        }
    }

    /// How to accept the tools an upgrade adds.
    pub fn allow_new_tools(self) -> &'static str {
        match self {
            Terms::Cli => "pass --allow-new-tools",
            Terms::Api => "set `allow_new_tools: true`",
        }
    }
}

impl AppError {
    /// The error as told to an operator using `terms`. `Display` is the
    /// command line's wording.
    pub fn worded(&self, terms: Terms) -> String {
        match self {
            AppError::BadInput { word, problem } => format!("{} {problem}", terms.input(word)),
            AppError::MissingGrants { agent, tools } => format!(
                "{agent} asks for tools that are not granted: {}; {} to deploy it",
                tools.join(", "),
                terms.grant(tools)
            ),
            AppError::UnknownRun(run) => {
                format!("run {run} does not exist; {}", terms.runs_list())
            }
            AppError::MissingDigest(run) => format!(
                "{} is missing: an answer names the digest of the details it answers; {}",
                terms.input("digest"),
                match terms {
                    Terms::Cli => format!("`wakeful show {run}` prints each pending request's"),
                    Terms::Api => format!("GET /v1/runs/{run} shows each pending request's"),
                } + " `details_digest`"
            ),
            AppError::PrunedRun(r) => format!(
                "run {} ({}@{}) ended {} at {} and was pruned at {}; its audit rows remain: {}",
                r.run_id,
                r.agent,
                r.version,
                r.status,
                crate::clock::rfc3339(r.ended_at),
                crate::clock::rfc3339(r.pruned_at),
                terms.run_audit(&r.run_id)
            ),
            AppError::UnknownAgent(spec) => {
                format!("no agent {spec} is deployed; {}", terms.agents_list())
            }
            AppError::UnknownVersion {
                agent,
                version,
                deployed,
            } => format!(
                "no version {version} of agent {agent} is deployed; its versions: {}",
                if deployed.is_empty() {
                    "none".to_string()
                } else {
                    deployed.join(", ")
                }
            ),
            AppError::Store(StoreError::RunExists(run)) => format!(
                "run {run} already exists; choose another {}",
                terms.input("id")
            ),
            other => other.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Terms;
    use crate::app::AppError;

    #[test]
    fn a_refusal_names_the_way_of_the_interface_it_reaches() {
        let missing = AppError::MissingGrants {
            agent: "incident@1.0.0".into(),
            tools: vec!["lease".into(), "llm".into()],
        };
        let cli = missing.worded(Terms::Cli);
        assert!(
            cli.contains("pass --grant lease --grant llm (or --grant-all)"),
            "{cli}"
        );
        assert_eq!(cli, missing.to_string());
        let api = missing.worded(Terms::Api);
        assert!(
            api.contains("add grant=lease&grant=llm to the query (or grant_all=true)"),
            "{api}"
        );
        assert!(!api.contains("--"), "{api}");

        let empty = AppError::BadInput {
            word: "topic",
            problem: "is empty".into(),
        };
        assert_eq!(empty.to_string(), "--topic is empty");
        assert_eq!(empty.worded(Terms::Api), "`topic` is empty");
    }
}
