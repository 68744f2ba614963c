//! The command line's own checks.

use clap::CommandFactory;

use super::Cli;

/// Every command a user can reach says what it does, and every
/// argument what it takes: `--help` is the manual.
#[test]
fn every_command_and_argument_has_help() {
    fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            let path = format!("{path} {}", sub.get_name());
            if sub.get_about().is_none() {
                missing.push(format!("`{path}` has no about line"));
            }
            for arg in sub.get_arguments().filter(|a| !a.is_hide_set()) {
                if arg.get_help().is_none() {
                    missing.push(format!("`{path}` argument `{}` has no help", arg.get_id()));
                }
            }
            walk(sub, &path, missing);
        }
    }
    let mut cmd = Cli::command();
    cmd.build();
    let mut missing = Vec::new();
    for arg in cmd.get_arguments() {
        if arg.get_help().is_none() {
            missing.push(format!("`wakeful` argument `{}` has no help", arg.get_id()));
        }
    }
    walk(&cmd, "wakeful", &mut missing);
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
