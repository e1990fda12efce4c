//! Invitations: a player seated at a table with a free seat invites a person on the room
//! page to it. The invitation is a room event addressed to that person (and, as the
//! confirmation, to the inviter): a whole fact with ids and names, published on the
//! room's channel like every room event, so it can reach the invited person's sockets on
//! any node. Nothing is stored: an invitation is a nudge, and the table itself is the
//! truth (the invited person may find the seat taken).

use damka_protocol::room::{Invitation, RoomServerMessage};
use damka_protocol::{ErrorCode, GameStatus, Player};

use super::Room;
use crate::error::AppError;
use crate::lock::lock;
use crate::{random, time};

/// Invitations a person may send in a burst in one room.
pub const INVITE_BURST: f64 = 3.0;

/// Invitations per second refilled after a burst (one every 10 s).
pub const INVITE_PER_SECOND: f64 = 0.1;

/// Invitations a person may receive in a burst in one room, from everyone together.
pub const RECEIVE_BURST: f64 = 3.0;

/// Invitations a person may receive per second after a burst (one every 20 s).
pub const RECEIVE_PER_SECOND: f64 = 0.05;

impl Room {
    /// `from` invites the person `to` to `table`: checked, rate-limited, then published
    /// to the two of them.
    ///
    /// Fails with `bad_message` (oneself), `not_found` (no such table in this room, or
    /// the person is not on the room page), `not_seated` (`from` does not sit at the
    /// table), `game_in_progress` (a game at that table, or the person is playing one),
    /// `seat_taken` (no free seat) or `rate_limited` (the inviter sent, or the person
    /// received, too many lately).
    pub fn invite(&self, from: &Player, to: &str, table: &str) -> Result<(), AppError> {
        if to == from.id {
            return Err(AppError::BadMessage("you cannot invite yourself".into()));
        }
        let view = self
            .table(table)
            .ok_or(AppError::NotFound("table in this room"))?;
        let seats = [&view.seats.white, &view.seats.black];
        if !seats
            .iter()
            .any(|s| s.as_ref().is_some_and(|p| p.id == from.id))
        {
            return Err(AppError::game(
                ErrorCode::NotSeated,
                "you are not seated at that table",
            ));
        }
        if view
            .game
            .as_ref()
            .is_some_and(|g| g.status == GameStatus::Playing)
        {
            return Err(AppError::game(
                ErrorCode::GameInProgress,
                "a game is being played at that table",
            ));
        }
        if seats.iter().all(|s| s.is_some()) {
            return Err(AppError::game(
                ErrorCode::SeatTaken,
                "your table has no free seat",
            ));
        }
        let people = lock(&self.people);
        let invited = people
            .on_room_page(to)
            .ok_or(AppError::NotFound("person on the room page"))?;
        if invited.whereabouts == damka_protocol::Whereabouts::Playing {
            return Err(AppError::game(
                ErrorCode::GameInProgress,
                "they are playing a game: invite them when it is over",
            ));
        }
        lock(&self.invite_limits)
            .entry(from.id.clone())
            .or_insert_with(|| crate::chat::Bucket::new(INVITE_BURST, INVITE_PER_SECOND))
            .take()?;
        lock(&self.invites_received)
            .entry(invited.id.clone())
            .or_insert_with(|| crate::chat::Bucket::new(RECEIVE_BURST, RECEIVE_PER_SECOND))
            .take()
            .map_err(|_| {
                AppError::game(
                    ErrorCode::RateLimited,
                    "they have been invited often lately: try again later",
                )
            })?;
        let invitation = Invitation {
            id: random::token_base36(12),
            from: people.shown_player(from),
            to: Player::guest(invited.id, invited.name),
            table: view,
            at: time::rfc3339(time::unix_ms()),
        };
        tracing::info!(to, table, "invitation");
        // Published under the people lock, like the people events: the invited person
        // cannot leave between the check and the event.
        self.publish_shared(&RoomServerMessage::Invited(Box::new(invitation)));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::default_rooms;
    use damka_protocol::{Options, Ready, Seats, TableView};

    fn table(white: Option<Player>, black: Option<Player>) -> TableView {
        TableView {
            id: "t1".into(),
            room: "russian".into(),
            variant: "russian".into(),
            options: Options {
                minutes: 5,
                increment: 3,
                days: None,
                random_opening: false,
                capture_optional: false,
                bot: None,
                local: false,
                ..Options::default()
            },
            seats: Seats { white, black },
            ready: Ready {
                white: false,
                black: false,
            },
            spectators: 0,
            game: None,
            tournament: None,
        }
    }

    fn room() -> Room {
        let config = default_rooms()
            .into_iter()
            .find(|r| r.id == "russian")
            .expect("a russian room");
        Room::new(config)
    }

    #[test]
    fn an_invitation_reaches_only_the_two_people() {
        let room = room();
        let (ala, ola, ewa) = (
            Player::guest("a1", "Ala"),
            Player::guest("o1", "Ola"),
            Player::guest("e1", "Ewa"),
        );
        room.table_changed(table(Some(ala.clone()), None), true);
        room.person_socket(&ola, true);
        room.person_socket(&ewa, true);
        let mut events = room.subscribe();
        room.invite(&ala, "o1", "t1").expect("invited");
        let event = events.try_recv().expect("published");
        assert!(event.is_for(Some("o1")) && event.is_for(Some("a1")));
        assert!(!event.is_for(Some("e1")) && !event.is_for(None));
        let msg: serde_json::Value = serde_json::from_str(event.text.as_str()).expect("json");
        assert_eq!(msg["t"], "invited");
        assert_eq!(
            (&msg["from"]["name"], &msg["to"]["id"], &msg["table"]["id"]),
            (&"Ala".into(), &"o1".into(), &"t1".into())
        );
    }

    #[test]
    fn invitations_are_refused_when_they_make_no_sense() {
        let room = room();
        let (ala, ola) = (Player::guest("a1", "Ala"), Player::guest("o1", "Ola"));
        room.table_changed(table(Some(ala.clone()), None), true);
        let code = |r: Result<(), AppError>| r.err().map(|e| e.code());
        // Ola is not on the room page yet.
        assert_eq!(
            code(room.invite(&ala, "o1", "t1")),
            Some(ErrorCode::NotFound)
        );
        room.person_socket(&ola, true);
        assert_eq!(
            code(room.invite(&ala, "a1", "t1")),
            Some(ErrorCode::BadMessage)
        );
        assert_eq!(
            code(room.invite(&ala, "o1", "t9")),
            Some(ErrorCode::NotFound)
        );
        assert_eq!(
            code(room.invite(&ola, "a1", "t1")),
            Some(ErrorCode::NotSeated)
        );
        room.table_changed(
            table(Some(ala.clone()), Some(Player::guest("b1", "B"))),
            false,
        );
        assert_eq!(
            code(room.invite(&ala, "o1", "t1")),
            Some(ErrorCode::SeatTaken)
        );
        let mut playing = table(Some(ala.clone()), None);
        playing.game = Some(damka_protocol::GameSummary {
            id: "g1".into(),
            status: GameStatus::Playing,
            ply: 3,
            turn: damka_protocol::Side::Black,
            result: None,
            reason: None,
        });
        room.table_changed(playing, false);
        assert_eq!(
            code(room.invite(&ala, "o1", "t1")),
            Some(ErrorCode::GameInProgress)
        );
        room.table_changed(table(Some(ala.clone()), None), false);
        // A burst, then flood control.
        for _ in 0..3 {
            assert_eq!(code(room.invite(&ala, "o1", "t1")), None);
        }
        assert_eq!(
            code(room.invite(&ala, "o1", "t1")),
            Some(ErrorCode::RateLimited)
        );
    }

    #[test]
    fn a_person_receives_a_few_invitations_and_none_while_playing() {
        let room = room();
        let vic = Player::guest("v1", "Vic");
        room.person_socket(&vic, true);
        // Ten people invite the same person, each from a table of their own.
        let mut sent = 0;
        for i in 0..10 {
            let p = Player::guest(format!("i{i}"), format!("Inv {i}"));
            let mut t = table(Some(p.clone()), None);
            t.id = format!("t{i}");
            room.table_changed(t, true);
            match room.invite(&p, "v1", &format!("t{i}")) {
                Ok(()) => sent += 1,
                Err(e) => assert_eq!(e.code(), ErrorCode::RateLimited),
            }
        }
        assert_eq!(sent, RECEIVE_BURST as usize);
        // Someone playing a game is not disturbed.
        let bob = Player::guest("b1", "Bob");
        room.person_socket(&bob, true);
        room.table_people(
            "t5",
            vec![(bob.clone(), damka_protocol::Whereabouts::Playing)],
        );
        let err = room
            .invite(&Player::guest("i9", "Inv 9"), "b1", "t9")
            .expect_err("refused");
        assert_eq!(err.code(), ErrorCode::GameInProgress);
    }
}
