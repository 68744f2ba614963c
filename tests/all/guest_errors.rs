//! An agent's failure reaches the operator in the author's language: a
//! Python or TypeScript agent's own exception (type, message, the tail of
//! its traceback), a tool error it did not catch, and what it wrote to
//! stderr before it exited, in `wakeful show` and the API's `last_error`.

use serde_json::{Value, json};

use crate::harness::{Env, FAST_LIMITS, Lang};

/// A host with the faulty agent in `lang` and one run started with
/// `{"fail": how}`, worked until it is parked; returns the host and `show`.
fn failed(lang: Lang, how: &str) -> (Env, Value) {
    let env = Env::new(&format!("fail-{how}"), FAST_LIMITS);
    let env = env.deploy_in(lang, "faulty", &[]);
    let agent = lang.agent_name("faulty");
    let input = json!({"fail": how}).to_string();
    env.ok(&["start", &agent, "--id", "f", "--input", &input]);
    env.work();
    let show = env.show("f");
    assert_eq!(show["status"], "parked", "{show}");
    (env, show)
}

fn last_error(show: &Value) -> &str {
    show["last_error"].as_str().unwrap_or_default()
}

#[test]
fn a_python_exception_shows_its_type_message_and_traceback() {
    let (env, show) = failed(Lang::Python, "raise");
    let error = last_error(&show);
    assert!(
        error.contains("ValueError: the plan has no action: {'reason': 'memory'}"),
        "{error}"
    );
    assert!(error.contains("in plan_action"), "the traceback: {error}");
    assert!(!error.contains("unexpected exception"), "{error}");
    // The text an operator reads: the same in the table and the API.
    let text = env.ok(&["show", "f"]);
    assert!(
        text.contains("ValueError: the plan has no action"),
        "{text}"
    );
    let server = env.serve();
    let (status, run) = server.get("/v1/runs/f");
    assert_eq!(status, 200, "{run}");
    assert_eq!(run["last_error"], show["last_error"], "{run}");
}

#[test]
fn an_uncaught_tool_error_is_named_not_a_type_error() {
    for lang in [Lang::Python, Lang::TypeScript] {
        let (_env, show) = failed(lang, "tool");
        let error = last_error(&show);
        assert!(error.contains("tool pager"), "{lang:?}: {error}");
        assert!(error.contains("unknown"), "{lang:?}: {error}");
        assert!(!error.contains("TypeError"), "{lang:?}: {error}");
    }
}

#[test]
fn a_typescript_error_shows_its_name_message_and_stack() {
    let (_env, show) = failed(Lang::TypeScript, "raise");
    let error = last_error(&show);
    assert!(
        error.contains(r#"RangeError: the plan has no action: {"reason":"memory"}"#),
        "{error}"
    );
    assert!(error.contains("planAction"), "the stack: {error}");
}

#[test]
fn what_an_agent_wrote_to_stderr_before_it_exited_is_in_its_error() {
    let (_env, show) = failed(Lang::Python, "exit");
    let error = last_error(&show);
    assert!(
        error.contains("the agent trapped: fatal: the agent cannot continue ("),
        "{error}"
    );
    assert!(error.contains("instead of returning"), "{error}");
}
