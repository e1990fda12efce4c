//! Web Push: telling a player's browsers that something happened in their games while
//! the page is closed (a correspondence move, an offer, the end, time running low).
//!
//! The server has one VAPID key ([`vapid`], made at the first start and kept in the
//! database, so every node and every restart signs alike). A browser subscribes with the
//! push service's endpoint and its keys (`POST /api/push/subscribe`); [`Push::deliver`] encrypts
//! a small JSON payload for each of the player's subscriptions ([`ece`], RFC 8291) and
//! POSTs it to the endpoint with a VAPID token. A subscription the push service says is
//! gone (404, 410) is deleted. The client's service worker (`static/sw.js`) shows the
//! notification in the page's language and opens the game when it is clicked. The table
//! decides when (`table::notices`); this module only knows how.
//!
//! Endpoints are URLs the browsers give us, so the server only ever sends to the push
//! services it knows (`--push-services`, host names or `.suffixes`), over HTTPS: it
//! cannot be made to POST to anything else. Sends are bounded ([`MAX_SENDS`] at once; a
//! notification past that is dropped and counted) and each has a 10 s timeout.

pub mod ece;
pub mod vapid;

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use damka_store::{PushSettings, PushSubscriptionRow, PushWrite, Store, StoreError};
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;

use crate::config::Config;
use crate::metrics::Metrics;
use vapid::Vapid;

/// Sends under way at once, over every player.
pub const MAX_SENDS: usize = 32;

/// How long a push service has to answer.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a push service keeps a message for a browser that is offline (a day: a
/// correspondence move waits days, a stale "your move" is still worth showing).
const TTL_SECS: u32 = 86_400;

/// What happened, as the notification says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// It is the player's move.
    YourTurn,
    /// The opponent offers a draw or asks for a takeback.
    Offer,
    /// The game ended.
    GameEnd,
    /// The player's time is running low.
    TimeLow,
}

impl Kind {
    /// Whether `settings` let this kind through.
    pub fn wanted(self, settings: &PushSettings) -> bool {
        match self {
            Kind::YourTurn => settings.your_turn,
            Kind::Offer => settings.offers,
            Kind::GameEnd => settings.game_end,
            Kind::TimeLow => settings.time_low,
        }
    }
}

/// The payload: the service worker words it in the browser's language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notification {
    /// What happened.
    pub kind: Kind,
    /// The game's id.
    pub game: String,
    /// The table to open (a path of this site: `/#/table/ID`).
    pub url: String,
    /// The opponent's name.
    pub opponent: String,
    /// The variant's id.
    pub variant: String,
}

/// The server's push sender.
pub struct Push {
    vapid: Vapid,
    client: reqwest::Client,
    sending: Arc<Semaphore>,
    /// The push services the server sends to: host names, or `.suffix` for a domain's.
    services: Vec<String>,
    /// Test hook: plain HTTP allowed (to a local receiver).
    allow_http: bool,
}

impl std::fmt::Debug for Push {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Push")
            .field("vapid", &self.vapid)
            .field("services", &self.services)
            .finish_non_exhaustive()
    }
}

impl Push {
    /// The sender with the server's key: read from the database, or made and stored at
    /// the first start (two nodes starting at once both read back the one that won).
    ///
    /// Fails on a database error or a stored key that is no P-256 secret.
    pub async fn load(store: &Store, config: &Config) -> Result<Push, StoreError> {
        if store.push_secret().await?.is_none() {
            let secret = URL_SAFE_NO_PAD.encode(vapid::new_secret().to_bytes());
            store
                .push_write(PushWrite::Key {
                    secret,
                    now: crate::time::unix_ms(),
                })
                .await?;
        }
        let stored = store
            .push_secret()
            .await?
            .ok_or_else(|| StoreError::Corrupt("the push key was not stored".into()))?;
        let bytes = URL_SAFE_NO_PAD
            .decode(stored.as_bytes())
            .map_err(|e| StoreError::Corrupt(format!("the push key: {e}")))?;
        let vapid = Vapid::from_secret(&bytes, &config.push.push_subject)
            .map_err(|e| StoreError::Corrupt(format!("the push key: {e}")))?;
        let client = reqwest::Client::builder()
            .timeout(SEND_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| StoreError::Corrupt(format!("the push client: {e}")))?;
        Ok(Push {
            vapid,
            client,
            sending: Arc::new(Semaphore::new(MAX_SENDS)),
            services: config
                .push
                .push_services
                .split(',')
                .map(|s| s.trim().to_ascii_lowercase())
                .filter(|s| !s.is_empty())
                .collect(),
            allow_http: config.push.push_allow_http,
        })
    }

    /// The public key browsers subscribe with (base64url).
    pub fn public_key(&self) -> &str {
        self.vapid.public_key()
    }

    /// Whether the server would send to `endpoint`: HTTPS (plain HTTP only under the test
    /// hook) to one of the known push services, at most 1,000 characters.
    pub fn endpoint_allowed(&self, endpoint: &str) -> bool {
        if endpoint.len() > 1_000 || endpoint.chars().any(char::is_whitespace) {
            return false;
        }
        let Some(origin) = vapid::origin(endpoint) else {
            return false;
        };
        let (scheme, authority) = origin.split_once("://").unwrap_or(("", ""));
        if scheme != "https" && !(scheme == "http" && self.allow_http) {
            return false;
        }
        let host = match authority.rsplit_once(':') {
            Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) => h,
            _ => authority,
        };
        self.services.iter().any(|s| match s.strip_prefix('.') {
            Some(domain) => host.ends_with(&format!(".{domain}")),
            None => host == s,
        })
    }

    /// Sends one notification to one subscription: `Ok(true)` when the push service took
    /// it, `Ok(false)` when it said the subscription is gone (404, 410).
    ///
    /// Fails with a description on a bad subscription, a refused or failed request.
    async fn send(&self, sub: &PushSubscriptionRow, payload: &[u8]) -> Result<bool, String> {
        if !self.endpoint_allowed(&sub.endpoint) {
            return Err("not a known push service".into());
        }
        let p256dh = URL_SAFE_NO_PAD
            .decode(sub.p256dh.trim_end_matches('='))
            .map_err(|e| format!("p256dh: {e}"))?;
        let auth = URL_SAFE_NO_PAD
            .decode(sub.auth.trim_end_matches('='))
            .map_err(|e| format!("auth: {e}"))?;
        let mut salt = [0u8; 16];
        getrandom::fill(&mut salt).map_err(|e| e.to_string())?;
        let body = ece::encrypt(payload, &p256dh, &auth, &vapid::new_secret(), &salt)
            .map_err(|e| e.to_string())?;
        let now_s = u64::try_from(crate::time::unix_ms() / 1000).unwrap_or(0);
        let authorization = self
            .vapid
            .authorization(&sub.endpoint, now_s)
            .ok_or("the endpoint is no URL")?;
        let response = self
            .client
            .post(&sub.endpoint)
            .header("TTL", TTL_SECS.to_string())
            .header("Urgency", "normal")
            .header("Content-Encoding", "aes128gcm")
            .header("Content-Type", "application/octet-stream")
            .header("Authorization", authorization)
            .body(body)
            .send()
            .await
            .map_err(|e| e.to_string())?;
        match response.status().as_u16() {
            200..=299 => Ok(true),
            404 | 410 => Ok(false),
            code => Err(format!("the push service answered {code}")),
        }
    }
}

impl Push {
    /// Sends `n` to every subscription of `player` that wants it (its settings allow the
    /// kind); a subscription the push service says is gone is deleted. Waits for a free
    /// send slot only if one is free now: past [`MAX_SENDS`] under way the notification is
    /// dropped (and counted).
    ///
    /// Fails with the store's error.
    pub async fn deliver(
        &self,
        store: &Store,
        metrics: &Metrics,
        player: &str,
        n: &Notification,
    ) -> Result<(), StoreError> {
        let Ok(_permit) = self.sending.clone().try_acquire_owned() else {
            metrics.pushes_dropped.inc();
            tracing::debug!("a push notification dropped: too many sends under way");
            return Ok(());
        };
        if !n.kind.wanted(&store.push_settings(player).await?) {
            return Ok(());
        }
        let payload = serde_json::to_vec(n).unwrap_or_default();
        for sub in store.push_subscriptions(player).await? {
            match self.send(&sub, &payload).await {
                Ok(true) => {
                    metrics.pushes_sent.inc();
                }
                Ok(false) => {
                    metrics.pushes_gone.inc();
                    tracing::info!("a push subscription is gone: deleted");
                    store
                        .push_write(PushWrite::Unsubscribe {
                            endpoint: sub.endpoint.clone(),
                            player_id: None,
                        })
                        .await?;
                }
                Err(e) => {
                    metrics.pushes_failed.inc();
                    tracing::info!(error = %e, "a push notification failed");
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn push(services: &str, allow_http: bool) -> Push {
        Push {
            vapid: Vapid::from_secret(&vapid::new_secret().to_bytes(), "mailto:x@example.org")
                .expect("key"),
            client: reqwest::Client::new(),
            sending: Arc::new(Semaphore::new(1)),
            services: services.split(',').map(str::to_owned).collect(),
            allow_http,
        }
    }

    #[test]
    fn only_known_push_services_over_https() {
        let p = push(
            "fcm.googleapis.com,.push.apple.com,.notify.windows.com",
            false,
        );
        assert!(p.endpoint_allowed("https://fcm.googleapis.com/fcm/send/abc"));
        assert!(p.endpoint_allowed("https://web.push.apple.com/QGx"));
        assert!(p.endpoint_allowed("https://wns2-par02p.notify.windows.com/w/?token=x"));
        assert!(
            !p.endpoint_allowed("http://fcm.googleapis.com/fcm/send/abc"),
            "HTTPS only"
        );
        assert!(!p.endpoint_allowed("https://fcm.googleapis.com.evil.example/x"));
        assert!(!p.endpoint_allowed("https://push.apple.com.evil.example/x"));
        assert!(!p.endpoint_allowed("https://127.0.0.1/x"));
        assert!(!p.endpoint_allowed("https://169.254.169.254/latest/meta-data"));
        assert!(!p.endpoint_allowed("https://user@fcm.googleapis.com/x"));
        assert!(!p.endpoint_allowed(&format!("https://fcm.googleapis.com/{}", "a".repeat(1_000))));
        let local = push("127.0.0.1", true);
        assert!(local.endpoint_allowed("http://127.0.0.1:4555/push/1"));
        assert!(!local.endpoint_allowed("http://127.0.0.2:4555/push/1"));
    }

    #[test]
    fn kinds_follow_the_settings() {
        let s = PushSettings {
            offers: false,
            ..PushSettings::default()
        };
        assert!(Kind::YourTurn.wanted(&s));
        assert!(!Kind::Offer.wanted(&s));
    }
}
