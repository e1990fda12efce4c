//! The command line, parsed by clap: one struct per subcommand, the position's
//! options shared.

use crate::Failure;
use clap::{Args, Parser, Subcommand};
use draughts::{Position, Rules, Variant};

const VARIANTS: &str =
    "Variants: american (english), russian, brazilian, spanish, italian, czech, international.";

/// `draughts`: the rules engine and the computer opponent on the command line.
#[derive(Debug, Parser)]
#[command(
    name = "draughts",
    version,
    after_help = VARIANTS,
    arg_required_else_help = true
)]
pub(crate) struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Counts the move tree to a depth (the last line is the count alone).
    Perft(PerftArgs),
    /// Lists the legal moves, one per line.
    Moves(MovesArgs),
    /// Plays moves and prints the game's state as JSON.
    Play(PlayArgs),
    /// Replays every game of PDN files, one line per game.
    Pdn(PdnArgs),
    /// The computer's move for a position.
    Think(ThinkArgs),
    /// Speaks the Hub protocol of draughts GUIs on standard input and output.
    Hub(HubArgs),
    /// Plays two Hub engines against each other from balanced openings (docs/engine.md).
    Match(MatchArgs),
    /// Prints a variant's balanced openings (the stored sets were made with the defaults).
    Openings(OpeningsArgs),
    /// The search's speed and depth per variant over a fixed set of positions.
    Bench(BenchArgs),
    /// Generates endgame tables (bitbases) into a directory, or probes one.
    Bitbase(BitbaseArgs),
    /// Fits the evaluation's weights: self-play data, then the fit (docs/engine.md).
    Tune(crate::tune_cmd::TuneArgs),
    /// The opening ballots: lists them, imports a published table, makes Damka's own (docs/ballots.md).
    Ballots(crate::ballots_cmd::BallotsArgs),
    /// Makes the opening book of a variant by deep searches (docs/engine.md).
    Book(crate::book_cmd::BookArgs),
    /// Finds and verifies puzzles (shots) in self-play games (docs/puzzles.md).
    Puzzles(crate::puzzles_cmd::PuzzlesArgs),
}

/// The position a command works on.
#[derive(Debug, Args)]
pub(crate) struct PositionArgs {
    /// The variant.
    #[arg(long, value_parser = variant, value_name = "VARIANT")]
    pub variant: Variant,
    /// The position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Captures are optional (the variants that allow it as an option).
    #[arg(long)]
    pub capture_optional: bool,
}

/// `draughts perft`.
#[derive(Debug, Args)]
#[command(after_help = VARIANTS)]
pub(crate) struct PerftArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Plies to count.
    #[arg(long)]
    pub depth: u32,
    /// One line per first move with its count, then the total.
    #[arg(long)]
    pub divide: bool,
}

/// `draughts moves`.
#[derive(Debug, Args)]
#[command(after_help = VARIANTS)]
pub(crate) struct MovesArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// JSON lines (move, from, to, path, captures, promotes).
    #[arg(long)]
    pub json: bool,
}

/// `draughts play`.
#[derive(Debug, Args)]
#[command(after_help = VARIANTS)]
pub(crate) struct PlayArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// The moves, in the variant's notation.
    #[arg(value_name = "MOVE")]
    pub moves: Vec<String>,
}

/// `draughts pdn`.
#[derive(Debug, Args)]
#[command(after_help = VARIANTS)]
pub(crate) struct PdnArgs {
    /// The variant of every game (default: each game's GameType tag, else international).
    #[arg(long, value_parser = variant, value_name = "VARIANT")]
    pub variant: Option<Variant>,
    /// PDN files.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
}

/// `draughts think`: exactly one of `--level`, `--movetime`, `--depth`.
#[derive(Debug, Args)]
#[command(after_help = VARIANTS)]
#[command(group(clap::ArgGroup::new("limit").required(true).args(["level", "movetime", "depth"])))]
pub(crate) struct ThinkArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// The computer's level (1 beginner, 2 club, 3 full strength), on a clock.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub level: Option<u8>,
    /// Search this long (milliseconds).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Search to this depth.
    #[arg(long)]
    pub depth: Option<u32>,
    /// The clock left for `--level` (milliseconds; default a minute).
    #[arg(long, value_name = "MS")]
    pub remaining: Option<u64>,
    /// The clock's increment for `--level` (milliseconds).
    #[arg(long, value_name = "MS")]
    pub increment: Option<u64>,
    /// The seed of the beginner's choices.
    #[arg(long)]
    pub seed: Option<u64>,
    /// The move, score, depth, nodes, time and line as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `draughts hub`: no options (the protocol sets everything).
#[derive(Debug, Args)]
pub(crate) struct HubArgs {}

/// `draughts match`.
#[derive(Debug, Args)]
#[command(after_help = VARIANTS)]
pub(crate) struct MatchArgs {
    /// The first engine: a path and its arguments (`hub` when none is given).
    #[arg(long, value_name = "CMD")]
    pub engine1: String,
    /// The second engine.
    #[arg(long, value_name = "CMD")]
    pub engine2: String,
    /// A Hub parameter of the first engine (repeatable).
    #[arg(long, value_name = "NAME=VALUE")]
    pub param1: Vec<String>,
    /// A Hub parameter of the second engine (repeatable).
    #[arg(long, value_name = "NAME=VALUE")]
    pub param2: Vec<String>,
    /// The variants, comma-separated.
    #[arg(long, value_parser = variant, value_delimiter = ',', value_name = "VARIANT",
          default_value = "international")]
    pub variant: Vec<Variant>,
    /// Time per move (milliseconds).
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub movetime: u64,
    /// A Fischer clock instead of a time per move: BASE seconds per game
    /// plus INC seconds a move (decimals allowed: `10+0.1`); an engine
    /// whose clock runs out loses.
    #[arg(long, value_name = "BASE+INC", conflicts_with = "movetime")]
    pub clock: Option<String>,
    /// Openings per variant (each played twice, colours swapped).
    #[arg(long, default_value_t = 20)]
    pub openings: usize,
    /// Skips this many of the stored openings first (to split one match
    /// into parts run at once).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub skip_openings: usize,
    /// A game this long is a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Appends every game to this file as PDN (as each one ends).
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<std::path::PathBuf>,
    /// Adjudicates a draw from ply PLY on once both engines' last MOVES
    /// scores each lie within ±MEN men (off unless given).
    #[arg(long, value_name = "PLY:MOVES:MEN")]
    pub adjudicate_draw: Option<String>,
    /// Adjudicates a win once both engines' last MOVES scores each give the
    /// same side at least MEN men (off unless given).
    #[arg(long, value_name = "MOVES:MEN")]
    pub adjudicate_win: Option<String>,
    /// SPRT: the Elo of the null hypothesis.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub elo0: f64,
    /// SPRT: the Elo of the alternative.
    #[arg(long, default_value_t = 20.0, allow_negative_numbers = true)]
    pub elo1: f64,
    /// SPRT: the false-positive rate.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// SPRT: the false-negative rate.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
}

/// `draughts openings`.
#[derive(Debug, Args)]
#[command(after_help = VARIANTS)]
pub(crate) struct OpeningsArgs {
    /// The variant.
    #[arg(long, value_parser = variant, value_name = "VARIANT")]
    pub variant: Variant,
    /// The depth each opening is scored at.
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
}

/// `draughts bench`: a time per position, or the nodes to a fixed depth.
#[derive(Debug, Args)]
#[command(after_help = VARIANTS)]
pub(crate) struct BenchArgs {
    /// The variants, comma-separated (default: all).
    #[arg(long, value_parser = variant, value_delimiter = ',', value_name = "VARIANT")]
    pub variant: Vec<Variant>,
    /// Time per position (milliseconds).
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 1_000,
        conflicts_with = "depth"
    )]
    pub movetime: u64,
    /// Search every position to this depth instead (load-independent node counts).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search threads (the Hub engine's `threads`); nodes and CPU are all
    /// threads' together.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
}

/// `draughts bitbase`.
#[derive(Debug, Args)]
#[command(after_help = VARIANTS)]
pub(crate) struct BitbaseArgs {
    /// The variants, comma-separated.
    #[arg(long, value_parser = variant, value_delimiter = ',', value_name = "VARIANT", required = true)]
    pub variant: Vec<Variant>,
    /// The most pieces (both sides) of a position in the tables.
    #[arg(long)]
    pub pieces: Option<u8>,
    /// The directory of the table files.
    #[arg(long, value_name = "DIR")]
    pub out: std::path::PathBuf,
    /// Look this position up in the directory's tables instead of generating.
    #[arg(long, value_name = "FEN")]
    pub probe: Option<String>,
    /// With `--probe`: also search the position this long (milliseconds)
    /// without and with the tables.
    #[arg(long, value_name = "MS", requires = "probe")]
    pub search: Option<u64>,
    /// Check every entry of the directory's tables of the variants against
    /// the entries of its children instead of generating (`Table::verify`).
    #[arg(long, conflicts_with_all = ["probe", "pieces"])]
    pub verify: bool,
    /// With `--verify`: the threads that check.
    #[arg(long, default_value_t = 1, requires = "verify")]
    pub threads: usize,
    /// One line per material slice while generating or verifying (on standard error).
    #[arg(long)]
    pub verbose: bool,
}

/// A variant by name.
pub(crate) fn variant(name: &str) -> Result<Variant, String> {
    Variant::from_name(name).ok_or_else(|| format!("unknown variant {name:?}"))
}

impl PositionArgs {
    /// The rules from `--variant` and `--capture-optional`.
    pub(crate) fn rules(&self) -> Result<Rules, Failure> {
        Rules::with_capture_optional(self.variant, self.capture_optional)
            .map_err(|e| Failure::usage(e.to_string()))
    }

    /// The position from `--fen`, or the start position.
    pub(crate) fn position(&self) -> Result<Position, Failure> {
        let rules = self.rules()?;
        match &self.fen {
            Some(fen) => Position::from_fen(rules, fen).map_err(|e| Failure::input(e.to_string())),
            None => Ok(Position::new(rules)),
        }
    }
}
