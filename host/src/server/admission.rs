//! Who holds the API's connections when clients compete for them, so that
//! no client starves the others: not one address with thousands of slow
//! connections, not one kind of request.
//!
//! A connection either *waits on its client* (its request's headers or
//! body are arriving, its answer is being read, or it is idle between
//! requests) or *is handled* (its request has arrived and the server works
//! on it). How long a wait lasts is the client's choice, so the rules bear
//! on waiting connections, and only they are ever closed for another:
//!
//! - **Progress.** A waiting connection gets `[api] slow_grace_ms`, then
//!   must have moved `min_bytes_per_s` for every second past it, or it is
//!   closed (408 when it was sending a request): a trickle holds a slot for
//!   seconds, not for the request's deadline.
//! - **Per client.** One client (an IPv4 address, or an IPv6 /64) has at
//!   most `max_connections_per_client` waiting connections: a new one
//!   closes that client's longest-waiting one (429). A flood from one
//!   address keeps that many slots and no more, its oldest making way for
//!   its newest, so a request from the same address that arrives whole (a
//!   program sharing loopback with the flood) is read before that many
//!   newer connections could be counted after it.
//! - **In all.** Past `max_connections`, a new connection closes the
//!   longest-waiting one of the client with the most waiting (503): a
//!   client loses a connection to a newcomer only while no other client
//!   has more waiting. While none waits, new connections stay in the
//!   kernel's queue until one ends or starts waiting.
//! - **By kind.** A request's kind is decided once its headers are read:
//!   links (answer links, callback links, `/v1/health`, the pages' static
//!   files) or the rest (operator calls, the console). Each kind holds at
//!   most `max_connections - reserved_connections` connections from its
//!   headers to its answer, so a flood of one kind leaves the other its
//!   reserve. A request of a full kind closes the longest-waiting request
//!   of its kind (a body still arriving), or is answered 503 when every
//!   one of them is being handled.
//!
//! The accept loop (`listener.rs`) takes connections from the kernel as
//! they come, so a fast request never queues there behind slow ones, and a
//! connection is counted here from the first run of its task, which goes
//! on to read what has arrived of its request in that same run.

use std::cmp::Reverse;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use crate::config::ApiConfig;

/// The rules' limits, from `[api]`.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_connections: usize,
    pub per_client: usize,
    pub reserved: usize,
    pub min_bytes_per_s: u64,
    pub grace: Duration,
    pub header_timeout: Duration,
}

impl Limits {
    pub fn of(api: &ApiConfig) -> Limits {
        Limits {
            max_connections: api.max_connections,
            per_client: api.max_connections_per_client,
            reserved: api.reserved_connections,
            min_bytes_per_s: api.min_bytes_per_s,
            grace: Duration::from_millis(api.slow_grace_ms),
            header_timeout: Duration::from_millis(api.header_timeout_ms),
        }
    }

    /// Connections one kind of request may hold from headers to answer.
    fn per_kind(&self) -> usize {
        self.max_connections - self.reserved
    }
}

/// A client as the limits count it: an IPv4 address, or an IPv6 /64 (what
/// one host is usually given).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Client(IpAddr);

impl Client {
    pub fn of(peer: IpAddr) -> Client {
        match peer.to_canonical() {
            IpAddr::V6(v6) => Client(IpAddr::V6((u128::from(v6) & !(u64::MAX as u128)).into())),
            v4 => Client(v4),
        }
    }
}

/// The two kinds of request that keep connections from each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// What people and other systems answer with, and health.
    Link,
    /// Operator calls and the console.
    Other,
}

impl Kind {
    pub fn of(path: &str) -> Kind {
        let link = path == "/v1/health"
            || ["/v1/approve/", "/v1/callback/", "/ui/static/"]
                .iter()
                .any(|p| path.starts_with(p));
        if link { Kind::Link } else { Kind::Other }
    }

    fn index(self) -> usize {
        self as usize
    }

    fn named(self) -> &'static str {
        match self {
            Kind::Link => "answer links, callback links and health checks",
            Kind::Other => "operator and console requests",
        }
    }
}

/// Why the rules closed a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// It moved less than `min_bytes_per_s` once past `slow_grace_ms`.
    TooSlow,
    /// A newer connection of its client needed its place.
    ClientFull,
    /// A newcomer needed its place among `max_connections`.
    ServerFull,
    /// A request of its kind needed its place.
    KindFull(Kind),
}

impl Cut {
    pub fn status(self) -> u16 {
        match self {
            Cut::TooSlow => 408,
            Cut::ClientFull => 429,
            Cut::ServerFull | Cut::KindFull(_) => 503,
        }
    }

    pub fn message(self, l: &Limits) -> String {
        match self {
            Cut::TooSlow => format!(
                "the request arrived slower than {} bytes a second after {} ms \
                 ([api] min_bytes_per_s, slow_grace_ms); the connection is closed",
                l.min_bytes_per_s,
                l.grace.as_millis()
            ),
            Cut::ClientFull => format!(
                "this address has more than {} connections sending requests, reading answers \
                 or idle ([api] max_connections_per_client = {}); its longest-waiting one is \
                 closed for a new one",
                l.per_client, l.per_client
            ),
            Cut::ServerFull => format!(
                "the server holds its {} connections ([api] max_connections); the \
                 longest-waiting one of the address with the most is closed for a new one",
                l.max_connections
            ),
            Cut::KindFull(kind) => format!(
                "{} hold their {} connections ([api] max_connections - reserved_connections); \
                 the longest-waiting one is closed for a new request",
                kind.named(),
                l.per_kind()
            ),
        }
    }
}

/// A request refused at its headers: its kind holds all its connections
/// and every one of them is being handled.
#[derive(Debug)]
pub struct KindFull {
    kind: Kind,
    per_kind: usize,
}

impl std::fmt::Display for KindFull {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the server is handling {} {} at once, its limit ([api] max_connections - \
             reserved_connections); try again shortly",
            self.per_kind,
            self.kind.named()
        )
    }
}

/// Connections the rules closed, and requests they refused, since start.
#[derive(Debug, Default)]
pub struct Closed {
    pub too_slow: AtomicU64,
    pub client_full: AtomicU64,
    pub server_full: AtomicU64,
    pub kind_full: AtomicU64,
    /// Requests answered 503 at their headers ([`KindFull`]).
    pub refused: AtomicU64,
}

impl Closed {
    fn count(&self, cut: Cut) {
        let counter = match cut {
            Cut::TooSlow => &self.too_slow,
            Cut::ClientFull => &self.client_full,
            Cut::ServerFull => &self.server_full,
            Cut::KindFull(_) => &self.kind_full,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Each count, named as in the metrics.
    pub fn by_rule(&self) -> [(&'static str, u64); 5] {
        [
            ("min_bytes_per_s", &self.too_slow),
            ("max_connections_per_client", &self.client_full),
            ("max_connections", &self.server_full),
            ("reserved_connections", &self.kind_full),
            ("refused_kind_full", &self.refused),
        ]
        .map(|(name, c)| (name, c.load(Ordering::Relaxed)))
    }
}

/// How a connection's task learns that the rules closed it: why, and
/// whether an answer may still be written on it.
#[derive(Debug, Default)]
struct Signal {
    cut: OnceLock<(Cut, bool)>,
    rung: Notify,
}

#[derive(Debug)]
struct Entry {
    client: Client,
    /// Since when the server waits on the client; `None` while handled.
    waiting_since: Option<Instant>,
    /// Bytes moved (both ways) when the wait began.
    moved_before: u64,
    /// The kind of the request under way, which holds a place of that
    /// kind from its headers to its answer.
    kind: Option<Kind>,
    /// Whether an answer may be written were it closed now: no answer of
    /// its own can be half-written (its first request, or a request whose
    /// headers were read and that is not answered yet).
    answerable: bool,
    moved: Arc<AtomicU64>,
    signal: Arc<Signal>,
}

#[derive(Debug, Default)]
struct Table {
    next: u64,
    entries: HashMap<u64, Entry>,
    /// Requests of each kind between their headers and their answer.
    kinds: [usize; 2],
}

impl Table {
    fn remove(&mut self, id: u64) -> Option<Entry> {
        let entry = self.entries.remove(&id)?;
        if let Some(kind) = entry.kind {
            self.kinds[kind.index()] -= 1;
        }
        Some(entry)
    }

    /// Takes `id` out and tells its task why.
    fn cut(&mut self, id: u64, why: Cut, closed: &Closed) {
        if let Some(entry) = self.remove(id) {
            let spoke = entry.moved.load(Ordering::Relaxed) > entry.moved_before;
            let _ = entry.signal.cut.set((why, entry.answerable && spoke));
            entry.signal.rung.notify_one();
            closed.count(why);
        }
    }

    /// Of the waiting connections `eligible` picks, the longest-waiting
    /// one of the client that has the most of them.
    fn longest_waiting(&self, eligible: impl Fn(&Entry) -> bool) -> Option<u64> {
        let mut clients: HashMap<Client, (usize, (Instant, u64))> = HashMap::new();
        for (&id, e) in &self.entries {
            let Some(since) = e.waiting_since.filter(|_| eligible(e)) else {
                continue;
            };
            let c = clients.entry(e.client).or_insert((0, (since, id)));
            c.0 += 1;
            c.1 = c.1.min((since, id));
        }
        let (_, (_, id)) = clients
            .into_values()
            .max_by_key(|&(n, oldest)| (n, Reverse(oldest)))?;
        Some(id)
    }
}

/// The connection table and its rules, shared by the accept loop, the
/// connections' tasks and the sweeper.
#[derive(Debug)]
pub struct Admission {
    limits: Limits,
    table: Mutex<Table>,
    /// Rung when a connection starts waiting, and so may be closed for a
    /// newcomer.
    waiting: Notify,
    pub closed: Closed,
}

impl Admission {
    pub fn new(limits: Limits) -> Admission {
        Admission {
            limits,
            table: Mutex::default(),
            waiting: Notify::new(),
            closed: Closed::default(),
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    fn table(&self) -> MutexGuard<'_, Table> {
        // The table is consistent between statements: a panic elsewhere
        // leaves nothing half-changed.
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts a new connection from `peer`, waiting on it from now; past
    /// the per-client limit, that client's longest-waiting one is closed.
    pub fn register(self: &Arc<Self>, peer: IpAddr) -> Conn {
        let client = Client::of(peer);
        let moved = Arc::new(AtomicU64::new(0));
        let signal = Arc::new(Signal::default());
        let mut table = self.table();
        let waiting = (table.entries.values())
            .filter(|e| e.client == client && e.waiting_since.is_some())
            .count();
        if waiting >= self.limits.per_client
            && let Some(oldest) = table.longest_waiting(|e| e.client == client)
        {
            table.cut(oldest, Cut::ClientFull, &self.closed);
        }
        let id = table.next;
        table.next += 1;
        table.entries.insert(
            id,
            Entry {
                client,
                waiting_since: Some(Instant::now()),
                moved_before: 0,
                kind: None,
                answerable: true,
                moved: moved.clone(),
                signal: signal.clone(),
            },
        );
        drop(table);
        self.waiting.notify_one();
        Conn {
            admission: self.clone(),
            id,
            moved,
            signal,
        }
    }

    /// Closes a waiting connection for a newcomer when every slot is held:
    /// the longest-waiting one of the client with the most. `false` when
    /// none waits.
    pub fn make_room(&self) -> bool {
        let mut table = self.table();
        match table.longest_waiting(|_| true) {
            Some(id) => {
                table.cut(id, Cut::ServerFull, &self.closed);
                true
            }
            None => false,
        }
    }

    /// Completes when a connection may have started waiting.
    pub async fn waiting_changed(&self) {
        self.waiting.notified().await
    }

    /// Closes each waiting connection that, past the grace, moved less
    /// than the minimum rate for every second past it.
    pub fn sweep(&self, now: Instant) {
        let l = &self.limits;
        let mut table = self.table();
        let slow: Vec<u64> = (table.entries.iter())
            .filter(|(_, e)| {
                let Some(since) = e.waiting_since else {
                    return false;
                };
                let Some(late) = now.saturating_duration_since(since).checked_sub(l.grace) else {
                    return false;
                };
                let moved = e.moved.load(Ordering::Relaxed) - e.moved_before;
                (moved as f64) < late.as_secs_f64() * l.min_bytes_per_s as f64
            })
            .map(|(&id, _)| id)
            .collect();
        for id in slow {
            table.cut(id, Cut::TooSlow, &self.closed);
        }
    }

    /// Connections counted now: (waiting on their client, handled).
    pub fn open(&self) -> (usize, usize) {
        let table = self.table();
        let waiting = (table.entries.values())
            .filter(|e| e.waiting_since.is_some())
            .count();
        (waiting, table.entries.len() - waiting)
    }
}

/// One connection as the table counts it; dropped when it ends.
#[derive(Debug)]
pub struct Conn {
    admission: Arc<Admission>,
    id: u64,
    moved: Arc<AtomicU64>,
    signal: Arc<Signal>,
}

impl Conn {
    /// The count of bytes moved, which the connection's I/O adds to.
    pub fn moved(&self) -> Arc<AtomicU64> {
        self.moved.clone()
    }

    /// A request's headers were read: it takes a place of its kind (still
    /// waiting while its body arrives; handled at once when it has none).
    pub fn begin(&self, kind: Kind, whole: bool) -> Result<(), KindFull> {
        let admission = &self.admission;
        let per_kind = admission.limits.per_kind();
        let mut table = admission.table();
        if !table.entries.contains_key(&self.id) {
            // Closed already: its task ends it.
            return Ok(());
        }
        if table.kinds[kind.index()] >= per_kind {
            match table.longest_waiting(|e| e.kind == Some(kind)) {
                Some(id) => table.cut(id, Cut::KindFull(kind), &admission.closed),
                None => {
                    admission.closed.refused.fetch_add(1, Ordering::Relaxed);
                    return Err(KindFull { kind, per_kind });
                }
            }
        }
        table.kinds[kind.index()] += 1;
        if let Some(entry) = table.entries.get_mut(&self.id) {
            entry.kind = Some(kind);
            entry.answerable = true;
            if whole {
                entry.waiting_since = None;
            }
        }
        Ok(())
    }

    /// The request has arrived whole (or its handler wants no more of it):
    /// the connection is handled.
    pub fn received(&self) {
        if let Some(entry) = self.admission.table().entries.get_mut(&self.id) {
            entry.waiting_since = None;
        }
    }

    /// The request's answer is ready: its place of its kind is free, and
    /// the server waits on the client again (to read it, or to send more).
    pub fn answered(&self) {
        let mut table = self.admission.table();
        let Some(entry) = table.entries.get_mut(&self.id) else {
            return;
        };
        let kind = entry.kind.take();
        entry.waiting_since = Some(Instant::now());
        entry.moved_before = entry.moved.load(Ordering::Relaxed);
        entry.answerable = false;
        if let Some(kind) = kind {
            table.kinds[kind.index()] -= 1;
        }
        drop(table);
        self.admission.waiting.notify_one();
    }

    /// Why the rules closed it, if they did, and whether an answer may be
    /// written on it.
    pub fn cut(&self) -> Option<(Cut, bool)> {
        self.signal.cut.get().copied()
    }

    /// Completes when the rules close it.
    pub async fn closed(&self) -> (Cut, bool) {
        loop {
            if let Some(cut) = self.cut() {
                return cut;
            }
            self.signal.rung.notified().await;
        }
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        self.admission.table().remove(self.id);
    }
}

#[cfg(test)]
mod tests;
