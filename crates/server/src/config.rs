//! Configuration from command-line flags and environment variables (clap).

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, ValueEnum};

/// Log output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// The priority of the thread that makes the endgame tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BuildPriority {
    /// The scheduler's idle priority (Linux `SCHED_IDLE`): only a core nothing else
    /// wants; live games never wait for it, and on a busy machine it takes longer.
    Idle,
    /// The priority of the server's other threads: as fast as the machine allows.
    Normal,
}

/// Everything the server can be told at start-up.
#[derive(Clone, Parser)]
#[command(name = "damka", version, about = "The Damka draughts server")]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "DAMKA_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,

    /// `sqlite://path` (created if missing) or `postgres://...`.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://data/damka.db")]
    pub database_url: String,

    /// Extra origins allowed to open WebSockets (comma-separated, e.g.
    /// `https://damka.example`); the server's own host is always allowed.
    #[arg(long, env = "DAMKA_ALLOWED_ORIGINS", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,

    /// JSON file with the rooms (default: one room per variant).
    #[arg(long, env = "DAMKA_ROOMS")]
    pub rooms: Option<PathBuf>,

    /// Mark the session cookie `Secure` (set this when clients reach the server over
    /// HTTPS, e.g. behind a TLS-terminating proxy; browsers then never send it over plain
    /// HTTP).
    #[arg(long, env = "DAMKA_SECURE_COOKIE")]
    pub secure_cookie: bool,

    /// Log format.
    #[arg(long, env = "DAMKA_LOG_FORMAT", value_enum, default_value = "text")]
    pub log_format: LogFormat,

    /// Directory of the web client (default `./static`, else the repository's `static/`).
    #[arg(long, env = "DAMKA_STATIC_DIR")]
    pub static_dir: Option<PathBuf>,

    /// Seconds a client has to send a request's headers before its connection is closed
    /// (against clients that hold connections open by trickling their headers).
    #[arg(long, env = "DAMKA_HEADER_READ_TIMEOUT_SECS", default_value_t = 10)]
    pub header_read_timeout_secs: u64,

    /// Seconds graceful shutdown waits for tables and sockets.
    #[arg(long, env = "DAMKA_SHUTDOWN_TIMEOUT_SECS", default_value_t = 10)]
    pub shutdown_timeout_secs: u64,

    /// Separate address for `/metrics` (e.g. `127.0.0.1:9090`, reachable only by the
    /// monitoring). When set, the main port no longer serves `/metrics`; when not set,
    /// `/metrics` stays on the main port (keep it off the public internet at the proxy).
    #[arg(long, env = "DAMKA_METRICS_BIND")]
    pub metrics_bind: Option<SocketAddr>,

    /// Take the client address from the last `X-Forwarded-For` entry (set this only
    /// behind a reverse proxy that sets that header; otherwise clients could pick their
    /// own address and escape the per-address limits).
    #[arg(long, env = "DAMKA_TRUST_FORWARDED_FOR")]
    pub trust_forwarded_for: bool,

    /// How tables and games run: first-move windows, claims, offers, breaks, parking.
    #[command(flatten)]
    pub tables: TableConfig,

    /// The computer's searches and its endgame tables.
    #[command(flatten)]
    pub computer: ComputerConfig,

    /// How the server waits for the database.
    #[command(flatten)]
    pub db: DatabaseConfig,

    /// What one guest, one account or one address may take (0: no limit, where said).
    #[command(flatten)]
    pub limits: LimitsConfig,

    /// Tournaments: how long they stay open, breaks between rounds.
    #[command(flatten)]
    pub tournaments: TournamentConfig,

    /// Chat history kept, and its clean-up.
    #[command(flatten)]
    pub chat: ChatConfig,

    /// Guests and sessions: expiry and clean-ups.
    #[command(flatten)]
    pub sessions: SessionConfig,

    /// A cluster of nodes (PostgreSQL + NATS).
    #[command(flatten)]
    pub nodes: ClusterConfig,

    /// Game and position analysis: budgets, jobs, limits.
    #[command(flatten)]
    pub analysis: AnalysisConfig,

    /// Web Push notifications.
    #[command(flatten)]
    pub push: PushConfig,

    /// Hooks for the tests (flags only where a test starts the binary).
    #[command(flatten)]
    pub test: TestHooks,

    /// An operator's command instead of the server (`damka account ...`).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// How tables and games run: first-move windows, claims, offers, breaks, parking.
#[derive(Clone, Debug, clap::Args)]
#[command(next_help_heading = "Tables and games")]
pub struct TableConfig {
    /// Seconds each player has for their first move before the game is aborted.
    #[arg(long, env = "DAMKA_FIRST_MOVE_SECS", default_value_t = 30)]
    pub first_move_secs: u64,

    /// Seconds an empty table (nobody connected, no game running) lives on.
    #[arg(long, env = "DAMKA_EMPTY_TABLE_GRACE_SECS", default_value_t = 30)]
    pub empty_table_grace_secs: u64,

    /// Plies a player must wait between two draw offers (and two takeback requests); the
    /// clients learn it from `state.offer_limits`.
    #[arg(long, env = "DAMKA_DRAW_OFFER_PLIES", default_value_t = 10)]
    pub draw_offer_plies: u32,

    /// Seconds a running game's player must have been disconnected before the opponent
    /// may claim the win or a draw (reason `abandoned`).
    #[arg(long, env = "DAMKA_CLAIM_DELAY_SECS", default_value_t = 60)]
    pub claim_delay_secs: u64,

    /// The claim delay for clocks under 3 minutes.
    #[arg(long, env = "DAMKA_CLAIM_DELAY_SHORT_SECS", default_value_t = 30)]
    pub claim_delay_short_secs: u64,

    /// Milliseconds between WebSocket pings that measure each connection's round trip
    /// (for lag compensation).
    #[arg(long, env = "DAMKA_WS_PING_MS", default_value_t = 5000)]
    pub ws_ping_ms: u64,

    /// Seconds a game restored after a restart waits for both players to reconnect
    /// before its clock (or first-move window) runs again.
    #[arg(long, env = "DAMKA_RESTART_GRACE_SECS", default_value_t = 20)]
    pub restart_grace_secs: u64,

    /// Seconds between the two games of a micro-match: the second starts by itself
    /// after them (or as soon as both players press start).
    #[arg(long, env = "DAMKA_MATCH_BREAK_SECS", default_value_t = 15)]
    pub match_break_secs: u64,

    /// Seconds a correspondence table whose game waits for a move stays in memory with
    /// nobody watching; then it is parked (its actor stops, only its next timer is kept)
    /// and loaded again when someone opens it or the timer is due. 0: never parked. A
    /// cluster node never parks (its tables move between nodes by lease).
    #[arg(long, env = "DAMKA_CORRESPONDENCE_PARK_SECS", default_value_t = 300)]
    pub correspondence_park_secs: u64,

    /// Rated games two players may start against each other in 24 hours; past that
    /// their games (at a rated table or in a rated tournament) are casual (0: no limit).
    #[arg(long, env = "DAMKA_RATED_GAMES_PER_PAIR", default_value_t = 10)]
    pub rated_games_per_pair: u32,
}

/// The computer's searches and its endgame tables.
#[derive(Clone, Debug, clap::Args)]
#[command(next_help_heading = "The computer")]
pub struct ComputerConfig {
    /// Computer searches that may run at once (0: one fewer than the machine's cores, at
    /// least one). Each takes a core while it thinks; more wait their turn, on their clock.
    #[arg(long, env = "DAMKA_BOT_SEARCHES", default_value_t = 0)]
    pub bot_searches: usize,

    /// Milliseconds a computer search may keep its search thread while a search of
    /// another player waits (it then answers with the best move found so far); searches
    /// for people's games go before computer-against-computer tournament boards.
    #[arg(long, env = "DAMKA_BOT_SLICE_MS", default_value_t = 500)]
    pub bot_slice_ms: u64,

    /// Where the endgame tables (bitbases) of the computer's level 3 and the analysis are
    /// kept: read at start-up, made there on first use.
    #[arg(long, env = "DAMKA_BITBASES_DIR", default_value = "data/bitbases")]
    pub bitbases_dir: std::path::PathBuf,

    /// Pieces on the board up to which the endgame tables know every position's result
    /// (2 to 5; 0: no tables; International stops at 4). Made the first time on a thread
    /// of their own: with 4, 7 to 10 s of one core per 8x8 variant and 77 s for
    /// International, 185 MB on disk and in memory; with 5, two to four minutes and
    /// 374 MB per 8x8 variant (`docs/operations.md`).
    #[arg(long, env = "DAMKA_BITBASE_PIECES", default_value_t = 4,
          value_parser = clap::value_parser!(u8).range(0..=5))]
    pub bitbase_pieces: u8,

    /// Priority of the thread that makes the endgame tables the first time: `idle` (only
    /// a core nothing else wants: a fresh server's games do not notice it) or `normal`.
    #[arg(long, env = "DAMKA_BITBASE_PRIORITY", value_enum, default_value_t = BuildPriority::Idle)]
    pub bitbase_priority: BuildPriority,
}

/// How the server waits for the database.
#[derive(Clone, Debug, clap::Args)]
#[command(next_help_heading = "Database")]
pub struct DatabaseConfig {
    /// Milliseconds a database operation waits for a connection (and for a new one to be
    /// made) before it fails; keep it short, so an outage fails fast instead of holding
    /// every table up.
    #[arg(long, env = "DAMKA_DB_ACQUIRE_TIMEOUT_MS", default_value_t = 1000)]
    pub db_acquire_timeout_ms: u64,

    /// Database connections of the public lookups (profiles, a player's games and PDN,
    /// leaderboards, game lists and replays), apart from the game path's: however many
    /// lookups come, sign-in, sessions, table sockets and moves keep their connections.
    #[arg(long, env = "DAMKA_DB_LOOKUP_CONNECTIONS", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub db_lookup_connections: u32,

    /// Milliseconds a lookup waits for one of its connections before it is answered
    /// `429 rate_limited` (`Retry-After: 1`).
    #[arg(long, env = "DAMKA_DB_LOOKUP_WAIT_MS", default_value_t = 250)]
    pub db_lookup_wait_ms: u64,
}

/// What one guest, one account or one address may take (0: no limit, where said).
#[derive(Clone, Debug, clap::Args)]
#[command(next_help_heading = "Limits per guest and address")]
pub struct LimitsConfig {
    /// Open tables a guest may sit at (0: no limit).
    #[arg(long, env = "DAMKA_MAX_TABLES_PER_GUEST", default_value_t = 3)]
    pub max_tables_per_guest: usize,

    /// Open WebSockets (room and table sockets together) one address may hold (0: no
    /// limit).
    #[arg(long, env = "DAMKA_MAX_SOCKETS_PER_ADDRESS", default_value_t = 200)]
    pub max_sockets_per_address: usize,

    /// Guests one address may create per minute, after a burst of as many (0: no
    /// limit).
    #[arg(long, env = "DAMKA_GUESTS_PER_MINUTE", default_value_t = 30)]
    pub guests_per_minute: u32,

    /// WebSockets one address may open per second, after a burst of five seconds'
    /// worth (0: no limit).
    #[arg(long, env = "DAMKA_SOCKET_OPENS_PER_SECOND", default_value_t = 10.0)]
    pub socket_opens_per_second: f64,

    /// Seat changes (`sit`, `stand`) one address may make per second over all its
    /// guests and tables, after a burst of five seconds' worth (0: no limit).
    #[arg(long, env = "DAMKA_SEAT_CHANGES_PER_SECOND", default_value_t = 2.0)]
    pub seat_changes_per_second: f64,

    /// Open tables created from one address at a time (0: no limit).
    #[arg(long, env = "DAMKA_MAX_TABLES_PER_ADDRESS", default_value_t = 40)]
    pub max_tables_per_address: usize,

    /// Tournaments waiting to start that one address may have created at once (0: no
    /// limit).
    #[arg(
        long,
        env = "DAMKA_MAX_OPEN_TOURNAMENTS_PER_ADDRESS",
        default_value_t = 2
    )]
    pub max_open_tournaments_per_address: usize,

    /// Public lookups (profiles, a player's games and PDN, leaderboards, game lists and
    /// replays) per minute from one address, after a burst of a quarter of it (0: no
    /// limit).
    #[arg(long, env = "DAMKA_LOOKUPS_PER_MINUTE", default_value_t = 120.0)]
    pub lookups_per_minute: f64,

    /// Players' whole-PDN downloads streaming at once, in all (one per address; 0: no
    /// limit).
    #[arg(long, env = "DAMKA_PDN_DOWNLOADS", default_value_t = 4)]
    pub pdn_downloads: usize,

    /// Password hashes and checks that run at once (0: one fewer than the machine's
    /// cores, at least one); each takes a core and 19 MiB while it runs.
    #[arg(long, env = "DAMKA_PASSWORD_HASHES", default_value_t = 0)]
    pub password_hashes: usize,

    /// Password checks that may wait for one of those (two at most from one address; the
    /// address with the fewest recent failed checks goes first); more are answered `429`
    /// with `Retry-After` at once.
    #[arg(long, env = "DAMKA_PASSWORD_QUEUE", default_value_t = 32)]
    pub password_queue: usize,

    /// Days an account's addresses are kept for the operator's report of suspicious
    /// pairs (`damka account pairs`).
    #[arg(long, env = "DAMKA_ADDRESS_DAYS", default_value_t = 30)]
    pub address_days: u32,

    /// Bits of an IPv6 address that make one client for the per-address limits (the rest
    /// is the client's own to vary: a home or a server gets a whole /64); IPv4 addresses
    /// count whole.
    #[arg(long, env = "DAMKA_IPV6_PREFIX", default_value_t = 64,
          value_parser = clap::value_parser!(u8).range(16..=128))]
    pub ipv6_prefix: u8,
}

/// Tournaments: how long they stay open, breaks between rounds.
#[derive(Clone, Debug, clap::Args)]
#[command(next_help_heading = "Tournaments")]
pub struct TournamentConfig {
    /// Seconds an open tournament may wait to start before it is cancelled (also the
    /// latest start time a creator may set).
    #[arg(long, env = "DAMKA_TOURNAMENT_OPEN_SECS", default_value_t = 3600)]
    pub tournament_open_secs: u64,

    /// Seconds the creator of an open tournament may be away (no page of the server
    /// open, at no table) before it is cancelled.
    #[arg(
        long,
        env = "DAMKA_TOURNAMENT_CREATOR_AWAY_SECS",
        default_value_t = 300
    )]
    pub tournament_creator_away_secs: u64,

    /// Seconds between two rounds of a tournament: the players see their result and
    /// their next pairing before the next round's games (and first-move windows) start.
    #[arg(long, env = "DAMKA_ROUND_BREAK_SECS", default_value_t = 10)]
    pub round_break_secs: u64,
}

/// Chat history kept, and its clean-up.
#[derive(Clone, Debug, clap::Args)]
#[command(next_help_heading = "Chat")]
pub struct ChatConfig {
    /// Chat messages kept per room and per table (older ones are deleted).
    #[arg(long, env = "DAMKA_CHAT_HISTORY", default_value_t = 50)]
    pub chat_history: u32,

    /// Days a chat message is kept.
    #[arg(long, env = "DAMKA_CHAT_MAX_AGE_DAYS", default_value_t = 30)]
    pub chat_max_age_days: u32,

    /// Seconds between two deletions of the chat beyond the history and age kept.
    #[arg(long, env = "DAMKA_CHAT_SWEEP_SECS", default_value_t = 60)]
    pub chat_sweep_secs: u64,
}

/// Guests and sessions: expiry and clean-ups.
#[derive(Clone, Debug, clap::Args)]
#[command(next_help_heading = "Guests and sessions")]
pub struct SessionConfig {
    /// Days after which a guest who never played a game, holds no seat and has not been
    /// seen is deleted (0: never).
    #[arg(long, env = "DAMKA_GUEST_EXPIRY_DAYS", default_value_t = 30)]
    pub guest_expiry_days: u64,

    /// Seconds between two sweeps for expired guests (also how often `seen` times are
    /// written).
    #[arg(long, env = "DAMKA_GUEST_SWEEP_SECS", default_value_t = 3600)]
    pub guest_sweep_secs: u64,

    /// Days an account's session lives unused before it ends (0: no limit).
    #[arg(long, env = "DAMKA_SESSION_IDLE_DAYS", default_value_t = 30)]
    pub session_idle_days: u32,

    /// Days an account's session lives at most, used or not (0: no limit).
    #[arg(long, env = "DAMKA_SESSION_MAX_DAYS", default_value_t = 365)]
    pub session_max_days: u32,

    /// Seconds between two checks of the open sockets' sessions against the database:
    /// how soon a session ended elsewhere (the operator's `damka account` commands,
    /// another node of a cluster, expiry) closes its sockets.
    #[arg(long, env = "DAMKA_SESSION_CHECK_SECS", default_value_t = 5)]
    pub session_check_secs: u64,

    /// Seconds between two deletions of expired sessions.
    #[arg(long, env = "DAMKA_SESSION_SWEEP_SECS", default_value_t = 3600)]
    pub session_sweep_secs: u64,
}

/// A cluster of nodes (PostgreSQL + NATS).
#[derive(Clone, clap::Args)]
#[command(next_help_heading = "Cluster")]
pub struct ClusterConfig {
    /// Run as one node of a cluster: the NATS server's URL (`nats://host:4222`). Needs a
    /// PostgreSQL `--database-url` shared by every node (docs/scaling.md).
    #[arg(long, env = "DAMKA_CLUSTER")]
    pub cluster: Option<String>,

    /// This node's name in the cluster (a random part is added, so a restarted node is a
    /// new node); default: the host name.
    #[arg(long, env = "DAMKA_NODE_NAME")]
    pub node_name: Option<String>,

    /// Milliseconds a node's lease lasts without renewal (renewed every third of it): how
    /// soon the tables of a node that died are taken over.
    #[arg(long, env = "DAMKA_LEASE_MS", default_value_t = 3000)]
    pub lease_ms: u64,

    /// The first part of every NATS subject the cluster uses (nodes of one cluster share
    /// it; two clusters on one NATS need different ones).
    #[arg(long, env = "DAMKA_NATS_PREFIX", default_value = "damka")]
    pub nats_prefix: String,
}

/// Game and position analysis: budgets, jobs, limits.
#[derive(Clone, Debug, clap::Args)]
#[command(next_help_heading = "Analysis")]
pub struct AnalysisConfig {
    /// Nodes searched per position of a game's analysis (with `--analysis-depth`, never a
    /// time, so results are the same on any machine and under any load).
    #[arg(long, env = "DAMKA_ANALYSIS_NODES", default_value_t = 200_000)]
    pub analysis_nodes: u64,

    /// Nodes searched for a position of the analysis board (`GET /api/analyse`).
    #[arg(long, env = "DAMKA_ANALYSIS_BOARD_NODES", default_value_t = 300_000)]
    pub analysis_board_nodes: u64,

    /// Deepest iteration of an analysis search.
    #[arg(long, env = "DAMKA_ANALYSIS_DEPTH", default_value_t = 24)]
    pub analysis_depth: u32,

    /// Depth at which the position after an analysed game's mistake is verified as a
    /// puzzle (then again one ply deeper; docs/puzzles.md); 0: no puzzles from games.
    #[arg(long, env = "DAMKA_GAME_PUZZLE_DEPTH", default_value_t = 12)]
    pub game_puzzle_depth: u32,

    /// Game analyses one node runs at once (each searches one position at a time on the
    /// computer's threads, below every live game); 0: this node runs none (another node
    /// of its cluster does).
    #[arg(long, env = "DAMKA_ANALYSIS_JOBS", default_value_t = 2)]
    pub analysis_jobs: usize,

    /// Seconds a node's claim on a running analysis lasts without renewal (renewed every
    /// third of it): how soon another node takes over a job whose node died.
    #[arg(long, env = "DAMKA_ANALYSIS_LEASE_SECS", default_value_t = 60)]
    pub analysis_lease_secs: u64,

    /// Seconds between two looks for analysis jobs to run (queued, or left by a node that
    /// died); a request wakes the looker at once anyway.
    #[arg(long, env = "DAMKA_ANALYSIS_POLL_SECS", default_value_t = 5)]
    pub analysis_poll_secs: u64,

    /// Game analyses asked for per hour from one address (burst 5; 0: no limit).
    #[arg(long, env = "DAMKA_GAME_ANALYSES_PER_HOUR", default_value_t = 30.0)]
    pub game_analyses_per_hour: f64,

    /// Game analyses asked for per hour by one player, guest or account (burst 3; 0: no
    /// limit).
    #[arg(
        long,
        env = "DAMKA_GAME_ANALYSES_PER_PLAYER_HOUR",
        default_value_t = 12.0
    )]
    pub game_analyses_per_player_hour: f64,

    /// Positions of the analysis board per minute from one address (burst 20; 0: no
    /// limit).
    #[arg(
        long,
        env = "DAMKA_POSITION_ANALYSES_PER_MINUTE",
        default_value_t = 60.0
    )]
    pub position_analyses_per_minute: f64,

    /// Game analyses waiting in the queue (over every node) past which a new request is
    /// refused (`429`, `Retry-After`); an account's request for its own game is refused
    /// only past twice this.
    #[arg(long, env = "DAMKA_ANALYSIS_QUEUE", default_value_t = 32)]
    pub analysis_queue: usize,

    /// Analysis-board searches one node lets wait or run at once (a position asked
    /// again, or while it is searched, comes from the cache and takes no place); past
    /// that the board answers `429` with `Retry-After`.
    #[arg(long, env = "DAMKA_ANALYSIS_BOARD_SEARCHES", default_value_t = 8)]
    pub analysis_board_searches: usize,
}

/// Web Push notifications.
#[derive(Clone, Debug, clap::Args)]
#[command(next_help_heading = "Web Push")]
pub struct PushConfig {
    /// The push services the server sends Web Push messages to: host names, or `.domain`
    /// for every host of a domain (over HTTPS only). A browser's subscription elsewhere is
    /// refused, so the server cannot be made to POST to any other address.
    #[arg(
        long,
        env = "DAMKA_PUSH_SERVICES",
        default_value = "fcm.googleapis.com,updates.push.services.mozilla.com,.push.apple.com,.notify.windows.com"
    )]
    pub push_services: String,

    /// Who runs this server, for the push services (`mailto:` or `https:`; some push
    /// services refuse messages without a real one).
    #[arg(
        long,
        env = "DAMKA_PUSH_SUBJECT",
        default_value = "mailto:damka@localhost"
    )]
    pub push_subject: String,

    /// Test hook, not a flag: Web Push to plain-HTTP endpoints (a local test receiver).
    #[arg(skip)]
    pub push_allow_http: bool,
}

/// Hooks for the tests (flags only where a test starts the binary).
#[derive(Clone, clap::Args)]
#[command(next_help_heading = "Test hooks")]
pub struct TestHooks {
    /// Test hook, not a flag: see [`damka_store::StoreOptions::sqlite_max_page_count`].
    #[arg(skip)]
    pub test_sqlite_max_page_count: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,

    /// Test hook (hidden): abort the process between a rated game's end and its ratings,
    /// inside their one transaction ([`damka_store::StoreOptions::abort_before_ratings`]).
    #[arg(long, hide = true)]
    pub test_abort_before_ratings: bool,

    /// Test hook, not a flag: every new game starts from this FEN (when it parses for
    /// the table's variant) instead of the start position.
    #[arg(skip)]
    pub test_start_fen: Option<String>,

    /// Test hook, not a flag: use a manual clock advanced by the test
    /// ([`crate::time::TimeSource::advance`]) instead of the real one.
    #[arg(skip)]
    pub manual_time: bool,
}

impl Config {
    /// The configuration with every default, as `damka` with no flags and no environment.
    pub fn defaults() -> Config {
        Config::parse_from(["damka"])
    }

    /// The first-move window.
    pub fn first_move_window(&self) -> Duration {
        Duration::from_secs(self.tables.first_move_secs)
    }

    /// The empty-table grace period.
    pub fn empty_table_grace(&self) -> Duration {
        Duration::from_secs(self.tables.empty_table_grace_secs)
    }

    /// The header-read timeout.
    pub fn header_read_timeout(&self) -> Duration {
        Duration::from_secs(self.header_read_timeout_secs)
    }

    /// The shutdown timeout.
    pub fn shutdown_timeout(&self) -> Duration {
        Duration::from_secs(self.shutdown_timeout_secs)
    }

    /// How long a database operation waits for a connection.
    pub fn db_acquire_timeout(&self) -> Duration {
        Duration::from_millis(self.db.db_acquire_timeout_ms)
    }

    /// The claim delay for a clock of `minutes` per player, ms.
    pub fn claim_delay_ms(&self, minutes: u32) -> u64 {
        let secs = if minutes < 3 {
            self.tables.claim_delay_short_secs
        } else {
            self.tables.claim_delay_secs
        };
        secs * 1000
    }

    /// The break between two rounds of a tournament.
    pub fn round_break(&self) -> Duration {
        Duration::from_secs(self.tournaments.round_break_secs)
    }

    /// The break between the two games of a micro-match.
    pub fn match_break(&self) -> Duration {
        Duration::from_secs(self.tables.match_break_secs)
    }

    /// How long a waiting correspondence table stays in memory with nobody watching
    /// (`None`: never parked).
    pub fn correspondence_park(&self) -> Option<Duration> {
        (self.tables.correspondence_park_secs > 0)
            .then(|| Duration::from_secs(self.tables.correspondence_park_secs))
    }

    /// How long a restored game waits for its players.
    pub fn restart_grace(&self) -> Duration {
        Duration::from_secs(self.tables.restart_grace_secs)
    }
}

/// The database URL with any password replaced, for logs.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => {
            let user = userinfo.split(':').next().unwrap_or_default();
            format!("{scheme}://{user}:***@{host}{path}")
        }
        None => url.to_owned(),
    }
}

/// What `damka` does instead of serving.
#[derive(Clone, Debug, clap::Subcommand)]
pub enum Command {
    /// Operate on accounts (there is no e-mail: the operator resets passwords).
    Account {
        /// What to do.
        #[command(subcommand)]
        action: AccountAction,
    },
}

/// `damka account ...`.
#[derive(Clone, Debug, clap::Subcommand)]
pub enum AccountAction {
    /// Sets a new password and ends every session of the account. The password is read
    /// from standard input (one line); with `--generate` a random one is made and
    /// printed.
    ResetPassword {
        /// The username (any case).
        username: String,
        /// Make a random password and print it.
        #[arg(long)]
        generate: bool,
    },
    /// Disables an account: no sign-in, every session ends. Its games stay.
    Disable {
        /// The username (any case).
        username: String,
    },
    /// Enables a disabled account again.
    Enable {
        /// The username (any case).
        username: String,
    },
    /// Ends every session of an account (every device is signed out; the password
    /// stays).
    SignOut {
        /// The username (any case).
        username: String,
    },
    /// Shows an account: its id, when it was made, whether it is disabled, its sessions.
    Show {
        /// The username (any case).
        username: String,
    },
    /// Lists pairs of accounts that played many rated games against each other lately:
    /// games, wins each, quick results (a resignation or an agreed draw within 10 plies)
    /// and whether both were seen at one address (which alone proves nothing: a club
    /// plays from one).
    Pairs {
        /// Games ended in the last this many days.
        #[arg(long, default_value_t = 30)]
        days: u32,
        /// Pairs with at least this many rated games.
        #[arg(long, default_value_t = 10)]
        min_games: u32,
    },
    /// Voids every rated result of an account (its rated games become casual, their
    /// results stay) and recomputes every player's ratings from the rated games that
    /// remain. Prints the ratings that changed most.
    Void {
        /// The username (any case).
        username: String,
    },
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("bind", &self.bind)
            .field("database_url", &redact_url(&self.database_url))
            .field("allowed_origins", &self.allowed_origins)
            .field("secure_cookie", &self.secure_cookie)
            .field("rooms", &self.rooms)
            .field("log_format", &self.log_format)
            .field("static_dir", &self.static_dir)
            .field("header_read_timeout_secs", &self.header_read_timeout_secs)
            .field("shutdown_timeout_secs", &self.shutdown_timeout_secs)
            .field("metrics_bind", &self.metrics_bind)
            .field("trust_forwarded_for", &self.trust_forwarded_for)
            .field("tables", &self.tables)
            .field("computer", &self.computer)
            .field("db", &self.db)
            .field("limits", &self.limits)
            .field("tournaments", &self.tournaments)
            .field("chat", &self.chat)
            .field("sessions", &self.sessions)
            .field("nodes", &self.nodes)
            .field("analysis", &self.analysis)
            .field("push", &self.push)
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for ClusterConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClusterConfig")
            .field("cluster", &self.cluster.as_deref().map(redact_url))
            .field("node_name", &self.node_name)
            .field("lease_ms", &self.lease_ms)
            .field("nats_prefix", &self.nats_prefix)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_brief() {
        let c = Config::defaults();
        assert_eq!(c.bind.to_string(), "127.0.0.1:8080");
        assert_eq!(c.database_url, "sqlite://data/damka.db");
        assert_eq!(c.tables.first_move_secs, 30);
        assert_eq!(c.limits.max_tables_per_guest, 3);
        assert_eq!(c.db_acquire_timeout(), Duration::from_secs(1));
        assert_eq!(c.restart_grace(), Duration::from_secs(20));
        assert_eq!(c.limits.max_sockets_per_address, 200);
        assert_eq!(c.limits.guests_per_minute, 30);
        assert_eq!(c.limits.max_tables_per_address, 40);
        assert_eq!(c.sessions.guest_expiry_days, 30);
        assert_eq!(c.metrics_bind, None);
        assert!(!c.trust_forwarded_for);
    }

    #[test]
    fn debug_redacts_the_password() {
        let mut c = Config::defaults();
        c.database_url = "postgres://damka:s3cret@db:5432/damka".into();
        let text = format!("{c:?}");
        assert!(!text.contains("s3cret"), "{text}");
        assert!(
            text.contains("postgres://damka:***@db:5432/damka"),
            "{text}"
        );
        assert_eq!(redact_url("sqlite://data/x.db"), "sqlite://data/x.db");
    }
}
