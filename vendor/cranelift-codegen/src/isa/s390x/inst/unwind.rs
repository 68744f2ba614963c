#[cfg(feature = "unwind")]
pub(crate) mod systemv;
