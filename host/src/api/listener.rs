//! The API's accept loop and its connections, under the rules of
//! [`admission`](crate::server::admission): connections are taken from the kernel
//! as they come, each is served by hyper on a task of its own, its bytes
//! counted both ways, its request's headers, body and answer reported to
//! the table; a connection the rules close is closed by its task, with an
//! answer that names the rule when one can still be written.

use std::convert::Infallible;
use std::future::Future;
use std::io::{self, Read};
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use hyper::body::{Body, Bytes, Frame, Incoming, SizeHint};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::{GracefulShutdown, Watcher};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::server::admission::{Admission, Conn, Cut, Kind, Limits};
use crate::server::{ApiError, ApiState};

/// How often waiting connections are checked against the minimum rate.
const SWEEP: Duration = Duration::from_millis(250);

/// How often what the rules closed is logged, when they closed anything.
const REPORT: Duration = Duration::from_secs(10);

/// Connections the kernel may queue for the accept loop. The loop takes
/// them as they come, but a burst of connections (a flood reopening what
/// the rules closed) can outrun it; past the queue, the kernel drops a
/// connection's first packet and its client tries again a second later.
const BACKLOG: u32 = 1024;

/// Listens on `listen` (`host:port`; the first address it names that can
/// be bound) with room for [`BACKLOG`] connections in the kernel's queue.
pub async fn bind(listen: &str) -> io::Result<TcpListener> {
    let mut last = None;
    for addr in tokio::net::lookup_host(listen).await? {
        let socket = match addr {
            SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
            SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
        };
        socket.set_reuseaddr(true)?;
        match socket.bind(addr).and_then(|()| socket.listen(BACKLOG)) {
            Ok(listener) => return Ok(listener),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| {
        io::Error::new(io::ErrorKind::InvalidInput, "the address names no host")
    }))
}

/// Serves the API on `listener` until `shutdown` completes, then lets the
/// requests in flight finish.
pub async fn serve(
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
    state: Arc<ApiState>,
) -> io::Result<()> {
    let admission = state.connections.clone();
    let app = super::router(state);
    // One slot per open connection (a file descriptor each).
    let slots = Arc::new(Semaphore::new(admission.limits().max_connections));
    let graceful = GracefulShutdown::new();
    let sweeper = tokio::spawn(sweep(admission.clone()));
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let slot = tokio::select! {
            slot = take_slot(&slots, &admission) => slot,
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of file descriptors, a connection reset before it was
                // taken: nothing to answer; look again shortly.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let served = connection(
            stream,
            peer,
            app.clone(),
            admission.clone(),
            graceful.watcher(),
        );
        tokio::spawn(async move {
            served.await;
            drop(slot);
        });
    }
    graceful.shutdown().await;
    sweeper.abort();
    Ok(())
}

/// A slot for the next connection. With every slot held, a connection
/// that waits on its client is closed for it; while none waits, this waits
/// for one to end or to start waiting.
async fn take_slot(slots: &Arc<Semaphore>, admission: &Admission) -> OwnedSemaphorePermit {
    loop {
        if let Ok(slot) = slots.clone().try_acquire_owned() {
            return slot;
        }
        let made = admission.make_room();
        tokio::select! {
            slot = slots.clone().acquire_owned() => {
                return slot.expect("the semaphore is never closed");
            }
            () = admission.waiting_changed(), if !made => {}
        }
    }
}

/// Checks the waiting connections against the minimum rate, and logs what
/// the rules closed now and then (a flood closes thousands a second).
async fn sweep(admission: Arc<Admission>) {
    let mut tick = tokio::time::interval(SWEEP);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut reported = (Instant::now(), admission.closed.by_rule());
    loop {
        tick.tick().await;
        let now = Instant::now();
        admission.sweep(now);
        if now.duration_since(reported.0) < REPORT {
            continue;
        }
        let counts = admission.closed.by_rule();
        let since: Vec<String> = (counts.iter().zip(&reported.1))
            .filter(|((_, n), (_, before))| n > before)
            .map(|((rule, n), (_, before))| format!("{rule}: {}", n - before))
            .collect();
        if !since.is_empty() {
            let (waiting, handled) = admission.open();
            tracing::warn!(
                closed = since.join(", "),
                waiting,
                handled,
                "connections closed or refused under the connection limits in the last {} s",
                REPORT.as_secs()
            );
        }
        reported = (now, counts);
    }
}

/// One connection, from the first run of its task (when the table counts
/// it) to its end, or to the rules closing it.
async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    router: Router,
    admission: Arc<Admission>,
    watcher: Watcher,
) {
    let conn = Arc::new(admission.register(peer.ip()));
    let stream = Arc::new(Mutex::new(Some(stream)));
    let io = Metered {
        stream: stream.clone(),
        moved: conn.moved(),
    };
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(admission.limits().header_timeout);
    let service = {
        let conn = conn.clone();
        hyper::service::service_fn(move |request| {
            handle(request, peer, router.clone(), conn.clone())
        })
    };
    let served = watcher.watch(http.serve_connection(TokioIo::new(io), service));
    tokio::select! {
        biased;
        cut = conn.closed() => close(&stream, cut, admission.limits()),
        _ = served => {}
    }
}

/// One request: its kind takes its place, its body is watched to its end,
/// and its answer frees the place.
async fn handle(
    mut request: Request<Incoming>,
    peer: SocketAddr,
    mut router: Router,
    conn: Arc<Conn>,
) -> Result<Response, Infallible> {
    // Handlers that record who called (callback links) read the peer's
    // address from the request.
    request.extensions_mut().insert(ConnectInfo(peer));
    let kind = Kind::of(request.uri().path());
    if let Err(full) = conn.begin(kind, request.body().is_end_stream()) {
        conn.answered();
        let mut refused =
            ApiError::Rejected(StatusCode::SERVICE_UNAVAILABLE, full.to_string()).into_response();
        refused
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        return Ok(refused);
    }
    let answered = Answered(conn.clone());
    let request = request.map(|body| {
        axum::body::Body::new(Watched {
            body,
            conn: Some(conn),
        })
    });
    let response = tower_service::Service::call(&mut router, request).await;
    drop(answered);
    response
}

/// Tells the table a request was answered, also when its connection was
/// closed before.
struct Answered(Arc<Conn>);

impl Drop for Answered {
    fn drop(&mut self) {
        self.0.answered();
    }
}

/// A request's body, which tells the table once it has all arrived or its
/// handler wants no more of it.
struct Watched {
    body: Incoming,
    conn: Option<Arc<Conn>>,
}

impl Watched {
    fn done(&mut self) {
        if let Some(conn) = self.conn.take() {
            conn.received();
        }
    }
}

impl Body for Watched {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.body).poll_frame(cx);
        if matches!(polled, Poll::Ready(None | Some(Err(_)))) || this.body.is_end_stream() {
            this.done();
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        self.done();
    }
}

/// A connection's socket, shared with its task so that the task can write
/// a last answer on it once hyper is set aside; every byte read or written
/// is counted.
struct Metered {
    stream: Arc<Mutex<Option<TcpStream>>>,
    moved: Arc<AtomicU64>,
}

fn locked(stream: &Mutex<Option<TcpStream>>) -> MutexGuard<'_, Option<TcpStream>> {
    stream.lock().unwrap_or_else(|e| e.into_inner())
}

impl Metered {
    /// Polls `op` on the socket, counting what it moved; a socket the task
    /// took (the rules closed it) reads as closed.
    fn with<T>(
        &self,
        op: impl FnOnce(Pin<&mut TcpStream>) -> Poll<io::Result<T>>,
        moved: impl FnOnce(&T) -> usize,
    ) -> Poll<io::Result<T>> {
        let mut stream = locked(&self.stream);
        let Some(stream) = stream.as_mut() else {
            return Poll::Ready(Err(io::ErrorKind::ConnectionAborted.into()));
        };
        let polled = op(Pin::new(stream));
        if let Poll::Ready(Ok(done)) = &polled {
            self.moved.fetch_add(moved(done) as u64, Ordering::Relaxed);
        }
        polled
    }
}

impl AsyncRead for Metered {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = self.with(|s| s.poll_read(cx, buf), |_| 0);
        self.moved
            .fetch_add((buf.filled().len() - before) as u64, Ordering::Relaxed);
        polled
    }
}

impl AsyncWrite for Metered {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.with(|s| s.poll_write(cx, buf), |n| *n)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.with(|s| s.poll_write_vectored(cx, bufs), |n| *n)
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.with(|s| s.poll_flush(cx), |_| 0)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.with(|s| s.poll_shutdown(cx), |_| 0)
    }
}

/// Closes a connection the rules closed: takes its socket from hyper,
/// answers when a request was under way and no answer of its own can be
/// half-written, and reads what the client had sent, so that the close
/// does not reset the connection before the client reads the answer.
fn close(stream: &Mutex<Option<TcpStream>>, (cut, answerable): (Cut, bool), limits: &Limits) {
    let Some(stream) = locked(stream).take() else {
        return;
    };
    if answerable {
        let _ = stream.try_write(raw_answer(cut, limits).as_bytes());
    }
    let Ok(stream) = stream.into_std() else {
        return;
    };
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let mut unread = [0u8; 8 << 10];
    for _ in 0..8 {
        match (&stream).read(&mut unread) {
            Ok(n) if n > 0 => continue,
            _ => break,
        }
    }
}

/// A whole HTTP answer naming the rule and its value, written by hand:
/// hyper no longer holds the connection.
fn raw_answer(cut: Cut, limits: &Limits) -> String {
    let status = StatusCode::from_u16(cut.status()).expect("the rules' statuses are valid");
    let body = serde_json::json!({"error": cut.message(limits)}).to_string();
    let retry = if cut == Cut::TooSlow {
        ""
    } else {
        "Retry-After: 1\r\n"
    };
    format!(
        "HTTP/1.1 {} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{retry}\
         Connection: close\r\n\r\n{body}",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    )
}
