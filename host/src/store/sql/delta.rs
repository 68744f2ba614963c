//! Checkpoint states stored as a difference from the checkpoint before.
//!
//! A run's state changes by a few fields a step, yet every checkpoint
//! kept it whole: an incident's six checkpoints stored its state six times
//! over, the largest part of its bytes on disk. A checkpoint after the
//! first now stores, where it is shorter, the edit that turns the previous
//! checkpoint's state text into its own: a JSON array whose number pairs
//! copy `[offset, length]` bytes of the previous text and whose strings are
//! inserted as they are. Decoding gives back the exact text the guest
//! returned, byte for byte; an edit that would not is never stored.

/// Texts longer than this are stored whole: indexing the previous text
/// costs time in proportion to its length, on the step's commit.
pub(super) const MAX_TEXT: usize = 64 << 10;

/// The shortest run of bytes copied from the previous text; shorter ones
/// cost more written as a copy than inserted.
const MIN_COPY: usize = 12;

/// Bytes hashed to find where a copy may start.
const PROBE: usize = 8;

/// The edit from `base` to `target`, if it is worth storing: shorter than
/// `target` and decoding back to it exactly.
pub(super) fn encode(base: &str, target: &str) -> Option<String> {
    if base.len() > MAX_TEXT || target.len() > MAX_TEXT || target.len() < MIN_COPY {
        return None;
    }
    let (b, t) = (base.as_bytes(), target.as_bytes());
    // A step changes a few fields of its state: the two texts share a long
    // start and end, copied as they are, and only what lies between is
    // searched for copies, in what lies between in the previous text.
    // Indexing the whole previous text was most of an edit's cost.
    let (head, tail) = shared_ends(base, target);
    let starts = Starts::of(b, head..b.len() - tail);
    let mut ops: Vec<serde_json::Value> = Vec::new();
    if head > 0 {
        ops.push(0.into());
        ops.push(head.into());
    }
    let mut literal = head;
    let mut at = head;
    while at < t.len() - tail {
        let best = match (target.is_char_boundary(at), t.get(at..at + PROBE)) {
            (true, Some(probe)) => starts
                .find(probe)
                .map(|from| (from, common_prefix(&b[from..], &t[at..]))),
            _ => None,
        };
        // A copy ends where a character of the target ends, so that what is
        // inserted after it is text.
        let best = best.map(|(from, len)| {
            let mut len = len;
            while !target.is_char_boundary(at + len) {
                len -= 1;
            }
            (from, len)
        });
        match best {
            Some((from, len)) if len >= MIN_COPY => {
                if literal < at {
                    ops.push(target[literal..at].into());
                }
                ops.push(from.into());
                ops.push(len.into());
                at += len;
                literal = at;
            }
            _ => at += 1,
        }
    }
    // The shared end, or what a copy running into it left of it.
    let rest = t.len() - at;
    if tail > 0 && rest >= MIN_COPY {
        if literal < at {
            ops.push(target[literal..at].into());
        }
        ops.push((b.len() - rest).into());
        ops.push(rest.into());
        literal = t.len();
    }
    if literal < t.len() {
        ops.push(target[literal..].into());
    }
    let edit = serde_json::Value::Array(ops).to_string();
    (edit.len() < target.len() && decode(base, &edit).as_deref() == Ok(target)).then_some(edit)
}

/// The lengths of the start and of the end that `base` and `target` share,
/// each cut back to a whole character and not overlapping; 0 for one
/// shorter than a copy is worth.
fn shared_ends(base: &str, target: &str) -> (usize, usize) {
    let (b, t) = (base.as_bytes(), target.as_bytes());
    let mut head = common_prefix(b, t);
    // Equal bytes up to `head`: a character that ends there in one text
    // ends there in the other (a character's first byte gives its length).
    while !target.is_char_boundary(head) {
        head -= 1;
    }
    if head < MIN_COPY {
        head = 0;
    }
    let mut tail = b[head..]
        .iter()
        .rev()
        .zip(t[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    while !target.is_char_boundary(t.len() - tail) || !base.is_char_boundary(b.len() - tail) {
        tail -= 1;
    }
    if tail < MIN_COPY {
        tail = 0;
    }
    (head, tail)
}

/// Where each [`PROBE`]-byte run of the previous text was last seen: a
/// flat table indexed by a hash of the run, built once per commit without
/// an allocation per entry (the encoding runs inside the step's commit).
/// Two runs that share a slot keep the later one; a wrong candidate only
/// gives a shorter copy, since every copy is checked byte for byte.
struct Starts<'b> {
    base: &'b [u8],
    /// Position + 1 of the run in each slot; 0 for none.
    slots: Vec<u32>,
    shift: u32,
}

impl<'b> Starts<'b> {
    /// Indexes the runs that start and end inside `within`.
    fn of(base: &'b [u8], within: std::ops::Range<usize>) -> Starts<'b> {
        let runs = within.len().saturating_sub(PROBE - 1);
        let bits = (runs * 2).next_power_of_two().trailing_zeros().max(4);
        let mut starts = Starts {
            base,
            slots: vec![0; 1 << bits],
            shift: 64 - bits,
        };
        for at in within.start..within.start + runs {
            let slot = starts.slot(&base[at..at + PROBE]);
            // `base` is at most MAX_TEXT long, so a position fits.
            starts.slots[slot] = at as u32 + 1;
        }
        starts
    }

    fn slot(&self, run: &[u8]) -> usize {
        let mut word = [0u8; PROBE];
        word.copy_from_slice(run);
        (u64::from_le_bytes(word).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// A place in the previous text where `probe` may start.
    fn find(&self, probe: &[u8]) -> Option<usize> {
        let at = (self.slots[self.slot(probe)] as usize).checked_sub(1)?;
        (self.base[at..at + PROBE] == *probe).then_some(at)
    }
}

/// The text that `edit` makes of `base`; `None` if `edit` is not an edit
/// of `base` (a damaged row).
/// Why an edit gives back no text.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Unfit {
    /// It is not an edit, or copies bytes `base` does not have, or gives
    /// back bytes that are not text.
    Damaged,
    /// It gives back more than [`MAX_TEXT`] bytes, which no edit the host
    /// writes does: copies repeated, and edits built on such edits, would
    /// multiply a state at every checkpoint.
    TooLarge,
}

/// The text `edit` turns `base` into, refused past [`MAX_TEXT`] bytes
/// before they are copied.
pub(super) fn decode(base: &str, edit: &str) -> Result<String, Unfit> {
    let ops: Vec<serde_json::Value> = serde_json::from_str(edit).map_err(|_| Unfit::Damaged)?;
    let b = base.as_bytes();
    let mut out = Vec::with_capacity((base.len() + edit.len()).min(MAX_TEXT));
    let mut ops = ops.iter();
    while let Some(op) = ops.next() {
        let piece = match op {
            serde_json::Value::String(text) => text.as_bytes(),
            serde_json::Value::Number(from) => {
                let from = usize::try_from(from.as_u64().ok_or(Unfit::Damaged)?)
                    .map_err(|_| Unfit::Damaged)?;
                let len = ops.next().and_then(serde_json::Value::as_u64);
                let len = len
                    .and_then(|l| usize::try_from(l).ok())
                    .ok_or(Unfit::Damaged)?;
                from.checked_add(len)
                    .and_then(|to| b.get(from..to))
                    .ok_or(Unfit::Damaged)?
            }
            _ => return Err(Unfit::Damaged),
        };
        if out.len() + piece.len() > MAX_TEXT {
            return Err(Unfit::TooLarge);
        }
        out.extend_from_slice(piece);
    }
    String::from_utf8(out).map_err(|_| Unfit::Damaged)
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(base: &str, target: &str) -> Option<String> {
        let edit = encode(base, target)?;
        assert_eq!(decode(base, &edit).as_deref(), Ok(target));
        Some(edit)
    }

    #[test]
    fn a_state_that_grows_by_a_field_is_stored_as_the_field() {
        let base = r#"{"phase":"triage","input":{"incident":"INC-1","service":"payments-api","holder":"agent-1"},"facts":null}"#;
        let target = r#"{"phase":"diagnose","input":{"incident":"INC-1","service":"payments-api","holder":"agent-1"},"facts":{"memory_pct":97.0}}"#;
        let edit = round_trip(base, target).expect("an edit");
        assert!(edit.len() < target.len() / 2, "{edit}");
        assert!(
            edit.contains("memory_pct") && !edit.contains("payments-api"),
            "{edit}"
        );
    }

    #[test]
    fn unrelated_or_short_texts_are_stored_whole() {
        assert_eq!(round_trip("{\"a\":1}", "{\"a\":2}"), None);
        assert_eq!(
            round_trip(
                &"x".repeat(100),
                "a completely different text, nothing in common"
            ),
            None
        );
        let huge = "y".repeat(MAX_TEXT + 1);
        assert_eq!(encode(&huge, &huge), None);
    }

    #[test]
    fn text_outside_ascii_survives_copies_that_end_inside_a_character() {
        let base = r#"{"note":"café au lait, très bien, été comme hiver","n":1}"#;
        let target = r#"{"note":"café au lait, trèz bien, étè comme hiver","n":2}"#;
        round_trip(base, target);
        let base = "ααααααααααααααααααααααααααααβ".repeat(4);
        let target = "ααααααααααααααααααααααααααααγ".repeat(4);
        round_trip(&base, &target);
    }

    #[test]
    fn a_field_changed_in_the_middle_copies_the_shared_start_and_end() {
        let base = format!(
            r#"{{"phase":"triage","log":"{}","attempt":1,"notes":"{}"}}"#,
            "a".repeat(300),
            "b".repeat(300)
        );
        let target = base.replace(r#""attempt":1"#, r#""attempt":2"#);
        let edit = round_trip(&base, &target).expect("an edit");
        let ops: Vec<serde_json::Value> = serde_json::from_str(&edit).unwrap();
        let at = base.find(r#""attempt":1"#).unwrap() + r#""attempt":"#.len();
        assert_eq!(ops[0], 0, "{edit}");
        assert_eq!(ops[1], at, "{edit}");
        assert_eq!(ops[2], "2", "{edit}");
        assert_eq!(ops[3], at + 1, "{edit}");
        assert_eq!(ops.len(), 5, "{edit}");
    }

    #[test]
    fn random_edits_of_a_state_decode_to_the_state() {
        // A fixed sequence of pseudo-random edits: insertions, deletions and
        // replacements of text with and without characters outside ASCII,
        // near the ends and in the middle.
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let pieces = [
            "\"x\":1,",
            "é",
            "αβγ",
            "{\"k\":[1,2,3]}",
            "z",
            "0123456789abcdef",
        ];
        let mut base: String = (0..200).map(|i| pieces[i % pieces.len()]).collect();
        let mut edits = 0;
        for _ in 0..500 {
            let mut target = base.clone();
            for _ in 0..1 + next(3) {
                let boundaries: Vec<usize> = (0..=target.len())
                    .filter(|&i| target.is_char_boundary(i))
                    .collect();
                let from = boundaries[next(boundaries.len())];
                let to = *boundaries
                    .iter()
                    .filter(|&&i| i >= from)
                    .nth(next(4))
                    .unwrap_or(&from);
                target.replace_range(from..to, pieces[next(pieces.len())]);
            }
            if let Some(edit) = encode(&base, &target) {
                assert_eq!(decode(&base, &edit).as_deref(), Ok(&target[..]));
                edits += 1;
            }
            base = target;
        }
        assert!(
            edits > 450,
            "only {edits} of 500 states were stored as edits"
        );
    }

    #[test]
    fn an_edit_that_does_not_fit_its_base_is_refused() {
        let base = r#"{"phase":"triage","input":{"incident":"INC-1","service":"payments-api"}}"#;
        let target = r#"{"phase":"verify","input":{"incident":"INC-1","service":"payments-api"}}"#;
        let edit = encode(base, target).unwrap();
        assert_eq!(decode("short", &edit), Err(Unfit::Damaged));
        assert_eq!(decode(base, "[1,2,{}]"), Err(Unfit::Damaged));
        assert_eq!(decode(base, "not json"), Err(Unfit::Damaged));
    }
}
