//! The server's identity towards the push services (VAPID, RFC 8292): a P-256 key pair
//! made once and kept in the database (every node of a cluster signs with the same one,
//! and a restart keeps the browsers' subscriptions valid), and per request a short-lived
//! JWT (ES256) naming the push service's origin.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use p256::elliptic_curve::sec1::ToEncodedPoint;

/// How long a token is valid (RFC 8292 allows at most 24 hours).
const TOKEN_SECS: u64 = 12 * 3600;

/// The server's VAPID key.
pub struct Vapid {
    key: SigningKey,
    /// The public key, uncompressed, base64url: what `GET /api/push/key` gives browsers.
    public: String,
    /// Who runs the server (`mailto:` or `https:`), in every token's `sub`.
    subject: String,
}

impl std::fmt::Debug for Vapid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vapid")
            .field("public", &self.public)
            .field("subject", &self.subject)
            .finish_non_exhaustive()
    }
}

/// A new P-256 secret from the operating system's randomness.
pub fn new_secret() -> p256::SecretKey {
    loop {
        let mut bytes = [0u8; 32];
        if getrandom::fill(&mut bytes).is_ok()
            && let Ok(key) = p256::SecretKey::from_slice(&bytes)
        {
            return key;
        }
    }
}

impl Vapid {
    /// The key from its stored secret (32 bytes).
    ///
    /// Fails on bytes that are no P-256 secret.
    pub fn from_secret(secret: &[u8], subject: &str) -> Result<Vapid, p256::elliptic_curve::Error> {
        let secret = p256::SecretKey::from_slice(secret)?;
        let public = URL_SAFE_NO_PAD.encode(secret.public_key().to_encoded_point(false).as_bytes());
        Ok(Vapid {
            key: SigningKey::from(secret),
            public,
            subject: subject.to_owned(),
        })
    }

    /// The public key for the browsers' `applicationServerKey` (base64url, uncompressed).
    pub fn public_key(&self) -> &str {
        &self.public
    }

    /// The `Authorization` header of a request to `endpoint`, valid from `now_s` (Unix
    /// seconds) for 12 hours: `vapid t=<JWT>, k=<public key>`.
    ///
    /// Fails (`None`) for an endpoint that is no URL with a scheme and a host.
    pub fn authorization(&self, endpoint: &str, now_s: u64) -> Option<String> {
        let audience = origin(endpoint)?;
        let header = URL_SAFE_NO_PAD.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = serde_json::json!({
            "aud": audience,
            "exp": now_s + TOKEN_SECS,
            "sub": self.subject,
        });
        let claims = URL_SAFE_NO_PAD.encode(claims.to_string());
        let signed = format!("{header}.{claims}");
        let signature: Signature = self.key.sign(signed.as_bytes());
        let token = format!("{signed}.{}", URL_SAFE_NO_PAD.encode(signature.to_bytes()));
        Some(format!("vapid t={token}, k={}", self.public))
    }
}

/// `scheme://host[:port]` of a URL (the token's audience).
pub fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    if scheme.is_empty() || authority.is_empty() || authority.contains('@') {
        return None;
    }
    Some(format!(
        "{}://{}",
        scheme.to_ascii_lowercase(),
        authority.to_ascii_lowercase()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use p256::ecdsa::VerifyingKey;
    use p256::ecdsa::signature::Verifier;

    #[test]
    fn a_token_names_the_origin_and_verifies_with_the_public_key() {
        let secret = new_secret();
        let vapid = Vapid::from_secret(&secret.to_bytes(), "mailto:ops@example.org").expect("key");
        let auth = vapid
            .authorization("https://push.example.net:8443/send/abc?x=1", 1_000)
            .expect("a URL");
        let (t, k) = auth
            .strip_prefix("vapid t=")
            .and_then(|r| r.split_once(", k="))
            .expect("vapid t=..., k=...");
        assert_eq!(k, vapid.public_key());
        let parts: Vec<&str> = t.split('.').collect();
        assert_eq!(parts.len(), 3);
        let claims: serde_json::Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).expect("b64")).expect("json");
        assert_eq!(claims["aud"], "https://push.example.net:8443");
        assert_eq!(claims["exp"], 1_000 + TOKEN_SECS);
        assert_eq!(claims["sub"], "mailto:ops@example.org");
        let key =
            VerifyingKey::from_sec1_bytes(&URL_SAFE_NO_PAD.decode(k).expect("b64")).expect("key");
        let sig =
            Signature::from_slice(&URL_SAFE_NO_PAD.decode(parts[2]).expect("b64")).expect("sig");
        key.verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &sig)
            .expect("the signature verifies");
        assert!(vapid.authorization("not a url", 0).is_none());
        assert!(vapid.authorization("https://user@host/", 0).is_none());
    }
}
