//! The generated bindings of `wit/agent.wit`. Public only so that
//! [`export_agent!`](crate::export_agent) can name them from an agent crate;
//! agents use the typed API of this crate instead.
#![allow(
    missing_docs,
    clippy::too_many_arguments,
    reason = "generated: exports take one argument per flattened WIT value"
)]

wit_bindgen::generate!({
    path: "../wit",
    world: "agent",
    pub_export_macro: true,
    export_macro_name: "__export_agent_world",
    // The export macro expands inside agent crates, which do not depend on
    // wit-bindgen: route its runtime through this crate.
    runtime_path: "crate::__private::wit_bindgen::rt",
});

pub use wakeful::agent::types as wit;
