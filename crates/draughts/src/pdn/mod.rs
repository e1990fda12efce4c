//! PDN reading and writing (work in progress).
