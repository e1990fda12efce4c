//! Rules engine for seven draughts variants (work in progress).

pub mod clock;
pub mod pdn;
