//! What a component is, read off its bytes without compiling it: the WIT
//! package it was built against, its imports and exports, and whether this
//! host provides every import and finds every export it calls. `deploy`
//! runs this before compiling anything, and `wakeful check` prints it.

use serde::Serialize;
use wasmparser::{ComponentExternalKind, ComponentTypeRef, Parser, Payload};

use super::error::LoadError;

/// The contract this host speaks, as `package@version`.
pub const CONTRACT: &str = "wakeful:agent@0.2.0";

/// The contract's WIT text, as `wakeful wit` prints it.
pub const WIT: &str = include_str!("../../../wit/agent.wit");

/// The exports the host calls, with their WIT signatures.
pub const EXPORTS: &[(&str, &str)] = &[
    ("info", "func() -> agent-info"),
    (
        "step",
        "func(state: string, wake: wake) -> result<step-result, string>",
    ),
    (
        "migrate",
        "func(from-version: string, state: string) -> result<string, string>",
    ),
];

/// What the host provides, by package: the version it is compatible with
/// (major, minor) and the interfaces. This mirrors what `sandbox::linker`
/// adds, so that a missing import is named before wasmtime's type check.
const PROVIDED: &[(&str, (u64, u64), &[&str])] = &[
    ("wakeful:agent", (0, 2), &["tools", "host", "types"]),
    (
        "wasi:cli",
        (0, 2),
        &[
            "environment",
            "exit",
            "stdin",
            "stdout",
            "stderr",
            "terminal-input",
            "terminal-output",
            "terminal-stdin",
            "terminal-stdout",
            "terminal-stderr",
        ],
    ),
    ("wasi:clocks", (0, 2), &["wall-clock", "monotonic-clock"]),
    ("wasi:filesystem", (0, 2), &["types", "preopens"]),
    ("wasi:io", (0, 2), &["error", "poll", "streams"]),
    (
        "wasi:random",
        (0, 2),
        &["random", "insecure", "insecure-seed"],
    ),
    (
        "wasi:sockets",
        (0, 2),
        &[
            "network",
            "instance-network",
            "tcp",
            "tcp-create-socket",
            "udp",
            "udp-create-socket",
            "ip-name-lookup",
        ],
    ),
];

/// What an agent may import, for error messages and `wakeful check`.
pub fn provided_summary() -> String {
    PROVIDED
        .iter()
        .map(|(package, (major, minor), interfaces)| {
            format!("{package}/{{{}}}@{major}.{minor}", interfaces.join(","))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether the host provides the import `name`, e.g. `wasi:io/poll@0.2.3`.
pub(super) fn is_provided(name: &str) -> bool {
    let Some((path, version)) = name.split_once('@') else {
        return false;
    };
    let Some((package, interface)) = path.split_once('/') else {
        return false;
    };
    let Ok(version) = semver::Version::parse(version) else {
        return false;
    };
    PROVIDED.iter().any(|(p, (major, minor), interfaces)| {
        *p == package
            && version.major == *major
            && version.minor == *minor
            && interfaces.contains(&interface)
    })
}

/// One import and whether the host provides it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Import {
    pub name: String,
    pub provided: bool,
}

/// A component's outward shape, read without compiling it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Shape {
    /// The `wakeful:agent` package version it imports, e.g.
    /// `wakeful:agent@0.2.0`; `None` if it imports nothing of it.
    pub contract: Option<String>,
    pub imports: Vec<Import>,
    pub exports: Vec<String>,
    /// Exports the host calls that the component lacks.
    pub missing_exports: Vec<String>,
    /// Bytes of the largest function body of its core modules: what one
    /// function gives the compiler to chew on.
    pub largest_function_bytes: usize,
}

impl Shape {
    /// Every reason the host would refuse the component, each a sentence
    /// that says what to do; empty if the shape is acceptable.
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let refused: Vec<&str> = self
            .imports
            .iter()
            .filter(|i| !i.provided)
            .map(|i| i.name.as_str())
            .collect();
        if !refused.is_empty() {
            problems.push(unsupported_imports(&refused));
        }
        match &self.contract {
            Some(contract) if contract != CONTRACT && !same_minor(contract) => problems.push(
                format!("it was built against {contract}; this host speaks {CONTRACT}: rebuild it against the host's `wakeful wit`"),
            ),
            Some(_) => {}
            None => problems.push(format!(
                "it imports nothing of {CONTRACT}; build it against the `agent` world of the host's `wakeful wit`"
            )),
        }
        if !self.missing_exports.is_empty() {
            problems.push(format!(
                "it does not export {} of the `agent` world; an agent exports {}",
                self.missing_exports.join(", "),
                EXPORTS
                    .iter()
                    .map(|(name, sig)| format!("`{name}: {sig}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        problems
    }
}

fn same_minor(contract: &str) -> bool {
    let version = |c: &str| {
        c.split_once('@')
            .and_then(|(_, v)| semver::Version::parse(v).ok())
    };
    match (version(contract), version(CONTRACT)) {
        (Some(a), Some(b)) => a.major == b.major && a.minor == b.minor,
        _ => false,
    }
}

/// The message for imports the host lacks, with the fix for the usual
/// causes.
fn unsupported_imports(names: &[&str]) -> String {
    let mut message = format!(
        "it imports {}, which this host does not provide; an agent may import only {}",
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", "),
        provided_summary()
    );
    if names.iter().any(|n| n.starts_with("wasi:http/")) {
        message.push_str(
            ". A JavaScript agent imports wasi:http unless built with `jco componentize … -d http -d fetch-event`; call HTTP through the `http` tool instead",
        );
    }
    if names.iter().any(|n| n.starts_with("wakeful:agent/")) {
        message.push_str(
            ". An agent built against an older wakeful:agent must be rebuilt with the current SDK",
        );
    }
    message
}

/// Reads a component's imports and exports, from the outermost
/// component's sections, and the size of its largest function body, from
/// the code sections of every module nested in it.
pub fn shape(bytes: &[u8]) -> Result<Shape, LoadError> {
    let mut imports = Vec::new();
    let mut exports = Vec::new();
    let mut largest_function_bytes = 0;
    // Every nested module or component starts with a `Version` payload and
    // ends with an `End` payload.
    let mut depth = 0usize;
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload.map_err(|e| LoadError::Invalid(format!("{e}")))?;
        match payload {
            Payload::Version { .. } => depth += 1,
            Payload::End(_) => depth = depth.saturating_sub(1),
            Payload::ComponentImportSection(section) if depth == 1 => {
                for import in section {
                    let import = import.map_err(|e| LoadError::Invalid(format!("{e}")))?;
                    // Types the world `use`s (`wake`, `step-result`) are
                    // imported by name; only what has behind it needs a
                    // provider.
                    if !matches!(import.ty, ComponentTypeRef::Type(_)) {
                        imports.push(import.name.name.to_owned());
                    }
                }
            }
            Payload::CodeSectionEntry(body) => {
                largest_function_bytes = largest_function_bytes.max(body.range().len());
            }
            Payload::ComponentExportSection(section) if depth == 1 => {
                for export in section {
                    let export = export.map_err(|e| LoadError::Invalid(format!("{e}")))?;
                    if export.kind == ComponentExternalKind::Func {
                        exports.push(export.name.name.to_owned());
                    }
                }
            }
            _ => {}
        }
    }
    let contract = imports.iter().find_map(|name| {
        let (path, version) = name.split_once('@')?;
        let (package, _) = path.split_once('/')?;
        (package == "wakeful:agent").then(|| format!("{package}@{version}"))
    });
    let missing_exports = EXPORTS
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| !exports.iter().any(|e| e == name))
        .map(str::to_owned)
        .collect();
    Ok(Shape {
        contract,
        imports: imports
            .into_iter()
            .map(|name| Import {
                provided: is_provided(&name),
                name,
            })
            .collect(),
        exports,
        missing_exports,
        largest_function_bytes,
    })
}

/// Refuses a component with a function body larger than `limit` bytes,
/// before it is compiled: one function is compiled in one piece, and time
/// and memory grow with its size.
pub fn check_functions(shape: &Shape, limit: usize) -> Result<(), LoadError> {
    if shape.largest_function_bytes > limit {
        return Err(LoadError::OverLimit(format!(
            "one of its functions is {} bytes of code; the largest this host compiles is \
             [limits] max_function_bytes = {limit}",
            shape.largest_function_bytes
        )));
    }
    Ok(())
}

/// Refuses a component whose shape the host cannot run, naming every
/// problem at once.
pub(super) fn check_shape(bytes: &[u8]) -> Result<Shape, LoadError> {
    let shape = shape(bytes)?;
    let problems = shape.problems();
    if problems.is_empty() {
        Ok(shape)
    } else {
        Err(LoadError::Refused(problems.join("; ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_hosts_interfaces_are_provided() {
        assert!(is_provided("wakeful:agent/tools@0.2.0"));
        assert!(is_provided("wakeful:agent/host@0.2.3"));
        assert!(is_provided("wasi:io/poll@0.2.0"));
        assert!(is_provided("wasi:cli/stdout@0.2.12"));
        assert!(!is_provided("wakeful:agent/tools@0.1.0"));
        assert!(!is_provided("wasi:io/poll@0.3.0"));
        assert!(!is_provided("wasi:http/types@0.2.0"));
        assert!(!is_provided("wasi:clocks/timezone@0.2.0"));
        assert!(!is_provided("acme:missing/thing@1.0.0"));
        assert!(!is_provided("wasi:io/poll"));
        assert!(!is_provided("my-function"));
    }

    #[test]
    fn the_contract_is_the_wit_package() {
        assert!(WIT.starts_with(&format!("package {CONTRACT};")));
        for (name, _) in EXPORTS {
            assert!(WIT.contains(&format!("export {name}: func(")), "{name}");
        }
    }

    #[test]
    fn problems_name_what_to_do() {
        let shape = Shape {
            contract: Some("wakeful:agent@0.1.0".into()),
            imports: vec![
                Import {
                    name: "wakeful:agent/tools@0.1.0".into(),
                    provided: false,
                },
                Import {
                    name: "wasi:http/types@0.2.0".into(),
                    provided: false,
                },
            ],
            exports: vec!["info".into()],
            missing_exports: vec!["step".into(), "migrate".into()],
            largest_function_bytes: 10,
        };
        let problems = shape.problems();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].contains("`wasi:http/types@0.2.0`"));
        assert!(problems[0].contains("-d http -d fetch-event"));
        assert!(problems[0].contains("older wakeful:agent"));
        assert!(problems[1].contains("built against wakeful:agent@0.1.0"));
        assert!(problems[2].contains("does not export step, migrate"));
    }

    #[test]
    fn garbage_after_the_header_is_invalid() {
        assert!(matches!(
            shape(b"\0asm\x0d\0\x01\0\xff\xff"),
            Err(LoadError::Invalid(_))
        ));
    }
}
