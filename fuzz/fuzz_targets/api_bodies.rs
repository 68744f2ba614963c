//! Every JSON body the API takes, from an authenticated client: a bad body
//! is a 4xx that says why, never a panic and never a 500.
#![no_main]

use std::sync::{Arc, OnceLock};

use axum::body::Body;
use axum::http::Request;
use libfuzzer_sys::fuzz_target;
use tower::ServiceExt;
use wakeful::api::router;
use wakeful::app::App;
use wakeful::config::Config;
use wakeful::server::admission::{self, Admission};
use wakeful::server::pool::{Opener, Pool};
use wakeful::server::{AllowedHosts, ApiState, BodyLimits, Console, Counters};

const ROUTES: &[(&str, &str)] = &[
    ("POST", "/v1/runs"),
    ("POST", "/v1/runs/r1/events"),
    ("POST", "/v1/events"),
    ("POST", "/v1/runs/r1/approvals/a1"),
    (
        "POST",
        "/v1/approve/0000000000000000000000000000000000000000000000000000000000000000",
    ),
    ("POST", "/v1/pause"),
    ("POST", "/v1/resume"),
    ("POST", "/v1/runs/r1/cancel"),
    ("POST", "/v1/runs/r1/resolve"),
    ("POST", "/v1/upgrade"),
    ("PUT", "/v1/kv/some/key"),
];

struct Api {
    runtime: tokio::runtime::Runtime,
    router: axum::Router,
}

fn api() -> &'static Api {
    static API: OnceLock<Api> = OnceLock::new();
    API.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("wakeful-fuzz-api-{}", std::process::id()));
        let config = Config::default();
        let limits = BodyLimits::of(&config);
        let open: Opener = Box::new(move || Ok(App::open(&dir, Config::default())?));
        let state = Arc::new(ApiState {
            pool: Arc::new(Pool::new(4, 1, None, open)),
            tokens: wakeful::access::Tokens::new(vec![wakeful::access::Token::new(
                "api",
                wakeful::access::token_sha256("fuzz"),
                wakeful::access::Grant::admin(),
            )])
            .unwrap(),
            hosts: AllowedHosts::new("127.0.0.1:7070".parse().unwrap(), &[]),
            counters: Arc::new(Counters::default()),
            limits,
            wakeup: Arc::new(wakeful::wakeup::Wakeup::default()),
            connections: Arc::new(Admission::new(admission::Limits::of(
                &Config::default().api,
            ))),
            console: Console::default(),
        });
        Api {
            runtime: tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .unwrap(),
            router: router(state),
        }
    })
}

fuzz_target!(|input: (u8, &[u8])| {
    let (route, body) = input;
    let (method, path) = ROUTES[route as usize % ROUTES.len()];
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header("Host", "127.0.0.1:7070")
        .header("Authorization", "Bearer fuzz")
        .header("Content-Type", "application/json")
        .body(Body::from(body.to_vec()))
        .unwrap();
    let api = api();
    let response = api
        .runtime
        .block_on(api.router.clone().oneshot(request))
        .unwrap();
    assert!(
        !response.status().is_server_error(),
        "{method} {path} with {:?} answered {}",
        String::from_utf8_lossy(body),
        response.status()
    );
});
