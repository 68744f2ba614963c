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
    let starts = Starts::of(b);
    let mut ops: Vec<serde_json::Value> = Vec::new();
    let mut literal = 0;
    let mut at = 0;
    while at < t.len() {
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
    if literal < t.len() {
        ops.push(target[literal..].into());
    }
    let edit = serde_json::Value::Array(ops).to_string();
    (edit.len() < target.len() && decode(base, &edit).as_deref() == Some(target)).then_some(edit)
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
    fn of(base: &'b [u8]) -> Starts<'b> {
        let runs = base.len().saturating_sub(PROBE - 1);
        let bits = (runs * 2).next_power_of_two().trailing_zeros().max(4);
        let mut starts = Starts {
            base,
            slots: vec![0; 1 << bits],
            shift: 64 - bits,
        };
        for at in 0..runs {
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
pub(super) fn decode(base: &str, edit: &str) -> Option<String> {
    let ops: Vec<serde_json::Value> = serde_json::from_str(edit).ok()?;
    let b = base.as_bytes();
    let mut out = Vec::with_capacity(base.len() + edit.len());
    let mut ops = ops.iter();
    while let Some(op) = ops.next() {
        match op {
            serde_json::Value::String(text) => out.extend_from_slice(text.as_bytes()),
            serde_json::Value::Number(from) => {
                let from = usize::try_from(from.as_u64()?).ok()?;
                let len = usize::try_from(ops.next()?.as_u64()?).ok()?;
                out.extend_from_slice(b.get(from..from.checked_add(len)?)?);
            }
            _ => return None,
        }
    }
    String::from_utf8(out).ok()
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(base: &str, target: &str) -> Option<String> {
        let edit = encode(base, target)?;
        assert_eq!(decode(base, &edit).as_deref(), Some(target));
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
    fn an_edit_that_does_not_fit_its_base_is_refused() {
        let base = r#"{"phase":"triage","input":{"incident":"INC-1","service":"payments-api"}}"#;
        let target = r#"{"phase":"verify","input":{"incident":"INC-1","service":"payments-api"}}"#;
        let edit = encode(base, target).unwrap();
        assert_eq!(decode("short", &edit), None);
        assert_eq!(decode(base, "[1,2,{}]"), None);
        assert_eq!(decode(base, "not json"), None);
    }
}
