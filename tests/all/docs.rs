//! The book (`docs/`) and the README against the code: the command-line
//! page names every command and option the binary has and no other, the
//! annotated `wakeful.toml` is accepted by the host, every test the
//! guarantees cite exists, the README's agent is the real one, every
//! repository path the pages name exists, and every relative link and
//! anchor resolves.

use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::fake_servers::TestCa;
use crate::harness::{Env, repo, wakeful_bin};

// ---------------------------------------------------------------------------
// The command line

/// What `wakeful help …` lists for one command.
#[derive(Default)]
struct Help {
    subcommands: Vec<String>,
    flags: BTreeSet<String>,
}

/// `wakeful help PATH…` (`wakeful --help` for the empty path), parsed.
fn help(path: &[String]) -> Help {
    let mut cmd = std::process::Command::new(wakeful_bin());
    if path.is_empty() {
        cmd.arg("--help");
    } else {
        cmd.arg("help").args(path);
    }
    let out = cmd.output().expect("run wakeful help");
    assert!(out.status.success(), "wakeful help {path:?} failed");
    parse_help(&String::from_utf8_lossy(&out.stdout))
}

/// Reads clap's help: the `Commands:` entries (two spaces in) and the
/// `Options:` entries (a line that starts with `-` at most six spaces in;
/// descriptions are indented further).
fn parse_help(text: &str) -> Help {
    let mut help = Help::default();
    let mut section = "";
    for line in text.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            section = line;
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim_start();
        match section {
            "Commands:" if indent == 2 => {
                let name = trimmed.split_whitespace().next().unwrap_or("");
                if name != "help" {
                    help.subcommands.push(name.to_string());
                }
            }
            "Options:" if indent <= 6 && trimmed.starts_with('-') => {
                let flag = trimmed
                    .split(|c: char| c.is_whitespace() || c == ',' || c == '=')
                    .find(|t| t.starts_with("--"));
                if let Some(flag) = flag {
                    help.flags.insert(flag.to_string());
                }
            }
            _ => {}
        }
    }
    help
}

/// Every command path of the binary (`["kv", "get"]`…) with its own
/// options (those of `wakeful --help` are global and left out).
fn every_command() -> (BTreeSet<String>, BTreeMap<Vec<String>, BTreeSet<String>>) {
    let top = help(&[]);
    let global = top.flags.clone();
    let mut commands = BTreeMap::new();
    let mut todo: Vec<Vec<String>> = top.subcommands.iter().map(|c| vec![c.clone()]).collect();
    while let Some(path) = todo.pop() {
        let h = help(&path);
        for sub in &h.subcommands {
            let mut p = path.clone();
            p.push(sub.clone());
            todo.push(p);
        }
        let own = h.flags.difference(&global).cloned().collect();
        commands.insert(path, own);
    }
    (global, commands)
}

/// The page's sections: each heading's text and what follows it up to the
/// next heading.
fn sections(page: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = vec![(String::new(), String::new())];
    let mut fenced = false;
    for line in page.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if !fenced && line.starts_with('#') {
            out.push((
                line.trim_start_matches('#').trim().to_string(),
                String::new(),
            ));
        } else {
            let body = &mut out.last_mut().unwrap().1;
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}

/// The `--flags` a text names.
fn flags_in(text: &str) -> BTreeSet<String> {
    let mut flags = BTreeSet::new();
    for (i, _) in text.match_indices("--") {
        let before = text[..i].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '-') {
            continue;
        }
        let name: String = text[i + 2..]
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
            .collect();
        if name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
            flags.insert(format!("--{name}"));
        }
    }
    flags
}

#[test]
fn the_cli_page_names_every_command_and_option_and_no_other() {
    let page = std::fs::read_to_string(repo().join("docs/src/reference/cli.md")).unwrap();
    let (global, commands) = every_command();
    assert!(commands.contains_key(&vec!["deploy".to_string()]) && global.contains("--data"));
    let mut documented: BTreeMap<Vec<String>, String> = BTreeMap::new();
    let mut problems = Vec::new();
    for (heading, body) in sections(&page) {
        if heading == "Global options" {
            for flag in global.difference(&flags_in(&body)) {
                problems.push(format!(
                    "the global option {flag} is not under \"Global options\""
                ));
            }
            for flag in flags_in(&body).difference(&global) {
                problems.push(format!(
                    "\"Global options\" names {flag}, which is not global"
                ));
            }
        }
        if let Some(rest) = heading.strip_prefix("wakeful ") {
            let path: Vec<String> = rest.split_whitespace().map(String::from).collect();
            documented.insert(path, body);
        }
    }
    for (path, own) in &commands {
        let name = path.join(" ");
        let Some(body) = documented.get(path) else {
            problems.push(format!(
                "`wakeful {name}` has no section (`### wakeful {name}`)"
            ));
            continue;
        };
        let named = flags_in(body);
        for flag in own.difference(&named) {
            problems.push(format!(
                "`wakeful {name}` has {flag}, which its section does not name"
            ));
        }
        for flag in named.difference(own) {
            if !global.contains(flag) {
                problems.push(format!(
                    "the section of `wakeful {name}` names {flag}, which it does not have"
                ));
            }
        }
    }
    for path in documented.keys() {
        if !commands.contains_key(path) {
            problems.push(format!(
                "the page documents `wakeful {}`, which does not exist",
                path.join(" ")
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "docs/src/reference/cli.md:\n{}",
        problems.join("\n")
    );
}

// ---------------------------------------------------------------------------
// The configuration

/// The annotated file, with its example paths pointed at files made for
/// the test and its variables set, as a host that uses it would have them.
fn annotated_config_env(name: &str, extra: &str) -> Env {
    let text = std::fs::read_to_string(repo().join("docs/src/reference/wakeful.toml")).unwrap();
    let probe = Env::sqlite(name, "");
    let ca = probe.dir.join("internal-ca.pem");
    std::fs::write(&ca, TestCa::new("docs").pem).unwrap();
    let secret = probe.dir.join("erp-secret");
    std::fs::write(&secret, "erp-secret-value\n").unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
    for path in ["/etc/wakeful/internal-ca.pem", "/run/secrets/erp"] {
        assert!(
            text.contains(path),
            "the example no longer names {path}: update this test"
        );
    }
    let text = text
        .replace("/etc/wakeful/internal-ca.pem", ca.to_str().unwrap())
        .replace("/run/secrets/erp", secret.to_str().unwrap());
    std::fs::write(probe.dir.join("wakeful.toml"), format!("{text}{extra}")).unwrap();
    let mut env = probe;
    for (key, value) in [
        ("SLACK_HOOK", "T000/B000/slack-secret-value"),
        ("OPENAI_API_KEY", "sk-openai-secret-value"),
        ("LOCAL_LLM_KEY", "local-llm-secret-value"),
        ("WAKEFUL_CI_TOKEN", "ci-token-secret-value"),
        ("WAKEFUL_LINK_KEY", &"ab".repeat(32)),
    ] {
        env = env.clone_with_env(key, value);
    }
    env
}

#[test]
fn the_annotated_config_is_accepted_by_the_host() {
    // `wit` loads and checks the whole config (tools, tokens, secrets,
    // limits) and then needs no store.
    let env = annotated_config_env("docs-config", "");
    let wit = env.ok(&["wit"]);
    assert!(wit.starts_with("package wakeful:agent@"), "{wit}");

    // The check is real: a key the host does not know fails it.
    let env = annotated_config_env("docs-config-unknown", "\n[cache.extra]\nno_such_key = 1\n");
    let err = env.fails(&["wit"]);
    assert!(
        err.contains("unknown field") || err.contains("no_such_key") || err.contains("extra"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------
// The guarantees

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The backticked `module::test` names a text cites.
fn cited_tests(text: &str) -> BTreeSet<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| {
            t.contains("::")
                && t.split("::").all(|seg| {
                    !seg.is_empty()
                        && seg.chars().all(|c| {
                            c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '*'
                        })
                })
        })
        .map(String::from)
        .collect()
}

#[test]
fn every_test_the_guarantees_page_cites_exists() {
    let page = std::fs::read_to_string(repo().join("docs/src/guarantees.md")).unwrap();
    let mut files = Vec::new();
    rust_files(&repo().join("tests"), &mut files);
    rust_files(&repo().join("host/src"), &mut files);
    let mut fns = BTreeSet::new();
    let mut modules = BTreeSet::new();
    for file in &files {
        modules.insert(file.file_stem().unwrap().to_string_lossy().to_string());
        if let Some(dir) = file.parent().and_then(Path::file_name) {
            modules.insert(dir.to_string_lossy().to_string());
        }
        let text = std::fs::read_to_string(file).unwrap();
        for (keyword, set) in [("fn ", &mut fns), ("mod ", &mut modules)] {
            for (i, _) in text.match_indices(keyword) {
                let name: String = text[i + keyword.len()..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                set.insert(name);
            }
        }
    }
    let cited = cited_tests(&page);
    assert!(
        cited.len() > 100,
        "only {} tests found on the page: {cited:?}",
        cited.len()
    );
    let mut missing = Vec::new();
    for name in &cited {
        let segments: Vec<&str> = name.split("::").collect();
        let (last, module) = (segments[segments.len() - 1], segments[segments.len() - 2]);
        let found_fn = match last.strip_suffix('*') {
            Some("") => true,
            Some(prefix) => fns.iter().any(|f| f.starts_with(prefix)),
            None => fns.contains(last),
        };
        if !found_fn || !modules.contains(module) {
            missing.push(name.as_str());
        }
    }
    assert!(
        missing.is_empty(),
        "docs/src/guarantees.md cites tests that do not exist (under tests/ or host/src/):\n{}",
        missing.join("\n")
    );
}

// ---------------------------------------------------------------------------
// The README

#[test]
fn the_readme_is_a_front_door_and_its_agent_is_the_real_one() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 250,
        "README.md has {lines} lines: the manual belongs in docs/"
    );
    let agent = std::fs::read_to_string(repo().join("agents/invoice-mail/src/lib.rs")).unwrap();
    let block = readme
        .split("```rust\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the README shows an agent in a ```rust block");
    assert_eq!(
        block.trim_end(),
        agent.trim_end(),
        "the README's agent must be agents/invoice-mail/src/lib.rs as it is (it is built and tested)"
    );
}

// ---------------------------------------------------------------------------
// Links

/// The anchor a heading gets, as GitHub and mdBook make it: lowercase,
/// letters, digits, `-` and `_` kept, spaces made `-`, the rest dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// A page's text outside fenced code blocks and inline code.
fn prose(page: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in page.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                out.push_str(part);
            }
        }
        out.push('\n');
    }
    out
}

/// The anchors of a page's headings (a repeated heading's second anchor
/// gets `-1`, as on GitHub and in mdBook).
fn anchors(page: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    let mut fenced = false;
    for line in page.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let text = line.trim_start_matches('#').replace('`', "");
        let base = slug(&text);
        let n = seen.entry(base.clone()).or_insert(0);
        out.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

/// The targets of a text's `[text](target)` links and images.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("](") {
        let rest = &text[i + 2..];
        if let Some(end) = rest.find(')') {
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            out.push(target.to_string());
        }
    }
    out
}

/// What is wrong with the links of `page` (at `path`): a file that does
/// not exist, an anchor that names no heading of its page, an
/// `{{#include}}` of a file that does not exist.
fn broken_links(path: &Path, page: &str) -> Vec<String> {
    let dir = path.parent().unwrap();
    let mut problems = Vec::new();
    for target in link_targets(&prose(page)) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, anchor) = match target.split_once('#') {
            Some((file, anchor)) => (file, Some(anchor)),
            None => (target.as_str(), None),
        };
        // A link to a heading of the same page reads the page itself.
        let linked = if file.is_empty() {
            page.to_string()
        } else {
            let resolved = dir.join(file);
            if !resolved.exists() {
                problems.push(format!(
                    "{}: ({target}): no file {}",
                    path.display(),
                    resolved.display()
                ));
                continue;
            }
            if resolved.extension().is_none_or(|e| e != "md") {
                continue;
            }
            std::fs::read_to_string(&resolved).unwrap_or_default()
        };
        if let Some(anchor) = anchor
            && !anchors(&linked).contains(anchor)
        {
            problems.push(format!(
                "{}: ({target}): no heading #{anchor}",
                path.display()
            ));
        }
    }
    for (i, _) in page.match_indices("{{#include ") {
        let rest = &page[i + "{{#include ".len()..];
        let file = rest
            .split("}}")
            .next()
            .unwrap_or("")
            .split(':')
            .next()
            .unwrap_or("")
            .trim();
        if !dir.join(file).exists() {
            problems.push(format!(
                "{}: {{{{#include {file}}}}}: no such file",
                path.display()
            ));
        }
    }
    problems
}

/// The book's pages and the README.
fn pages() -> Vec<PathBuf> {
    fn md(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                md(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut out = vec![repo().join("README.md"), repo().join("SECURITY.md")];
    md(&repo().join("docs/src"), &mut out);
    out
}

#[test]
fn every_link_in_the_book_and_the_readme_resolves() {
    let pages = pages();
    assert!(pages.len() > 20, "{pages:?}");
    let mut problems = Vec::new();
    for path in &pages {
        let page = std::fs::read_to_string(path).unwrap();
        problems.extend(broken_links(path, &page));
    }
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_link_check_finds_a_missing_page_a_missing_anchor_and_a_missing_include() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("docs-links-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("other.md"),
        "# Other\n\n## A run's life\n\n## A run's life\n",
    )
    .unwrap();
    let page = dir.join("page.md");
    let text = "# Page\n\n[ok](other.md#a-runs-life), [ok](other.md#a-runs-life-1), [ok](#page)\n\
                [gone](gone.md), [no anchor](other.md#nowhere), ![img](missing.png)\n\
                `[in code](nowhere.md)`\n\n```\n[in a block](nowhere.md)\n```\n\n{{#include missing.rs}}\n";
    let problems = broken_links(&page, text);
    assert_eq!(problems.len(), 4, "{problems:#?}");
    assert!(
        problems[0].contains("gone.md") && problems[1].contains("#nowhere"),
        "{problems:#?}"
    );
    assert!(
        problems[2].contains("missing.png") && problems[3].contains("missing.rs"),
        "{problems:#?}"
    );
}

/// Where the repository's files live: a backticked path under one of these
/// names a file or directory of the repository.
const REPO_ROOTS: &[&str] = &[
    "host/",
    "tests/",
    "agents/",
    "guest-sdk/",
    "scripts/",
    "wit/",
    "bench/",
    "fuzz/",
    "templates/",
    "vendor/",
    "docs/",
];

#[test]
fn every_repository_path_the_book_and_the_readme_name_exists() {
    let mut missing = Vec::new();
    let mut checked = 0;
    // The performance log is history: it names files as they were.
    for page in pages()
        .into_iter()
        .filter(|p| !p.ends_with("performance-log.md"))
    {
        let text = std::fs::read_to_string(&page).unwrap();
        for token in text.split('`').skip(1).step_by(2) {
            let is_path = REPO_ROOTS.iter().any(|root| token.starts_with(root))
                && !token.contains("/target/")
                && !token.contains(|c: char| " *<>{}$?=,".contains(c));
            if !is_path {
                continue;
            }
            checked += 1;
            let path = token.trim_end_matches(['/', ':', '.']);
            if !repo().join(path).exists() {
                missing.push(format!("{}: `{token}`", page.display()));
            }
        }
    }
    assert!(checked > 100, "only {checked} paths found");
    assert!(
        missing.is_empty(),
        "paths named in the book or the README that do not exist (moved? update the page):\n{}",
        missing.join("\n")
    );
}
