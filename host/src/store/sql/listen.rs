//! Hearing other hosts' wakes: a connection of its own that `LISTEN`s on
//! the channel [`super::db::Connection::notify_wake`] sends on, so that an
//! event taken by one host's API reaches idle workers on every host at
//! once. A notification can be lost (the connection drops, the server
//! restarts); workers still re-check on their interval, so a lost one
//! delays a run by at most that much.

use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use fallible_iterator::FallibleIterator;

/// The channel wakes are sent on.
pub const CHANNEL: &str = "wakeful_wake";

/// The `application_name` of listening connections, so that an operator
/// (or a test) can find them in `pg_stat_activity`.
pub const APPLICATION_NAME: &str = "wakeful-listen";

/// How long one wait for a notification lasts before `stop` is checked.
const TICK: Duration = Duration::from_millis(250);

/// Calls `on_wake` for every wake heard on `url` until `stop`, reconnecting
/// after a lost connection (and waking once then, for what was missed).
/// `on_error` hears why a connection failed.
pub fn listen(url: &str, stop: &AtomicBool, on_wake: impl Fn(), on_error: impl Fn(&str)) {
    let mut backoff = Duration::from_millis(100);
    while !stop.load(Ordering::SeqCst) {
        match listen_once(url, stop, &on_wake) {
            Ok(()) => return,
            Err(why) => {
                on_error(&why);
                on_wake();
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(Duration::from_secs(5));
            }
        }
    }
}

/// Listens on one connection; `Err` when it failed or was lost.
fn listen_once(url: &str, stop: &AtomicBool, on_wake: &impl Fn()) -> Result<(), String> {
    let mut config = postgres::Config::from_str(url).map_err(|e| e.to_string())?;
    config.application_name(APPLICATION_NAME);
    let mut client = config
        .connect(postgres::NoTls)
        .map_err(|e| format!("connecting to listen for wakes: {e}"))?;
    client
        .batch_execute(&format!("LISTEN {CHANNEL}"))
        .map_err(|e| format!("listening for wakes: {e}"))?;
    while !stop.load(Ordering::SeqCst) {
        {
            let mut notifications = client.notifications();
            let mut iter = notifications.timeout_iter(TICK);
            // Each wake is passed on as it arrives: the iterator then
            // waits up to `TICK` for the next one.
            while iter
                .next()
                .map_err(|e| format!("reading wakes: {e}"))?
                .is_some()
            {
                on_wake();
            }
        }
        if client.is_closed() {
            return Err("the connection listening for wakes was closed".into());
        }
    }
    Ok(())
}
