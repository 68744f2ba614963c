//! The host's modules in layers, checked against the code: a module uses
//! the modules of the layers below its own, never one above nor one beside
//! it, and within a module no two submodules use each other, even through
//! others. The test reads the paths (`crate::…`, `super::…`) of every
//! production file under `src/`; test files and `#[cfg(test)]` items may
//! reach anything.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The top-level modules, top to bottom.
const LAYERS: &[&[&str]] = &[
    &["cli"],
    &["serve", "measure"],
    &["logs"],
    &["api"],
    &["web"],
    &["server"],
    &["worker"],
    &["identity", "schedule", "upgrade", "check"],
    &["app"],
    &["tools"],
    &["packer", "view", "waits", "cassette"],
    &["store"],
    &["config"],
    &["runtime", "secrets"],
    &["access", "clock", "failpoint", "scaffold", "wakeup"],
    &["model", "power_log"],
];

/// Arrows that still break the layers, each with why it is there. A fixed
/// one must leave this list too.
const KNOWN_ARROWS: &[(&str, &str, &str)] = &[
    (
        "config",
        "tools",
        "checking a config builds each configured tool once",
    ),
    (
        "store",
        "tools",
        "the ledger's audit row words a call's outcome as the gate's does",
    ),
];

/// Submodules that use each other still, by their paths. A loop undone
/// must leave this list too.
const KNOWN_LOOPS: &[(&str, &str)] = &[
    // The cache directory, its key and its function entries.
    ("runtime::cache_dir", "runtime::fn_cache"),
    ("runtime::cache_dir", "runtime::seal"),
    ("runtime::fn_cache", "runtime::prune"),
    // A run's archived history, read beside its live rows.
    ("store::sql::archive", "store::sql::audit"),
    ("store::sql::archive", "store::sql::runs"),
    ("store::sql::archive", "store::sql::tools"),
    ("store::sql::commits", "store::sql::runs"),
    // A copied row and its digest: the digest reads cells, the copy
    // digests each row it writes.
    ("store::sql::copy::proof", "store::sql::copy::rows"),
    // SQLite's connection settings, its dialect and its file checks.
    ("store::sql::db", "store::sql::sqlite"),
    ("store::sql::health", "store::sql::sqlite"),
    ("web::console::acts", "web::console::lists"),
];

/// One module's use of another: where, and the path as written.
#[derive(Clone, Debug)]
struct Use {
    file: String,
    path: String,
    from: Vec<String>,
    to: Vec<String>,
}

#[test]
fn no_module_uses_one_above_it() {
    let uses = read_uses();
    let mut wrong = Vec::new();
    let mut seen = BTreeSet::new();
    for u in uses.iter().filter(|u| u.from[0] != u.to[0]) {
        let (from, to) = (u.from[0].as_str(), u.to[0].as_str());
        let (Some(a), Some(b)) = (layer(from), layer(to)) else {
            continue;
        };
        if a < b {
            continue;
        }
        if KNOWN_ARROWS.iter().any(|(f, t, _)| (*f, *t) == (from, to)) {
            seen.insert((from.to_string(), to.to_string()));
            continue;
        }
        let how = if a == b { "beside" } else { "above" };
        wrong.push(format!(
            "{}: `{}`: {from} (layer {a}) uses {to} (layer {b}), {how} it",
            u.file, u.path
        ));
    }
    for (from, to, _) in KNOWN_ARROWS {
        if !seen.contains(&(from.to_string(), to.to_string())) {
            wrong.push(format!(
                "{from} no longer uses {to}: take it out of KNOWN_ARROWS in layers.rs"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "layers (top to bottom) {LAYERS:?}:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_module_has_a_layer() {
    let mut missing = BTreeSet::new();
    for file in files(&src()) {
        let module = module_of(&src(), &file);
        if let Some(top) = module.first()
            && layer(top).is_none()
        {
            missing.insert(top.clone());
        }
    }
    assert!(
        missing.is_empty(),
        "modules not in LAYERS (layers.rs): {missing:?}"
    );
}

#[test]
fn no_submodules_use_each_other() {
    let uses = read_uses();
    // Arrows between siblings, by their parent: (parent, from, to) -> uses.
    let mut arrows: BTreeMap<(Vec<String>, String, String), Vec<Use>> = BTreeMap::new();
    for u in &uses {
        let common = u.from.iter().zip(&u.to).take_while(|(a, b)| a == b).count();
        if common == 0 || common >= u.from.len() || common >= u.to.len() {
            continue;
        }
        let key = (
            u.from[..common].to_vec(),
            u.from[common].clone(),
            u.to[common].clone(),
        );
        arrows.entry(key).or_default().push(u.clone());
    }
    let mut loops = Vec::new();
    let mut seen = BTreeSet::new();
    for ((parent, from, to), found) in &arrows {
        let back = (parent.clone(), to.clone(), from.clone());
        let Some(back_uses) = arrows.get(&back).filter(|_| from < to) else {
            continue;
        };
        let path = |name: &String| {
            [&parent[..], std::slice::from_ref(name)]
                .concat()
                .join("::")
        };
        let (a, b) = (path(from), path(to));
        if KNOWN_LOOPS.contains(&(a.as_str(), b.as_str())) {
            seen.insert((a, b));
            continue;
        }
        let (one, other) = (&found[0], &back_uses[0]);
        loops.push(format!(
            "{a} and {b} use each other: {}: `{}`; {}: `{}`",
            one.file, one.path, other.file, other.path
        ));
    }
    for (a, b) in KNOWN_LOOPS {
        if !seen.contains(&(a.to_string(), b.to_string())) {
            loops.push(format!(
                "{a} and {b} no longer use each other: take them out of KNOWN_LOOPS in layers.rs"
            ));
        }
    }
    assert!(loops.is_empty(), "{}", loops.join("\n"));
}

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every production source file under `dir`: not `lib.rs` or `main.rs`
/// (they only declare), nor this test, nor a file or directory named
/// `tests`.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name == "tests" || name == "tests.rs" {
            continue;
        }
        if path.is_dir() {
            found.extend(files(&path));
        } else if name.ends_with(".rs")
            && !(dir == src() && ["lib.rs", "main.rs", "layers.rs"].contains(&name.as_str()))
        {
            found.push(path);
        }
    }
    found
}

/// The module a file is: `src/cli/admin.rs` is `cli::admin`, `src/store/mod.rs`
/// and `src/serve.rs` are `store` and `serve`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut module: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect();
    if module.last().is_some_and(|m| m == "mod") {
        module.pop();
    }
    module
}

/// The modules known by their files, for telling a module from an item.
fn known_modules(files: &[PathBuf]) -> BTreeSet<Vec<String>> {
    files.iter().map(|f| module_of(&src(), f)).collect()
}

fn read_uses() -> Vec<Use> {
    let files = files(&src());
    let modules = known_modules(&files);
    let mut uses = Vec::new();
    for file in &files {
        let from = module_of(&src(), file);
        let code = without_tests(&blank_comments_and_strings(
            &std::fs::read_to_string(file).unwrap(),
        ));
        let name = file.strip_prefix(src().parent().unwrap()).unwrap();
        for path in paths(&code) {
            let Some(to) = resolve(&from, &path, &modules) else {
                continue;
            };
            uses.push(Use {
                file: name.display().to_string(),
                path: path.join("::"),
                from: from.clone(),
                to,
            });
        }
    }
    uses
}

/// The module `path` (as written in `from`) reaches: its longest prefix
/// that is a module with a file of its own.
fn resolve(
    from: &[String],
    path: &[String],
    modules: &BTreeSet<Vec<String>>,
) -> Option<Vec<String>> {
    let mut at: Vec<String> = match path[0].as_str() {
        "crate" => Vec::new(),
        "self" => from.to_vec(),
        "super" => from[..from.len().saturating_sub(1)].to_vec(),
        _ => return None,
    };
    let mut rest = &path[1..];
    while rest.first().is_some_and(|s| s == "super") {
        at.pop();
        rest = &rest[1..];
    }
    let mut reached = None;
    for segment in rest {
        at.push(segment.clone());
        if modules.contains(&at) {
            reached = Some(at.clone());
        } else {
            break;
        }
    }
    reached
}

/// Every path starting `crate::`, `self::` or `super::` in `code`, with
/// each `{a, b::c}` group spread into paths of its own.
fn paths(code: &str) -> Vec<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_word = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if starts_word {
            for root in ["crate", "self", "super"] {
                let word: Vec<char> = format!("{root}::").chars().collect();
                if chars[i..].starts_with(&word) {
                    let mut at = i + root.len();
                    tree(&chars, &mut at, vec![root.to_string()], &mut found);
                    i = at.max(i + 1) - 1;
                    break;
                }
            }
        }
        i += 1;
    }
    found
}

/// Reads a use tree at `chars[*at..]` (just after a path's last segment):
/// `::name…`, `::{…}`, `::*`, or nothing.
fn tree(chars: &[char], at: &mut usize, prefix: Vec<String>, found: &mut Vec<Vec<String>>) {
    skip_space(chars, at);
    if !chars[*at..].starts_with(&[':', ':']) {
        found.push(prefix);
        return;
    }
    *at += 2;
    skip_space(chars, at);
    match chars.get(*at) {
        Some('{') => {
            *at += 1;
            loop {
                skip_space(chars, at);
                match chars.get(*at) {
                    Some('}') | None => {
                        *at += 1;
                        return;
                    }
                    Some(',') => *at += 1,
                    _ => {
                        let name = ident(chars, at);
                        if name.is_empty() {
                            *at += 1;
                            continue;
                        }
                        let mut path = prefix.clone();
                        if name != "self" {
                            path.push(name);
                        }
                        tree(chars, at, path, found);
                    }
                }
            }
        }
        _ => {
            let name = ident(chars, at);
            if name.is_empty() {
                found.push(prefix);
                return;
            }
            let mut path = prefix;
            path.push(name);
            tree(chars, at, path, found);
        }
    }
}

fn ident(chars: &[char], at: &mut usize) -> String {
    let start = *at;
    while chars
        .get(*at)
        .is_some_and(|c| c.is_alphanumeric() || *c == '_')
    {
        *at += 1;
    }
    chars[start..*at].iter().collect()
}

fn skip_space(chars: &[char], at: &mut usize) {
    while chars.get(*at).is_some_and(|c| c.is_whitespace()) {
        *at += 1;
    }
}

/// `code` with its comments and the insides of its string and character
/// literals blanked, so that only code is read.
fn blank_comments_and_strings(code: &str) -> String {
    let chars: Vec<char> = code.chars().collect();
    let mut out = String::with_capacity(code.len());
    let mut i = 0;
    while i < chars.len() {
        let rest = &chars[i..];
        let in_word = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        let skipped = if in_word {
            0
        } else if rest.starts_with(&['/', '/']) {
            rest.iter().position(|c| *c == '\n').unwrap_or(rest.len())
        } else if rest.starts_with(&['/', '*']) {
            block_comment(rest)
        } else if rest[0] == 'r' {
            raw_string(rest)
        } else if rest.starts_with(&['b', 'r']) {
            match raw_string(&rest[1..]) {
                0 => 0,
                n => n + 1,
            }
        } else if rest[0] == '"' {
            string(rest)
        } else if rest[0] == '\'' {
            char_literal(rest)
        } else {
            0
        };
        if skipped == 0 {
            out.push(chars[i]);
            i += 1;
        } else {
            let blank = |c: &char| if *c == '\n' { '\n' } else { ' ' };
            out.extend(chars[i..i + skipped].iter().map(blank));
            i += skipped;
        }
    }
    out
}

fn block_comment(rest: &[char]) -> usize {
    let mut depth = 0;
    let mut i = 0;
    while i < rest.len() {
        if rest[i..].starts_with(&['/', '*']) {
            depth += 1;
            i += 2;
        } else if rest[i..].starts_with(&['*', '/']) {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    rest.len()
}

fn string(rest: &[char]) -> usize {
    let mut i = 1;
    while i < rest.len() {
        match rest[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    rest.len()
}

/// `r"…"` or `r#"…"#`; 0 when `r` starts a word.
fn raw_string(rest: &[char]) -> usize {
    let hashes = rest[1..].iter().take_while(|c| **c == '#').count();
    if rest.get(1 + hashes) != Some(&'"') {
        return 0;
    }
    let mut end = vec!['"'];
    end.extend(std::iter::repeat_n('#', hashes));
    let start = 2 + hashes;
    (start..rest.len())
        .find(|&i| rest[i..].starts_with(&end))
        .map_or(rest.len(), |i| i + end.len())
}

/// A character literal (`'x'`, `'\n'`); 0 for a lifetime (`'a`).
fn char_literal(rest: &[char]) -> usize {
    if rest.get(1) == Some(&'\\') {
        return (2..rest.len())
            .find(|&i| rest[i] == '\'')
            .map_or(rest.len(), |i| i + 1);
    }
    if rest.get(2) == Some(&'\'') { 3 } else { 0 }
}

/// `code` (already without comments) without its `#[cfg(test)]` items.
fn without_tests(code: &str) -> String {
    let mut out = code.to_string();
    while let Some(start) = out.find("#[cfg(test)]") {
        let bytes = out.as_bytes();
        let mut i = start + "#[cfg(test)]".len();
        let mut depth = 0usize;
        while i < bytes.len() {
            match bytes[i] {
                b'{' => depth += 1,
                b'}' if depth == 0 => break,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                b';' if depth == 0 => {
                    i += 1;
                    break;
                }
                _ => {}
            }
            i += 1;
        }
        out.replace_range(start..i.min(out.len()), "");
    }
    out
}
