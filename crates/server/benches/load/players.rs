//! The two players of one table under load, paced, in one task that watches both sockets
//! (so pings are answered while a player waits for its turn).
//!
//! Pacing, per player and on its turn: a player moves as soon as it is its turn (the
//! previous move's event has reached its own socket and its own last move is
//! acknowledged), but never sooner than `period` after its own previous move. With a
//! period far above the round trip that is an open loop: each player moves every
//! `period`, so a table plays two moves per `period`. The first moves are spread: White's
//! at a random point of the first period, Black's half a period later, so the tables'
//! moves arrive evenly over time instead of in waves. With a period below what the
//! server can answer it is a closed loop (the next move waits for the previous one's
//! event), which is how the saturation preset finds the ceiling.
//!
//! Against the relay the same players send the same move frames (padded to the size of
//! `damka`'s move event); the echo to the mover is its `ack`, the broadcast copy its
//! event, and the turn passes with every move.

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;

use super::client::{Socket, kind, num_field, send, str_array, str_field, white_id};

/// What the table talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The `damka` server: real games.
    Damka,
    /// The bare relay: echo and broadcast.
    Relay,
}

/// A player: its guest id (empty against the relay) and its socket.
pub struct Seat {
    /// Guest id.
    pub id: String,
    /// The table socket.
    pub ws: Socket,
    /// Whether the socket is on a node that does not own the table (a cluster: proxied
    /// to the owner over NATS).
    pub proxied: bool,
}

/// When and how fast a table plays.
#[derive(Clone, Copy)]
pub struct Plan {
    /// Who answers.
    pub target: Target,
    /// When play starts.
    pub began: Instant,
    /// Moves sent from here on are timed (the warm-up before is not).
    pub measure_from: Instant,
    /// When play stops.
    pub until: Instant,
    /// Least time between two moves of one player.
    pub period: Duration,
    /// Relay only: bytes of padding in each move frame.
    pub pad: usize,
}

/// What one table did.
#[derive(Default)]
pub struct TableStats {
    /// Send → `ack` of every timed move, microseconds.
    pub rtt_us: Vec<u32>,
    /// When each of those moves was sent, ms into the timed part (same order).
    pub sent_ms: Vec<u32>,
    /// Whether the mover's socket of each of those moves was proxied (same order).
    pub proxied: Vec<bool>,
    /// Games that ended during the run.
    pub games_over: u64,
    /// Frames and bytes the two sockets received while timed.
    pub frames: u64,
    /// See `frames`.
    pub bytes: u64,
    /// Why the table stopped early, if it did.
    pub error: Option<String>,
}

/// A small xorshift generator: the moves only need to vary.
pub struct Rng(pub u64);

impl Rng {
    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }

    /// A fraction in [0, 1).
    pub fn unit(&mut self) -> f64 {
        self.below(1 << 20) as f64 / f64::from(1 << 20)
    }
}

/// The table's game as the players know it.
struct Table {
    /// Seat index of White (Damka: colours swap between games).
    white: usize,
    /// Whether White is to move.
    white_to_move: bool,
    /// The last ply announced.
    ply: u64,
    /// The last ply whose event each seat has seen.
    seen: [u64; 2],
    /// The last event that listed the legal moves (its text).
    legal_from: String,
    /// The move sent and not yet acknowledged: ply and send time.
    pending: Option<(u64, Instant)>,
    /// The ply of the last move sent: the next one waits for its event (an `ack` can come
    /// long before the event when the server is overloaded).
    sent: u64,
    /// Relay: the seat whose echo (its ack) has not come yet.
    awaiting_echo: Option<usize>,
    /// Earliest next move of each seat.
    due: [Instant; 2],
    /// Seats that saw the game end / the next game start.
    over: [bool; 2],
    /// Seats that saw the game start.
    started: [bool; 2],
}

impl Table {
    fn mover(&self) -> usize {
        if self.white_to_move {
            self.white
        } else {
            1 - self.white
        }
    }

    fn playing(&self) -> bool {
        self.started == [true, true]
    }

    /// The seat to move, if it may move now or later (not waiting for anything else).
    fn ready_mover(&self, target: Target) -> Option<usize> {
        let m = self.mover();
        let has_moves =
            target == Target::Relay || str_array(&self.legal_from, "legal").next().is_some();
        let waiting = self.pending.is_some() || self.sent > self.ply;
        (self.playing() && !waiting && self.seen[m] == self.ply && has_moves).then_some(m)
    }
}

/// Waits (reading both sockets, so the server's pings are answered) until the run's
/// plan is published.
async fn wait_for_plan(
    seats: &mut [Seat; 2],
    plans: &mut watch::Receiver<Option<Plan>>,
) -> Result<Plan, String> {
    loop {
        if let Some(plan) = *plans.borrow_and_update() {
            return Ok(plan);
        }
        let [a, b] = seats;
        let frame = tokio::select! {
            f = a.ws.next() => f,
            f = b.ws.next() => f,
            changed = plans.changed() => {
                changed.map_err(|_| "the run was called off".to_owned())?;
                continue;
            }
        };
        match frame {
            Some(Ok(Message::Close(c))) => return Err(format!("closed by the server: {c:?}")),
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(e.to_string()),
            None => return Err("socket ended".into()),
        }
    }
}

/// Plays at one table from the plan's start until its end. The first game has been
/// started by the setup (its `game_started` text is `started`; empty against the relay).
pub async fn drive(
    seats: [Seat; 2],
    started: String,
    mut plans: watch::Receiver<Option<Plan>>,
    seed: u64,
) -> TableStats {
    let mut stats = TableStats::default();
    let mut seats = seats;
    let plan = match wait_for_plan(&mut seats, &mut plans).await {
        Ok(plan) => plan,
        Err(e) => {
            stats.error = Some(e);
            return stats;
        }
    };
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let first = plan.began + plan.period.mul_f64(rng.unit());
    let mut table = Table::new(first);
    table.due = [first, first + plan.period / 2];
    if plan.target == Target::Damka {
        table.on_game_started(&seats, &started);
        // Black's first move half a period after White's, whichever seat White is.
        if table.white == 1 {
            table.due.swap(0, 1);
        }
    }
    if let Err(e) = play(&mut seats, &mut table, &plan, &mut rng, &mut stats).await {
        stats.error = Some(e);
    }
    for s in &mut seats {
        let _ = s.ws.close(None).await;
    }
    stats
}

impl Table {
    fn new(due: Instant) -> Table {
        Table {
            white: 0,
            white_to_move: true,
            ply: 0,
            seen: [0, 0],
            legal_from: String::new(),
            pending: None,
            sent: 0,
            awaiting_echo: None,
            due: [due, due],
            over: [false, false],
            started: [true, true],
        }
    }

    fn on_game_started(&mut self, seats: &[Seat; 2], text: &str) {
        self.white = usize::from(white_id(text) != Some(seats[0].id.as_str()));
        self.white_to_move = str_field(text, "turn") == Some("white");
        self.ply = str_array(text, "opening").count() as u64;
        self.seen = [self.ply, self.ply];
        self.sent = self.ply;
        self.legal_from = text.to_owned();
    }
}

async fn play(
    seats: &mut [Seat; 2],
    table: &mut Table,
    plan: &Plan,
    rng: &mut Rng,
    stats: &mut TableStats,
) -> Result<(), String> {
    let pad = "x".repeat(plan.pad);
    loop {
        let now = Instant::now();
        if now >= plan.until {
            return Ok(());
        }
        let mover = table.ready_mover(plan.target);
        if let Some(m) = mover
            && now >= table.due[m]
        {
            let ply = table.ply + 1;
            let text = match plan.target {
                Target::Damka => {
                    let legal: Vec<&str> = str_array(&table.legal_from, "legal").collect();
                    let mv = legal[rng.below(legal.len())];
                    format!(r#"{{"t":"move","move":"{mv}","ply":{ply},"ack":{ply}}}"#)
                }
                Target::Relay => format!(
                    r#"{{"t":"move","move":"c3-d4","ply":{ply},"ack":{ply},"pad":"{pad}"}}"#
                ),
            };
            let sent = Instant::now();
            send(&mut seats[m].ws, text).await?;
            table.pending = Some((ply, sent));
            table.sent = ply;
            table.awaiting_echo = Some(m);
            table.due[m] = sent + plan.period;
            continue;
        }
        let wake = match mover {
            Some(m) => table.due[m].min(plan.until),
            None => plan.until,
        };
        let [a, b] = seats;
        let (s, frame) = tokio::select! {
            f = a.ws.next() => (0, f),
            f = b.ws.next() => (1, f),
            () = tokio::time::sleep_until(wake.into()) => continue,
        };
        let text = match frame {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Close(c))) => return Err(format!("closed by the server: {c:?}")),
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(e.to_string()),
            None => return Err("socket ended".into()),
        };
        let timed = table
            .pending
            .is_none_or(|(_, sent)| sent >= plan.measure_from)
            && Instant::now() >= plan.measure_from;
        if timed {
            stats.frames += 1;
            stats.bytes += text.len() as u64;
        }
        match plan.target {
            Target::Damka => on_damka(seats, table, s, &text, plan, stats).await?,
            Target::Relay => on_relay(table, s, &text, plan, stats),
        }
    }
}

/// Records the round trip of the move just acknowledged (on a `proxied` socket or not).
fn acked(table: &mut Table, plan: &Plan, stats: &mut TableStats, proxied: bool) {
    if let Some((_, sent)) = table.pending.take()
        && sent >= plan.measure_from
    {
        let us = sent.elapsed().as_micros();
        stats.rtt_us.push(u32::try_from(us).unwrap_or(u32::MAX));
        let at = sent.duration_since(plan.measure_from).as_millis();
        stats.sent_ms.push(u32::try_from(at).unwrap_or(u32::MAX));
        stats.proxied.push(proxied);
    }
}

fn on_relay(table: &mut Table, s: usize, text: &str, plan: &Plan, stats: &mut TableStats) {
    // The echo comes before the broadcast copy on the mover's socket; the opponent's copy
    // may come before either.
    if table.awaiting_echo == Some(s) {
        table.awaiting_echo = None;
        acked(table, plan, stats, false);
        return;
    }
    let ply = num_field(text, "ply").unwrap_or(0);
    if ply > table.ply {
        table.ply = ply;
        table.white_to_move = ply.is_multiple_of(2);
    }
    table.seen[s] = ply;
}

async fn on_damka(
    seats: &mut [Seat; 2],
    table: &mut Table,
    s: usize,
    text: &str,
    plan: &Plan,
    stats: &mut TableStats,
) -> Result<(), String> {
    match kind(text) {
        "ack" => {
            let Some((ply, _)) = table.pending else {
                return Err(format!("an ack with no move out: {text}"));
            };
            if num_field(text, "ack") != Some(ply) {
                return Err(format!("ack for ply {ply}: {text}"));
            }
            acked(table, plan, stats, seats[s].proxied);
        }
        "move" => {
            let ply = num_field(text, "ply").unwrap_or(0);
            if ply > table.ply {
                table.ply = ply;
                table.white_to_move = str_field(text, "turn") == Some("white");
                table.legal_from = text.to_owned();
            }
            table.seen[s] = ply;
        }
        "game_over" => {
            table.over[s] = true;
            if table.over == [true, true] {
                stats.games_over += 1;
                table.over = [false, false];
                table.started = [false, false];
                table.pending = None;
                for seat in seats.iter_mut() {
                    send(&mut seat.ws, r#"{"t":"start"}"#.to_owned()).await?;
                }
            }
        }
        "game_started" => {
            table.started[s] = true;
            if table.started == [true, true] {
                table.on_game_started(seats, text);
                let now = Instant::now();
                for d in &mut table.due {
                    *d = (*d).max(now);
                }
            }
        }
        "error" => return Err(format!("error: {text}")),
        _ => {}
    }
    Ok(())
}

/// A table whose game is lost on time: `flag_after` into the run both players make
/// their first move (which starts the 1-minute clock), then nobody moves. Returns whether
/// the `game_over` with reason `timeout` reached both sockets before the run's end.
pub async fn flag(
    seats: [Seat; 2],
    started: String,
    mut plans: watch::Receiver<Option<Plan>>,
    flag_after: Duration,
) -> Result<bool, String> {
    let mut seats = seats;
    let plan = wait_for_plan(&mut seats, &mut plans).await?;
    let flag_at = plan.began + flag_after;
    let mut table = Table::new(flag_at);
    table.on_game_started(&seats, &started);
    let mut rng = Rng(0x5EED);
    let mut sent = 0;
    let mut timeouts = 0;
    let result = loop {
        let now = Instant::now();
        if now >= plan.until {
            break false;
        }
        let m = table.mover();
        let waiting = table.pending.is_some() || table.sent > table.ply;
        if sent < 2 && now >= flag_at && !waiting && table.seen[m] == table.ply {
            let legal: Vec<&str> = str_array(&table.legal_from, "legal").collect();
            let mv = legal
                .get(rng.below(legal.len()))
                .ok_or("no legal move")?
                .to_string();
            let ply = table.ply + 1;
            let text = format!(r#"{{"t":"move","move":"{mv}","ply":{ply},"ack":{ply}}}"#);
            send(&mut seats[m].ws, text).await?;
            table.pending = Some((ply, now));
            table.sent = ply;
            sent += 1;
            continue;
        }
        let wake = if sent < 2 { flag_at } else { plan.until };
        let [a, b] = &mut seats;
        let (s, frame) = tokio::select! {
            f = a.ws.next() => (0, f),
            f = b.ws.next() => (1, f),
            () = tokio::time::sleep_until(wake.into()) => continue,
        };
        let text = match frame {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Close(c))) => return Err(format!("closed by the server: {c:?}")),
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(e.to_string()),
            None => return Err("socket ended".into()),
        };
        match kind(&text) {
            "ack" => table.pending = None,
            "move" => {
                let ply = num_field(&text, "ply").unwrap_or(0);
                if ply > table.ply {
                    table.ply = ply;
                    table.white_to_move = str_field(&text, "turn") == Some("white");
                    table.legal_from = text.as_str().to_owned();
                }
                table.seen[s] = ply;
            }
            "game_over" => {
                table.over[s] = true;
                if str_field(&text, "reason") == Some("timeout") {
                    timeouts += 1;
                }
                if table.over == [true, true] {
                    break timeouts == 2;
                }
            }
            "error" => return Err(format!("error: {text}")),
            _ => {}
        }
    };
    for s in &mut seats {
        let _ = s.ws.close(None).await;
    }
    Ok(result)
}

/// An idle spectator: reads its socket (so pings are answered) until `stop`; returns how
/// many text frames it got.
pub async fn spectate(mut ws: Socket, mut stop: watch::Receiver<bool>) -> u64 {
    let mut count = 0;
    loop {
        tokio::select! {
            _ = stop.changed() => break,
            frame = ws.next() => match frame {
                Some(Ok(Message::Text(_))) => count += 1,
                Some(Ok(_)) => {}
                Some(Err(_)) | None => break,
            },
        }
    }
    let _ = ws.close(None).await;
    count
}
