//! End-to-end tests: the real `wakeful` binary, one process per command, a
//! real store (the SQLite file, or PostgreSQL with
//! `WAKEFUL_TEST_STORE=postgres`: see `harness`), agents built from source in
//! `agents/`.

mod api;
mod api_errors;
mod api_guard;
mod api_who;
mod approval_page;
mod approvals;
mod authoring;
mod bad_input;
mod bench_record;
mod broadcasts;
mod browser;
mod cache_prune;
mod callbacks;
mod console;
mod crash;
mod data_file;
mod fake_servers;
mod fsyncs;
mod group_commit;
mod guest_errors;
mod harness;
mod hostile_clients;
mod hosts;
mod hosts_incidents;
mod hosts_restart;
mod hosts_support;
mod hosts_wakes;
mod incident;
mod invoice;
mod ledger;
mod logs;
mod manners;
mod migrate_store;
mod operator;
mod pg_cluster;
mod pg_proxy;
mod race;
mod sandbox;
mod serve_process;
mod tools;
mod triggers;
mod upgrade;
mod wakeups;
