//! `[secrets]`: credentials that tools use and nothing else ever shows.
//!
//! A secret is read from the environment (`env = "SLACK_HOOK"`) or a file
//! (`file = "/run/secrets/erp"`) when the config is loaded; a tool's `url`
//! and `headers` name it as `${secret:NAME}`. The file is refused when
//! anyone but its owner and group may read it (mode `o+r`), and one
//! trailing newline is dropped.
//!
//! Every text that leaves the tool layer (results and errors a guest sees,
//! and so the ledger, the run's state and its parked reason), every audit
//! row and every log line goes through [`redact`], which replaces each
//! registered value — the secrets, and the query values of configured
//! URLs — and its common encodings with [`REDACTED`]. The values are kept
//! in one process-wide set that only grows: a process that loaded two
//! configs redacts the secrets of both.

use std::collections::BTreeMap;
use std::sync::RwLock;

use serde::Deserialize;

/// What a redacted value is replaced with.
pub const REDACTED: &str = "[redacted]";

/// The shortest secret accepted: redacting a shorter one would shred
/// ordinary text (a one-letter secret would hide every such letter).
pub const MIN_SECRET_BYTES: usize = 8;

/// `[secrets.<name>]`: where one secret is read from.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecretConfig {
    /// An environment variable holding the value.
    #[serde(default)]
    pub env: Option<String>,
    /// A file holding the value (one trailing newline is dropped); it must
    /// not be readable by others (`chmod o-r`).
    #[serde(default)]
    pub file: Option<std::path::PathBuf>,
}

/// The secrets' values by name. Its `Debug` names them without values.
#[derive(Clone, Default)]
pub struct Secrets(BTreeMap<String, String>);

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.0.keys()).finish()
    }
}

impl Secrets {
    /// Reads every configured secret; the first missing or unusable one is
    /// an error naming it.
    pub fn load(config: &BTreeMap<String, SecretConfig>) -> Result<Secrets, String> {
        let mut values = BTreeMap::new();
        for (name, source) in config {
            check_name(name)?;
            let value = read(name, source)?;
            if value.len() < MIN_SECRET_BYTES {
                return Err(format!(
                    "secrets.{name}: the value is {} bytes; a secret must have at least \
                     {MIN_SECRET_BYTES}",
                    value.len()
                ));
            }
            register(&value);
            values.insert(name.clone(), value);
        }
        Ok(Secrets(values))
    }

    /// Secrets given in code (tests).
    pub fn from_values(values: impl IntoIterator<Item = (String, String)>) -> Secrets {
        let values: BTreeMap<String, String> = values.into_iter().collect();
        values.values().for_each(|v| register(v));
        Secrets(values)
    }

    /// `text` with every `${secret:NAME}` replaced by the value, and
    /// whether one was; an unknown name, or a `${` that is not a secret
    /// reference, is an error naming `what`.
    pub fn expand(&self, what: &str, text: &str) -> Result<(String, bool), String> {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        let mut used = false;
        while let Some(start) = rest.find("${") {
            out.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            let Some(end) = after.find('}') else {
                return Err(format!("{what}: `${{` without a closing `}}`"));
            };
            let Some(name) = after[..end].strip_prefix("secret:") else {
                return Err(format!(
                    "{what}: `${{{}}}` is not a secret reference; write `${{secret:NAME}}` \
                     with NAME from [secrets]",
                    &after[..end]
                ));
            };
            let Some(value) = self.0.get(name) else {
                let known: Vec<&str> = self.0.keys().map(String::as_str).collect();
                return Err(format!(
                    "{what}: no secret named `{name}` in [secrets] (configured: {})",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ));
            };
            out.push_str(value);
            used = true;
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        Ok((out, used))
    }
}

fn check_name(name: &str) -> Result<(), String> {
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if plain {
        Ok(())
    } else {
        Err(format!(
            "secrets.{name}: a secret's name may hold only letters, digits, `_` and `-`"
        ))
    }
}

/// One secret's value from its environment variable or file.
fn read(name: &str, source: &SecretConfig) -> Result<String, String> {
    match (&source.env, &source.file) {
        (Some(var), None) => std::env::var(var).map_err(|e| {
            format!("secrets.{name}: the environment variable {var} is not usable: {e}")
        }),
        (None, Some(path)) => read_file(name, path),
        _ => Err(format!(
            "secrets.{name}: give exactly one of env = \"VARIABLE\" or file = \"PATH\""
        )),
    }
}

fn read_file(name: &str, path: &std::path::Path) -> Result<String, String> {
    use std::os::unix::fs::PermissionsExt;
    let what = format!("secrets.{name}: file {}", path.display());
    let meta = std::fs::metadata(path).map_err(|e| format!("{what}: {e}"))?;
    let mode = meta.permissions().mode();
    if mode & 0o004 != 0 {
        return Err(format!(
            "{what} may be read by any user (mode {:o}); make it readable by its owner \
             (and group) only: chmod o-r {}",
            mode & 0o777,
            path.display()
        ));
    }
    let mut text = std::fs::read_to_string(path).map_err(|e| format!("{what}: {e}"))?;
    if text.ends_with('\n') {
        text.pop();
        if text.ends_with('\r') {
            text.pop();
        }
    }
    Ok(text)
}

/// The values [`redact`] replaces, longest first (so that a value holding
/// another is replaced whole).
static REDACT: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// Adds a value, and its encodings, to what [`redact`] replaces. Values
/// shorter than [`MIN_SECRET_BYTES`] are not added (see there).
pub fn register(value: &str) {
    if value.len() < MIN_SECRET_BYTES {
        return;
    }
    let json = serde_json::to_string(value).unwrap_or_default();
    let json = json[1..json.len() - 1].to_string();
    let forms = [
        value.to_string(),
        percent_encode(value, false),
        percent_encode(value, true),
        lower_hex(&percent_encode(value, false)),
        json.clone(),
        serde_json::to_string(&json)
            .unwrap_or_default()
            .trim_matches('"')
            .to_string(),
    ];
    let mut all = REDACT.write().unwrap_or_else(|e| e.into_inner());
    for form in forms {
        if form.len() >= MIN_SECRET_BYTES && !all.contains(&form) {
            all.push(form);
        }
    }
    all.sort_by_key(|v| std::cmp::Reverse(v.len()));
}

/// `text` with every registered value replaced by [`REDACTED`].
pub fn redact(text: &str) -> std::borrow::Cow<'_, str> {
    let all = REDACT.read().unwrap_or_else(|e| e.into_inner());
    if !all.iter().any(|v| text.contains(v.as_str())) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = text.to_string();
    for value in all.iter() {
        if out.contains(value.as_str()) {
            out = out.replace(value.as_str(), REDACTED);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A tool's result or error with every registered value redacted.
pub fn redact_result(
    result: Result<String, crate::model::ToolError>,
) -> Result<String, crate::model::ToolError> {
    use crate::model::ToolError;
    let r = |s: String| match redact(&s) {
        std::borrow::Cow::Borrowed(_) => s,
        std::borrow::Cow::Owned(o) => o,
    };
    match result {
        Ok(out) => Ok(r(out)),
        Err(ToolError::Invalid(m)) => Err(ToolError::Invalid(r(m))),
        Err(ToolError::Denied(m)) => Err(ToolError::Denied(r(m))),
        Err(ToolError::Budget(m)) => Err(ToolError::Budget(r(m))),
        Err(ToolError::Failed(m)) => Err(ToolError::Failed(r(m))),
        Err(ToolError::Unknown(m)) => Err(ToolError::Unknown(r(m))),
    }
}

/// Percent-encodes every byte but the unreserved ones; with `all`, every
/// byte but letters and digits (what some clients do).
fn percent_encode(text: &str, all: bool) -> String {
    let mut out = String::with_capacity(text.len() * 3);
    for b in text.bytes() {
        let keep = b.is_ascii_alphanumeric() || (!all && b"-._~".contains(&b));
        if keep {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `encoded` with the hex digits after each `%` in lower case.
fn lower_hex(encoded: &str) -> String {
    let mut out = String::with_capacity(encoded.len());
    let mut after = 0;
    for c in encoded.chars() {
        if c == '%' {
            after = 2;
            out.push(c);
        } else if after > 0 {
            after -= 1;
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Registers each value of a configured URL's query (and the query whole)
/// for redaction: keys in a query (`?api_key=…`) are credentials as often
/// as not. Values shorter than [`MIN_SECRET_BYTES`] are hidden only where
/// the host names the URL ([`display_url`]).
pub fn register_query(query: &str) {
    register(query);
    for pair in query.split('&') {
        if let Some((_, value)) = pair.split_once('=') {
            register(value);
            if let Ok(decoded) = percent_decode(value) {
                register(&decoded);
            }
        }
    }
}

fn percent_decode(text: &str) -> Result<String, ()> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = text.get(i + 1..i + 3).ok_or(())?;
                out.push(u8::from_str_radix(hex, 16).map_err(|_| ())?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| ())
}

/// How the host names a configured URL in errors: the template's path
/// segments that hold a `${secret:…}` shown as [`REDACTED`], and its query
/// as `?[redacted]`.
pub fn display_url(template: &str) -> String {
    let (base, query) = match template.split_once('?') {
        Some((base, _)) => (base, true),
        None => (template, false),
    };
    let shown: Vec<&str> = base
        .split('/')
        .map(|segment| {
            if segment.contains("${") {
                REDACTED
            } else {
                segment
            }
        })
        .collect();
    let mut out = shown.join("/");
    if query {
        out.push('?');
        out.push_str(REDACTED);
    }
    out
}

#[cfg(test)]
mod tests;
