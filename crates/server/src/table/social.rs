//! What players and spectators say at a table, and who is here, pure: chat (players' and
//! spectators' kept apart during a game), the people reported to the room, and when a
//! claim against an opponent who left becomes possible (the claim itself, like every
//! action on a running game, is ruled by [`super::referee`]).

use damka_protocol::{ChatMessage, Options, Player, Whereabouts};
use draughts::Color;

use super::game::LiveGame;
use super::subscribers::Subscribers;
use crate::chat::ChatLog;

/// The chat scope of table `id` in the store.
pub(super) fn chat_scope(id: &str) -> String {
    format!("table:{id}")
}

/// Whether `guest_id` plays `game`, and it is being played (their chat reaches everyone).
pub(super) fn plays_now(game: Option<&LiveGame>, guest_id: &str) -> bool {
    game.is_some_and(|g| g.playing() && g.color_of(guest_id).is_some())
}

/// Whether a chat line of `guest_id` reaches only the spectators: theirs during a game.
pub(super) fn spectators_only(game: Option<&LiveGame>, guest_id: &str) -> bool {
    game.is_some_and(LiveGame::playing) && !plays_now(game, guest_id)
}

/// The chat history as `guest` may see it: during a game, a player does not see the
/// spectators' messages.
pub(super) fn chat_for(
    chat: &ChatLog,
    game: Option<&LiveGame>,
    guest: Option<&Player>,
) -> Vec<ChatMessage> {
    let player = guest.is_some_and(|g| plays_now(game, &g.id));
    chat.history()
        .filter(|m| !(player && m.spectators))
        .cloned()
        .collect()
}

/// The guests with a socket open here (each once, in joining order), and whether they
/// play the running game.
pub(super) fn people<'a>(
    subs: &'a Subscribers,
    game: Option<&'a LiveGame>,
) -> impl Iterator<Item = (&'a Player, Whereabouts)> + 'a {
    subs.iter().enumerate().filter_map(move |(i, s)| {
        let g = s.guest.as_ref().filter(|g| !g.is_bot())?;
        let earlier = subs.iter().take(i);
        if earlier
            .filter_map(|o| o.guest.as_ref())
            .any(|o| o.id == g.id)
        {
            return None;
        }
        let w = if plays_now(game, &g.id) {
            Whereabouts::Playing
        } else {
            Whereabouts::Table
        };
        Some((g, w))
    })
}

/// Ms until the connected player of `game` may claim against the disconnected one (0:
/// now), or `None` (nobody gone, both gone, the first moves not made yet, a computer,
/// one-screen or correspondence table). `away`: the one player away and since when
/// (server ms); `delay_ms`: how long they must have been away.
pub(super) fn claim_at(
    game: Option<&LiveGame>,
    options: &Options,
    away: Option<(Color, u64)>,
    delay_ms: u64,
    now: u64,
) -> Option<u64> {
    let g = game.filter(|g| g.playing() && g.both_moved())?;
    // Correspondence players are away most of the time: no claims, the clock decides.
    if options.local || options.days.is_some() || g.players.any(Player::is_bot) {
        return None;
    }
    let (_, since) = away?;
    Some((since + delay_ms).saturating_sub(now))
}
