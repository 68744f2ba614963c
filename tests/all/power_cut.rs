//! Power cuts, not only crashes: a killed process leaves the kernel's page
//! cache behind, a power cut only what was flushed to disk. Every process
//! of a recorded history (the real `wakeful` binary, built with
//! `failpoints`) writes each change it makes to the store's files, and
//! each flush, to a power log (`WAKEFUL_POWER_LOG`, `host/src/power_log.rs`);
//! the test marks in the same log what the host acknowledged as it sees
//! it. From that log, the files a power cut at any point could leave are
//! built (`image.rs`: what was flushed, plus any part of the rest, torn
//! at sectors), and the real binary opens them: nothing acknowledged
//! before the cut may be missing, the file must be whole, no checkpoint
//! half-written, and a host that finishes the work makes each call that
//! cannot be repeated once.

mod checks;
mod history;
mod image;
mod log;
mod resume;
mod soak;
mod sweep;

use checks::Acks;
use image::{Keep, Replay, Rng};
use log::Log;

use crate::harness::Env;

/// One simulated power cut: after the first `at` records of the log.
#[derive(Clone, Debug)]
struct Cut {
    at: usize,
    keep: Keep,
    seed: u64,
    /// Whether a host then finishes the work on the image.
    resume: bool,
}

/// What a host must make of an image once it opens: finish the work, and
/// whatever the history's scenario expects.
type After<'a> = &'a dyn Fn(&Env, &Acks) -> Result<(), String>;

/// [`After`], owned.
type Finish = Box<dyn Fn(&Env, &Acks) -> Result<(), String>>;

/// Cuts the recorded history at each of `cuts` (in order of `at`); returns
/// what went wrong at each cut that failed, the image kept for a look.
fn cut_at(log: &Log, cuts: &[Cut], after: After<'_>) -> Vec<String> {
    let marks: Vec<(usize, &str)> = log.marks().collect();
    let mut replay = Replay::new(log);
    let (mut acks, mut next_mark) = (Acks::default(), 0);
    let mut failures = vec![];
    let (mut kept, mut torn, mut lost) = (0, 0, 0);
    for (n, cut) in cuts.iter().enumerate() {
        replay.advance(cut.at);
        while next_mark < marks.len() && marks[next_mark].0 <= cut.at {
            acks.note(marks[next_mark].1);
            next_mark += 1;
        }
        let image = replay.cut(cut.keep, &mut Rng(cut.seed));
        (kept, torn, lost) = (kept + image.kept, torn + image.torn, lost + image.lost);
        let env = resume::image_env("power-cut-image", &image, "http://127.0.0.1:9");
        let verdict = resume::opens_with_everything_acknowledged(&env, &acks).and_then(|()| {
            if cut.resume {
                after(&env, &acks)
            } else {
                Ok(())
            }
        });
        match verdict {
            Ok(()) => {
                let _ = std::fs::remove_dir_all(&env.dir);
            }
            Err(e) => failures.push(format!(
                "cut {n} after record {} (log byte {}), {:?}, seed {}: {e} (the image: {})",
                cut.at,
                log.records
                    .get(cut.at)
                    .map_or(log.bytes.len() as u64, |r| r.0),
                cut.keep,
                cut.seed,
                env.dir.display()
            )),
        }
    }
    eprintln!(
        "power cuts: {} cuts, {} acknowledgements; writes not flushed: {kept} kept, {torn} \
         torn, {lost} lost",
        cuts.len(),
        acks.count()
    );
    failures
}

fn knob(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn the_replay_keeps_what_was_flushed_and_tears_the_rest_at_sectors() {
    let env = Env::sqlite("power-cut-replay", "");
    let path = env.dir.join("power.log");
    // A hand-written log in the host's format: `a` created, 2 KiB of `x`
    // written and flushed with its directory; then 2 KiB of `y` over it
    // and a new file `b`, neither flushed.
    let record = |kind: u8, file: &str, number: u64, data: &[u8]| {
        let mut r = vec![b'P', kind];
        r.extend((file.len() as u32).to_le_bytes());
        r.extend((data.len() as u32).to_le_bytes());
        r.extend(number.to_le_bytes());
        r.extend(file.as_bytes());
        r.extend(data);
        r
    };
    let mut bytes = record(b'C', "/d/a", 0, &[]);
    bytes.extend(record(b'W', "/d/a", 0, &[b'x'; 2048]));
    let flushed_at = bytes.len() as u64;
    bytes.extend(record(b'S', "/d/a", flushed_at, &[]));
    bytes.extend(record(b'D', "/d", flushed_at, &[]));
    bytes.extend(record(b'W', "/d/a", 0, &[b'y'; 2048]));
    bytes.extend(record(b'C', "/d/b", 0, &[]));
    bytes.extend(record(b'W', "/d/b", 0, b"new"));
    std::fs::write(&path, bytes).unwrap();
    let log = Log::read(&path);
    let mut replay = Replay::new(&log);
    replay.advance(log.records.len());
    let cut = |keep: Keep, seed: u64| replay.cut(keep, &mut Rng(seed));

    let flushed = cut(Keep::Flushed, 1);
    assert_eq!(flushed.files["a"], vec![b'x'; 2048]);
    assert!(
        !flushed.files.contains_key("b"),
        "b's entry was never flushed"
    );
    let all = cut(Keep::All, 1);
    assert_eq!(all.files["a"], vec![b'y'; 2048]);
    assert_eq!(all.files["b"], b"new");
    let mut torn_seen = false;
    for seed in 0..64 {
        let any = cut(Keep::Any, seed);
        let a = &any.files["a"];
        assert_eq!(a.len(), 2048);
        for sector in a.chunks(512) {
            assert!(
                sector.iter().all(|&c| c == sector[0]),
                "a sector is never half-written"
            );
        }
        torn_seen |= a.chunks(512).any(|s| s[0] == b'x') && a.chunks(512).any(|s| s[0] == b'y');
        // Lost, written, or only its new length written.
        let b = any.files.get("b");
        assert!(
            b.is_none_or(|b| [&b""[..], b"new", b"\0\0\0"].contains(&&b[..])),
            "{b:?}"
        );
    }
    assert!(torn_seen, "no seed tore the unflushed write");
}
