//! Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC
//! 8188): the payload a push service carries to the browser, readable only by it.
//!
//! Per message the server makes a fresh P-256 key pair and a random salt; the browser's
//! subscription gives its public key (`p256dh`) and an authentication secret (`auth`):
//!
//! ```text
//! ecdh_secret = ECDH(as_private, ua_public)
//! IKM   = HKDF(salt = auth, ikm = ecdh_secret, info = "WebPush: info\0" || ua_public || as_public, 32)
//! CEK   = HKDF(salt = salt, ikm = IKM, info = "Content-Encoding: aes128gcm\0", 16)
//! NONCE = HKDF(salt = salt, ikm = IKM, info = "Content-Encoding: nonce\0", 12)
//! body  = salt || rs (u32, 4096) || idlen (65) || as_public || AES-128-GCM(CEK, NONCE, payload || 0x02)
//! ```
//!
//! One record: payloads are small (a push service takes at most 4,096 bytes). Pure: the
//! randomness is the caller's (so the RFC's worked example is a test).

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes128Gcm, Nonce};
use hkdf::Hkdf;
use p256::PublicKey;
use p256::ecdh::diffie_hellman;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use sha2::Sha256;

/// The record size written in the header (the payload always fits one record).
const RECORD_SIZE: u32 = 4096;

/// The largest payload one record carries (the record size less the tag and the delimiter,
/// and what push services accept after the 86-byte header).
pub const MAX_PAYLOAD: usize = 3_993;

/// Why a payload could not be encrypted for a subscription.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EceError {
    /// The subscription's `p256dh` is not an uncompressed P-256 point.
    #[error("the subscription's key is not a P-256 public key")]
    BadKey,
    /// The subscription's `auth` is not 16 bytes.
    #[error("the subscription's auth secret is not 16 bytes")]
    BadAuth,
    /// Too long for one record.
    #[error("the payload is too long for a push message")]
    TooLong,
}

/// Encrypts `payload` for the subscription whose public key is `ua_public` (65 bytes,
/// uncompressed) and whose secret is `auth` (16 bytes), with the server's one-time key
/// `as_secret` and `salt`: the request body to send to its push endpoint.
///
/// Fails on a key or secret of the wrong shape, or a payload over [`MAX_PAYLOAD`].
pub fn encrypt(
    payload: &[u8],
    ua_public: &[u8],
    auth: &[u8],
    as_secret: &p256::SecretKey,
    salt: &[u8; 16],
) -> Result<Vec<u8>, EceError> {
    if payload.len() > MAX_PAYLOAD {
        return Err(EceError::TooLong);
    }
    if auth.len() != 16 {
        return Err(EceError::BadAuth);
    }
    let ua = PublicKey::from_sec1_bytes(ua_public).map_err(|_| EceError::BadKey)?;
    let ua_point = ua.to_encoded_point(false);
    let as_point = as_secret.public_key().to_encoded_point(false);
    let shared = diffie_hellman(as_secret.to_nonzero_scalar(), ua.as_affine());

    let mut key_info = Vec::with_capacity(14 + 65 + 65);
    key_info.extend_from_slice(b"WebPush: info\0");
    key_info.extend_from_slice(ua_point.as_bytes());
    key_info.extend_from_slice(as_point.as_bytes());
    let mut ikm = [0u8; 32];
    Hkdf::<Sha256>::new(Some(auth), shared.raw_secret_bytes())
        .expand(&key_info, &mut ikm)
        .map_err(|_| EceError::BadKey)?;

    let content = Hkdf::<Sha256>::new(Some(salt), &ikm);
    let mut cek = [0u8; 16];
    let mut nonce = [0u8; 12];
    content
        .expand(b"Content-Encoding: aes128gcm\0", &mut cek)
        .map_err(|_| EceError::BadKey)?;
    content
        .expand(b"Content-Encoding: nonce\0", &mut nonce)
        .map_err(|_| EceError::BadKey)?;

    // The last (and only) record ends with the delimiter 2, no padding.
    let mut record = Vec::with_capacity(payload.len() + 1);
    record.extend_from_slice(payload);
    record.push(2);
    let cipher = Aes128Gcm::new(&cek.into());
    let sealed = cipher
        .encrypt(Nonce::from_slice(&nonce), record.as_slice())
        .map_err(|_| EceError::TooLong)?;

    let mut body = Vec::with_capacity(86 + sealed.len());
    body.extend_from_slice(salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(65);
    body.extend_from_slice(as_point.as_bytes());
    body.extend_from_slice(&sealed);
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;

    fn b64(s: &str) -> Vec<u8> {
        URL_SAFE_NO_PAD.decode(s).expect("base64url")
    }

    /// RFC 8291, section 5 ("Push Message Encryption Example"), byte for byte.
    #[test]
    fn the_rfc_8291_example() {
        let as_secret =
            p256::SecretKey::from_slice(&b64("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"))
                .expect("the RFC's private key");
        assert_eq!(
            URL_SAFE_NO_PAD.encode(as_secret.public_key().to_encoded_point(false).as_bytes()),
            "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
        );
        let salt: [u8; 16] = b64("DGv6ra1nlYgDCS1FRnbzlw").try_into().expect("16 bytes");
        let body = encrypt(
            b"When I grow up, I want to be a watermelon",
            &b64("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"),
            &b64("BTBZMqHH6r4Tts7J_aSIgg"),
            &as_secret,
            &salt,
        )
        .expect("encrypts");
        assert_eq!(
            URL_SAFE_NO_PAD.encode(body),
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocIn\
             mYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNW\
             QexSgSxsj_Qulcy4a-fN"
        );
    }

    #[test]
    fn bad_subscriptions_and_long_payloads_are_refused() {
        let key = p256::SecretKey::from_slice(&[7u8; 32]).expect("a key");
        let ua = key.public_key().to_encoded_point(false);
        let salt = [1u8; 16];
        assert_eq!(
            encrypt(b"x", &[4u8; 65], &[0; 16], &key, &salt),
            Err(EceError::BadKey)
        );
        assert_eq!(
            encrypt(b"x", ua.as_bytes(), &[0; 15], &key, &salt),
            Err(EceError::BadAuth)
        );
        let long = vec![b'a'; MAX_PAYLOAD + 1];
        assert_eq!(
            encrypt(&long, ua.as_bytes(), &[0; 16], &key, &salt),
            Err(EceError::TooLong)
        );
        let ok = encrypt(&long[..MAX_PAYLOAD], ua.as_bytes(), &[0; 16], &key, &salt).expect("fits");
        assert!(ok.len() <= 86 + RECORD_SIZE as usize);
    }
}
