//! Locking the server's std mutexes. Each is held for one whole update (a map insert, a
//! counter) and never across an `.await`, so a panic while one is held cannot leave its
//! data half-changed: a poisoned lock is still consistent and is used as it is.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks `m`, poisoned or not.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
