//! The power log a `wakeful` built with `failpoints` writes when
//! `WAKEFUL_POWER_LOG` names a file (`host/src/power_log.rs` describes the
//! format): read back, and the test's own marks appended to it.

use std::io::Write;
use std::ops::Range;
use std::path::Path;

/// The environment variable the host reads.
pub const ENV: &str = "WAKEFUL_POWER_LOG";

/// A change to a file.
#[derive(Clone, Debug)]
pub enum Change {
    /// Bytes written at an offset: a range of [`Log::bytes`].
    Write {
        at: u64,
        data: Range<usize>,
    },
    Truncate(u64),
}

/// One record. Files are named by their name in the data directory, where
/// the store keeps all of its files.
#[derive(Clone, Debug)]
pub enum Record {
    Change {
        file: String,
        change: Change,
    },
    /// A flush of `file` that covers the records before log position
    /// `covers`.
    Flush {
        file: String,
        covers: u64,
    },
    /// A flush of the data directory: the files created and deleted before
    /// `covers` are so on disk.
    DirFlush {
        covers: u64,
    },
    Create(String),
    Delete(String),
    /// A directory made (by its full path): the data directory, or a
    /// parent of it.
    MakeDir(String),
    /// The directory holding a directory made flushed: the entry of the
    /// one made is on disk if it was made before `covers`.
    EntryFlush {
        dir: String,
        covers: u64,
    },
    Mark(String),
}

/// A whole log, read at once.
pub struct Log {
    pub bytes: Vec<u8>,
    /// Each record with its position (its first byte) in the log.
    pub records: Vec<(u64, Record)>,
}

const HEADER: usize = 18;

impl Log {
    pub fn read(path: &Path) -> Log {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut records = vec![];
        let mut at = 0;
        while at < bytes.len() {
            let (record, len) = parse(&bytes, at);
            records.push((at as u64, record));
            at += len;
        }
        Log { bytes, records }
    }

    /// The data of a write.
    pub fn data(&self, range: &Range<usize>) -> &[u8] {
        &self.bytes[range.clone()]
    }

    /// The marks, each with the index of the record after it: a cut there
    /// comes after the mark.
    pub fn marks(&self) -> impl Iterator<Item = (usize, &str)> {
        self.records
            .iter()
            .enumerate()
            .filter_map(|(i, (_, r))| match r {
                Record::Mark(text) => Some((i + 1, text.as_str())),
                _ => None,
            })
    }
}

/// The record at `at` and its length.
fn parse(bytes: &[u8], at: usize) -> (Record, usize) {
    assert!(
        at + HEADER <= bytes.len(),
        "the power log ends inside a record header at {at}"
    );
    let head = &bytes[at..at + HEADER];
    assert_eq!(head[0], b'P', "no record starts at {at} of the power log");
    let u32_at = |i: usize| u32::from_le_bytes(head[i..i + 4].try_into().unwrap()) as usize;
    let (path_len, data_len) = (u32_at(2), u32_at(6));
    let number = u64::from_le_bytes(head[10..18].try_into().unwrap());
    let path_at = at + HEADER;
    let data_at = path_at + path_len;
    let end = data_at + data_len;
    assert!(
        end <= bytes.len(),
        "the power log ends inside the record at {at}"
    );
    let path = &bytes[path_at..data_at];
    let file = String::from_utf8_lossy(path.rsplit(|&b| b == b'/').next().unwrap()).to_string();
    let record = match head[1] {
        b'W' => Record::Change {
            file,
            change: Change::Write {
                at: number,
                data: data_at..end,
            },
        },
        b'T' => Record::Change {
            file,
            change: Change::Truncate(number),
        },
        b'S' => Record::Flush {
            file,
            covers: number,
        },
        b'D' => Record::DirFlush { covers: number },
        b'C' => Record::Create(file),
        b'U' => Record::Delete(file),
        b'K' => Record::MakeDir(String::from_utf8_lossy(path).to_string()),
        b'E' => Record::EntryFlush {
            dir: String::from_utf8_lossy(path).to_string(),
            covers: number,
        },
        b'M' => Record::Mark(String::from_utf8_lossy(&bytes[data_at..end]).to_string()),
        other => panic!("unknown record kind {other} at {at} of the power log"),
    };
    (record, end - at)
}

/// Appends a mark, as the host's records are appended: one write to the
/// file opened for appending, so that it lands between two whole records.
pub fn mark(log: &Path, text: &str) {
    let mut record = vec![b'P', b'M'];
    record.extend_from_slice(&0u32.to_le_bytes());
    record.extend_from_slice(&(text.len() as u32).to_le_bytes());
    record.extend_from_slice(&0u64.to_le_bytes());
    record.extend_from_slice(text.as_bytes());
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(log)
        .unwrap();
    let written = file.write(&record).unwrap();
    assert_eq!(written, record.len(), "a mark went into the log in pieces");
}
