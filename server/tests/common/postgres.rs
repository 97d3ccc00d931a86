//! A private PostgreSQL cluster for one test: Debian's `postgresql`
//! (installed with apt-get when missing and run as root), `initdb` into a
//! temporary folder, the server on a free loopback port, stopped when the
//! value is dropped. A test without PostgreSQL fails, naming the package,
//! unless `MOLLETT_SKIP` names `postgres` (a developer without root).

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct Postgres {
    child: Child,
    pub port: u16,
    bin: PathBuf,
    _dir: tempfile::TempDir,
    next_db: Mutex<u32>,
}

/// The server programs' folder (`/usr/lib/postgresql/N/bin`, the newest).
fn bin_dir() -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|p| p.join("initdb").exists() && p.join("postgres").exists())
        .collect();
    dirs.sort();
    dirs.pop()
}

/// One apt-get install at a time in this process (dpkg's lock).
static INSTALL: Mutex<()> = Mutex::new(());

fn install() -> Option<PathBuf> {
    let _one = INSTALL.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(dir) = bin_dir() {
        return Some(dir);
    }
    eprintln!("installing postgresql with apt-get");
    for args in [
        &["update", "-qq"][..],
        &["install", "-y", "-qq", "postgresql"],
    ] {
        let _ = Command::new("timeout")
            .arg("300")
            .arg("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    bin_dir()
}

/// The `postgres` user's ids, for running the server as it when the tests
/// run as root (PostgreSQL refuses to run as root).
fn postgres_ids() -> Option<(u32, u32)> {
    let id = |flag: &str| -> Option<u32> {
        let out = Command::new("id").args([flag, "postgres"]).output().ok()?;
        String::from_utf8(out.stdout).ok()?.trim().parse().ok()
    };
    Some((id("-u")?, id("-g")?))
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Postgres {
    /// A running cluster, or `None` when `MOLLETT_SKIP` names `postgres`.
    /// Panics (the test fails) when PostgreSQL cannot be had. A test's
    /// cluster need not survive a power cut: no fsync.
    pub fn start() -> Option<Postgres> {
        Postgres::start_with(&[
            ("fsync", "off"),
            ("synchronous_commit", "off"),
            ("full_page_writes", "off"),
        ])
    }

    /// [`Postgres::start`] with these settings (`-c NAME=VALUE` each) over
    /// PostgreSQL's defaults.
    pub fn start_with(settings: &[(&str, &str)]) -> Option<Postgres> {
        if super::nginx::skipped("postgres") {
            eprintln!("MOLLETT_SKIP names postgres: this test is not run");
            return None;
        }
        let bin = install().expect(
            "PostgreSQL is needed: install Debian's package `postgresql` \
             (or set MOLLETT_SKIP=postgres to skip these tests)",
        );
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let root = rustix::process::geteuid().is_root();
        let ids = if root {
            let ids = postgres_ids().expect("the postgresql package makes a 'postgres' user");
            Command::new("chown")
                .arg(format!("{}:{}", ids.0, ids.1))
                .arg(dir.path())
                .status()
                .unwrap();
            Some(ids)
        } else {
            None
        };
        let as_owner = |program: &Path| {
            let mut c = Command::new(program);
            if let Some((uid, gid)) = ids {
                c.uid(uid).gid(gid);
            }
            c.stdin(Stdio::null());
            c
        };
        let out = as_owner(&bin.join("initdb"))
            .args(["-D"])
            .arg(&data)
            .args([
                "-U",
                "postgres",
                "-A",
                "trust",
                "--no-sync",
                "-E",
                "UTF8",
                "--locale=C",
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "initdb failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let port = free_port();
        let log = std::fs::File::create(dir.path().join("postgres.log")).unwrap();
        if let Some((uid, gid)) = ids {
            let _ = std::os::unix::fs::chown(dir.path().join("postgres.log"), Some(uid), Some(gid));
        }
        let child = as_owner(&bin.join("postgres"))
            .arg("-D")
            .arg(&data)
            .args(["-p", &port.to_string(), "-c", "listen_addresses=127.0.0.1"])
            .arg("-k")
            .arg(dir.path())
            .args(["-c", "max_connections=200"])
            .args(
                settings
                    .iter()
                    .flat_map(|(k, v)| ["-c".to_string(), format!("{k}={v}")]),
            )
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("start postgres");
        let pg = Postgres {
            child,
            port,
            bin,
            _dir: dir,
            next_db: Mutex::new(0),
        };
        let by = Instant::now() + Duration::from_secs(30);
        loop {
            let ready = Command::new(pg.bin.join("pg_isready"))
                .args(["-h", "127.0.0.1", "-p", &port.to_string(), "-q"])
                .status()
                .is_ok_and(|s| s.success());
            if ready {
                break;
            }
            assert!(
                Instant::now() < by,
                "postgres did not start: {}",
                std::fs::read_to_string(pg._dir.path().join("postgres.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        Some(pg)
    }

    /// A new, empty database; its URL.
    pub fn database(&self) -> String {
        let name = {
            let mut n = self.next_db.lock().unwrap();
            *n += 1;
            format!("rooms{n}")
        };
        let out = Command::new(self.bin.join("createdb"))
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "postgres",
                &name,
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "createdb: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        // SIGINT: fast shutdown (the backends end with the server).
        super::nginx::stop(&mut self.child, "INT");
    }
}
