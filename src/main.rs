//! The `robotstxt-conformance` command line.

mod cli;

/// mimalloc instead of the system allocator: the fuzzer and the parsers it drives allocate small
/// buffers at a high rate, and glibc's malloc took about a sixth of a fuzzing run's time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use base64::Engine as _;
use clap::{Args, Parser, Subcommand, ValueEnum};
use robotstxt_conformance::cases::{model, Corpus, LoadError};
use robotstxt_conformance::{coverage, default_cases_dir, stats};
use robotstxt_oracle::{evaluate, Fetch, ProfileId, Request};

/// Where robots.txt parsers follow the Robots Exclusion Protocol, and where they diverge.
#[derive(Parser)]
#[command(name = "robotstxt-conformance", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Answer whether a URL is allowed, per profile, with the oracle's explanation on request.
    Check(CheckArgs),
    /// Work with the case corpus (spec-cases/).
    Cases {
        #[command(subcommand)]
        command: CasesCommand,
    },
    /// Measure the oracle's checks per second on the whole corpus (build with --release).
    Bench {
        #[command(flatten)]
        dir: CasesDir,
        /// Seconds to measure for (at least one full pass is made).
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Also measure adapters (`--adapter all` or ids), and the oracle with them: checks per
        /// second as ratios to google-cpp in the same run, and the subprocess protocol against a
        /// process per check (not for in-process parsers under --no-isolation).
        #[command(flatten)]
        adapters: cli::AdapterArgs,
    },
    /// Run the corpus through the oracle and every available adapter, judged under the ledgers,
    /// and write the matrix (results.json, summary.md, matrix.html, junit.xml).
    Run {
        #[command(flatten)]
        dir: CasesDir,
        #[command(flatten)]
        args: cli::run::RunArgs,
    },
    /// Certify one parser of yours through its adapter (adapters/PROTOCOL.md) against one
    /// profile under your ledger, for CI: exit 1 exactly when an unlisted divergence, a fixed
    /// entry or a stale entry appears; JUnit on request; a one-line summary to cite.
    Certify(cli::certify::CertifyArgs),
    /// The differential fuzzer: generated inputs through the oracle and the in-process adapters;
    /// findings bucketed, minimised and written as cases (seeded, reproducible, stable Rust).
    Fuzz(cli::fuzz::FuzzArgs),
    /// Every profile and every parser on real robots.txt files (default: the protego test data,
    /// fetched once from PyPI): disagreement per parser and pair, buckets by cause, file facts
    /// (docs/realworld.md).
    Realworld(cli::realworld::RealworldArgs),
    /// The static site (docs/site.md): a page per parser, knob, deviation and case, the real-world
    /// report and the playground (the oracle in WebAssembly), from a `run` and a `realworld` result.
    Site {
        #[command(flatten)]
        dir: CasesDir,
        #[command(flatten)]
        args: cli::site::SiteArgs,
    },
    /// Merge the results of `realworld` shards (realworld.json or --partial files) into the report
    /// a single run gives.
    Merge(cli::realworld::MergeArgs),
    /// List the adapters, whether each is available here, and who it is.
    Adapters {
        #[command(flatten)]
        args: cli::AdapterArgs,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Install the Python and npm peers at pinned versions into a cache directory, and report
    /// the system runtimes and Debian packages that are missing (idempotent; offline when present).
    Peers {
        #[command(subcommand)]
        command: PeersCommand,
    },
    /// Each adapter's fingerprint on the corpus: for each knob and deviation, the alternative its
    /// answers are consistent with and the checks that decide it, then its nearest profile.
    Fingerprint {
        #[command(flatten)]
        dir: CasesDir,
        #[command(flatten)]
        args: cli::AdapterArgs,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Work with the expectation ledgers (adapters/expectations/).
    Ledger {
        #[command(subcommand)]
        command: LedgerCommand,
    },
    /// The worker process that runs an in-process parser isolated (used by the runner).
    #[command(hide = true)]
    Adapter {
        #[command(subcommand)]
        command: AdapterCommand,
    },
}

#[derive(Subcommand)]
enum PeersCommand {
    /// Install the pinned peers (PyPI and npm), build the Go and Java ones (Go module proxy, Maven
    /// Central) and check the Debian-packaged ones.
    Install {
        /// The peers directory (default: $ROBOTSTXT_PEERS_DIR, else
        /// ~/.cache/robotstxt-conformance/peers).
        #[arg(long, value_name = "DIR")]
        peers_dir: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum LedgerCommand {
    /// Rewrite ledgers from the current answers on the whole corpus, keeping the reasons of entries
    /// that still hold; new entries are marked UNEXPLAINED until a person writes the reason.
    /// Never run on CI.
    Rewrite {
        #[command(flatten)]
        dir: CasesDir,
        #[command(flatten)]
        args: cli::AdapterArgs,
        /// The ledger directory (default: adapters/expectations).
        #[arg(long, value_name = "DIR")]
        ledgers: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum AdapterCommand {
    /// Serve an in-process parser over adapters/PROTOCOL.md on standard input and output.
    Serve {
        /// The adapter id.
        id: String,
    },
}

#[derive(Args)]
struct CheckArgs {
    /// The robots.txt body: a file, or `-` for standard input.
    #[arg(
        long,
        value_name = "FILE|-",
        required_unless_present = "batch",
        conflicts_with = "batch"
    )]
    robots: Option<PathBuf>,
    /// The crawler's product token.
    #[arg(long, required_unless_present = "batch")]
    agent: Option<String>,
    /// The URL (absolute, or a path starting with `/`).
    #[arg(long, required_unless_present = "batch")]
    url: Option<String>,
    /// Profiles to answer for (default: all four).
    #[arg(long = "profile", value_enum)]
    profiles: Vec<ProfileArg>,
    /// Print the oracle's explanation: groups, the applied group, every rule tried, the deciding rule.
    #[arg(long)]
    explain: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The HTTP status of the robots.txt fetch (default 200).
    #[arg(long, conflicts_with = "unreachable")]
    status: Option<u16>,
    /// Redirect hops before that status.
    #[arg(long, default_value_t = 0)]
    redirects: u32,
    /// The robots.txt fetch got no response at all (DNS failure, timeout).
    #[arg(long)]
    unreachable: bool,
    /// The absolute URL the robots.txt body was fetched from: step 0 first decides whether that
    /// file governs --url at all (`not-governed` when it does not); --url must then be absolute.
    #[arg(long, value_name = "URL")]
    robots_url: Option<String>,
    /// JSON lines in (`{"robots": "...", "agent": "...", "url": "..."}` or `"robots_base64"`,
    /// optionally `"robots_url"`), one JSON line out per input line, in order.
    #[arg(long, value_name = "FILE|-")]
    batch: Option<PathBuf>,
    /// Adapters to ask as well (`--adapter ID|all`); batch lines gain `"adapters"`.
    #[command(flatten)]
    adapters: cli::AdapterArgs,
}

#[derive(Subcommand)]
enum CasesCommand {
    /// List the cases: id, number of checks, title.
    List {
        #[command(flatten)]
        dir: CasesDir,
        /// Only ids containing this text.
        filter: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Load every case strictly and report every problem with file, line and column.
    Lint {
        #[command(flatten)]
        dir: CasesDir,
    },
    /// Map each RFC 9309 normative statement to the cases that test it; exits 1 on a gap.
    Coverage {
        #[command(flatten)]
        dir: CasesDir,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: CoverageFormat,
    },
    /// Count cases, checks, and checks per cited document.
    Stats {
        #[command(flatten)]
        dir: CasesDir,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Print the JSON Schema of a case file (spec-cases/schema.json).
    Schema,
}

#[derive(Args)]
struct CasesDir {
    /// The corpus directory (default: $ROBOTSTXT_CASES, else ./spec-cases).
    #[arg(long, value_name = "DIR")]
    cases_dir: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum CoverageFormat {
    Text,
    Markdown,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum ProfileArg {
    #[value(name = "rfc9309")]
    Rfc9309,
    #[value(name = "google")]
    Google,
    #[value(name = "draft-1996")]
    Draft1996,
    #[value(name = "original-1994")]
    Original1994,
}

impl From<ProfileArg> for ProfileId {
    fn from(p: ProfileArg) -> ProfileId {
        match p {
            ProfileArg::Rfc9309 => ProfileId::Rfc9309,
            ProfileArg::Google => ProfileId::Google,
            ProfileArg::Draft1996 => ProfileId::Draft1996,
            ProfileArg::Original1994 => ProfileId::Original1994,
        }
    }
}

/// Whether an error is a write to a pipe the reader closed (`adapters --format json | head`).
fn is_closed_pipe(message: &str) -> bool {
    message.contains("Broken pipe") || message.contains("os error 32")
}

fn main() -> ExitCode {
    // A reader that stops early (`| head`) ends the output, quietly: `println!` panics on a
    // closed pipe, so that panic exits with status 0 and no message; others are reported as usual.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if text.starts_with("failed printing to stdout") && is_closed_pipe(text) {
            std::process::exit(0);
        }
        default_hook(info);
    }));
    // Adapter processes run in process groups of their own: a SIGTERM, SIGINT or SIGHUP to this
    // program kills them before it ends, so that no child outlives the run.
    robotstxt_adapters::subprocess::kill_children_on_signals();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check(args) => run_check(args),
        Command::Cases { command } => run_cases(command),
        Command::Bench {
            dir,
            seconds,
            format,
            adapters,
        } => run_bench(&dir, seconds, format, &adapters),
        Command::Run { dir, args } => {
            load_corpus(&dir).and_then(|corpus| cli::run::run(&args, &corpus))
        }
        Command::Adapters { args, format } => {
            cli::adapters::list(&args, matches!(format, Format::Json))
        }
        Command::Ledger {
            command: LedgerCommand::Rewrite { dir, args, ledgers },
        } => load_corpus(&dir).and_then(|corpus| {
            let ledgers = ledgers.unwrap_or_else(robotstxt_conformance::ledger::default_dir);
            cli::adapters::rewrite(&args, &corpus, &ledgers)
        }),
        Command::Certify(args) => cli::certify::run(&args),
        Command::Fuzz(args) => cli::fuzz::run(&args),
        Command::Site { dir, args } => {
            load_corpus(&dir).and_then(|corpus| cli::site::run(&args, corpus))
        }
        Command::Realworld(args) => cli::realworld::realworld(&args),
        Command::Merge(args) => cli::realworld::merge(&args),
        Command::Fingerprint { dir, args, format } => load_corpus(&dir).and_then(|corpus| {
            cli::adapters::fingerprint(&args, &corpus, matches!(format, Format::Json))
        }),
        Command::Peers {
            command: PeersCommand::Install { peers_dir },
        } => cli::adapters::install(peers_dir),
        Command::Adapter {
            command: AdapterCommand::Serve { id },
        } => cli::adapters::serve(&id),
    };
    match result {
        Ok(code) => code,
        Err(message) if is_closed_pipe(&message) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn read_input(path: &Path) -> Result<Vec<u8>, String> {
    if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        Ok(bytes)
    } else {
        std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    }
}

fn run_check(args: CheckArgs) -> Result<ExitCode, String> {
    let profiles: Vec<ProfileId> = if args.profiles.is_empty() {
        ProfileId::ALL.to_vec()
    } else {
        args.profiles.iter().map(|&p| p.into()).collect()
    };
    let mut adapters = cli::open_for_check(&args.adapters)?;
    if let Some(batch) = &args.batch {
        return run_batch(batch, &profiles, &mut adapters);
    }
    let (Some(robots), Some(agent), Some(url)) = (&args.robots, &args.agent, &args.url) else {
        return Err("--robots, --agent and --url are required (or use --batch)".into());
    };
    let body = read_input(robots)?;
    // A URL that cannot be read as one has no answer to give.
    model::check_request_url(url)?;
    // The oracle answers anything; say so when the question is outside what the documents describe.
    if let Some(warning) = agent_warning(agent) {
        eprintln!("{warning}");
    }
    let fetch = if args.unreachable {
        Fetch::Unreachable
    } else {
        Fetch::Status {
            status: args.status.unwrap_or(200),
            redirects: args.redirects,
        }
    };
    let mut request = Request::new(&body, agent, url).with_fetch(fetch);
    if let Some(robots_url) = &args.robots_url {
        check_robots_url(robots_url, url)?;
        request = request.with_robots_url(robots_url);
    }
    let explanations: Vec<_> = profiles.iter().map(|&p| evaluate(p, &request)).collect();
    let answers = cli::ask_adapters(&mut adapters, &request);
    let mut out = std::io::stdout().lock();
    match args.format {
        Format::Text => {
            for e in &explanations {
                if args.explain {
                    writeln!(out, "{e}").map_err(|e| e.to_string())?;
                } else {
                    writeln!(out, "{}: {}", e.profile.name(), e.verdict.name())
                        .map_err(|e| e.to_string())?;
                }
            }
            for (id, answer) in &answers {
                writeln!(out, "adapter {id}: {answer}").map_err(|e| e.to_string())?;
            }
        }
        Format::Json => {
            let verdicts: serde_json::Map<String, serde_json::Value> = explanations
                .iter()
                .map(|e| (e.profile.name().to_string(), e.verdict.name().into()))
                .collect();
            let mut value = serde_json::json!({ "agent": agent, "url": url, "oracle": verdicts });
            if let Some(robots_url) = &args.robots_url {
                value["robots_url"] = robots_url.as_str().into();
            }
            if !answers.is_empty() {
                value["adapters"] = cli::answers_json(&answers);
            }
            if args.explain {
                value["explanations"] =
                    serde_json::to_value(&explanations).map_err(|e| e.to_string())?;
            }
            writeln!(out, "{value}").map_err(|e| e.to_string())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// With a robots.txt URL, both it and the URL asked about must be absolute: step 0 compares their
/// schemes, hosts and ports.
/// The warning `check` prints (on standard error; the verdicts are still given) when the agent is
/// not a product token: the crawler's name the documents match groups with (`rfc9309#2.2.1`).
fn agent_warning(agent: &str) -> Option<String> {
    model::check_product_token(agent).err().map(|_| {
        format!(
            "warning: agent `{agent}` is not a product token, so no document says how it is \
             matched (rfc9309#2.2.1: \"The product token MUST contain only uppercase and lowercase \
             letters (\"a-z\" and \"A-Z\"), underscores (\"_\"), and hyphens (\"-\")\"); the verdicts \
             below compare it as given: pass the token alone (`foo` for `foo/1.0`)"
        )
    })
}

fn check_robots_url(robots_url: &str, url: &str) -> Result<(), String> {
    model::check_absolute_url(robots_url).map_err(|m| format!("robots_url: {m}"))?;
    model::check_absolute_url(url)
        .map_err(|m| format!("url: {m} (with a robots.txt URL the URL must be absolute)"))
}

/// One batch line's answer, or the reason it could not be answered.
fn batch_line(
    line: &str,
    profiles: &[ProfileId],
    adapters: &mut [cli::CheckAdapter],
) -> serde_json::Value {
    let parsed: serde_json::Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return serde_json::json!({ "error": format!("not a JSON object: {e}") }),
    };
    let field = |name: &str| parsed.get(name).and_then(|v| v.as_str());
    let body = match (field("robots"), field("robots_base64")) {
        (Some(text), None) => text.as_bytes().to_vec(),
        (None, Some(b64)) => match base64::engine::general_purpose::STANDARD.decode(b64) {
            Ok(bytes) => bytes,
            Err(e) => {
                return serde_json::json!({ "error": format!("robots_base64 is not valid base64: {e}") })
            }
        },
        (Some(_), Some(_)) => {
            return serde_json::json!({ "error": "give `robots` or `robots_base64`, not both" })
        }
        (None, None) => {
            return serde_json::json!({ "error": "missing string field `robots` (or `robots_base64`)" })
        }
    };
    let (Some(agent), Some(url)) = (field("agent"), field("url")) else {
        return serde_json::json!({ "error": "missing string field `agent` or `url`" });
    };
    if let Some(warning) = agent_warning(agent) {
        eprintln!("{warning}");
    }
    if let Err(message) = model::check_request_url(url) {
        return serde_json::json!({ "error": message });
    }
    let mut request = Request::new(&body, agent, url);
    match parsed.get("robots_url").map(|v| v.as_str()) {
        None => {}
        Some(None) => return serde_json::json!({ "error": "`robots_url` must be a string" }),
        Some(Some(robots_url)) => {
            if let Err(message) = check_robots_url(robots_url, url) {
                return serde_json::json!({ "error": message });
            }
            request = request.with_robots_url(robots_url);
        }
    }
    let verdicts: serde_json::Map<String, serde_json::Value> = profiles
        .iter()
        .map(|&p| {
            (
                p.name().to_string(),
                evaluate(p, &request).verdict.name().into(),
            )
        })
        .collect();
    let mut value = serde_json::json!({ "oracle": verdicts });
    if !adapters.is_empty() {
        let answers = cli::ask_adapters(adapters, &request);
        value["adapters"] = cli::answers_json(&answers);
    }
    value
}

fn run_batch(
    path: &Path,
    profiles: &[ProfileId],
    adapters: &mut [cli::CheckAdapter],
) -> Result<ExitCode, String> {
    let input: Box<dyn BufRead> = if path == Path::new("-") {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Box::new(std::io::BufReader::new(file))
    };
    let mut out = std::io::stdout().lock();
    for (number, line) in input.split(b'\n').enumerate() {
        let line = line.map_err(|e| format!("cannot read line {}: {e}", number + 1))?;
        let line = line.strip_suffix(b"\r").unwrap_or(&line);
        let answer = match std::str::from_utf8(line) {
            Ok(text) => batch_line(text, profiles, adapters),
            Err(_) => {
                serde_json::json!({ "error": "the line is not UTF-8 (use robots_base64 for raw octets)" })
            }
        };
        writeln!(out, "{answer}").map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn load_corpus(dir: &CasesDir) -> Result<Corpus, String> {
    let root = dir.cases_dir.clone().unwrap_or_else(default_cases_dir);
    Corpus::load(&root).map_err(|errors| format_errors(&errors))
}

fn format_errors(errors: &[LoadError]) -> String {
    let mut text: String = errors.iter().map(|e| format!("{e}\n")).collect();
    text.push_str(&format!("{} problem(s) in the corpus", errors.len()));
    text
}

fn run_cases(command: CasesCommand) -> Result<ExitCode, String> {
    let mut out = std::io::stdout().lock();
    let w = |e: std::io::Error| e.to_string();
    match command {
        CasesCommand::List {
            dir,
            filter,
            format,
        } => {
            let corpus = load_corpus(&dir)?;
            let cases = corpus
                .cases
                .iter()
                .filter(|c| filter.as_ref().is_none_or(|f| c.id.contains(f.as_str())));
            for case in cases {
                match format {
                    Format::Text => writeln!(out, "{}  ({} checks)  {}", case.id, case.checks.len(), case.title).map_err(w)?,
                    Format::Json => writeln!(
                        out,
                        "{}",
                        serde_json::json!({ "id": case.id, "checks": case.checks.len(), "title": case.title,
                            "cite": case.cite.iter().map(ToString::to_string).collect::<Vec<_>>(), "tags": case.tags })
                    )
                    .map_err(w)?,
                }
            }
        }
        CasesCommand::Lint { dir } => {
            let corpus = load_corpus(&dir)?;
            writeln!(
                out,
                "ok: {} cases, {} checks",
                corpus.cases.len(),
                corpus.check_count()
            )
            .map_err(w)?;
        }
        CasesCommand::Coverage { dir, format } => {
            let corpus = load_corpus(&dir)?;
            let rows = coverage::coverage(&corpus);
            match format {
                CoverageFormat::Markdown => {
                    write!(out, "{}", coverage::to_markdown(&rows)).map_err(w)?
                }
                CoverageFormat::Json => writeln!(
                    out,
                    "{}",
                    serde_json::to_string_pretty(&rows).unwrap_or_default()
                )
                .map_err(w)?,
                CoverageFormat::Text => {
                    for row in &rows {
                        let status = match (&row.untestable, row.cases.len()) {
                            (Some(_), 0) => "not testable".to_string(),
                            (None, 0) => "NO CASE".to_string(),
                            (_, n) => format!("{n} case(s)"),
                        };
                        writeln!(out, "{:<48} {:<10} {status}", row.id, row.level).map_err(w)?;
                    }
                }
            }
            let gaps: Vec<&str> = rows
                .iter()
                .filter(|r| r.is_gap())
                .map(|r| r.id.as_str())
                .collect();
            if !gaps.is_empty() {
                eprintln!(
                    "error: statements with no case and no reason: {}",
                    gaps.join(", ")
                );
                return Ok(ExitCode::from(1));
            }
        }
        CasesCommand::Stats { dir, format } => {
            let corpus = load_corpus(&dir)?;
            let s = stats::stats(&corpus);
            match format {
                Format::Json => writeln!(
                    out,
                    "{}",
                    serde_json::to_string(&s).map_err(|e| e.to_string())?
                )
                .map_err(w)?,
                Format::Text => {
                    writeln!(out, "cases: {}\nchecks: {}", s.cases, s.checks).map_err(w)?;
                    writeln!(
                        out,
                        "checks whose profiles disagree: {}",
                        s.checks_with_divergent_profiles
                    )
                    .map_err(w)?;
                    writeln!(
                        out,
                        "checks with `either` somewhere: {}",
                        s.checks_with_either
                    )
                    .map_err(w)?;
                    writeln!(
                        out,
                        "checks with `not-governed` somewhere: {}",
                        s.checks_with_not_governed
                    )
                    .map_err(w)?;
                    writeln!(out, "checks per cited document:").map_err(w)?;
                    for (doc, n) in &s.by_document {
                        writeln!(out, "  {doc}: {n}").map_err(w)?;
                    }
                    writeln!(out, "  draft-1996 or guide-ch9: {}", s.draft_1996_or_guide)
                        .map_err(w)?;
                    writeln!(
                        out,
                        "checks per corpus directory (where the case was drawn from):"
                    )
                    .map_err(w)?;
                    for (dir, n) in &s.by_directory {
                        writeln!(out, "  {dir}/: {n}").map_err(w)?;
                    }
                }
            }
        }
        CasesCommand::Schema => {
            let schema = robotstxt_conformance::cases::model::case_schema();
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&schema).map_err(|e| e.to_string())?
            )
            .map_err(w)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn run_bench(
    dir: &CasesDir,
    seconds: f64,
    format: Format,
    adapters: &cli::AdapterArgs,
) -> Result<ExitCode, String> {
    let corpus = load_corpus(dir)?;
    if !adapters.adapters.is_empty() {
        return cli::bench::run(&corpus, adapters, seconds, matches!(format, Format::Json));
    }
    // The single-fetch pipeline is what is measured; a case with a history of fetches runs it once
    // per permitted fetch and is left out.
    let requests: Vec<Request<'_>> = corpus
        .cases
        .iter()
        .filter(|case| case.fetches.is_empty())
        .flat_map(|case| {
            case.checks
                .iter()
                .map(move |check| robotstxt_conformance::verify::request(case, check))
        })
        .collect();
    let mut per_profile = std::collections::BTreeMap::new();
    for profile in ProfileId::ALL {
        let started = std::time::Instant::now();
        let mut done = 0usize;
        let budget = seconds / ProfileId::ALL.len() as f64;
        while done == 0 || started.elapsed().as_secs_f64() < budget {
            for request in &requests {
                std::hint::black_box(evaluate(profile, request).verdict);
                done += 1;
            }
        }
        per_profile.insert(
            profile.name(),
            done as f64 / started.elapsed().as_secs_f64(),
        );
    }
    let checks = requests.len() * ProfileId::ALL.len();
    // Harmonic combination: checks per second when all four profiles are answered.
    let per_pass: f64 = ProfileId::ALL
        .iter()
        .map(|p| requests.len() as f64 / per_profile[p.name()])
        .sum();
    let overall = checks as f64 / per_pass;
    let mut out = std::io::stdout().lock();
    match format {
        Format::Json => writeln!(
            out,
            "{}",
            serde_json::json!({ "checks": checks, "checks_per_sec": overall, "by_profile": per_profile,
                "release_build": !cfg!(debug_assertions) })
        )
        .map_err(|e| e.to_string())?,
        Format::Text => {
            writeln!(out, "{checks} (profile, check) evaluations in the corpus").map_err(|e| e.to_string())?;
            for (name, rate) in &per_profile {
                writeln!(out, "  {name:<14} {rate:>12.0} checks/s").map_err(|e| e.to_string())?;
            }
            writeln!(out, "  all profiles   {overall:>12.0} checks/s").map_err(|e| e.to_string())?;
            if cfg!(debug_assertions) {
                writeln!(out, "note: a debug build; run `cargo run --release -- bench` for real numbers")
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
