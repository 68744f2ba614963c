//! Wasm functions taken from the incremental cache without translating
//! them to Cranelift IR (a wakeful patch; see PATCHES.md).
//!
//! The incremental cache is keyed by a hash of each function's IR, so a
//! hit still pays for translating the function and hashing its IR: for a
//! Python agent, whose interpreter is thousands of functions that do not
//! change from one build to the next, that was half of compiling it again.
//! Here a function is also looked up by a key of its input: its body and
//! everything else the translation reads (the module's sections except the
//! data and code sections, the engine's settings, and what the component
//! around the module decided for it: interned type ids, imports resolved
//! to known functions, the layout of its `VMContext`). The entry names the
//! IR key under which the machine code is stored, plus what the translation
//! left beside the code: the function's external names, its first source
//! location and whether it needs a GC heap.
//!
//! A function taken this way is not validated again: its entry was written
//! only once the same body had validated in a module with the same key,
//! with the same Wasm features (in the key too).
//!
//! The data section is left out of the key because a new build of an
//! interpreter-based agent changes only its data (the interpreter's memory
//! snapshot). Nothing in a function's code comes from data bytes: the
//! translation reads which segments are passive (`runtime_data_map`, in the
//! key) but never their contents. Everything else that the translation
//! could read and that is not in a section (the component's choices) is in
//! the key through its `Debug` output, which is deterministic (vectors and
//! index maps only).

use cranelift_codegen::ir::UserExternalName;
use cranelift_codegen::isa::TargetIsa;
use sha2::{Digest, Sha256};
use wasmtime_environ::{ModuleTranslation, Tunables, VMOffsets};

/// Starts every key of this kind: IR keys are 32 bytes with no prefix.
const KEY_PREFIX: &[u8] = b"wasm-function-input-v1:";

/// The format of an entry.
const ENTRY_FORMAT: u8 = 1;

/// Section ids left out of the module's key (see the module docs).
const CODE_SECTION: u8 = 10;
const DATA_SECTION: u8 = 11;

/// The key of `translation` as a whole: every function's key starts with
/// it. `settings` describes the compiler's own settings that change the
/// translation.
pub(crate) fn module_key(
    translation: &ModuleTranslation<'_>,
    tunables: &Tunables,
    isa: &dyn TargetIsa,
    settings: &str,
) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"wasm module translation key v1\0");
    h.update(
        format!(
            "{tunables:?}\0{}\0{}\0{}\0{settings}\0",
            isa.triple(),
            isa.flags(),
            isa.isa_flags()
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(",")
        )
        .as_bytes(),
    );
    h.update(translation.module_index().as_u32().to_le_bytes());
    hash_sections(&mut h, translation.wasm);
    let module = &translation.module;
    h.update(
        format!(
            "{:?}\0{:?}\0{:?}\0{:?}\0{:?}\0{:?}\0{:?}\0{:?}\0{:?}\0{:?}\0{}\0{}\0{}\0{:?}\0",
            module.types,
            module.functions,
            module.global_initializers,
            translation.global_initializers,
            translation.known_imported_functions,
            translation.runtime_data_map,
            translation.passive_elem_map,
            translation.exported_signatures,
            translation.data_align,
            translation.start_func,
            module.num_escaped_funcs,
            module.needs_gc_heap,
            module.runtime_data.len(),
            VMOffsets::new(isa.pointer_bytes(), module),
        )
        .as_bytes(),
    );
    h.finalize().into()
}

/// Hashes each section of the module `wasm` with its id and length, but
/// only the id of its code and data sections. Bytes that do not parse as
/// sections are hashed whole.
fn hash_sections(h: &mut Sha256, wasm: &[u8]) {
    let Some(mut rest) = wasm.strip_prefix(b"\0asm") else {
        h.update(b"unparsed\0");
        h.update(wasm);
        return;
    };
    let mut sections: Vec<(u8, &[u8])> = Vec::new();
    let header = rest.get(..4);
    rest = rest.get(4..).unwrap_or(&[]);
    while let Some((&id, after_id)) = rest.split_first() {
        let Some((len, after_len)) = read_u32(after_id) else {
            break;
        };
        let Some(body) = after_len.get(..len as usize) else {
            break;
        };
        sections.push((id, body));
        rest = &after_len[len as usize..];
    }
    if !rest.is_empty() {
        h.update(b"unparsed\0");
        h.update(wasm);
        return;
    }
    h.update(header.unwrap_or(&[]));
    for (id, body) in sections {
        h.update([id]);
        if id != CODE_SECTION && id != DATA_SECTION {
            h.update((body.len() as u64).to_le_bytes());
            h.update(body);
        }
    }
}

/// An unsigned LEB128 of at most 5 bytes, and what follows it.
fn read_u32(bytes: &[u8]) -> Option<(u32, &[u8])> {
    let mut value: u64 = 0;
    for (i, &b) in bytes.iter().enumerate().take(5) {
        value |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return u32::try_from(value).ok().map(|v| (v, &bytes[i + 1..]));
        }
    }
    None
}

/// The cache key of one function of the module whose key is `module_key`.
/// `features` names the Wasm features its validation allowed: a body taken
/// from the cache is not validated again.
pub(crate) fn function_key(
    module_key: &[u8; 32],
    def_func_index: u32,
    features: &str,
    body: &[u8],
) -> Vec<u8> {
    let mut h = Sha256::new();
    h.update(module_key);
    h.update(def_func_index.to_le_bytes());
    h.update((features.len() as u64).to_le_bytes());
    h.update(features.as_bytes());
    h.update((body.len() as u64).to_le_bytes());
    h.update(body);
    let mut key = KEY_PREFIX.to_vec();
    key.extend_from_slice(&h.finalize());
    key
}

/// What the translation of a function left beside its machine code.
#[derive(Debug, PartialEq)]
pub(crate) struct Translated {
    /// The incremental cache's key of the function's IR.
    pub ir_key: Vec<u8>,
    pub needs_gc_heap: bool,
    /// The function's first source location, from the start of its body.
    pub base_srcloc: Option<u32>,
    /// The external names its IR declared, in their order.
    pub names: Vec<UserExternalName>,
}

impl Translated {
    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut out = vec![ENTRY_FORMAT, u8::from(self.needs_gc_heap)];
        out.extend_from_slice(&(self.ir_key.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.ir_key);
        out.extend_from_slice(&self.base_srcloc.map_or(u64::MAX, u64::from).to_le_bytes());
        out.extend_from_slice(&(self.names.len() as u32).to_le_bytes());
        for name in &self.names {
            out.extend_from_slice(&name.namespace.to_le_bytes());
            out.extend_from_slice(&name.index.to_le_bytes());
        }
        out
    }

    /// `None` for bytes that are not an entry of this format.
    pub(crate) fn decode(bytes: &[u8]) -> Option<Translated> {
        let mut r = Reader(bytes);
        if r.take(1)? != [ENTRY_FORMAT] {
            return None;
        }
        let needs_gc_heap = match r.take(1)? {
            [0] => false,
            [1] => true,
            _ => return None,
        };
        let key_len = r.u32()? as usize;
        let ir_key = r.take(key_len)?.to_vec();
        let base = u64::from_le_bytes(r.take(8)?.try_into().ok()?);
        let base_srcloc = match base {
            u64::MAX => None,
            b => Some(u32::try_from(b).ok()?),
        };
        let count = r.u32()? as usize;
        if count > r.0.len() / 8 {
            return None;
        }
        let mut names = Vec::with_capacity(count);
        for _ in 0..count {
            names.push(UserExternalName::new(r.u32()?, r.u32()?));
        }
        if !r.0.is_empty() {
            return None;
        }
        Some(Translated {
            ir_key,
            needs_gc_heap,
            base_srcloc,
            names,
        })
    }
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        Some(head)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
}
