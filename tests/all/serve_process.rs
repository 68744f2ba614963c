//! A `wakeful serve` child process for the tests that use the HTTP API:
//! started on a free loopback port, reached with ureq, killed when dropped.

use std::path::PathBuf;

use serde_json::Value;

use super::harness::Env;

/// The API token the `serve` tests configure.
pub const API_TOKEN: &str = "test-token-4f1c";

/// The name `API_TOKEN` is configured under ([`api_token_config`]).
pub const API_TOKEN_NAME: &str = "ops";

/// The `[api.tokens.<name>]` lines of a token by its SHA-256, as an
/// operator writes them.
pub fn token_config(name: &str, secret: &str, scopes: &[&str]) -> String {
    use sha2::Digest;
    let sha = hex::encode(sha2::Sha256::digest(secret.as_bytes()));
    let scopes: Vec<String> = scopes.iter().map(|s| format!("{s:?}")).collect();
    format!(
        "[api.tokens.{name:?}]\ntoken_sha256 = \"{sha}\"\nscopes = [{}]\n",
        scopes.join(", ")
    )
}

/// The config lines of the tests' admin token, `API_TOKEN`.
pub fn api_token_config() -> String {
    token_config(API_TOKEN_NAME, API_TOKEN, &["admin"])
}

/// A `wakeful serve` child process on a free loopback port, killed when
/// dropped (also when a test panics).
pub struct Server {
    child: std::process::Child,
    /// Kept open so that the server's stdout never breaks.
    _stdout: std::io::BufReader<std::process::ChildStdout>,
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    /// The bearer token it takes: the configured one, or the one it wrote
    /// to its token file.
    pub token: String,
    http: ureq::Agent,
}

/// The token file `serve` writes when no token is configured.
pub fn token_file(env: &Env) -> PathBuf {
    env.dir.join("data").join("api-token")
}

impl Env {
    /// Starts `wakeful serve --listen 127.0.0.1:0` on this host's data and
    /// config; its log goes to `serve.log` in the host's directory. Every
    /// server has a token: `API_TOKEN` when the config names it
    /// ([`api_token_config`]), else the one the server keeps in its token
    /// file.
    pub fn serve(&self) -> Server {
        self.serve_with(&[])
    }

    /// [`Env::serve`] with more arguments after `serve`.
    pub fn serve_with(&self, args: &[&str]) -> Server {
        use std::io::BufRead;
        let log = std::fs::File::create(self.dir.join("serve.log")).unwrap();
        let mut serve = vec!["serve", "--listen", "127.0.0.1:0"];
        serve.extend_from_slice(args);
        let mut child = self
            .command(&serve)
            .stdout(std::process::Stdio::piped())
            .stderr(log)
            .spawn()
            .expect("start wakeful serve");
        let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let base = match line.trim().strip_prefix("listening on ") {
            Some(base) => base.to_string(),
            None => {
                let _ = child.kill();
                let log = std::fs::read_to_string(self.dir.join("serve.log")).unwrap_or_default();
                panic!("wakeful serve printed {line:?} instead of its address:\n{log}");
            }
        };
        // A fresh connection per request: a connection the server closed
        // (after refusing a body early) must not be picked from a pool.
        let http = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_idle_connections(0)
            .max_idle_connections_per_host(0)
            .build()
            .into();
        let token = match std::fs::read_to_string(token_file(self)) {
            Ok(t) => t.trim().to_string(),
            Err(_) => API_TOKEN.to_string(),
        };
        Server {
            child,
            _stdout: stdout,
            base,
            token,
            http,
        }
    }
}

impl Server {
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Stops the server as an init system would (SIGTERM) and checks that
    /// it exits cleanly within 20 s.
    pub fn terminate(mut self) {
        let status = std::process::Command::new("kill")
            .args(["-TERM", &self.pid().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let exit = self
            .wait_exit(std::time::Duration::from_secs(20))
            .expect("wakeful serve did not exit after SIGTERM");
        assert!(exit.success(), "{exit}");
    }

    /// Waits for the process to exit by itself; `None` if it has not after
    /// `timeout`.
    pub fn wait_exit(&mut self, timeout: std::time::Duration) -> Option<std::process::ExitStatus> {
        let start = std::time::Instant::now();
        while start.elapsed() < timeout {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        None
    }

    /// One request: `token` None sends no Authorization header. Returns the
    /// status and the body as JSON (or as a JSON string when it is not JSON).
    pub fn request(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<(&str, Vec<u8>)>,
    ) -> (u16, Value) {
        self.try_request(method, path, token, body)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
    }

    /// An authenticated POST the server refuses before reading its whole
    /// body (too large). The server answers and closes; a client still
    /// writing may see the connection reset before it reads the answer, as
    /// any HTTP client can: retry until the answer is read.
    pub fn post_refused_early(&self, path: &str, body: &Value) -> (u16, Value) {
        let bytes = body.to_string().into_bytes();
        for _ in 0..20 {
            let body = Some(("application/json", bytes.clone()));
            if let Ok(answer) = self.try_request("POST", path, Some(&self.token), body) {
                return answer;
            }
        }
        panic!("POST {path}: the connection was reset 20 times in a row");
    }

    fn try_request(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<(&str, Vec<u8>)>,
    ) -> Result<(u16, Value), ureq::Error> {
        let url = format!("{}{path}", self.base);
        let auth = token.map(|t| format!("Bearer {t}"));
        let response = match body {
            None => {
                let mut req = match method {
                    "GET" => self.http.get(&url),
                    other => panic!("no body-less {other} in these tests"),
                };
                if let Some(a) = &auth {
                    req = req.header("Authorization", a);
                }
                req.call()
            }
            Some((content_type, bytes)) => {
                let mut req = match method {
                    "POST" => self.http.post(&url),
                    "PUT" => self.http.put(&url),
                    other => panic!("no {other} with a body in these tests"),
                };
                req = req.header("Content-Type", content_type);
                if let Some(a) = &auth {
                    req = req.header("Authorization", a);
                }
                req.send(&bytes[..])
            }
        };
        let mut response = response?;
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string()?;
        let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Ok((status, value))
    }

    /// An authenticated GET.
    pub fn get(&self, path: &str) -> (u16, Value) {
        self.request("GET", path, Some(&self.token), None)
    }

    /// An authenticated POST of a JSON body.
    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.post_as(path, Some(&self.token), body)
    }

    /// `host:port` of the server.
    pub fn authority(&self) -> &str {
        self.base.strip_prefix("http://").unwrap()
    }

    /// One request written by hand, as a browser or an attacker would send
    /// it: `headers` are sent as given (a `Host` among them replaces the
    /// server's own). Returns the status and the body as JSON (or as a JSON
    /// string when it is not JSON).
    pub fn raw(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> (u16, Value) {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(self.authority()).unwrap();
        let mut head = format!("{method} {path} HTTP/1.1\r\n");
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            head.push_str(&format!("Host: {}\r\n", self.authority()));
        }
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str(&format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        ));
        stream.write_all(head.as_bytes()).unwrap();
        // The server may answer (and close) before reading a body it refuses.
        let _ = stream.write_all(body);
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let text = String::from_utf8_lossy(&answer).to_string();
        let (head, body) = text
            .split_once("\r\n\r\n")
            .unwrap_or_else(|| panic!("{method} {path}: no HTTP answer: {text:?}"));
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{method} {path}: bad status line: {head}"));
        let value = serde_json::from_str(body).unwrap_or(Value::String(body.to_string()));
        (status, value)
    }

    /// A POST of a JSON body with the given bearer token, or none.
    pub fn post_as(&self, path: &str, token: Option<&str>, body: &Value) -> (u16, Value) {
        let bytes = body.to_string().into_bytes();
        self.request("POST", path, token, Some(("application/json", bytes)))
    }

    /// Polls `GET /v1/runs/{run}` every 100 ms until `done` holds for it,
    /// for at most 20 s (a wait for the server's workers, not a timing
    /// assertion). Returns the last document.
    pub fn wait_run(&self, run: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let start = std::time::Instant::now();
        loop {
            let (status, show) = self.get(&format!("/v1/runs/{run}"));
            assert_eq!(status, 200, "{show}");
            if done(&show) {
                return show;
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(20),
                "run {run} never got {what}: {show}"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
