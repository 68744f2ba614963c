//! What a power cut at a point of a recorded history can leave on disk.
//!
//! The disk's model (the one SQLite's own crash tests, LazyFS and
//! TigerBeetle's storage faults use): a file's data is on disk once a
//! flush of that file (`fdatasync`/`fsync`, on any descriptor of it) has
//! returned, and only the data written before that flush began; a new
//! file's, or a deleted file's, directory entry only once its directory
//! was flushed. Anything else may be lost: each write not flushed is kept
//! whole, kept in part (torn: each 512-byte sector of it written or not,
//! a sector never half-written; a file it made longer may keep its new
//! length with zeros where data did not come), or lost; each creation or deletion not
//! flushed is kept or not, in order for one name. A flush of one file does
//! nothing for another. A directory made for the data directory is on
//! disk once the directory holding it is flushed; until then a cut may
//! take it, and every file in it, away. The `-shm` file is never on disk in a meaningful
//! state: SQLite rebuilds it.

use std::collections::BTreeMap;
use std::path::Path;

use super::log::{Change, Log, Record};

/// A small deterministic generator: a failing cut is repeated by its seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

/// What a cut keeps of what was not flushed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Nothing: the disk holds exactly what was flushed.
    Flushed,
    /// Everything: what a killed process leaves (the page cache survives).
    All,
    /// Each write kept whole, torn or lost at random; for each file name
    /// the creations and deletions up to a random one.
    Any,
    /// Each file's writes kept in the order they were made, up to a random
    /// one, which is torn: a disk that writes back in order.
    InOrder,
}

pub const SECTOR: u64 = 512;

/// A file's contents (an inode): what is on disk for sure, and the
/// changes made to it since, not flushed (indexes of records).
#[derive(Default)]
struct Inode {
    flushed: Vec<u8>,
    pending: Vec<usize>,
}

/// A name in the data directory: the inode its entry on disk points to
/// for sure, the creations and deletions since (position, inode after),
/// and the inode it points to now.
#[derive(Default)]
struct Name {
    flushed: Option<usize>,
    pending: Vec<(u64, Option<usize>)>,
    now: Option<usize>,
}

/// A log replayed up to a point, from an empty directory.
pub struct Replay<'l> {
    log: &'l Log,
    next: usize,
    inodes: Vec<Inode>,
    names: BTreeMap<String, Name>,
    /// Directories made on the way to the data directory: when each was
    /// made, and whether its entry is on disk for sure.
    made_dirs: BTreeMap<String, (u64, bool)>,
}

/// The files a cut leaves, by name, and what it did to the writes.
#[derive(Default)]
pub struct Image {
    pub files: BTreeMap<String, Vec<u8>>,
    pub kept: usize,
    pub torn: usize,
    pub lost: usize,
}

impl<'l> Replay<'l> {
    pub fn new(log: &'l Log) -> Replay<'l> {
        Replay {
            log,
            next: 0,
            inodes: vec![],
            names: BTreeMap::new(),
            made_dirs: BTreeMap::new(),
        }
    }

    /// Replays the records before index `end` (never backwards).
    pub fn advance(&mut self, end: usize) {
        assert!(end >= self.next, "a replay goes forward only");
        while self.next < end {
            self.apply(self.next);
            self.next += 1;
        }
    }

    fn apply(&mut self, i: usize) {
        let (at, record) = &self.log.records[i];
        match record {
            Record::Change { file, .. } => {
                let inode = self.names.get(file).and_then(|n| n.now);
                let inode = inode.unwrap_or_else(|| {
                    panic!("record {i} changes {file}, which the log never created")
                });
                self.inodes[inode].pending.push(i);
            }
            Record::Flush { file, covers } => {
                if let Some(inode) = self.names.get(file).and_then(|n| n.now) {
                    self.flush(inode, *covers);
                }
            }
            Record::DirFlush { covers } => {
                for name in self.names.values_mut() {
                    let done = name.pending.partition_point(|(p, _)| p < covers);
                    if done > 0 {
                        name.flushed = name.pending[done - 1].1;
                        name.pending.drain(..done);
                    }
                }
            }
            Record::Create(file) => {
                let name = self.names.entry(file.clone()).or_default();
                if name.now.is_none() {
                    self.inodes.push(Inode::default());
                    name.now = Some(self.inodes.len() - 1);
                    name.pending.push((*at, name.now));
                }
            }
            Record::Delete(file) => {
                if let Some(name) = self.names.get_mut(file)
                    && name.now.is_some()
                {
                    name.now = None;
                    name.pending.push((*at, None));
                }
            }
            Record::MakeDir(dir) => {
                self.made_dirs.insert(dir.clone(), (*at, false));
            }
            Record::EntryFlush { dir, covers } => {
                if let Some((made, on_disk)) = self.made_dirs.get_mut(dir) {
                    *on_disk |= *made < *covers;
                }
            }
            Record::Mark(_) => {}
        }
    }

    fn flush(&mut self, inode: usize, covers: u64) {
        let log = self.log;
        let file = &mut self.inodes[inode];
        let done = file.pending.partition_point(|&i| log.records[i].0 < covers);
        for i in file.pending.drain(..done) {
            apply(&mut file.flushed, log, i, None);
        }
    }

    /// The files a power cut now could leave, as `keep` and `rng` choose.
    pub fn cut(&self, keep: Keep, rng: &mut Rng) -> Image {
        let mut image = Image::default();
        let dir_lost =
            self.made_dirs
                .values()
                .filter(|(_, on_disk)| !on_disk)
                .any(|_| match keep {
                    Keep::Flushed => true,
                    Keep::All => false,
                    Keep::Any | Keep::InOrder => rng.below(2) == 0,
                });
        if dir_lost {
            // The data directory's entry is gone, and every file in it.
            image.lost = self.inodes.iter().map(|i| i.pending.len()).sum();
            return image;
        }
        for (file, name) in &self.names {
            let entries = match keep {
                Keep::Flushed => 0,
                Keep::All => name.pending.len(),
                Keep::Any | Keep::InOrder => rng.below(name.pending.len() as u64 + 1) as usize,
            };
            let inode = match entries {
                0 => name.flushed,
                n => name.pending[n - 1].1,
            };
            if let Some(inode) = inode {
                let contents = self.contents(inode, keep, rng, &mut image);
                image.files.insert(file.clone(), contents);
            }
        }
        if keep == Keep::Any && rng.below(2) == 0 {
            // A stale shared-memory file: SQLite must not trust it.
            for file in self.names.keys().filter(|f| f.ends_with("-wal")) {
                let junk = (0..32 << 10).map(|_| rng.below(256) as u8).collect();
                image.files.insert(file.replace("-wal", "-shm"), junk);
            }
        }
        image
    }

    fn contents(&self, inode: usize, keep: Keep, rng: &mut Rng, image: &mut Image) -> Vec<u8> {
        let file = &self.inodes[inode];
        let mut contents = file.flushed.clone();
        let in_order = rng.below(file.pending.len() as u64 + 1) as usize;
        for (n, &i) in file.pending.iter().enumerate() {
            let torn = match keep {
                Keep::Flushed => None,
                Keep::All => Some(false),
                Keep::Any => match rng.below(5) {
                    0 | 1 => None,
                    2 => Some(true),
                    _ => Some(false),
                },
                Keep::InOrder if n < in_order => Some(false),
                Keep::InOrder if n == in_order => Some(true),
                Keep::InOrder => None,
            };
            match torn {
                None => image.lost += 1,
                Some(true) => image.torn += 1,
                Some(false) => image.kept += 1,
            }
            if let Some(torn) = torn {
                apply(&mut contents, self.log, i, torn.then_some(&mut *rng));
            }
        }
        contents
    }
}

/// Applies record `i` (a change) to `contents`; with `tear`, each sector
/// of a write is written or not at random.
fn apply(contents: &mut Vec<u8>, log: &Log, i: usize, tear: Option<&mut Rng>) {
    let Record::Change { change, .. } = &log.records[i].1 else {
        unreachable!("only changes are pending")
    };
    match change {
        Change::Truncate(len) => {
            if tear.is_none_or(|rng| rng.below(2) == 0) {
                contents.resize(*len as usize, 0);
            }
        }
        Change::Write { at, data } => {
            let data = log.data(data);
            let end = at + data.len() as u64;
            let mut sector = at - at % SECTOR;
            let mut tear = tear;
            // A torn write that made the file longer may leave it longer
            // whatever of its data is written: the new length is metadata,
            // written apart from the data (the zeros a file system shows
            // where its data never came).
            if tear.as_mut().is_some_and(|rng| rng.below(2) == 0) && contents.len() < end as usize {
                contents.resize(end as usize, 0);
            }
            while sector < end {
                let (from, to) = (sector.max(*at), (sector + SECTOR).min(end));
                let written = tear.as_mut().is_none_or(|rng| rng.below(2) == 0);
                if written {
                    if contents.len() < to as usize {
                        contents.resize(to as usize, 0);
                    }
                    contents[from as usize..to as usize]
                        .copy_from_slice(&data[(from - at) as usize..(to - at) as usize]);
                }
                sector += SECTOR;
            }
        }
    }
}

impl Image {
    /// Writes the files into `dir` (which holds none of them yet).
    pub fn write_to(&self, dir: &Path) {
        std::fs::create_dir_all(dir).unwrap();
        for (file, contents) in &self.files {
            std::fs::write(dir.join(file), contents).unwrap();
        }
    }
}
