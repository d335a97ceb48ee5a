//! `fingerprint`: each adapter's fingerprint on the corpus (`matrix/src/fingerprint.rs`), then its
//! nearest profile.

use std::process::ExitCode;

use clap::Args;
use robotstxt_matrix::ask::{self, Selection};
use robotstxt_matrix::fingerprint::{self, Standing};

use super::options::{AdapterArgs, CasesDir, Format};

/// The `fingerprint` command's options.
#[derive(Args)]
pub struct FingerprintArgs {
    #[command(flatten)]
    corpus: CasesDir,
    #[command(flatten)]
    adapters: AdapterArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// `fingerprint`: runs each adapter over the whole corpus and prints, for each knob and deviation,
/// where its answers stand ([`robotstxt_matrix::fingerprint`]), then its nearest profile.
pub fn run(args: &FingerprintArgs) -> Result<ExitCode, String> {
    let corpus = &args.corpus.load()?;
    let json = matches!(args.format, Format::Json);
    let adapters = &args.adapters;
    let options = adapters.options()?;
    let selection = Selection::new(corpus, None);
    // Your own adapters alone, when they are all that is named (AdapterArgs::ids).
    let ids = adapters.ids(&options)?;
    let mut skipped = Vec::new();
    for id in &ids {
        let mut adapter = match robotstxt_adapters::open(id, &options) {
            Ok(adapter) => adapter,
            Err(why) => {
                eprintln!("skipped: {why}");
                skipped.push(why.to_string());
                continue;
            }
        };
        let profile = adapter.identity().profile;
        let answers = ask::run_adapter(adapter.as_mut(), corpus, &selection, &|_| {});
        let answered = ask::answered(adapter.identity(), corpus, &selection, &answers);
        let print = fingerprint::fingerprint(profile, &answered);
        if json {
            let line = serde_json::json!({"adapter": id, "fingerprint": print});
            println!("{line}");
            continue;
        }
        println!(
            "{id} (claims {}; {} checks answered): nearest profile {}",
            profile.name(),
            answered.len(),
            print.nearest.name()
        );
        for (p, agree, of) in &print.agreement {
            println!("  agrees with {:<14} {agree}/{of}", p.name());
        }
        let shown = |checks: &[String]| {
            let mut text = checks
                .iter()
                .take(3)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            if checks.len() > 3 {
                text.push_str(&format!(", ... ({} checks)", checks.len()));
            }
            text
        };
        for (label, standing) in &print.dimensions {
            match standing {
                Standing::Undecided => {}
                Standing::Consistent {
                    alternatives,
                    checks,
                } => {
                    // A deviation that stays off is where the parser follows the profile.
                    if fingerprint::is_deviation(label) && alternatives.iter().any(|a| a == "base")
                    {
                        continue;
                    }
                    println!(
                        "  {label:<28} {}  [{}]",
                        alternatives.join(" | "),
                        shown(checks)
                    );
                }
                Standing::Inconsistent { checks } => {
                    println!("  {label:<28} inconsistent  [{}]", shown(checks));
                }
            }
        }
    }
    if skipped.len() == ids.len() {
        return Err(format!(
            "no adapter could be fingerprinted: {}",
            skipped.join("; ")
        ));
    }
    Ok(ExitCode::SUCCESS)
}
