//! Signing in to the console with an API token, and the session cookie
//! that keeps an operator signed in.
//!
//! A session is a cookie `wakeful_session=<name hex>.<expiry ms>.<mac>`,
//! the MAC an HMAC-SHA256 keyed by a hash of that name's API token: any
//! host with the same tokens accepts it (no session table to share), and
//! changing a token ends its sessions. The cookie is `HttpOnly` (no script
//! reads it) and `SameSite=Strict` (no other site's request carries it).
//! Every form carries a CSRF token, a MAC of the cookie, checked on every
//! POST on top of the API's `Origin` check.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::{Extension, Form};
use maud::html;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::page::page;
use crate::api::ApiState;
use crate::api::auth::tokens_equal;
use crate::model::Millis;

const COOKIE: &str = "wakeful_session";
/// How long a sign-in lasts.
const SESSION_MS: Millis = 12 * 60 * 60 * 1000;

/// The operator a console request comes from, and the CSRF token its forms
/// carry.
#[derive(Clone, Debug)]
pub struct Operator {
    /// The name of the API token they signed in with: the audit log's `by`.
    pub name: String,
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
                "The token `wakeful serve` uses: `[api] token`, one of `[api.tokens]`, or the "
                "file `<data>/api-token`. You stay signed in for 12 hours."
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

/// `POST /ui/login`: a token of this host → a session cookie.
pub async fn login(State(state): State<Arc<ApiState>>, Form(form): Form<LoginForm>) -> Response {
    let given = form.token.trim();
    let Some(name) = state.tokens.name_of(given).map(str::to_string) else {
        return login_form(
            StatusCode::UNAUTHORIZED,
            Some("That is not one of this host's API tokens."),
        );
    };
    let expires = crate::clock::Clock::now(&crate::clock::SystemClock).saturating_add(SESSION_MS);
    let value = cookie_value(&name, expires, given);
    let cookie = format!(
        "{COOKIE}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}",
        SESSION_MS / 1000
    );
    let mut response = Redirect::to("/ui/").into_response();
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(header::SET_COOKIE, v);
    }
    response
}

/// `POST /ui/logout`: forgets the cookie in this browser.
pub async fn logout(Extension(_): Extension<Operator>) -> Response {
    let mut response = Redirect::to("/ui/login").into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static("wakeful_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"),
    );
    response
}

/// Lets a console request through with a valid session (and, for a POST, a
/// form whose `csrf` field matches it); sends anyone else to sign in.
pub async fn require_session(
    State(state): State<Arc<ApiState>>,
    mut request: Request,
    next: Next,
) -> Response {
    let now = crate::clock::Clock::now(&crate::clock::SystemClock);
    let Some(operator) = session(&state, request.headers(), now) else {
        return if request.method() == Method::GET {
            Redirect::to("/ui/login").into_response()
        } else {
            login_form(
                StatusCode::UNAUTHORIZED,
                Some("Your session has ended; sign in again. Nothing was done."),
            )
        };
    };
    request.extensions_mut().insert(operator);
    next.run(request).await
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

fn session(state: &ApiState, headers: &HeaderMap, now: Millis) -> Option<Operator> {
    let value = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|c| c.trim().strip_prefix("wakeful_session="))?;
    let mut parts = value.split('.');
    let (name_hex, expires, mac) = (parts.next()?, parts.next()?, parts.next()?);
    let name = String::from_utf8(hex::decode(name_hex).ok()?).ok()?;
    let expires: Millis = expires.parse().ok()?;
    if expires <= now {
        return None;
    }
    let token = state.tokens.token_of(&name)?;
    let expected = cookie_value(&name, expires, token);
    let expected_mac = expected.rsplit('.').next()?;
    if !tokens_equal(mac, expected_mac) {
        return None;
    }
    Some(Operator {
        csrf: hmac_hex(&key(token), &format!("csrf:{value}")),
        name,
    })
}

fn cookie_value(name: &str, expires: Millis, token: &str) -> String {
    let head = format!("{}.{expires}", hex::encode(name));
    let mac = hmac_hex(&key(token), &head);
    format!("{head}.{mac}")
}

/// The signing key of one token's sessions: never the token itself.
fn key(token: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"wakeful console session key\0");
    h.update(token.as_bytes());
    h.finalize().into()
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
