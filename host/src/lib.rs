pub mod model;
pub mod runtime;
pub mod store;
