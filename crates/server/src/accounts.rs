//! Accounts as the server checks them: usernames (the rules, and the folded key that makes
//! them unique case-insensitively and across look-alikes), passwords (the rules, and
//! Argon2id hashes made and checked off the async threads, a few at a time), and the
//! limits on password checks per address and per username.
//!
//! Argon2id with RustCrypto's `argon2` at the parameters OWASP recommends as a minimum
//! for it: 19 MiB of memory, 2 passes, 1 lane ([`PARAMS`]); salts of 16 bytes from the
//! operating system. A hash is a PHC string (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`),
//! so stored hashes keep their parameters and a later change of [`PARAMS`] still checks
//! them. Signing in with an unknown username checks the password against a hash made
//! at start-up with the same parameters: the answer and its time are those of a wrong
//! password.

use std::time::Duration;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use damka_protocol::ErrorCode;

use crate::error::AppError;
use crate::limits::{Limits, RateKey};
use crate::password_gate::{Pass, PasswordGate};

/// Memory (KiB), passes and lanes of every new hash.
pub const PARAMS: (u32, u32, u32) = (19 * 1024, 2, 1);

/// Password checks per address (a classroom behind one address signs in at once): a
/// burst, then one per 2 s.
pub const SIGN_IN_BURST: f64 = 30.0;
/// See [`SIGN_IN_BURST`].
pub const SIGN_IN_PER_SECOND: f64 = 0.5;
/// Failed password checks of one username from one address: a burst, then one per
/// 30 s. Keyed by the address too, so that a guesser (usernames are public) spends
/// only their own budget and the owner signs in from anywhere else.
pub const USERNAME_BURST: f64 = 5.0;
/// See [`USERNAME_BURST`].
pub const USERNAME_PER_SECOND: f64 = 1.0 / 30.0;
/// Failed password checks of one username from anywhere: the ceiling a guesser with
/// many addresses meets, ten times the budget of one address (and three times its
/// rate: 360 an hour).
pub const USERNAME_CEILING_BURST: f64 = 50.0;
/// See [`USERNAME_CEILING_BURST`].
pub const USERNAME_CEILING_PER_SECOND: f64 = 1.0 / 10.0;
/// Accounts made per address: a burst, then one per 6 s.
pub const ACCOUNTS_BURST: f64 = 20.0;
/// See [`ACCOUNTS_BURST`].
pub const ACCOUNTS_PER_SECOND: f64 = 1.0 / 6.0;

/// The Argon2id hasher with [`PARAMS`].
fn argon2() -> Argon2<'static> {
    let (m, t, p) = PARAMS;
    #[allow(clippy::expect_used)]
    let params = Params::new(m, t, p, None).expect("valid Argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashing and checking passwords.
pub struct Passwords {
    /// Hashes and checks run through it, a few at a time, fairly by address.
    gate: PasswordGate,
    /// A hash of a random password: checked for an unknown username.
    decoy: String,
}

/// The server's defaults: one hash fewer than the machine's cores, a line of 32.
impl Default for Passwords {
    fn default() -> Passwords {
        Passwords::new(0, 32)
    }
}

impl Passwords {
    /// `slots` hashes at once (0: one fewer than the machine's cores, at least one), at
    /// most `line` waiting.
    pub fn new(slots: usize, line: usize) -> Passwords {
        let slots = match slots {
            0 => std::thread::available_parallelism()
                .map_or(1, std::num::NonZero::get)
                .saturating_sub(1)
                .max(1),
            n => n,
        };
        Passwords {
            gate: PasswordGate::new(slots, line),
            decoy: hash_now(&crate::random::session_token()),
        }
    }

    /// The gate (tests hold its slots to fill it).
    pub fn gate(&self) -> &PasswordGate {
        &self.gate
    }
}

/// Hashes a password with a fresh salt (blocking: tens of milliseconds).
fn hash_now(password: &str) -> String {
    let mut salt = [0u8; 16];
    #[allow(clippy::expect_used)]
    getrandom::fill(&mut salt).expect("the operating system's random generator failed");
    #[allow(clippy::expect_used)]
    let salt = SaltString::encode_b64(&salt).expect("16 bytes make a salt");
    #[allow(clippy::expect_used)]
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .expect("hashing with valid parameters and salt")
        .to_string()
}

/// Whether `password` matches a PHC string (blocking); a malformed stored hash never
/// matches.
fn verify_now(password: &str, phc: &str) -> bool {
    match PasswordHash::new(phc) {
        Ok(parsed) => argon2()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(e) => {
            tracing::error!(error = %e, "a stored password hash cannot be read");
            false
        }
    }
}

impl Passwords {
    /// Hashes a password off the async threads, through the gate (`from`: the address
    /// it waits as).
    ///
    /// Fails with `429` (`Retry-After: 1`) when the gate's line is full, or if the server
    /// is shutting down.
    pub async fn hash(&self, password: &str, from: RateKey) -> Result<String, AppError> {
        let _pass = self.enter(from).await?;
        let password = password.to_owned();
        tokio::task::spawn_blocking(move || hash_now(&password))
            .await
            .map_err(|e| AppError::Internal(format!("password hashing failed: {e}")))
    }

    /// Checks a password against a stored hash, or (`None`: no such account) against the
    /// decoy, so both take the same time; through the gate as [`Passwords::hash`].
    ///
    /// Fails with `429` when the gate's line is full, or if the server is shutting down.
    pub async fn verify(
        &self,
        password: &str,
        phc: Option<&str>,
        from: RateKey,
    ) -> Result<bool, AppError> {
        let pass = self.enter(from).await?;
        let real = phc.is_some();
        let phc = phc.unwrap_or(&self.decoy).to_owned();
        let password = password.to_owned();
        let ok = tokio::task::spawn_blocking(move || verify_now(&password, &phc))
            .await
            .map_err(|e| AppError::Internal(format!("password check failed: {e}")))?
            && real;
        if !ok {
            pass.failed();
        }
        Ok(ok)
    }

    async fn enter(&self, from: RateKey) -> Result<Pass, AppError> {
        self.gate.enter(from).await.ok_or_else(|| {
            tracing::info!(ip = %from, "password check refused: the line is full");
            AppError::RetryAfter(1)
        })
    }
}

/// A password check the limits let through, its tokens taken before the check (so that
/// checks running at once cannot all pass a budget that has room for one). Dropped as it
/// is, the check counted as a failure.
pub struct Attempt<'a> {
    limits: &'a Limits,
    from: RateKey,
    username_key: String,
}

impl Attempt<'_> {
    /// The right password: the username's budgets are given back (signing in on a few
    /// devices costs nothing there).
    pub fn succeeded(self) {
        let limits = self.limits;
        limits
            .sign_ins_of_from
            .give_back(&(self.username_key.clone(), self.from));
        limits.sign_ins_of.give_back(&self.username_key);
    }

    /// The check never ran (the gate was full): every budget gets its token back.
    pub fn not_run(self) {
        self.limits.sign_ins_from.give_back(&self.from);
        self.succeeded();
    }
}

/// Takes a token of each budget a password check of `username_key` from `from` spends:
/// the address's, the username's from that address, the username's from anywhere. A
/// budget that has none gives the others theirs back.
///
/// Fails with `429 rate_limited` and the wait until a token is there.
pub fn admit_check<'a>(
    limits: &'a Limits,
    from: RateKey,
    username_key: &str,
) -> Result<Attempt<'a>, AppError> {
    limits
        .sign_ins_from
        .take_or_wait(from, SIGN_IN_BURST, SIGN_IN_PER_SECOND)
        .map_err(retry_after)?;
    let pair = (username_key.to_owned(), from);
    if let Err(wait) =
        limits
            .sign_ins_of_from
            .take_or_wait(pair.clone(), USERNAME_BURST, USERNAME_PER_SECOND)
    {
        limits.sign_ins_from.give_back(&from);
        return Err(retry_after(wait));
    }
    if let Err(wait) = limits.sign_ins_of.take_or_wait(
        username_key.to_owned(),
        USERNAME_CEILING_BURST,
        USERNAME_CEILING_PER_SECOND,
    ) {
        limits.sign_ins_from.give_back(&from);
        limits.sign_ins_of_from.give_back(&pair);
        return Err(retry_after(wait));
    }
    Ok(Attempt {
        limits,
        from,
        username_key: pair.0,
    })
}

/// Checks a username: 3–20 of `A-Z a-z 0-9 _ -`, not the computer's name.
///
/// Fails with `invalid_username`.
pub fn check_username(username: &str) -> Result<(), AppError> {
    let ok = (3..=20).contains(&username.len())
        && username
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        && !crate::names::reserved(username);
    if ok {
        Ok(())
    } else {
        Err(AppError::game(
            ErrorCode::InvalidUsername,
            "a username has 3 to 20 letters, digits, '_' or '-' (and is not the computer's)",
        ))
    }
}

/// The username's key: folded as display names are compared (the UTS #39 skeleton: `I`,
/// `l` and `1` alike, `O` and `0`, `rn` and `m`; `-` and `_` as separators), and with a
/// small `i` taken as an `l` too, so that the fold is also blind to case (`I` folds to
/// `l` before it could be lower-cased to `i`).
pub fn username_key(username: &str) -> String {
    crate::names::fold(username).replace('i', "l")
}

/// Checks that a guest's new name is no account's username (folded as usernames are:
/// case and look-alikes): an account's name means that account only. A guest that had
/// the name before the account took it keeps it, shown tagged
/// ([`crate::names::tagged`]).
///
/// Fails with `409 username_taken`, or on a database error.
pub async fn guest_name_free(store: &damka_store::Store, name: &str) -> Result<(), AppError> {
    match store.account_by_key(&username_key(name)).await? {
        Some(_) => Err(AppError::game(
            ErrorCode::UsernameTaken,
            "that name is an account's: choose another",
        )),
        None => Ok(()),
    }
}

/// Checks a new password: 8–128 characters, not the username (in any case).
///
/// Fails with `weak_password`.
pub fn check_password(password: &str, username: &str) -> Result<(), AppError> {
    let n = password.chars().count();
    if !(8..=128).contains(&n) {
        return Err(AppError::game(
            ErrorCode::WeakPassword,
            "a password has 8 to 128 characters",
        ));
    }
    if password.to_lowercase() == username.to_lowercase() {
        return Err(AppError::game(
            ErrorCode::WeakPassword,
            "the password cannot be the username",
        ));
    }
    Ok(())
}

/// The answer to a wrong username or password: the same for both.
pub fn bad_credentials() -> AppError {
    AppError::game(ErrorCode::BadCredentials, "wrong username or password")
}

/// `429 rate_limited` with `Retry-After` (whole seconds, at least 1).
pub fn retry_after(wait: Duration) -> AppError {
    AppError::RetryAfter(wait.as_secs().max(1) + u64::from(wait.subsec_nanos() > 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames() {
        for ok in ["bob", "Ala_Ma-Kota", "a1b", "x".repeat(20).as_str()] {
            assert!(check_username(ok).is_ok(), "{ok}");
        }
        for bad in [
            "ab",
            "x".repeat(21).as_str(),
            "Ala Ma",
            "Łukasz",
            "bob!",
            "Computer",
            "Admin",
            "bot-1",
            "Moderator_2",
        ] {
            assert!(check_username(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn look_alike_usernames_share_a_key() {
        assert_eq!(username_key("Bolek"), username_key("bolek"));
        assert_eq!(username_key("Bolek"), username_key("BoIek"));
        assert_eq!(username_key("Bolek"), username_key("B0lek"));
        assert_eq!(username_key("modem"), username_key("rnodern"));
        assert_eq!(username_key("REKSIO"), username_key("reksio"));
        assert_eq!(username_key("Ala_K"), username_key("ala-k"));
        assert_ne!(username_key("Bolek"), username_key("Lolek"));
    }

    fn from(n: u8) -> RateKey {
        RateKey::new(std::net::IpAddr::from([10, 0, 0, n]), 64)
    }

    #[test]
    fn checks_are_counted_before_they_run_and_a_success_costs_nothing() {
        let limits = Limits::default();
        let key = username_key("Filemon");
        // Five checks admitted at once spend the address's budget for the name before
        // any of them has run.
        let running: Vec<_> = (0..5)
            .map(|_| admit_check(&limits, from(1), &key).expect("within the budget"))
            .collect();
        assert!(admit_check(&limits, from(1), &key).is_err());
        // Another address is not held back by the first one's guesses.
        let owner = admit_check(&limits, from(2), &key).expect("another address");
        owner.succeeded();
        drop(running);
        assert!(
            admit_check(&limits, from(1), &key).is_err(),
            "failures stay spent"
        );
        // A success gives its tokens back; a check that never ran too.
        for _ in 0..20 {
            admit_check(&limits, from(3), &key)
                .expect("free")
                .succeeded();
            admit_check(&limits, from(3), &key).expect("free").not_run();
        }
    }

    #[test]
    fn many_addresses_meet_the_usernames_ceiling() {
        let limits = Limits::default();
        let key = username_key("Filemon");
        let ceiling = USERNAME_CEILING_BURST as usize;
        let mut admitted = 0;
        for n in 0..=u8::MAX {
            for _ in 0..USERNAME_BURST as usize {
                if admit_check(&limits, from(n), &key).is_ok() {
                    admitted += 1;
                }
            }
        }
        // A few tokens may have trickled back in while the loop ran.
        assert!((ceiling..ceiling + 3).contains(&admitted), "{admitted}");
        // The refused ones took nothing from their addresses' own budgets: the whole
        // burst of the address is there for other names.
        for n in 0..SIGN_IN_BURST as usize {
            let other = username_key(&format!("Nikt{n}"));
            assert!(admit_check(&limits, from(200), &other).is_ok(), "{n}");
        }
    }

    #[test]
    fn passwords() {
        assert!(check_password("correct horse", "bob").is_ok());
        assert!(check_password("short", "bob").is_err());
        assert!(check_password(&"x".repeat(129), "bob").is_err());
        assert!(check_password("Bobby_Tables", "bobby_tables").is_err());
    }

    #[test]
    fn a_hash_checks_its_password_only() {
        let phc = hash_now("correct horse");
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        assert!(verify_now("correct horse", &phc));
        assert!(!verify_now("correct horsE", &phc));
        assert!(!verify_now("correct horse", "not a hash"));
        assert_ne!(phc, hash_now("correct horse"), "salted");
    }

    /// The time of one Argon2id hash with our parameters (docs/operations.md):
    /// `cargo test -p damka-server --lib hash_time -- --ignored --nocapture` (the dev
    /// profile builds argon2 and blake2 at opt-level 3, as the release build does).
    #[test]
    #[ignore = "a measurement"]
    fn hash_time() {
        let mut times: Vec<std::time::Duration> = (0..20)
            .map(|_| {
                let started = std::time::Instant::now();
                std::hint::black_box(hash_now("correct horse battery"));
                started.elapsed()
            })
            .collect();
        times.sort();
        println!(
            "one Argon2id hash (m=19456 KiB, t=2, p=1): median {:?}, min {:?}, max {:?}",
            times[10], times[0], times[19]
        );
    }
}
