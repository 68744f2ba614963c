//! A PostgreSQL server of the test's own, made with `initdb` in a
//! temporary directory: a test that restarts its server must not restart
//! the one other tests (and other people) share.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What a test that starts its own server needs, for the failure message.
const NEEDS: &str = "this test restarts a PostgreSQL server of its own: it needs PostgreSQL's \
                     server programs (initdb and pg_ctl on PATH or in /usr/lib/postgresql/*/bin; \
                     Debian: apt-get install postgresql)";

pub struct Cluster {
    dir: PathBuf,
    bin: PathBuf,
    /// The user the server runs as when the test runs as root (the server
    /// refuses to run as root).
    owner: Option<String>,
    pub port: u16,
}

impl Cluster {
    /// Makes and starts a cluster on a free loopback port, trusting local
    /// connections, with durability off (it is thrown away).
    pub fn start(tag: &str) -> Cluster {
        let bin = server_programs();
        let owner = is_root().then(|| {
            let known = |u: &str| {
                Command::new("id")
                    .arg(u)
                    .output()
                    .is_ok_and(|o| o.status.success())
            };
            if known("postgres") {
                "postgres"
            } else {
                "nobody"
            }
            .to_string()
        });
        let dir = std::env::temp_dir().join(format!("wakeful-e2e-pg-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        if let Some(user) = &owner {
            run(Command::new("chown").arg("-R").arg(user).arg(&dir), "chown");
        }
        let port = free_port();
        let cluster = Cluster {
            dir,
            bin,
            owner,
            port,
        };
        let data = cluster.data();
        run(
            cluster.as_owner("initdb").arg("-D").arg(&data).args([
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--no-locale",
            ]),
            "initdb",
        );
        let conf = "listen_addresses = '127.0.0.1'\nunix_socket_directories = ''\n\
                    fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n";
        let path = data.join("postgresql.conf");
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str(conf);
        std::fs::write(&path, text).unwrap();
        cluster.pg_ctl(&["start"]);
        cluster
    }

    /// The admin URL: the superuser on the `postgres` database.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// Stops the server (`fast`: every session is ended, as a restart for
    /// maintenance does) and starts it again; returns when it answers.
    pub fn restart(&self) {
        self.pg_ctl(&["restart", "-m", "fast"]);
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    fn pg_ctl(&self, args: &[&str]) {
        let log = self.dir.join("server.log");
        run(
            self.as_owner("pg_ctl")
                .args(args)
                .args(["-w", "-t", "60", "-D"])
                .arg(self.data())
                .arg("-l")
                .arg(&log)
                .args(["-o", &format!("-p {}", self.port)]),
            &format!("pg_ctl {args:?} (its log: {})", log.display()),
        );
    }

    fn as_owner(&self, program: &str) -> Command {
        let program = self.bin.join(program);
        match &self.owner {
            Some(user) => {
                let mut cmd = Command::new("runuser");
                cmd.args(["-u", user, "--"]).arg(program);
                cmd
            }
            None => Command::new(program),
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self
            .as_owner("pg_ctl")
            .args(["stop", "-m", "immediate", "-D"])
            .arg(self.data())
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn run(cmd: &mut Command, what: &str) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{NEEDS}; {what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The directory of `initdb` and `pg_ctl`: PATH's, else the newest of
/// Debian's versioned directories.
fn server_programs() -> PathBuf {
    let has_both = |dir: &Path| dir.join("initdb").exists() && dir.join("pg_ctl").exists();
    let path = std::env::var_os("PATH").unwrap_or_default();
    if let Some(dir) = std::env::split_paths(&path).find(|d| has_both(d)) {
        // Debian links them from elsewhere; initdb finds the server
        // program next to its real self.
        let real = std::fs::canonicalize(dir.join("initdb")).unwrap();
        return real.parent().unwrap().to_path_buf();
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_string_lossy().parse().ok()?;
            let bin = e.path().join("bin");
            has_both(&bin).then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions
        .pop()
        .map(|(_, bin)| bin)
        .unwrap_or_else(|| panic!("{NEEDS}; none was found"))
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn free_port() -> u16 {
    let socket = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    socket.local_addr().unwrap().port()
}
