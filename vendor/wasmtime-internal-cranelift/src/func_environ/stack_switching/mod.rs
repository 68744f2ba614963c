mod control_effect;
pub(crate) mod fatpointer;
pub(crate) mod instructions;
