//! Fischer clock (work in progress).
