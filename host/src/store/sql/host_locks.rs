//! The locks that prove a host alive: each process that claims runs holds
//! the lock of its host id for as long as it lives, and only the end of
//! that process (or, on PostgreSQL, of its lock's session) lets it go.
//!
//! - On SQLite every process of a data file runs on one machine: a host
//!   holds an exclusive `flock` on `<data file>.hosts/<id>.lock`. The
//!   kernel drops it when the process ends, however it ends (SIGKILL
//!   included); a lock file is never deleted, so that two processes can
//!   never lock two files of one name.
//! - On PostgreSQL hosts may run on several machines: a host holds a
//!   session-level advisory lock, keyed by the store's schema and its id,
//!   on a connection of its own. The server drops it when that session
//!   ends: the process died, or the connection was lost, in which case the
//!   host takes it again at its next heartbeat ([`HostLocks::keep`]).

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::store::{Result, StoreError, StoreUrl};

/// Tries, 100 ms apart, to take back a lock lost with its session.
const RETAKE_TRIES: u32 = 30;

/// Where the hosts of one store take their locks, and this process's own.
pub struct HostLocks {
    place: Place,
    /// This process's own id and, on SQLite, the file it holds locked.
    own: Option<(String, Option<File>)>,
}

enum Place {
    /// The directory of the lock files.
    Files(PathBuf),
    Postgres(Box<Session>),
}

/// The connection whose session holds this process's advisory lock.
struct Session {
    client: postgres::Client,
    config: postgres::Config,
    /// The store's schema: one database may hold several stores.
    schema: String,
    shown: String,
}

impl HostLocks {
    /// The locks of the store `url` names (as [`crate::store::open`]
    /// takes it) with `data_dir`.
    pub fn open(url: Option<&str>, data_dir: &Path) -> Result<HostLocks> {
        let place = match url.map(StoreUrl::parse).transpose()? {
            None => Place::files(&data_dir.join("wakeful.db"))?,
            Some(StoreUrl::Sqlite(path)) => Place::files(path)?,
            Some(StoreUrl::Postgres(url)) => Place::Postgres(Box::new(Session::open(url)?)),
        };
        Ok(HostLocks { place, own: None })
    }

    /// Whether a lock can be lost while its process lives on (a lost
    /// PostgreSQL session): then only a lock free *and* a silent heartbeat
    /// prove a host gone.
    pub fn can_be_lost(&self) -> bool {
        matches!(self.place, Place::Postgres(_))
    }

    /// Takes the lock of `id` as this process's own, if no live process
    /// holds it; it is held until the process ends.
    pub fn take(&mut self, id: &str) -> Result<bool> {
        assert!(self.own.is_none(), "a process takes one host id");
        let held = match &mut self.place {
            Place::Files(dir) => lock_file(dir, id, true)?.map(Some),
            Place::Postgres(session) => session.try_lock(id)?.then_some(None),
        };
        let taken = held.is_some();
        if let Some(file) = held {
            self.own = Some((id.to_string(), file));
        }
        Ok(taken)
    }

    /// Runs `f` while holding the lock of `id`, another host's, when no
    /// live process holds it: that host's process is gone, and no process
    /// can take its id until `f` returns. `None` when a live process holds
    /// it, or when no process ever took it here (no lock file).
    pub fn while_gone<T>(&mut self, id: &str, f: impl FnOnce() -> Result<T>) -> Result<Option<T>> {
        if self.own.as_ref().is_some_and(|(own, _)| own == id) {
            return Ok(None);
        }
        match &mut self.place {
            Place::Files(dir) => match lock_file(dir, id, false)? {
                // Unlocked when the file is closed, after `f`.
                Some(_file) => f().map(Some),
                None => Ok(None),
            },
            Place::Postgres(session) => {
                if !session.try_lock(id)? {
                    return Ok(None);
                }
                let out = f();
                session.unlock(id)?;
                out.map(Some)
            }
        }
    }

    /// Checks that this process still holds its own lock. A lost
    /// PostgreSQL session is opened again and the lock taken again;
    /// `false` when another process took it meanwhile (this process must
    /// then stop: two processes would be one host). An error when the
    /// database cannot be reached: nothing is known yet.
    pub fn keep(&mut self) -> Result<bool> {
        let (Place::Postgres(session), Some((id, _))) = (&mut self.place, &self.own) else {
            return Ok(true);
        };
        if session.client.simple_query("SELECT 1").is_ok() {
            return Ok(true);
        }
        session.reconnect()?;
        // Another host may hold it for a moment, taking over the claims
        // of this one while its heartbeat was silent ([`while_gone`]): a
        // process that took the id holds it for good.
        for _ in 0..RETAKE_TRIES {
            if session.try_lock(id)? {
                return Ok(true);
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        Ok(false)
    }
}

impl Place {
    fn files(data_file: &Path) -> Result<Place> {
        let mut name = data_file.file_name().unwrap_or_default().to_os_string();
        name.push(".hosts");
        let dir = data_file.with_file_name(name);
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(&dir).map_err(|e| {
            StoreError::Db(format!(
                "cannot make {}, where hosts keep the locks that prove them alive: {e}",
                dir.display()
            ))
        })?;
        Ok(Place::Files(dir))
    }
}

/// The file that holds the lock of host `id` in `dir`, locked by this
/// process: `None` when another process holds it, or when it does not
/// exist and `create` is not set.
fn lock_file(dir: &Path, id: &str, create: bool) -> Result<Option<File>> {
    let name: String = id
        .chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '-' | '_' | ':' => c,
            _ => '_',
        })
        .collect();
    let path = dir.join(format!("{name}.lock"));
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(create);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = match options.open(&path) {
        Ok(file) => file,
        Err(e) if !create && e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(StoreError::Db(format!(
                "cannot open the host lock {}: {e}",
                path.display()
            )));
        }
    };
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(TryLockError::WouldBlock) => Ok(None),
        Err(TryLockError::Error(e)) => Err(StoreError::Db(format!(
            "cannot lock the host lock {}: {e}",
            path.display()
        ))),
    }
}

impl Session {
    fn open(url: &str) -> Result<Session> {
        let (mut client, config, shown) = super::postgres::connect_only(url)?;
        let schema: String = client
            .query_one("SELECT current_schema()::text", &[])
            .map_err(|e| pg_failed(&shown, "reading the store's schema", &e))?
            .get(0);
        Ok(Session {
            client,
            config,
            schema,
            shown,
        })
    }

    fn reconnect(&mut self) -> Result<()> {
        self.client = self
            .config
            .connect(postgres::NoTls)
            .map_err(|e| pg_failed(&self.shown, "connecting again", &e))?;
        Ok(())
    }

    /// The advisory lock key of host `id` in this store.
    fn key(&self, id: &str) -> i64 {
        let digest = Sha256::new()
            .chain_update(b"wakeful host\0")
            .chain_update(self.schema.as_bytes())
            .chain_update(b"\0")
            .chain_update(id.as_bytes())
            .finalize();
        i64::from_be_bytes(digest[..8].try_into().expect("8 bytes"))
    }

    fn try_lock(&mut self, id: &str) -> Result<bool> {
        let key = self.key(id);
        self.client
            .query_one("SELECT pg_try_advisory_lock($1)", &[&key])
            .map(|row| row.get(0))
            .map_err(|e| pg_failed(&self.shown, &format!("locking host {id}"), &e))
    }

    fn unlock(&mut self, id: &str) -> Result<()> {
        let key = self.key(id);
        self.client
            .query_one("SELECT pg_advisory_unlock($1)", &[&key])
            .map(|_| ())
            .map_err(|e| pg_failed(&self.shown, &format!("unlocking host {id}"), &e))
    }
}

fn pg_failed(shown: &str, what: &str, e: &postgres::Error) -> StoreError {
    StoreError::Db(format!(
        "{what} on {shown}: {}",
        super::postgres::describe(e)
    ))
}
