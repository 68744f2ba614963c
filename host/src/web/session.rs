//! Signing in to the console with an API token, and the session cookie
//! that keeps an operator signed in.
//!
//! A session is a cookie `wakeful_session=<name hex>.<expiry ms>.<generation>.<mac>`,
//! the MAC an HMAC-SHA256 keyed by the name's token hash and a secret kept
//! in the store for that name, over the rest. Any host with the same tokens
//! and store accepts it; changing a token ends its sessions, and `wakeful
//! tokens revoke NAME` (a new generation and secret in the store) ends
//! every session of NAME on every host at once. The session carries the
//! token's name and scopes, read from the config on every request. The
//! cookie is `HttpOnly` (no script reads it), `SameSite=Strict` (no other
//! site's request carries it), and `Secure` when `[api] public_url` is
//! https. Every form carries a CSRF token, a MAC of the cookie, checked on
//! every POST on top of the API's `Origin` check. Sign-in failures are
//! limited per client ([`SignIns`](crate::server::console::SignIns)).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::{Extension, Form};
use maud::html;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::page::page;
use crate::access::{Grant, Scope, Token, tokens_equal};
use crate::model::Millis;
use crate::server::admission::Client;
use crate::server::{ApiError, ApiState, blocking};

const COOKIE: &str = "wakeful_session";
/// How long a sign-in lasts.
const SESSION_MS: Millis = 12 * 60 * 60 * 1000;
/// The operator a console request comes from, and the CSRF token its forms
/// carry.
#[derive(Clone, Debug)]
pub struct Operator {
    /// The name of the API token they signed in with: the audit log's `by`.
    pub name: String,
    /// What that token may do.
    pub grant: Grant,
    pub csrf: String,
}

/// `GET /ui/login`.
pub async fn login_page() -> Response {
    login_form(StatusCode::OK, None)
}

fn login_form(status: StatusCode, error: Option<&str>) -> Response {
    let body = html! {
        @if let Some(e) = error { p.refused role="alert" { (e) } }
        form method="post" action="/ui/login" {
            p {
                label for="token" { "API token" }
                input #token name="token" type="password" required autocomplete="current-password";
            }
            p.small {
                "A token `wakeful serve` takes: one of `[api.tokens]`, `WAKEFUL_API_TOKEN`, or "
                "the file `<data>/api-token`. You stay signed in for 12 hours."
            }
            p { button.approve type="submit" { "Sign in" } }
        }
    };
    (status, Html(page("Sign in", body).into_string())).into_response()
}

#[derive(Deserialize)]
pub struct LoginForm {
    token: String,
}

/// `POST /ui/login`: a token of this host → a session cookie. A client
/// with too many recent failures is answered 429, whatever it sends.
pub async fn login(
    State(state): State<Arc<ApiState>>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    Form(form): Form<LoginForm>,
) -> Response {
    let client = peer.map(|Extension(ConnectInfo(addr))| Client::of(addr.ip()));
    let now = Instant::now();
    let found = state.console.sign_ins.attempt(client, now, || {
        state.tokens.find(form.token.trim()).cloned()
    });
    let token = match found {
        Ok(Some(token)) => token,
        Ok(None) => {
            return login_form(
                StatusCode::UNAUTHORIZED,
                Some("That is not one of this host's API tokens."),
            );
        }
        Err(wait) => {
            let seconds = wait.as_secs().max(1);
            let mut response = login_form(
                StatusCode::TOO_MANY_REQUESTS,
                Some(&format!(
                    "Too many failed sign-ins from your address; try again in {seconds} s."
                )),
            );
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
            return response;
        }
    };
    let key = match session_key(&state, &token).await {
        Ok(key) => key,
        Err(e) => return login_form(StatusCode::SERVICE_UNAVAILABLE, Some(&e.to_string())),
    };
    let expires = crate::clock::Clock::now(&crate::clock::SystemClock).saturating_add(SESSION_MS);
    let value = cookie_value(&token.name, expires, &key);
    let cookie = format!(
        "{COOKIE}={value}; {}; Max-Age={}",
        state.console.cookie_attributes(),
        SESSION_MS / 1000
    );
    let mut response = Redirect::to("/ui/").into_response();
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(header::SET_COOKIE, v);
    }
    response
}

/// `POST /ui/logout`: forgets the cookie in this browser.
pub async fn logout(
    State(state): State<Arc<ApiState>>,
    Extension(_): Extension<Operator>,
) -> Response {
    let mut response = Redirect::to("/ui/login").into_response();
    let cookie = format!(
        "{COOKIE}=; {}; Max-Age=0",
        state.console.cookie_attributes()
    );
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(header::SET_COOKIE, v);
    }
    response
}

/// Lets a console request through with a valid session (and, for a POST, a
/// form whose `csrf` field matches it); sends anyone else to sign in. A
/// page (any GET) needs the `read` scope; each act checks its own.
pub async fn require_session(
    State(state): State<Arc<ApiState>>,
    mut request: Request,
    next: Next,
) -> Response {
    let now = crate::clock::Clock::now(&crate::clock::SystemClock);
    let Some(operator) = session(&state, request.headers(), now).await else {
        return if request.method() == Method::GET {
            Redirect::to("/ui/login").into_response()
        } else {
            login_form(
                StatusCode::UNAUTHORIZED,
                Some("Your session has ended; sign in again. Nothing was done."),
            )
        };
    };
    if request.method() == Method::GET
        && let Err(why) = operator.grant.require(&operator.name, Scope::Read)
    {
        return forbidden(&why);
    }
    request.extensions_mut().insert(operator);
    next.run(request).await
}

/// A console refusal for want of a scope.
pub fn forbidden(why: &str) -> Response {
    let body = html! {
        p.refused role="alert" { strong { "Not allowed: " } (why) ". Nothing was done." }
        p { a href="/ui/" { "Back" } }
    };
    let page = Html(page("Not allowed", body).into_string());
    (StatusCode::FORBIDDEN, page).into_response()
}

/// Refuses a console form whose CSRF token is not the session's.
pub fn check_csrf(operator: &Operator, given: &str) -> Result<(), Box<Response>> {
    if tokens_equal(given, &operator.csrf) {
        Ok(())
    } else {
        let body = html! {
            p.refused role="alert" {
                "This form did not come from this console (its CSRF token is wrong). Nothing was done."
            }
        };
        let page = Html(page("Refused", body).into_string());
        Err(Box::new((StatusCode::FORBIDDEN, page).into_response()))
    }
}

async fn session(state: &Arc<ApiState>, headers: &HeaderMap, now: Millis) -> Option<Operator> {
    let value = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|c| c.trim().strip_prefix("wakeful_session="))?
        .to_string();
    let mut parts = value.split('.');
    let (name_hex, expires) = (parts.next()?, parts.next()?);
    let (generation, mac) = (parts.next()?, parts.next()?);
    let name = String::from_utf8(hex::decode(name_hex).ok()?).ok()?;
    let expires: Millis = expires.parse().ok()?;
    if expires <= now {
        return None;
    }
    // Only a configured name reaches the store: a forged cookie makes no row.
    let token = state.tokens.named(&name)?.clone();
    let key = session_key(state, &token).await.ok()?;
    if generation != key.generation.to_string() {
        return None;
    }
    let expected = cookie_value(&name, expires, &key);
    let expected_mac = expected.rsplit('.').next()?;
    if !tokens_equal(mac, expected_mac) {
        return None;
    }
    Some(Operator {
        csrf: hmac_hex(&key.bytes, &format!("csrf:{value}")),
        name,
        grant: token.grant,
    })
}

/// What signs one principal's sessions: the generation they carry, and a
/// key made of the token's hash and the store's secret for that name.
struct SessionKey {
    generation: i64,
    bytes: [u8; 32],
}

async fn session_key(state: &Arc<ApiState>, token: &Token) -> Result<SessionKey, ApiError> {
    let name = token.name.clone();
    let (generation, secret) =
        blocking(state, move |app| Ok(app.store.session_key(&name)?)).await?;
    let mut h = Sha256::new();
    h.update(b"wakeful console session key\0");
    h.update(token.sha256);
    h.update(secret.as_bytes());
    Ok(SessionKey {
        generation,
        bytes: h.finalize().into(),
    })
}

fn cookie_value(name: &str, expires: Millis, key: &SessionKey) -> String {
    let head = format!("{}.{expires}.{}", hex::encode(name), key.generation);
    let mac = hmac_hex(&key.bytes, &head);
    format!("{head}.{mac}")
}

/// HMAC-SHA256 (RFC 2104) of `message`, hex.
fn hmac_hex(key: &[u8; 32], message: &str) -> String {
    let mut block = [0u8; 64];
    block[..32].copy_from_slice(key);
    let pad = |byte: u8| block.map(|b| b ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message.as_bytes())
        .finalize();
    let outer = Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize();
    hex::encode(outer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_the_rfc_4231_vector() {
        // RFC 4231, test case 2: key "Jefe" (zero-padded to 32 bytes here
        // changes nothing: HMAC pads short keys with zeros).
        let mut k = [0u8; 32];
        k[..4].copy_from_slice(b"Jefe");
        assert_eq!(
            hmac_hex(&k, "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
