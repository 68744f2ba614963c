//! A stand-in for an external approval service, for the callback tests.
//!
//! `approval-service --clock-file PATH [--after-ms N] [--answer JSON]
//! [--never]` listens on `127.0.0.1:0` and prints `listening on
//! http://ADDR`. Each POST it gets is a request for approval whose JSON body
//! carries `callback_url`: it answers 202, prints `asked <callback_url>`,
//! and once `N` ms (default 300000) have passed in test time — the wall
//! clock plus the milliseconds in the clock file, the offset `wakeful`
//! reads from `WAKEFUL_TEST_CLOCK_FILE` — it POSTs the answer (default
//! `{"approved":true,"by":"finance"}`) to that URL and prints `answered
//! <status> <body>`. With `--never` it never answers.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

struct Options {
    clock_file: PathBuf,
    after_ms: u64,
    answer: Value,
    never: bool,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        clock_file: PathBuf::new(),
        after_ms: 300_000,
        answer: json!({"approved": true, "by": "finance"}),
        never: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--clock-file" => options.clock_file = value()?.into(),
            "--after-ms" => {
                options.after_ms = value()?.parse().map_err(|e| format!("--after-ms: {e}"))?
            }
            "--answer" => {
                options.answer =
                    serde_json::from_str(&value()?).map_err(|e| format!("--answer: {e}"))?
            }
            "--never" => options.never = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if options.clock_file.as_os_str().is_empty() {
        return Err("--clock-file is required".into());
    }
    Ok(options)
}

/// The wall clock moved by the test's offset, as the host under test sees it.
fn test_now(clock_file: &Path) -> u64 {
    let wall = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0);
    let offset = std::fs::read_to_string(clock_file)
        .ok()
        .and_then(|t| t.trim().parse::<u64>().ok())
        .unwrap_or(0);
    wall + offset
}

/// Reads one request's body; answers 202 (or 400 when it carries no
/// `callback_url`). Returns the callback URL.
fn take_request(stream: TcpStream) -> Option<String> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut length = 0;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).ok()? == 0 || header == "\r\n" {
            break;
        }
        if let Some((name, value)) = header.trim_end().split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let url = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|v| v["callback_url"].as_str().map(str::to_string));
    let (status, answer) = match &url {
        Some(_) => ("202 Accepted", json!({"queued": true})),
        None => ("400 Bad Request", json!({"error": "no callback_url"})),
    };
    let answer = answer.to_string();
    let stream = reader.get_mut();
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{answer}",
        answer.len()
    );
    let _ = stream.flush();
    url
}

fn answer_later(url: String, options: &Options) {
    let due = test_now(&options.clock_file) + options.after_ms;
    while test_now(&options.clock_file) < due {
        std::thread::sleep(Duration::from_millis(20));
    }
    // The host reads the clock file at most every 50 ms: let it see the
    // new time too before the answer arrives.
    std::thread::sleep(Duration::from_millis(150));
    let http: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let answered = http
        .post(&url)
        .header("Content-Type", "application/json")
        .send(options.answer.to_string().as_bytes());
    let line = match answered {
        Ok(mut response) => {
            let status = response.status().as_u16();
            let body = response.body_mut().read_to_string().unwrap_or_default();
            format!("answered {status} {body}")
        }
        Err(e) => format!("failed {e}"),
    };
    println!("{line}");
    let _ = std::io::stdout().flush();
}

fn main() {
    let options = match options() {
        Ok(o) => std::sync::Arc::new(o),
        Err(e) => {
            eprintln!("approval-service: {e}");
            std::process::exit(2);
        }
    };
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    println!("listening on http://{}", listener.local_addr().unwrap());
    let _ = std::io::stdout().flush();
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let Some(url) = take_request(stream) else {
            continue;
        };
        println!("asked {url}");
        let _ = std::io::stdout().flush();
        if !options.never {
            let options = options.clone();
            std::thread::spawn(move || answer_later(url, &options));
        }
    }
}
