//! The console's settings and its memory of failed sign-ins, kept in the
//! shared state; the console itself is [`crate::web`]'s.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::admission::Client;

/// Failed sign-ins one client may make in [`SIGN_IN_WINDOW`]; past them
/// every sign-in of that client is answered 429 until the oldest failure
/// is older than the window.
const SIGN_IN_FAILURES: usize = 5;
const SIGN_IN_WINDOW: Duration = Duration::from_secs(60);
/// Clients whose failures are remembered at once; past it, those whose
/// failures have all aged out are forgotten.
const SIGN_IN_CLIENTS: usize = 4096;

/// The console's settings and its memory of failed sign-ins.
#[derive(Debug, Default)]
pub struct Console {
    /// Cookies get `Secure` (`[api] public_url` is https).
    pub secure_cookie: bool,
    pub sign_ins: SignIns,
}

impl Console {
    pub fn of(config: &crate::config::Config) -> Console {
        let https = (config.api.public_url.as_deref())
            .is_some_and(|u| u.to_ascii_lowercase().starts_with("https://"));
        Console {
            secure_cookie: https,
            sign_ins: SignIns::default(),
        }
    }

    /// The attributes of the session cookie.
    pub fn cookie_attributes(&self) -> &'static str {
        if self.secure_cookie {
            "Path=/; HttpOnly; SameSite=Strict; Secure"
        } else {
            "Path=/; HttpOnly; SameSite=Strict"
        }
    }
}

/// Recent failed sign-ins per client (an IPv4 address or IPv6 /64).
#[derive(Debug, Default)]
pub struct SignIns(Mutex<HashMap<Client, Vec<Instant>>>);

impl SignIns {
    /// Runs `check` (the token's comparison) for `client` unless it must
    /// wait (`Err`: how long), and remembers a failed one. Both under one
    /// lock, so that guesses sent in parallel are all counted.
    pub fn attempt<T>(
        &self,
        client: Option<Client>,
        now: Instant,
        check: impl FnOnce() -> Option<T>,
    ) -> Result<Option<T>, Duration> {
        let Some(client) = client else {
            return Ok(check());
        };
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(failures) = all.get_mut(&client) {
            failures.retain(|at| now.duration_since(*at) < SIGN_IN_WINDOW);
            if failures.len() >= SIGN_IN_FAILURES {
                let oldest = failures.iter().min().copied().unwrap_or(now);
                return Err(SIGN_IN_WINDOW.saturating_sub(now.duration_since(oldest)));
            }
        }
        let found = check();
        if found.is_none() {
            if all.len() >= SIGN_IN_CLIENTS {
                all.retain(|_, f| f.iter().any(|at| now.duration_since(*at) < SIGN_IN_WINDOW));
            }
            all.entry(client).or_default().push(now);
        }
        Ok(found)
    }
}
