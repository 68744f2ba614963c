//! The handlers' store connections: a small pool of [`App`]s, each with its own
//! SQLite connection, opened on demand and bounded by a semaphore. A
//! handler holds one app for one operation, so a slow operation (a deploy
//! compiling a large component, an upgrade of every run of an agent) holds
//! one connection and never the others: approval answers, events and reads
//! go on beside it. SQLite orders the writes of all connections itself.
//!
//! Slow operations also take a permit of their own, so that they can never
//! hold every connection at once.

use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::ApiError;
use crate::app::App;

/// Opens one more app on the store (its own connection, the process's
/// shared engine).
pub type Opener = Box<dyn Fn() -> Result<App, ApiError> + Send + Sync>;

/// How an operation uses its connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// Store reads and short writes.
    Quick,
    /// May take seconds or minutes (compiling, migrating many runs).
    Slow,
}

pub struct Pool {
    /// Apps not in use. Taken and given back under this lock only for the
    /// pop or the push; never held while an operation runs.
    idle: Mutex<Vec<App>>,
    /// One permit per connection that may be open at once.
    connections: Arc<Semaphore>,
    /// Permits for slow operations: fewer than `connections`, so quick ones
    /// always find one free.
    slow: Arc<Semaphore>,
    open: Opener,
}

/// One app lent to an operation, with the permits that let it run; given
/// back to the pool when dropped.
pub struct Lent {
    app: Option<App>,
    pool: Arc<Pool>,
    _connection: OwnedSemaphorePermit,
    _slow: Option<OwnedSemaphorePermit>,
}

impl Pool {
    /// A pool of at most `size` connections (at least 2), of which at most
    /// `size - 1` serve slow operations. `first` is the first idle app.
    pub fn new(size: usize, slow: usize, first: Option<App>, open: Opener) -> Pool {
        let size = size.max(2);
        Pool {
            idle: Mutex::new(first.into_iter().collect()),
            connections: Arc::new(Semaphore::new(size)),
            slow: Arc::new(Semaphore::new(slow.clamp(1, size - 1))),
            open,
        }
    }

    /// Waits for the permits `pace` needs and lends an app: an idle one, or
    /// a newly opened one.
    pub async fn lend(self: &Arc<Pool>, pace: Pace) -> Result<Lent, ApiError> {
        let closed = |_| ApiError::Internal("the API is shutting down".into());
        // The slow permit first: a slow operation queued behind others
        // holds no connection while it waits.
        let slow = match pace {
            Pace::Slow => Some(self.slow.clone().acquire_owned().await.map_err(closed)?),
            Pace::Quick => None,
        };
        let connection = self
            .connections
            .clone()
            .acquire_owned()
            .await
            .map_err(closed)?;
        let idle = self
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let app = match idle {
            Some(app) => app,
            None => {
                let pool = self.clone();
                tokio::task::spawn_blocking(move || (pool.open)())
                    .await
                    .map_err(|e| {
                        ApiError::Internal(format!("opening a connection failed: {e}"))
                    })??
            }
        };
        Ok(Lent {
            app: Some(app),
            pool: self.clone(),
            _connection: connection,
            _slow: slow,
        })
    }
}

impl Lent {
    pub fn app(&mut self) -> &mut App {
        self.app.as_mut().expect("an app is lent until dropped")
    }
}

impl Drop for Lent {
    fn drop(&mut self) {
        // Every store write is one transaction, so an app whose operation
        // failed or panicked holds nothing half-done: it can be lent again.
        if let Some(app) = self.app.take() {
            self.pool
                .idle
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(app);
        }
    }
}
