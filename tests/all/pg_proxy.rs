//! A TCP proxy in front of PostgreSQL that can silently cut one kind of
//! connection: the ones a host listens for wakes on. A cut connection stays
//! open but nothing the server sends reaches the host any more (what the
//! server sent is kept, to show what was lost): a network that drops
//! packets without resetting, which the host cannot tell from a quiet
//! channel. Every other connection is passed through untouched.

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The `application_name` of the connections the proxy can cut.
const LISTENER: &str = "wakeful-listen";

/// One proxied connection.
struct Link {
    client: TcpStream,
    server: TcpStream,
    /// Whether the client named itself a listener at startup.
    listener: bool,
    /// Set by a cut: what the server sends is kept here, not forwarded.
    cut: AtomicBool,
    lost: Mutex<Vec<u8>>,
    closed: AtomicBool,
}

impl Link {
    fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        let _ = self.client.shutdown(Shutdown::Both);
        let _ = self.server.shutdown(Shutdown::Both);
    }
}

pub struct PgProxy {
    pub port: u16,
    links: Arc<Mutex<Vec<Arc<Link>>>>,
}

impl PgProxy {
    /// Starts the proxy on a free loopback port, forwarding to `server`.
    pub fn start(server: SocketAddr) -> PgProxy {
        let socket = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = socket.local_addr().unwrap().port();
        let links: Arc<Mutex<Vec<Arc<Link>>>> = Arc::default();
        let all = links.clone();
        std::thread::spawn(move || {
            for client in socket.incoming().flatten() {
                let all = all.clone();
                std::thread::spawn(move || {
                    if let Some(link) = open(client, server) {
                        all.lock().unwrap().push(link);
                    }
                });
            }
        });
        PgProxy { port, links }
    }

    /// Cuts every open listening connection; returns how many it cut.
    pub fn cut_listeners(&self) -> usize {
        let links = self.links.lock().unwrap();
        let open = links
            .iter()
            .filter(|l| l.listener && !l.closed.load(Ordering::SeqCst));
        open.map(|l| l.cut.store(true, Ordering::SeqCst)).count()
    }

    /// Closes the cut connections, as a network that comes back resets
    /// what it had dropped: the host sees the connection end.
    pub fn close_cut(&self) {
        for l in self.links.lock().unwrap().iter() {
            if l.cut.load(Ordering::SeqCst) {
                l.close();
            }
        }
    }

    /// The ports of the server-side ends of the listening connections that
    /// are open and not cut (`client_port` in `pg_stat_activity`).
    pub fn healthy_listener_ports(&self) -> Vec<u16> {
        self.links
            .lock()
            .unwrap()
            .iter()
            .filter(|l| l.listener && !l.cut.load(Ordering::SeqCst))
            .filter(|l| !l.closed.load(Ordering::SeqCst))
            .map(|l| l.server.local_addr().unwrap().port())
            .collect()
    }

    /// Everything the server sent on cut connections that never arrived.
    pub fn lost(&self) -> Vec<u8> {
        let links = self.links.lock().unwrap();
        links
            .iter()
            .flat_map(|l| l.lost.lock().unwrap().clone())
            .collect()
    }
}

/// Reads the client's startup message (passing an SSL or GSS request
/// through first), connects to the server and starts pumping both ways.
fn open(mut client: TcpStream, server: SocketAddr) -> Option<Arc<Link>> {
    let mut upstream = TcpStream::connect(server).ok()?;
    let startup = loop {
        let message = read_startup(&mut client)?;
        let code = u32::from_be_bytes(message[4..8].try_into().unwrap());
        upstream.write_all(&message).ok()?;
        // SSLRequest and GSSENCRequest: the server answers one byte, then
        // the client sends its real startup message.
        if code == 80877103 || code == 80877104 {
            let mut answer = [0u8; 1];
            upstream.read_exact(&mut answer).ok()?;
            client.write_all(&answer).ok()?;
            continue;
        }
        break message;
    };
    let link = Arc::new(Link {
        client: client.try_clone().ok()?,
        server: upstream.try_clone().ok()?,
        listener: parameters(&startup).contains(&("application_name", LISTENER)),
        cut: AtomicBool::new(false),
        lost: Mutex::new(Vec::new()),
        closed: AtomicBool::new(false),
    });
    let up = link.clone();
    std::thread::spawn(move || {
        let mut from = up.client.try_clone().unwrap();
        let mut to = up.server.try_clone().unwrap();
        let _ = std::io::copy(&mut from, &mut to);
        up.close();
    });
    let down = link.clone();
    std::thread::spawn(move || {
        let mut from = down.server.try_clone().unwrap();
        let mut to = down.client.try_clone().unwrap();
        let mut buf = [0u8; 8192];
        loop {
            let n = match from.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            if down.cut.load(Ordering::SeqCst) {
                down.lost.lock().unwrap().extend_from_slice(&buf[..n]);
            } else if to.write_all(&buf[..n]).is_err() {
                break;
            }
        }
        down.close();
    });
    Some(link)
}

/// A length-prefixed startup-phase message, length included.
fn read_startup(client: &mut TcpStream) -> Option<Vec<u8>> {
    let mut len = [0u8; 4];
    client.read_exact(&mut len).ok()?;
    let n = u32::from_be_bytes(len) as usize;
    if !(8..=10_000).contains(&n) {
        return None;
    }
    let mut message = len.to_vec();
    message.resize(n, 0);
    client.read_exact(&mut message[4..]).ok()?;
    Some(message)
}

/// The `name\0value\0` pairs of a startup message.
fn parameters(startup: &[u8]) -> Vec<(&str, &str)> {
    let fields: Vec<&str> = startup[8..]
        .split(|b| *b == 0)
        .map(|f| std::str::from_utf8(f).unwrap_or(""))
        .collect();
    fields
        .chunks(2)
        .filter(|p| p.len() == 2 && !p[0].is_empty())
        .map(|p| (p[0], p[1]))
        .collect()
}
