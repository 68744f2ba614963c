//! Who may reach the API: the token (always one, kept in a private file
//! when none is configured), the `Host` and `Origin` checks, and the
//! content types each route takes.

use serde_json::{Value, json};

use crate::api::{api_config, deploy};
use crate::harness::{Env, Server, agent};

fn invoice_bytes() -> Vec<u8> {
    std::fs::read(agent("invoice-mail")).unwrap()
}

fn agents_deployed(server: &Server) -> usize {
    let (status, agents) = server.get("/v1/agents");
    assert_eq!(status, 200, "{agents}");
    agents.as_array().unwrap().len()
}

pub fn error_of(body: &Value) -> &str {
    body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("not a JSON error: {body}"))
}

#[test]
fn with_no_token_configured_no_operator_route_answers_without_one() {
    let env = Env::new("api-no-token", "");
    let server = env.serve();
    for path in [
        "/v1/runs",
        "/v1/agents",
        "/v1/audit",
        "/v1/switches",
        "/v1/kv/a",
        "/metrics",
    ] {
        let (status, body) = server.raw("GET", path, &[], b"");
        assert_eq!(status, 401, "GET {path}: {body}");
        assert!(error_of(&body).contains("Bearer"), "{body}");
    }
    let (status, body) = server.raw(
        "POST",
        "/v1/agents?grant_all=true",
        &[("Content-Type", "application/wasm")],
        &invoice_bytes(),
    );
    assert_eq!(status, 401, "{body}");
    let (status, body) = server.raw(
        "POST",
        "/v1/pause",
        &[("Content-Type", "application/json")],
        br#"{"scope": "all"}"#,
    );
    assert_eq!(status, 401, "{body}");
    assert_eq!(agents_deployed(&server), 0);
    assert_eq!(server.get("/v1/switches"), (200, json!([])));
}

#[cfg(unix)]
fn mode(path: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[cfg(unix)]
#[test]
fn serve_keeps_its_own_token_in_a_private_file_and_reuses_it() {
    let env = Env::new("api-token-file", "");
    let server = env.serve();
    let path = crate::harness::token_file(&env);
    let token = std::fs::read_to_string(&path).expect("serve writes a token file");
    let token = token.trim().to_string();
    assert_eq!(token.len(), 64, "{token}");
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()), "{token}");
    assert_eq!(mode(&path), 0o600);
    let log = std::fs::read_to_string(env.dir.join("serve.log")).unwrap();
    assert!(log.contains(path.to_str().unwrap()), "{log}");
    assert!(!log.contains(&token), "the token itself is never printed");
    assert_eq!(server.token, token);
    let (status, body) = server.get("/v1/runs");
    assert_eq!(status, 200, "{body}");
    drop(server);

    let server = env.serve();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap().trim(),
        token,
        "a restart reuses the token"
    );
    let (status, body) = server.request("GET", "/v1/runs", Some(&token), None);
    assert_eq!(status, 200, "{body}");
}

#[cfg(unix)]
#[test]
fn the_data_directory_and_its_compile_cache_are_private() {
    let env = Env::new("api-private-dirs", &api_config(""));
    let server = env.serve();
    deploy(&server, "invoice-mail", &["kv"]);
    let data = env.dir.join("data");
    assert_eq!(mode(&data), 0o700, "{}", data.display());
    assert_eq!(mode(&data.join("cache")), 0o700);
}

#[test]
fn a_page_from_another_origin_is_refused_even_with_the_token() {
    let env = Env::new("api-origin", &api_config(""));
    let server = env.serve();
    let auth = format!("Bearer {}", server.token);
    for content_type in ["application/wasm", "text/plain"] {
        let (status, body) = server.raw(
            "POST",
            "/v1/agents?grant_all=true",
            &[
                ("Origin", "http://evil.example"),
                ("Authorization", &auth),
                ("Content-Type", content_type),
            ],
            &invoice_bytes(),
        );
        assert_eq!(status, 403, "{content_type}: {body}");
        assert!(error_of(&body).contains("evil.example"), "{body}");
    }
    let answer = br#"{"by": "someone", "approved": true}"#;
    for origin in ["null", "http://evil.example", "https://127.0.0.1"] {
        let (status, body) = server.raw(
            "POST",
            "/v1/approve/0000",
            &[("Origin", origin), ("Content-Type", "application/json")],
            answer,
        );
        assert_eq!(status, 403, "an answer link from {origin}: {body}");
    }
    assert_eq!(agents_deployed(&server), 0, "nothing was deployed");

    // The server's own pages, and clients that send no Origin, pass.
    let own = format!("http://{}", server.authority());
    let (status, body) = server.raw(
        "GET",
        "/v1/agents",
        &[("Origin", &own), ("Authorization", &auth)],
        b"",
    );
    assert_eq!(status, 200, "{body}");
}

#[test]
fn a_request_naming_another_host_is_refused_on_every_route() {
    let env = Env::new(
        "api-host",
        &api_config("allowed_hosts = [\"ops.example\"]\n"),
    );
    let server = env.serve();
    let port = server.authority().rsplit_once(':').unwrap().1.to_string();
    let auth = format!("Bearer {}", server.token);
    let evil = format!("evil.example:{port}");
    for (method, path, body) in [
        ("GET", "/v1/health", ""),
        ("GET", "/metrics", ""),
        ("GET", "/v1/runs", ""),
        (
            "POST",
            "/v1/approve/0000",
            r#"{"by": "x", "approved": true}"#,
        ),
        ("GET", "/nowhere", ""),
    ] {
        let (status, answer) = server.raw(
            method,
            path,
            &[
                ("Host", &evil),
                ("Authorization", &auth),
                ("Content-Type", "application/json"),
            ],
            body.as_bytes(),
        );
        assert!(
            status == 421 || status == 403,
            "{method} {path} for {evil}: {status} {answer}"
        );
        assert!(error_of(&answer).contains(&evil), "{answer}");
    }
    for host in [
        format!("localhost:{port}"),
        format!("ops.example:{port}"),
        server.authority().to_string(),
    ] {
        let (status, body) = server.raw("GET", "/v1/health", &[("Host", &host)], b"");
        assert_eq!(status, 200, "{host}: {body}");
    }
}

#[test]
fn a_deploy_must_be_sent_as_wasm_and_json_routes_take_only_json() {
    let env = Env::new("api-content-types", &api_config(""));
    let server = env.serve();
    let auth = format!("Bearer {}", server.token);
    for content_type in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        None,
    ] {
        let mut headers = vec![("Authorization", auth.as_str())];
        if let Some(t) = content_type {
            headers.push(("Content-Type", t));
        }
        let (status, body) = server.raw(
            "POST",
            "/v1/agents?grant_all=true",
            &headers,
            &invoice_bytes(),
        );
        assert_eq!(status, 415, "{content_type:?}: {body}");
        assert!(error_of(&body).contains("application/wasm"), "{body}");
    }
    assert_eq!(agents_deployed(&server), 0, "nothing was stored");

    let (status, body) = server.raw(
        "POST",
        "/v1/pause",
        &[("Authorization", &auth), ("Content-Type", "text/plain")],
        br#"{"scope": "all"}"#,
    );
    assert_eq!(status, 415, "{body}");
    assert!(error_of(&body).contains("application/json"), "{body}");
    assert_eq!(server.get("/v1/switches"), (200, json!([])));

    let (status, body) = server.raw("DELETE", "/v1/runs", &[("Authorization", &auth)], b"");
    assert_eq!(status, 405, "{body}");
    assert!(error_of(&body).contains("DELETE"), "{body}");
}

// ---- lists come in pages
