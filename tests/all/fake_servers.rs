//! Loopback HTTP/1.1 servers for the tool tests, on `std::net` (and rustls
//! for https, with a test CA made at test time): each records every request
//! it gets and answers from a closure, so a test can check what the host sent
//! and decide what the world answers.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use serde_json::{Value, json};

/// One request as the server read it.
#[derive(Clone, Debug)]
pub struct Request {
    pub method: String,
    /// The request target: path and query.
    pub path: String,
    /// Header names in lowercase.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "{} {}: body is not JSON ({e}): {:?}",
                self.method, self.path, self.body
            )
        })
    }
}

/// What the server does with a request: answer with a status and a body,
/// or hold the connection open without answering.
pub enum Reply {
    Json(u16, Value),
    /// JSON with headers of its own (`retry-after`, say).
    JsonWith(u16, Value, Vec<(&'static str, String)>),
    Text(u16, String),
    /// A page, for the browser tests.
    Html(u16, String),
    Never,
}

type Answer = dyn Fn(&Request) -> Reply + Send + Sync;

/// A server on `127.0.0.1:<free port>`; its threads end with the test process.
pub struct FakeServer {
    /// `http://127.0.0.1:<port>`.
    pub url: String,
    requests: Arc<Mutex<Vec<Request>>>,
}

impl FakeServer {
    pub fn start(answer: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> FakeServer {
        FakeServer::listen(None, answer)
    }

    /// An https server on `127.0.0.1` presenting `cert`: its `url` is
    /// `https://127.0.0.1:<port>`. A client that refuses the certificate ends
    /// the handshake, so the server reads (and records) nothing it sent.
    pub fn start_tls(
        cert: ServerCert,
        answer: impl Fn(&Request) -> Reply + Send + Sync + 'static,
    ) -> FakeServer {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(vec![cert.der], cert.key)
            .unwrap();
        FakeServer::listen(Some(Arc::new(config)), answer)
    }

    fn listen(
        tls: Option<Arc<rustls::ServerConfig>>,
        answer: impl Fn(&Request) -> Reply + Send + Sync + 'static,
    ) -> FakeServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let scheme = if tls.is_some() { "https" } else { "http" };
        let url = format!("{scheme}://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(vec![]));
        let answer: Arc<Answer> = Arc::new(answer);
        let seen = requests.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let (seen, answer, tls) = (seen.clone(), answer.clone(), tls.clone());
                std::thread::spawn(move || match tls {
                    None => serve(stream, &seen, &*answer),
                    Some(config) => {
                        let connection = rustls::ServerConnection::new(config).unwrap();
                        serve(
                            rustls::StreamOwned::new(connection, stream),
                            &seen,
                            &*answer,
                        )
                    }
                });
            }
        });
        FakeServer { url, requests }
    }

    /// Every request so far, oldest first.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }
}

/// One connection: one request, one answer (`Connection: close`).
fn serve(stream: impl Read + Write, seen: &Mutex<Vec<Request>>, answer: &Answer) {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_string();
    let path = parts.next().unwrap_or_default().to_string();
    let mut headers = vec![];
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 || h == "\r\n" {
            break;
        }
        if let Some((k, v)) = h.trim_end().split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let length = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let request = Request {
        method,
        path,
        headers,
        body,
    };
    // Seen as soon as it arrived, before a slow answer is made.
    seen.lock().unwrap().push(request.clone());
    let reply = answer(&request);
    let mut extra = String::new();
    let (status, content_type, body) = match reply {
        Reply::Json(status, body) => (status, "application/json", body.to_string()),
        Reply::JsonWith(status, body, headers) => {
            for (name, value) in headers {
                extra.push_str(&format!("{name}: {value}\r\n"));
            }
            (status, "application/json", body.to_string())
        }
        Reply::Text(status, body) => (status, "text/plain", body),
        Reply::Html(status, body) => (status, "text/html; charset=utf-8", body),
        Reply::Never => {
            // Long enough for any client timeout in these tests.
            std::thread::sleep(Duration::from_secs(30));
            return;
        }
    };
    let stream = reader.get_mut();
    let _ = write!(
        stream,
        "HTTP/1.1 {status} X\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         {extra}Connection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.flush();
}

/// A certificate authority made for one test: its certificate (PEM, for a
/// tool's `ca_file`) and what it signs.
pub struct TestCa {
    pub pem: String,
    issuer: rcgen::Issuer<'static, rcgen::KeyPair>,
}

/// A server certificate and its private key.
pub struct ServerCert {
    der: CertificateDer<'static>,
    key: PrivateKeyDer<'static>,
}

impl TestCa {
    pub fn new(name: &str) -> TestCa {
        let mut params = rcgen::CertificateParams::new(vec![]).unwrap();
        params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, name);
        params.key_usages = vec![
            rcgen::KeyUsagePurpose::KeyCertSign,
            rcgen::KeyUsagePurpose::DigitalSignature,
        ];
        let key = rcgen::KeyPair::generate().unwrap();
        let cert = params.self_signed(&key).unwrap();
        TestCa {
            pem: cert.pem(),
            issuer: rcgen::Issuer::new(params, key),
        }
    }

    /// A certificate for `names` signed by this CA and its private key, as
    /// PEM, for a server that reads files.
    pub fn server_pems(&self, names: &[&str]) -> (String, String) {
        let (cert, key) = self.signed(names);
        (cert.pem(), key.serialize_pem())
    }

    /// A certificate for `names` (DNS names or IP addresses) signed by this CA.
    pub fn server_cert(&self, names: &[&str]) -> ServerCert {
        let (cert, key) = self.signed(names);
        ServerCert {
            der: cert.der().clone(),
            key: PrivatePkcs8KeyDer::from(key.serialize_der()).into(),
        }
    }

    /// A server certificate for `names` and its key.
    fn signed(&self, names: &[&str]) -> (rcgen::Certificate, rcgen::KeyPair) {
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let mut params = rcgen::CertificateParams::new(names).unwrap();
        params
            .extended_key_usages
            .push(rcgen::ExtendedKeyUsagePurpose::ServerAuth);
        let key = rcgen::KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        (cert, key)
    }
}

/// An OpenAI-style chat completion whose message is `content`.
pub fn completion(content: &str, total_tokens: u64) -> Value {
    json!({
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
            "finish_reason": "stop"}],
        "usage": {"prompt_tokens": total_tokens / 2, "completion_tokens": total_tokens - total_tokens / 2,
            "total_tokens": total_tokens},
    })
}

/// A model server that answers every chat completion with `content`, using
/// `total_tokens`.
pub fn model(content: &str, total_tokens: u64) -> FakeServer {
    let answer = completion(content, total_tokens);
    FakeServer::start(move |_| Reply::Json(200, answer.clone()))
}
