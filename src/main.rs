//! The `robotstxt-conformance` command line: its arguments, and which command they run. Each
//! command is in `src/cli/<command>.rs`; the options several commands share in `src/cli/options.rs`.

mod cli;

/// mimalloc instead of the system allocator: the fuzzer and the parsers it drives allocate small
/// buffers at a high rate, and glibc's malloc took about a sixth of a fuzzing run's time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
    Check(cli::check::CheckArgs),
    /// Work with the case corpus (spec-cases/).
    Cases {
        #[command(subcommand)]
        command: cli::cases::CasesCommand,
    },
    /// Measure the oracle's checks per second on the whole corpus (build with --release).
    Bench(cli::bench::BenchArgs),
    /// Run the corpus through the oracle and every available adapter, judged under the ledgers,
    /// and write the matrix (results.json, summary.md, matrix.html, junit.xml).
    Run(cli::run::RunArgs),
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
    Site(cli::site::SiteArgs),
    /// Merge the results of `realworld` shards (realworld.json or --partial files) into the report
    /// a single run gives.
    Merge(cli::merge::MergeArgs),
    /// List the adapters, whether each is available here, and who it is.
    Adapters(cli::adapters::AdaptersArgs),
    /// Install the Python and npm peers at pinned versions into a cache directory, and report
    /// the system runtimes and Debian packages that are missing (idempotent; offline when present).
    Peers {
        #[command(subcommand)]
        command: cli::peers::PeersCommand,
    },
    /// Each adapter's fingerprint on the corpus: for each knob and deviation, the alternative its
    /// answers are consistent with and the checks that decide it, then its nearest profile.
    Fingerprint(cli::fingerprint::FingerprintArgs),
    /// Work with the expectation ledgers (adapters/expectations/).
    Ledger {
        #[command(subcommand)]
        command: cli::ledger::LedgerCommand,
    },
    /// The worker process that runs an in-process parser isolated (used by the runner).
    #[command(hide = true)]
    Adapter {
        #[command(subcommand)]
        command: cli::adapter::AdapterCommand,
    },
}

fn main() -> ExitCode {
    cli::exit::end_quietly_on_closed_pipe();
    // Adapter processes run in process groups of their own: a SIGTERM, SIGINT or SIGHUP to this
    // program kills them before it ends, so that no child outlives the run.
    robotstxt_adapters::subprocess::kill_children_on_signals();
    let outcome = match Cli::parse().command {
        Command::Check(args) => cli::check::run(&args),
        Command::Cases { command } => cli::cases::run(&command),
        Command::Bench(args) => cli::bench::run(&args),
        Command::Run(args) => cli::run::run(&args),
        Command::Certify(args) => cli::certify::run(&args),
        Command::Fuzz(args) => cli::fuzz::run(&args),
        Command::Realworld(args) => cli::realworld::run(&args),
        Command::Site(args) => cli::site::run(&args),
        Command::Merge(args) => cli::merge::run(&args),
        Command::Adapters(args) => cli::adapters::run(&args),
        Command::Peers { command } => cli::peers::run(&command),
        Command::Fingerprint(args) => cli::fingerprint::run(&args),
        Command::Ledger { command } => cli::ledger::run(&command),
        Command::Adapter { command } => cli::adapter::run(&command),
    };
    cli::exit::status(outcome)
}
