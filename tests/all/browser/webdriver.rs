//! A small W3C WebDriver client: a `chromedriver` child process and one
//! headless Chromium session on it, spoken to over HTTP with `ureq`. Only
//! what the browser tests use: navigate, find, click, type, read, run a
//! script, take a screenshot, open a second tab.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The key under which WebDriver names an element.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// How long a wait helper polls before it fails the test: a wait for the
/// browser and the server, not a timing assertion.
const DEADLINE: Duration = Duration::from_secs(30);

/// Chromium's flags: headless, no sandbox (the tests run as root, as CI
/// does, and Chromium's sandbox refuses root), and nothing that reaches
/// the network on its own.
const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// A phone's viewport, the approval page's main reader.
pub const PHONE: (u32, u32) = (390, 844);

/// A laptop's viewport, the console's main reader.
pub const DESKTOP: (u32, u32) = (1280, 900);

/// The first executable named `name` on `PATH`.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

fn missing(what: &str) -> String {
    format!(
        "`{what}` is not on PATH: the browser tests need Debian's chromium and chromium-driver \
         (scripts/system-deps.sh installs them: apt-get install -y --no-install-recommends \
         chromium chromium-driver)"
    )
}

/// One `chromedriver` process with one Chromium session, both ended when
/// dropped (also when a test panics).
pub struct Browser {
    driver: Child,
    /// `http://127.0.0.1:<port>/session/<id>`.
    session: String,
    http: ureq::Agent,
    /// Chromium's profile, fresh for this browser.
    profile: PathBuf,
}

/// An element of the current page.
pub struct Element<'a> {
    browser: &'a Browser,
    id: String,
}

impl Browser {
    /// Starts `chromedriver` on a free loopback port and opens a headless
    /// Chromium window of `size` (width, height) with a fresh profile under
    /// `CARGO_TARGET_TMPDIR`.
    pub fn start(name: &str, size: (u32, u32)) -> Browser {
        let driver_bin =
            on_path("chromedriver").unwrap_or_else(|| panic!("{}", missing("chromedriver")));
        let chromium = on_path("chromium").unwrap_or_else(|| panic!("{}", missing("chromium")));
        let profile = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("chromium-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).unwrap();
        let port = free_port();
        let log = std::fs::File::create(profile.with_extension("chromedriver.log")).unwrap();
        let driver = Command::new(driver_bin)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start chromedriver");
        let http: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        let base = format!("http://127.0.0.1:{port}");
        let mut browser = Browser {
            driver,
            session: String::new(),
            http,
            profile,
        };
        browser.wait_ready(&base);
        let mut args: Vec<String> = FLAGS.iter().map(|f| f.to_string()).collect();
        args.push(format!("--user-data-dir={}", browser.profile.display()));
        args.push(format!("--window-size={},{}", size.0, size.1));
        let mut chrome = json!({"binary": chromium, "args": args});
        if size.0 < 500 {
            // Chromium keeps a window at least 500 px wide: a phone's
            // narrower viewport needs its metrics emulated.
            chrome["mobileEmulation"] = json!({"deviceMetrics": {
                "width": size.0, "height": size.1, "pixelRatio": 2.0,
            }});
        }
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": chrome,
        }}});
        let created = browser.call("POST", &format!("{base}/session"), Some(capabilities));
        let id = created["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session id in {created}"));
        browser.session = format!("{base}/session/{id}");
        browser
    }

    /// Polls chromedriver's `/status` until it says it is ready.
    fn wait_ready(&mut self, base: &str) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.driver.try_wait().unwrap() {
                panic!(
                    "chromedriver exited at start ({status}); its log: {}",
                    self.profile.with_extension("chromedriver.log").display()
                );
            }
            let ready = self
                .http
                .get(&format!("{base}/status"))
                .call()
                .ok()
                .and_then(|mut r| r.body_mut().read_json::<Value>().ok())
                .is_some_and(|v| v["value"]["ready"] == true);
            if ready {
                return;
            }
            assert!(
                start.elapsed() < DEADLINE,
                "chromedriver never became ready"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// One WebDriver command; returns its `value`, or fails the test with
    /// WebDriver's error.
    fn call(&self, method: &str, url: &str, body: Option<Value>) -> Value {
        let response = match (method, body) {
            ("GET", None) => self.http.get(url).call(),
            ("DELETE", None) => self.http.delete(url).call(),
            ("POST", body) => self
                .http
                .post(url)
                .header("Content-Type", "application/json")
                .send(body.unwrap_or(json!({})).to_string()),
            (other, _) => panic!("no {other} command in this client"),
        };
        let mut response = response.unwrap_or_else(|e| panic!("{method} {url}: {e}"));
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().unwrap();
        let answer: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{method} {url}: not JSON ({e}): {text}"));
        assert!(
            status == 200,
            "{method} {url}: WebDriver answered {status}: {}",
            answer["value"]
        );
        answer["value"].clone()
    }

    fn command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.call(method, &format!("{}{path}", self.session), body)
    }

    /// Loads `url` and waits for the page to load.
    pub fn goto(&self, url: &str) {
        self.command("POST", "/url", Some(json!({"url": url})));
    }

    pub fn url(&self) -> String {
        self.command("GET", "/url", None)
            .as_str()
            .unwrap()
            .to_string()
    }

    pub fn title(&self) -> String {
        self.command("GET", "/title", None)
            .as_str()
            .unwrap()
            .to_string()
    }

    pub fn source(&self) -> String {
        self.command("GET", "/source", None)
            .as_str()
            .unwrap()
            .to_string()
    }

    /// The text of the page's body as a reader sees it. Read by one script
    /// call, not through an element: a page that reloads itself (the
    /// console's live pages) would leave an element stale between calls.
    pub fn text(&self) -> String {
        let text = self.execute(
            "return document.body ? document.body.innerText : '';",
            json!([]),
        );
        text.as_str().unwrap_or_default().to_string()
    }

    /// The first element matching the CSS `selector`, if any.
    pub fn find(&self, selector: &str) -> Option<Element<'_>> {
        self.find_all(selector).into_iter().next()
    }

    /// Every element matching the CSS `selector`.
    pub fn find_all(&self, selector: &str) -> Vec<Element<'_>> {
        let found = self.command(
            "POST",
            "/elements",
            Some(json!({"using": "css selector", "value": selector})),
        );
        found
            .as_array()
            .unwrap()
            .iter()
            .map(|e| Element {
                browser: self,
                id: e[ELEMENT].as_str().unwrap().to_string(),
            })
            .collect()
    }

    /// The element matching `selector`, waited for.
    pub fn wait_for(&self, selector: &str) -> Element<'_> {
        self.wait_until(&format!("an element `{selector}`"), |b| b.find(selector))
    }

    /// Polls `check` until it gives a value, for at most [`DEADLINE`].
    pub fn wait_until<'a, T>(&'a self, what: &str, check: impl Fn(&'a Browser) -> Option<T>) -> T {
        let start = Instant::now();
        loop {
            if let Some(found) = check(self) {
                return found;
            }
            assert!(
                start.elapsed() < DEADLINE,
                "the page never showed {what}; it is at {} and reads:\n{}",
                self.url(),
                self.text()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until the page's `<h1>` reads `heading`; returns the body text.
    pub fn wait_heading(&self, heading: &str) -> String {
        self.wait_until(&format!("the heading {heading:?}"), |b| {
            let page = b.execute(
                "const h = document.querySelector('h1');
                 return [h ? h.innerText : null, document.body.innerText];",
                json!([]),
            );
            (page[0] == heading).then(|| page[1].as_str().unwrap().to_string())
        })
    }

    /// Runs `script` (a function body) in the page; returns what it returns.
    pub fn execute(&self, script: &str, args: Value) -> Value {
        self.command(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// Saves a screenshot of the viewport as a PNG at `path`, creating its
    /// directory.
    pub fn screenshot(&self, path: &Path) {
        let png = self.command("GET", "/screenshot", None);
        save_png(path, png.as_str().unwrap());
    }

    /// Saves a screenshot of the whole page, below the fold too, as a PNG
    /// at `path` (Chromium's own capture: WebDriver's shows the viewport).
    pub fn screenshot_page(&self, path: &Path) {
        let height = self.execute("return document.documentElement.scrollHeight;", json!([]));
        let width = self.execute("return window.innerWidth;", json!([]));
        let shot = self.cdp(
            "Page.captureScreenshot",
            json!({
                "format": "png",
                "captureBeyondViewport": true,
                "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1},
            }),
        );
        save_png(path, shot["data"].as_str().unwrap());
    }

    /// Every cookie the browser keeps for the current page, `HttpOnly`
    /// ones too (WebDriver sees what scripts cannot).
    pub fn cookies(&self) -> Vec<Value> {
        let all = self.command("GET", "/cookie", None);
        all.as_array().cloned().unwrap_or_default()
    }

    /// Runs one Chrome DevTools Protocol command on the current tab.
    pub fn cdp(&self, cmd: &str, params: Value) -> Value {
        self.command(
            "POST",
            "/goog/cdp/execute",
            Some(json!({"cmd": cmd, "params": params})),
        )
    }

    /// Opens a new tab and switches to it; returns the old tab's handle.
    pub fn new_tab(&self) -> String {
        let old = self
            .command("GET", "/window", None)
            .as_str()
            .unwrap()
            .to_string();
        let tab = self.command("POST", "/window/new", Some(json!({"type": "tab"})));
        let handle = tab["handle"].as_str().unwrap();
        self.switch_to(handle);
        old
    }

    pub fn switch_to(&self, handle: &str) {
        self.command("POST", "/window", Some(json!({"handle": handle})));
    }
}

impl Element<'_> {
    fn path(&self, tail: &str) -> String {
        format!("/element/{}{tail}", self.id)
    }

    pub fn click(&self) {
        self.browser.command("POST", &self.path("/click"), None);
    }

    /// Types `text` into the element.
    pub fn send_keys(&self, text: &str) {
        self.browser
            .command("POST", &self.path("/value"), Some(json!({"text": text})));
    }

    /// Its rendered text.
    pub fn text(&self) -> String {
        let text = self.browser.command("GET", &self.path("/text"), None);
        text.as_str().unwrap().to_string()
    }

    pub fn attribute(&self, name: &str) -> Option<String> {
        let value = self
            .browser
            .command("GET", &self.path(&format!("/attribute/{name}")), None);
        value.as_str().map(str::to_string)
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            // Ends Chromium itself; chromedriver is killed next either way.
            let _ = self.http.delete(&self.session).call();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
        // chromedriver's log stays for a failed test to be read.
        if !std::thread::panicking() {
            let _ = std::fs::remove_file(self.profile.with_extension("chromedriver.log"));
        }
    }
}

fn save_png(path: &Path, base64: &str) {
    let bytes = base64_decode(base64);
    assert!(bytes.starts_with(b"\x89PNG"), "the screenshot is not a PNG");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// A loopback port nobody listens on right now.
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// Standard base64 (with padding), as WebDriver sends screenshots.
fn base64_decode(text: &str) -> Vec<u8> {
    fn value(c: u8) -> u32 {
        match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a') as u32 + 26,
            b'0'..=b'9' => (c - b'0') as u32 + 52,
            b'+' => 62,
            b'/' => 63,
            other => panic!("{:?} is not base64", other as char),
        }
    }
    let clean: Vec<u8> = text.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
    let mut out = Vec::with_capacity(clean.len() / 4 * 3);
    for chunk in clean.chunks(4) {
        let data: Vec<u8> = chunk.iter().copied().filter(|&c| c != b'=').collect();
        let mut n = 0u32;
        for (i, &c) in data.iter().enumerate() {
            n |= value(c) << (18 - 6 * i);
        }
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..data.len().max(1)]);
    }
    out
}

#[test]
fn base64_decodes_what_webdriver_sends() {
    assert_eq!(base64_decode("aGVsbG8="), b"hello");
    assert_eq!(base64_decode("aGk="), b"hi");
    assert_eq!(base64_decode("YWJj"), b"abc");
}
