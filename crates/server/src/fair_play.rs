//! Fair play of the rated room: where accounts are seen from (written at most once per
//! [`SEEN_EVERY`] per account and address, kept `--address-days`), for the operator's
//! report of suspicious pairs (`damka account pairs`); the report and the voiding of an
//! account's rated results are in [`crate::operator`].
//!
//! Addresses are not a reason to refuse anyone (a school club plays from one): they only
//! inform the operator.

use std::net::IpAddr;
use std::time::Duration;

use damka_protocol::Player;
use damka_store::FairPlayWrite;
use tracing::Instrument;

use crate::core::Core;

/// How often one account's use of one address is written.
pub const SEEN_EVERY: Duration = Duration::from_secs(600);

/// An address as it is kept: IPv4 whole, IPv6 by its /64 (one household or one
/// client's network), so two accounts of one network match.
pub fn address_key(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

/// Notes that an account is playing from `ip` (a request or a socket with its session);
/// guests are not kept. Never waits: the write runs on its own task.
pub fn seen(core: &Core, player: &Player, ip: crate::limits::RateKey) {
    if !player.account {
        return;
    }
    let address = address_key(ip.addr());
    let key = (player.id.clone(), address.clone());
    if core
        .limits
        .addresses_seen
        .take_or_wait(key, 1.0, 1.0 / SEEN_EVERY.as_secs_f64())
        .is_err()
    {
        return;
    }
    let write = FairPlayWrite::Seen {
        player_id: player.id.clone(),
        address,
        at: crate::time::unix_ms(),
    };
    let store = core.store.clone();
    core.tracker.spawn(
        async move {
            if let Err(e) = store.fair_play_write(write).await {
                tracing::debug!(error = %e, "an address seen was not written");
            }
        }
        .instrument(tracing::debug_span!("address_seen")),
    );
}

/// Forgets the addresses not seen for `--address-days`, every hour until shutdown.
pub async fn forget_loop(core: std::sync::Arc<Core>) {
    let keep_ms = i64::from(core.config.limits.address_days) * 86_400_000;
    loop {
        let before = crate::time::unix_ms().saturating_sub(keep_ms);
        if let Err(e) = core
            .store
            .fair_play_write(FairPlayWrite::ForgetBefore { before })
            .await
        {
            tracing::warn!(error = %e, "old addresses not forgotten");
        }
        tokio::select! {
            () = core.shutdown.cancelled() => return,
            () = tokio::time::sleep(Duration::from_secs(3600)) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_addresses_are_kept_by_their_64_prefix() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().expect("an address");
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().expect("an address");
        let c: IpAddr = "2001:db8:1:3::1".parse().expect("an address");
        assert_eq!(address_key(a), "2001:db8:1:2::/64");
        assert_eq!(address_key(a), address_key(b));
        assert_ne!(address_key(a), address_key(c));
        assert_eq!(
            address_key("10.0.0.7".parse().expect("an address")),
            "10.0.0.7"
        );
        assert_eq!(
            address_key("::ffff:10.0.0.7".parse().expect("an address")),
            "10.0.0.7"
        );
    }
}
