//! Fuzz target `fen`: see `draughts::fuzzing::fen` for the properties checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| draughts::fuzzing::fen(data));
