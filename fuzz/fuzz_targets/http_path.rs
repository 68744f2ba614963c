//! A guest's path and query for an `http` tool: the URL reached always
//! stays below the configured one, with its own query first, whatever
//! encodings the guest tries.
#![no_main]

use std::collections::BTreeMap;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use wakeful::config::{HttpToolConfig, LimitsConfig};
use wakeful::tools::http::HttpTool;

const BASE: &str = "http://127.0.0.1:9000/api/v1";

fn tool() -> &'static HttpTool {
    static TOOL: OnceLock<HttpTool> = OnceLock::new();
    TOOL.get_or_init(|| {
        let config = HttpToolConfig {
            url: format!("{BASE}?team=sre"),
            ca_file: None,
            allow_plain_http: false,
            method: "POST".into(),
            timeout_ms: Some(1000),
            headers: BTreeMap::new(),
            idempotent: false,
            description: None,
        };
        HttpTool::new("pager", &config, &LimitsConfig::default()).expect("a valid tool")
    })
}

/// Percent-decodes until nothing changes.
fn decoded(mut text: String) -> String {
    loop {
        let bytes = text.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if bytes[i] == b'%'
                && i + 2 < bytes.len()
                && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
            {
                out.push((h * 16 + l) as u8);
                i += 3;
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        let next = String::from_utf8_lossy(&out).into_owned();
        if next == text {
            return text;
        }
        text = next;
    }
}

fuzz_target!(|input: (&str, &str, &str)| {
    let (path, key, value) = input;
    let args = serde_json::json!({"path": path, "query": {key: value}});
    let Ok(url) = tool().url_for(&args.to_string()) else {
        return;
    };
    let (path_part, query) = url.split_once('?').unwrap_or((&url, ""));
    assert!(
        path_part == BASE || path_part.starts_with(&format!("{BASE}/")),
        "{path:?} reached {url}"
    );
    let below = decoded(path_part[BASE.len()..].replace('\\', "/"));
    assert!(
        !below.split('/').any(|s| {
            let s = s.split(';').next().unwrap_or("");
            s == ".." || s == "."
        }),
        "{path:?} climbs out: {url}"
    );
    assert!(query.starts_with("team=sre"), "{url}");
});
