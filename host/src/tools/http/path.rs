//! What a guest may add to an `http` tool's URL: a path below it and query
//! keys of its own. Servers and proxies disagree on how they read a path
//! (how many times they percent-decode it, whether `\` separates segments,
//! whether `;params` belong to a segment), so a path is read the most
//! permissive way first — percent-decoded until it stops changing, `\` as
//! `/`, parameters dropped — and checked in that form; whatever could still
//! be read two ways is refused, never cleaned up. A path that passes is sent
//! exactly as the guest wrote it.

/// Characters a path may hold literally: RFC 3986 `pchar` and `/`.
fn allowed(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~/%!$&'()*+,;=:@".contains(c)
}

/// Checks a guest's sub-path; returns the path to append, or why not.
pub(super) fn check_path(path: &str) -> Result<String, String> {
    if let Some(at) = malformed_escape(path.as_bytes()) {
        return Err(format!(
            "`{path}` has a `%` not followed by two hex digits (at byte {at}); \
             write a literal `%` as `%25`"
        ));
    }
    let decoded = decode_fully(path.as_bytes());
    let read: Vec<u8> = decoded
        .iter()
        .map(|&b| if b == b'\\' { b'/' } else { b })
        .collect();
    if read.starts_with(b"//") || read.windows(3).any(|w| w == b"://") {
        return Err(format!(
            "`{path}` names another host (read with `\\` as `/`, percent-decoded); \
             this tool calls only its configured URL"
        ));
    }
    if !path.starts_with('/') {
        return Err(format!("`{path}` must start with `/`"));
    }
    if read
        .split(|&b| b == b'/')
        .map(|segment| segment.split(|&b| b == b';').next().unwrap_or_default())
        .any(|name| !name.is_empty() && name.iter().all(|&b| b == b'.'))
    {
        return Err(format!(
            "`{path}` has a `..` or `.` segment (read percent-decoded, with `\\` as `/` \
             and without `;` parameters): it could leave the configured URL's path"
        ));
    }
    let count = |bytes: &[u8], of: &[u8]| bytes.iter().filter(|b| of.contains(b)).count();
    if count(&decoded, b"/\\") > count(path.as_bytes(), b"/\\") {
        return Err(format!(
            "`{path}` has an encoded `/` or `\\`: servers split it into segments differently"
        ));
    }
    if count(&decoded, b"?#") > 0 {
        return Err(format!(
            "`{path}` has a `?` or `#`, plain or percent-encoded: a server would end the path \
             there; put query parameters in `query`"
        ));
    }
    if path.contains('\\') {
        return Err(format!(
            "`{path}` contains `\\`, which some servers read as `/`; a `\\` cannot be sent, encoded or not"
        ));
    }
    if decoded.iter().any(|b| b.is_ascii_control()) {
        return Err(format!("`{path}` decodes to a control character"));
    }
    if read[1..]
        .split(|&b| b == b'/')
        .rev()
        .skip(1)
        .any(<[u8]>::is_empty)
    {
        return Err(format!(
            "`{path}` has an empty segment (`//`), which some servers merge"
        ));
    }
    if let Some(bad) = path.chars().find(|c| !allowed(*c)) {
        return Err(format!("`{path}` contains `{bad}`; percent-encode it"));
    }
    Ok(path.to_string())
}

/// Checks a guest's query key against the configured query's keys (as
/// [`query_key`] reads them): the operator's query is not the guest's to
/// repeat or override, whichever of two equal keys a server keeps.
pub(super) fn check_query_key(key: &str, configured: &[Vec<u8>]) -> Result<(), String> {
    if let Some(bad) = key.chars().find(|c| "&=#?".contains(*c)) {
        return Err(format!("key `{key}` contains `{bad}`"));
    }
    if configured.contains(&query_key(key)) {
        return Err(format!(
            "key `{key}` repeats a key of the configured URL's query, which the guest \
             may not override"
        ));
    }
    Ok(())
}

/// The keys of a configured query (`a=1&b=2`), as [`query_key`] reads them.
pub(super) fn query_keys(query: &str) -> Vec<Vec<u8>> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| query_key(pair.split('=').next().unwrap_or_default()))
        .collect()
}

/// A query key read the most permissive way: `+` as a space, percent-decoded
/// until stable, ASCII case ignored (some servers ignore it).
fn query_key(key: &str) -> Vec<u8> {
    let mut bytes = decode_fully(key.replace('+', " ").as_bytes());
    bytes.make_ascii_lowercase();
    bytes
}

/// The byte offset of the first `%` not followed by two hex digits.
fn malformed_escape(bytes: &[u8]) -> Option<usize> {
    bytes.iter().enumerate().find_map(|(i, &b)| {
        let escape = bytes.get(i + 1..i + 3);
        (b == b'%' && !escape.is_some_and(|e| e.iter().all(u8::is_ascii_hexdigit))).then_some(i)
    })
}

/// Percent-decodes until nothing changes (a server may decode more than
/// once). Each round that changes anything makes the text shorter, so this
/// ends. A `%` not followed by two hex digits stays as it is.
fn decode_fully(bytes: &[u8]) -> Vec<u8> {
    let mut text = bytes.to_vec();
    loop {
        let next = decode_once(&text);
        if next == text {
            return text;
        }
        text = next;
    }
}

fn decode_once(bytes: &[u8]) -> Vec<u8> {
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let (Some(hi), Some(lo)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            )
        {
            out.push((hi << 4) | lo);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_below_the_configured_url() {
        assert_eq!(check_path("/a/b-c_d.json").unwrap(), "/a/b-c_d.json");
        for bad in [
            "a",
            "/../admin",
            "/a/..",
            "/./a",
            "//evil.example/x",
            "/x?admin=1",
            "/x#f",
            "/%2e%2e/admin",
            "/a%2Fb",
            "http://evil",
            "/a/http://evil",
            "/a b",
        ] {
            assert!(check_path(bad).is_err(), "{bad} was accepted");
        }
    }

    /// The refusal of `path`, which must name `what`.
    fn refused(path: &str, what: &str) {
        match check_path(path) {
            Ok(sent) => panic!("`{path}` was accepted (as `{sent}`)"),
            Err(why) => assert!(why.contains(what), "`{path}`: {why} (expected `{what}`)"),
        }
    }

    #[test]
    fn dot_segments_hidden_behind_parameters_are_refused() {
        for path in [
            "/..;/admin",
            "/a/..;x=1/b",
            "/.;/a",
            "/a/..;",
            "/a;x/..;y/../b",
        ] {
            refused(path, "`..` or `.` segment");
        }
        assert_eq!(check_path("/a;v=1/b").unwrap(), "/a;v=1/b");
    }

    #[test]
    fn percent_encoded_dots_are_decoded_until_stable_before_the_check() {
        for path in [
            "/%2e%2e/admin",
            "/%2E./admin",
            "/.%2e/admin",
            "/a/%2e",
            "/%252e%252e/admin",
            "/%25252e%25252E/admin",
            "/%252e./admin",
            "/%2e%2e;x/admin",
        ] {
            refused(path, "`..` or `.` segment");
        }
        // A dot that forms no dot segment is just a character.
        assert_eq!(check_path("/a%2eb/c.json").unwrap(), "/a%2eb/c.json");
        assert_eq!(check_path("/caf%C3%A9").unwrap(), "/caf%C3%A9");
        assert_eq!(check_path("/100%2525").unwrap(), "/100%2525");
    }

    #[test]
    fn encoded_slashes_and_backslashes_are_refused() {
        for path in ["/a%2fb", "/a%2Fb", "/a%252fb", "/a%5cb", "/a%255Cb"] {
            refused(path, "encoded `/` or `\\`");
        }
        refused("/a\\b", "`\\`");
        refused("/..%2fadmin", "`..` or `.` segment");
        refused("/a\\..\\admin", "`..` or `.` segment");
        refused("/a%5c..%5cadmin", "`..` or `.` segment");
        refused("/\\evil.example/x", "another host");
        refused("/%2f%2fevil.example/x", "another host");
        refused("/a/http:%2f%2fevil", "another host");
    }

    #[test]
    fn ambiguous_paths_are_refused() {
        refused("/a//b", "empty segment");
        refused("/a%3fadmin=1", "`?` or `#`");
        refused("/a%23frag", "`?` or `#`");
        refused("/a%00b", "control character");
        refused("/a%0d%0aX-Injected: 1", "control character");
        refused("/a%zz", "two hex digits");
        refused("/a%2", "two hex digits");
    }
}
