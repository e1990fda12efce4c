//! Fuzz target `move_text`: see `draughts::fuzzing::move_text` for the properties checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| draughts::fuzzing::move_text(data));
