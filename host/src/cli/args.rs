//! What a command takes from the command line beyond its parsed flags: a
//! JSON argument read from a file or standard input, the name given with
//! `--by`, and the OS user who acts.

use anyhow::{Context, Result, bail};

/// How a command acts and answers: as JSON or text, on behalf of `by`
/// (the OS user), with `given_by` the name given with `--by`, if any.
#[derive(Clone, Copy)]
pub(super) struct Acting<'a> {
    pub json: bool,
    pub by: &'a str,
    pub given_by: Option<&'a str>,
}

/// A JSON argument as given, or read from a file (`@PATH`) or standard input
/// (`-`): payloads can be larger than a command line may be.
pub(super) fn arg_text(what: &str, arg: String) -> Result<String> {
    if arg == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .with_context(|| format!("cannot read {what} from standard input"))?;
        Ok(text)
    } else if let Some(path) = arg.strip_prefix('@') {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {what} from {path}"))
    } else {
        Ok(arg)
    }
}

/// Who acts on the store directly: whoever can write the data directory
/// owns the host, so the principal is the OS user the process runs as
/// (`os:<name>`, or `os:uid-<n>` without a name), never a name given.
pub(super) fn actor() -> Result<String> {
    Ok(format!("{}{}", crate::app::OS_PRINCIPAL, os_user()))
}

/// The name of the effective user, from the password database.
#[allow(unsafe_code)]
fn os_user() -> String {
    // SAFETY: geteuid cannot fail; getpwuid_r writes only into `pwd` and
    // `buf`, whose sizes it is given, and `name` points into `buf` while
    // it lives.
    unsafe {
        let uid = libc::geteuid();
        let mut pwd: libc::passwd = std::mem::zeroed();
        let mut buf = vec![0 as libc::c_char; 4096];
        let mut found: *mut libc::passwd = std::ptr::null_mut();
        let rc = libc::getpwuid_r(uid, &mut pwd, buf.as_mut_ptr(), buf.len(), &mut found);
        if rc == 0 && !found.is_null() && !pwd.pw_name.is_null() {
            let name = std::ffi::CStr::from_ptr(pwd.pw_name).to_string_lossy();
            if !name.is_empty() {
                return name.into_owned();
            }
        }
        format!("uid-{uid}")
    }
}

/// The name given with `--by` (or `WAKEFUL_BY`), recorded as `said`.
pub(super) fn said(given: Option<&str>) -> Result<Option<&str>> {
    let Some(by) = given else { return Ok(None) };
    if by.trim().is_empty() || by.len() > 128 || by.chars().any(char::is_control) {
        bail!("--by `{by}` is not a name: use 1-128 characters, no control characters");
    }
    Ok(Some(by.trim()))
}
