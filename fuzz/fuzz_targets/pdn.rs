//! Fuzz target `pdn`: see `draughts::fuzzing::pdn` for the properties checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| draughts::fuzzing::pdn(data));
