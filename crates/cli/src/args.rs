//! Hand-parsed options shared by the subcommands (few enough that a parser
//! crate would not earn its place).

use crate::Failure;
use draughts::{Position, Rules, Variant};

/// The options of `perft`, `moves` and `play`.
#[derive(Debug, Default)]
pub(crate) struct Options {
    /// `--variant`.
    pub variant: Option<Variant>,
    /// `--fen`.
    pub fen: Option<String>,
    /// `--depth`.
    pub depth: Option<u32>,
    /// `--divide`.
    pub divide: bool,
    /// `--json`.
    pub json: bool,
    /// `--capture-optional`.
    pub capture_optional: bool,
    /// `--level` (think).
    pub level: Option<u8>,
    /// `--movetime` in milliseconds (think).
    pub movetime: Option<u64>,
    /// `--seed` (think).
    pub seed: Option<u64>,
    /// `--remaining`: the clock for `--level`, in milliseconds (think).
    pub remaining: Option<u64>,
    /// `--increment`: the clock's increment for `--level`, in milliseconds (think).
    pub increment: Option<u64>,
    /// Everything that is not an option (moves for `play`).
    pub positional: Vec<String>,
}

/// Parses `args`; `allowed` lists the flags the subcommand takes.
pub(crate) fn parse(args: &[String], allowed: &[&str]) -> Result<Options, Failure> {
    let mut opts = Options::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if !arg.starts_with("--") {
            opts.positional.push(arg.clone());
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (arg.as_str(), None),
        };
        if !allowed.contains(&name) {
            return Err(Failure::usage(format!("unknown option {name}")));
        }
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| Failure::usage(format!("{name} needs a value")))
        };
        match name {
            "--variant" => {
                let v = value()?;
                opts.variant = Some(
                    Variant::from_name(&v)
                        .ok_or_else(|| Failure::usage(format!("unknown variant {v:?}")))?,
                );
            }
            "--fen" => opts.fen = Some(value()?),
            "--depth" => {
                let v = value()?;
                opts.depth = Some(
                    v.parse()
                        .map_err(|_| Failure::usage(format!("invalid depth {v:?}")))?,
                );
            }
            "--level" => opts.level = Some(number(name, &value()?)?),
            "--movetime" => opts.movetime = Some(number(name, &value()?)?),
            "--seed" => opts.seed = Some(number(name, &value()?)?),
            "--remaining" => opts.remaining = Some(number(name, &value()?)?),
            "--increment" => opts.increment = Some(number(name, &value()?)?),
            "--divide" => opts.divide = true,
            "--json" => opts.json = true,
            "--capture-optional" => opts.capture_optional = true,
            _ => return Err(Failure::usage(format!("unknown option {name}"))),
        }
    }
    Ok(opts)
}

/// A non-negative number given to option `name`.
fn number<T: std::str::FromStr>(name: &str, v: &str) -> Result<T, Failure> {
    v.parse()
        .map_err(|_| Failure::usage(format!("invalid {} {v:?}", &name[2..])))
}

impl Options {
    /// The rules from `--variant` and `--capture-optional`.
    pub(crate) fn rules(&self) -> Result<Rules, Failure> {
        let variant = self
            .variant
            .ok_or_else(|| Failure::usage("--variant is required"))?;
        Rules::with_capture_optional(variant, self.capture_optional)
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
