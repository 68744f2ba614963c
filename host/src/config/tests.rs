use super::*;

#[test]
fn empty_config_has_safe_defaults() {
    let c = Config::parse("").unwrap();
    assert_eq!(c.limits.steps_per_run, 100);
    assert_eq!(c.tool_names(), vec!["kv", "lease", "callback"]);
}

#[test]
fn static_tool_and_limits_parse() {
    let c = Config::parse(
        "[limits]\nsteps_per_run = 12\n[tools.llm]\nkind = \"static\"\nresult = { action = \"scale_out\" }\n",
    )
    .unwrap();
    assert_eq!(c.limits.steps_per_run, 12);
    assert!(matches!(c.tools["llm"], ToolConfig::Static { .. }));
}

#[test]
fn http_and_llm_tools_parse_with_defaults() {
    let c = Config::parse(
        "[tools.pager]\nkind = \"http\"\nurl = \"http://127.0.0.1:9000/page\"\n\
         headers = { \"X-Team\" = \"sre\" }\n\
         [tools.llm]\nkind = \"llm\"\nurl = \"http://127.0.0.1:8080/v1/chat/completions\"\n\
         model = \"local\"\n",
    )
    .unwrap();
    let ToolConfig::Http(pager) = &c.tools["pager"] else {
        panic!("pager is not http")
    };
    assert_eq!((pager.method.as_str(), pager.timeout_ms), ("POST", None));
    assert_eq!(crate::tools::timeout_ms(None, &c.limits), 9_000);
    assert_eq!(pager.headers["X-Team"], "sre");
    let ToolConfig::Llm(llm) = &c.tools["llm"] else {
        panic!("llm is not llm")
    };
    assert_eq!((llm.max_tokens, llm.price_per_1k_tokens_usd), (256, 0.0));
    assert_eq!(c.limits.tokens_per_run, 200_000);
    assert_eq!(c.limits.usd_per_run, 5.0);
}

#[test]
fn bad_tool_configs_are_refused_by_name() {
    let refused = |text: &str, what: &str| {
        let err = Config::parse(text).unwrap_err();
        assert!(err.contains(what), "{err}");
    };
    refused(
        "[tools.p]\nkind = \"http\"\nurl = \"ftp://example.com/\"\n",
        "must start with https://",
    );
    refused(
        "[tools.p]\nkind = \"http\"\nurl = \"http://127.0.0.1:9/\"\nca_file = \"ca.pem\"\n",
        "tools.p.ca_file is set but tools.p.url `http://127.0.0.1:9/` is not https://",
    );
    refused(
        "[tools.p]\nkind = \"http\"\nurl = \"https://127.0.0.1:9/\"\n\
         ca_file = \"/nonexistent/ca.pem\"\n",
        "tools.p.ca_file `/nonexistent/ca.pem`: cannot read it",
    );
    refused(
        "[tools.p]\nkind = \"http\"\nurl = \"http://127.0.0.1:9/\"\ntimeout_ms = 20000\n",
        "step_deadline_ms",
    );
    refused(
        "[tools.p]\nkind = \"http\"\nurl = \"http://127.0.0.1:9/\"\nmethod = \"BREW\"\n",
        "method",
    );
    refused(
        "[tools.l]\nkind = \"llm\"\nurl = \"http://127.0.0.1:9/\"\nmodel = \"m\"\nmax_tokens = 0\n",
        "max_tokens",
    );
    refused("[limits]\nusd_per_run = -1\n", "usd_per_run");
}

#[test]
fn plain_http_is_refused_off_loopback_unless_allowed() {
    let http = |url: &str, extra: &str| {
        Config::parse(&format!(
            "[tools.p]\nkind = \"http\"\nurl = \"{url}\"\n{extra}\
             [tools.l]\nkind = \"llm\"\nurl = \"{url}\"\nmodel = \"m\"\n{extra}"
        ))
    };
    for url in [
        "http://example.com/page",
        "http://10.0.0.1/page",
        "http://127.0.0.1.example.com/",
        "http://[::ffff:127.0.0.1]/",
    ] {
        let err = http(url, "").unwrap_err();
        assert!(err.contains("plain http://"), "{url}: {err}");
        assert!(
            err.contains("tools.l.allow_plain_http = true"),
            "{url}: {err}"
        );
        http(url, "allow_plain_http = true\n").unwrap();
    }
    for url in [
        "https://example.com/page",
        "http://localhost:8080/v1",
        "http://LOCALHOST/",
        "http://127.0.0.1:9/",
        "http://127.1.2.3/",
        "http://[::1]:9000/",
    ] {
        http(url, "").unwrap_or_else(|e| panic!("{url}: {e}"));
    }
}

#[test]
fn a_ca_file_must_hold_certificates() {
    let dir = std::env::temp_dir().join(format!("wakeful-ca-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.pem");
    std::fs::write(&empty, "not a certificate\n").unwrap();
    let err = Config::parse(&format!(
        "[tools.p]\nkind = \"http\"\nurl = \"https://127.0.0.1:9/\"\nca_file = \"{}\"\n",
        empty.display()
    ))
    .unwrap_err();
    assert!(err.contains("holds no PEM certificate"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn named_api_tokens_parse_and_bad_names_or_shared_tokens_are_refused() {
    let a = "a".repeat(64);
    let b = "b".repeat(64);
    let c = Config::parse(&format!(
        "[api.tokens.alice]\ntoken_sha256 = \"{a}\"\nscopes = [\"approve\", \"read\"]\n\
         agents = [\"refund\"]\n[api.tokens.\"bob@ops\"]\ntoken_env = \"BOB\"\nscopes = [\"admin\"]\n"
    ))
    .unwrap();
    assert!(c.api.tokens.contains_key("bob@ops"));
    let tokens =
        api_tokens::configured_tokens(&c.api, |v| (v == "BOB").then(|| "t2".into())).unwrap();
    assert_eq!(tokens[0].name, "alice");
    assert_eq!(
        tokens[0].grant.agents.as_deref(),
        Some(&["refund".to_string()][..])
    );
    assert_eq!(tokens[1].sha256, crate::access::token_sha256("t2"));
    let err = api_tokens::configured_tokens(&c.api, |_| None).unwrap_err();
    assert!(err.contains("token_env `BOB` is not set"), "{err}");
    let entry = |name: &str, sha: &str, scopes: &str| {
        format!("[api.tokens.{name}]\ntoken_sha256 = \"{sha}\"\nscopes = {scopes}\n")
    };
    for (text, named) in [
        (
            entry("\"a b\"", &a, "[\"read\"]"),
            "`a b` is not a token name",
        ),
        (
            entry("a", &a, "[\"read\"]") + &entry("b", &a, "[\"read\"]"),
            "`a` and `b` are the same token",
        ),
        (
            entry("api", &b, "[\"read\"]"),
            "`api` names WAKEFUL_API_TOKEN",
        ),
        (
            entry("c", "abc", "[\"read\"]"),
            "token_sha256 must be the 64 hex digits",
        ),
        (entry("c", &a, "[]"), "scopes is empty"),
        (entry("c", &a, "[\"root\"]"), "`root` is not a scope"),
        (
            entry("c", &a, "[\"read\"]") + "agents = [\"x\"]\n",
            "agents limits the approve scope",
        ),
        (
            format!(
                "[api.tokens.c]\ntoken_sha256 = \"{a}\"\ntoken_env = \"C\"\nscopes = [\"read\"]\n"
            ),
            "exactly one of token_sha256 and token_env",
        ),
    ] {
        let err = Config::parse(&text).unwrap_err();
        assert!(err.contains(named), "{text}: {err}");
    }
}

#[test]
fn a_token_written_in_the_config_is_refused_with_the_form_to_write() {
    for (text, named) in [
        ("[api.tokens]\nalice = \"t1\"\n", "api.tokens.alice"),
        ("[api]\ntoken = \"t0\"\n", "api.token"),
    ] {
        let err = Config::parse(text).unwrap_err();
        assert!(err.contains(named), "{text}: {err}");
        assert!(
            err.contains("token written in the config file is refused"),
            "{err}"
        );
        assert!(err.contains("token_sha256 = "), "{err}");
        assert!(err.contains("wakeful tokens new"), "{err}");
    }
}

#[test]
fn api_section_parses_and_refuses_unknown_keys() {
    let c = Config::parse("[api]\nlisten = \"127.0.0.1:9\"\nallowed_hosts = [\"ops.example\"]\n")
        .unwrap();
    assert_eq!(c.api.listen.as_deref(), Some("127.0.0.1:9"));
    assert_eq!(c.api.allowed_hosts, ["ops.example"]);
    assert!(
        Config::parse("[api]\ntokn = \"t\"\n")
            .unwrap_err()
            .contains("tokn")
    );
}

#[test]
fn unknown_keys_and_bad_limits_are_refused() {
    assert!(
        Config::parse("[limits]\nstep_budget = 3\n")
            .unwrap_err()
            .contains("step_budget")
    );
    assert!(
        Config::parse("[limits]\nclaim_ms = 5\n")
            .unwrap_err()
            .contains("claim_ms")
    );
    assert!(
        Config::parse("[tools.kv]\nkind = \"static\"\nresult = 1\n")
            .unwrap_err()
            .contains("built-in")
    );
}

#[test]
fn the_cache_bound_has_a_default_and_zero_is_refused() {
    let c = Config::parse("").unwrap();
    assert_eq!(c.cache.max_bytes, 2 << 30);
    assert_eq!(c.runtime_limits().cache_max_bytes, 2 << 30);
    let c = Config::parse("[cache]\nmax_bytes = 1000\n").unwrap();
    assert_eq!((c.cache.max_bytes, c.cache.dir), (1000, None));
    let err = Config::parse("[cache]\nmax_bytes = 0\n").unwrap_err();
    assert!(err.contains("cache.max_bytes"), "{err}");
    assert!(Config::parse("[cache]\nmax_bytes = -1\n").is_err());
}

#[test]
fn connection_limits_default_safely_and_bad_ones_are_refused_by_name() {
    let c = Config::parse("").unwrap();
    assert_eq!(
        (
            c.api.max_connections,
            c.api.max_connections_per_client,
            c.api.reserved_connections,
            c.api.min_bytes_per_s,
            c.api.slow_grace_ms,
            c.api.header_timeout_ms
        ),
        (512, 64, 128, 256, 5_000, 10_000)
    );
    for (text, what) in [
        (
            "[api]\nmax_connections = 2\n",
            "api.max_connections must be between 4",
        ),
        (
            "[api]\nmax_connections_per_client = 0\n",
            "api.max_connections_per_client must be between 1 and api.max_connections (512), got 0",
        ),
        (
            "[api]\nmax_connections = 100\nreserved_connections = 60\n",
            "api.reserved_connections (60) must be at most half of api.max_connections (100)",
        ),
        (
            "[api]\nmin_bytes_per_s = 0\n",
            "api.min_bytes_per_s must be at least 1",
        ),
        (
            "[api]\nslow_grace_ms = 5\n",
            "api.slow_grace_ms must be between 100 and 600000, got 5",
        ),
        (
            "[api]\nheader_timeout_ms = 0\n",
            "api.header_timeout_ms must be between",
        ),
    ] {
        let err = Config::parse(text).unwrap_err();
        assert!(err.contains(what), "{text}: {err}");
    }
}

#[test]
fn compile_limits_have_defaults_that_fit_two_cores_and_bad_ones_are_refused() {
    let limits = Config::parse("").unwrap().runtime_limits();
    assert_eq!(limits.compile.timeout, std::time::Duration::from_secs(300));
    assert_eq!(limits.compile.memory_bytes, 2 << 30);
    assert_eq!(limits.compile.at_once, 1);
    assert_eq!(limits.max_function_bytes, 1 << 20);

    let set = Config::parse(
        "[limits]\ncompile_timeout_ms = 5000\ncompile_memory_mib = 512\n\
         compiles_at_once = 3\nmax_function_bytes = 2000\n",
    )
    .unwrap()
    .runtime_limits();
    assert_eq!(set.compile.timeout, std::time::Duration::from_secs(5));
    assert_eq!(set.compile.memory_bytes, 512 << 20);
    assert_eq!(set.compile.at_once, 3);
    assert_eq!(set.max_function_bytes, 2000);

    for (text, named) in [
        (
            "compile_timeout_ms = 0",
            "limits.compile_timeout_ms must be between 1000",
        ),
        (
            "compile_memory_mib = 16",
            "limits.compile_memory_mib must be between 256",
        ),
        (
            "compiles_at_once = 0",
            "limits.compiles_at_once must be between 1 and 64",
        ),
        (
            "max_function_bytes = 0",
            "limits.max_function_bytes must be at least 1",
        ),
    ] {
        let err = Config::parse(&format!("[limits]\n{text}\n")).unwrap_err();
        assert!(err.contains(named), "{text}: {err}");
    }
}

#[test]
fn approval_rules_resolve_groups_and_bad_ones_are_refused_by_name() {
    let c = Config::parse(
        "[groups]\nsre = [\"alice\", \"bob\"]\n\
         [tools.refund]\nkind = \"static\"\nresult = 1\n\
         [approvals.tools.refund]\nrequires_approval = true\n\
         approvers = [\"carol\", \"group:sre\"]\nquorum = 2\n\
         [approvals.tools.kv]\nrequires_approval = true\n",
    )
    .unwrap();
    let rules = c.approval_rules().unwrap();
    let refund = &rules["refund"];
    assert_eq!(refund.quorum, 2);
    assert!(refund.allows("bob") && refund.allows("carol") && !refund.allows("dave"));
    assert!(refund.needs_principal());
    assert!(!refund.met_by(["alice", "alice", "dave"]));
    assert!(refund.met_by(["alice", "carol"]));
    let kv = &rules["kv"];
    assert!(kv.allows("anyone") && !kv.needs_principal() && kv.met_by(["x"]));

    let refused = |text: &str, what: &str| {
        let err = Config::parse(text).unwrap_err();
        assert!(err.contains(what), "{err}");
    };
    refused(
        "[approvals.tools.refund]\nrequires_approval = true\n",
        "approvals.tools.refund: no tool named `refund` on this host",
    );
    refused(
        "[approvals.tools.kv]\nrequires_approval = true\napprovers = [\"group:sre\"]\n",
        "approvals.tools.kv.approvers names `group:sre`, but [groups] has no `sre`",
    );
    refused(
        "[approvals.tools.kv]\nrequires_approval = true\nquorum = 0\n",
        "approvals.tools.kv.quorum must be at least 1",
    );
    refused(
        "[groups]\nsre = [\"alice\"]\n[approvals.tools.kv]\nrequires_approval = true\n\
         approvers = [\"group:sre\", \"alice\"]\nquorum = 2\n",
        "approvals.tools.kv.quorum is 2, but its approvers are only 1 principals (alice)",
    );
    refused(
        "[approvals.tools.kv]\nrequires_approval = false\nquorum = 2\n",
        "approvals.tools.kv: approvers and quorum need requires_approval = true",
    );
    refused(
        "[groups]\nsre = []\n[approvals.tools.kv]\nrequires_approval = true\n\
         approvers = [\"group:sre\"]\n",
        "names `group:sre`, which has no members",
    );
    refused(
        "[groups]\nsre = [\"group:ops\"]\n",
        "groups.sre: `group:ops` is not a principal",
    );
    refused(
        "[approvals.tools.kv]\nrequires_approval = true\napprovers = [\"\"]\n",
        "approvals.tools.kv.approvers has an empty name",
    );
    refused(
        "[approvals.tools.kv]\nrequires_approval = true\nquorom = 2\n",
        "unknown field `quorom`",
    );
}
