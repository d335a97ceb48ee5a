//! `check`: whether a URL is allowed, per profile, with the oracle's explanation on request; one
//! request from the options, or one per JSON line with `--batch`; adapters asked as well on request.

use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use base64::Engine as _;
use clap::{Args, ValueEnum};
use robotstxt_matrix::cases::model;
use robotstxt_oracle::{evaluate_all, verdicts, Explanation, Fetch, ProfileId, Request, Verdict};

use super::options::{AdapterArgs, Format};

/// The `check` command's options.
#[derive(Args)]
pub struct CheckArgs {
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
    adapters: AdapterArgs,
}

/// A profile, as `--profile` names it.
#[derive(Clone, Copy, ValueEnum)]
pub enum ProfileArg {
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

/// Runs `check`: one request, or `--batch`.
pub fn run(args: &CheckArgs) -> Result<ExitCode, String> {
    let profiles: Vec<ProfileId> = if args.profiles.is_empty() {
        ProfileId::ALL.to_vec()
    } else {
        args.profiles.iter().map(|&p| p.into()).collect()
    };
    let mut adapters = open_adapters(&args.adapters)?;
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
    // The oracle is asked once for every profile; each profile asked for (in the order asked, a
    // profile asked twice shown twice) takes its explanation from that one answer.
    let every_profile = evaluate_all(&request);
    let explanations: Vec<&Explanation> =
        profiles.iter().map(|p| &every_profile[p.index()]).collect();
    let answers = ask_adapters(&mut adapters, &request);
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
            if args.explain {
                for (id, cause) in divergence_causes(&mut adapters, &request, &every_profile) {
                    writeln!(out, "adapter {id}, why: {cause}").map_err(|e| e.to_string())?;
                }
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
                value["adapters"] = answers_json(&answers);
            }
            if args.explain {
                value["explanations"] =
                    serde_json::to_value(&explanations).map_err(|e| e.to_string())?;
                let causes: serde_json::Map<String, serde_json::Value> =
                    divergence_causes(&mut adapters, &request, &every_profile)
                        .into_iter()
                        .map(|(id, cause)| (id, cause.into()))
                        .collect();
                if !causes.is_empty() {
                    value["causes"] = causes.into();
                }
            }
            writeln!(out, "{value}").map_err(|e| e.to_string())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// For each adapter whose verdict differs from the definite verdict of the profile it claims (on a
/// plain 200 fetch, no robots.txt URL), why, in words: the adapter is asked about the input's
/// neighbours and the corpus's sample questions, and the cause credited with that evidence, or
/// the behaviour group, is described ([`robotstxt_oracle::examine`]).
fn divergence_causes(
    adapters: &mut [CheckAdapter],
    request: &Request<'_>,
    every_profile: &[Explanation],
) -> Vec<(String, String)> {
    if request.fetch != Fetch::default() || request.robots_url.is_some() {
        return Vec::new();
    }
    let Ok(corpus) = robotstxt_spec::embedded::corpus() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // Worked out when a first adapter diverges, then shared by the others.
    let mut questions = None;
    for a in adapters.iter_mut() {
        let Ok(adapter) = &mut a.adapter else {
            continue;
        };
        let profile = adapter.identity().profile;
        let expected = every_profile[profile.index()].verdict;
        let query = robotstxt_adapters::Query::new(request.agent, request.url);
        let answer = adapter.answer(request.body, &[query]).remove(0);
        let Some(got) = answer.verdict() else {
            continue;
        };
        if !matches!(expected, Verdict::Allowed | Verdict::Disallowed) || got == expected {
            continue;
        }
        let mut sample = robotstxt_oracle::evidence::OtherAnswers::none();
        let questions = questions.get_or_insert_with(|| robotstxt_spec::causes::questions(&corpus));
        robotstxt_matrix::ledger::add_sample_answers(adapter.as_mut(), questions, &mut sample);
        let mut ask = |neighbours: &[robotstxt_oracle::evidence::Neighbour]| {
            robotstxt_matrix::ledger::answer_neighbours(adapter.as_mut(), neighbours)
        };
        let examination = robotstxt_oracle::examine::examine(
            profile,
            request,
            got == Verdict::Allowed,
            &mut ask,
            &mut [&mut sample],
        );
        out.push((
            a.id.clone(),
            format!(
                "{} says {}, {} expects {}. {}",
                a.id,
                got.name(),
                profile.name(),
                expected.name(),
                examination.words()
            ),
        ));
    }
    out
}

/// The body from a file, or from standard input for `-`.
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

/// With a robots.txt URL, both it and the URL asked about must be absolute: step 0 compares their
/// schemes, hosts and ports.
fn check_robots_url(robots_url: &str, url: &str) -> Result<(), String> {
    model::check_absolute_url(robots_url).map_err(|m| format!("robots_url: {m}"))?;
    model::check_absolute_url(url)
        .map_err(|m| format!("url: {m} (with a robots.txt URL the URL must be absolute)"))
}

/// One batch line's answer, or the reason it could not be answered.
fn batch_line(
    line: &str,
    profiles: &[ProfileId],
    adapters: &mut [CheckAdapter],
    warned: &mut std::collections::BTreeSet<String>,
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
    // Once per agent: a batch asks the same agent on many lines.
    if let Some(warning) = agent_warning(agent) {
        if warned.insert(agent.to_string()) {
            eprintln!("{warning} (said once for all lines with this agent)");
        }
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
    // One question to the oracle for every profile asked (the body is read once).
    let oracle: serde_json::Map<String, serde_json::Value> = profiles
        .iter()
        .zip(verdicts(profiles, &request))
        .map(|(p, verdict)| (p.name().to_string(), verdict.name().into()))
        .collect();
    let mut value = serde_json::json!({ "oracle": oracle });
    if !adapters.is_empty() {
        let answers = ask_adapters(adapters, &request);
        value["adapters"] = answers_json(&answers);
    }
    value
}

/// `check --batch`: one JSON line out per line in, in order, each flushed as it is answered.
fn run_batch(
    path: &Path,
    profiles: &[ProfileId],
    adapters: &mut [CheckAdapter],
) -> Result<ExitCode, String> {
    let input: Box<dyn BufRead> = if path == Path::new("-") {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Box::new(std::io::BufReader::new(file))
    };
    let mut out = std::io::stdout().lock();
    let mut warned = std::collections::BTreeSet::new();
    for (number, line) in input.split(b'\n').enumerate() {
        let line = line.map_err(|e| format!("cannot read line {}: {e}", number + 1))?;
        let line = line.strip_suffix(b"\r").unwrap_or(&line);
        let answer = match std::str::from_utf8(line) {
            Ok(text) => batch_line(text, profiles, adapters, &mut warned),
            Err(_) => {
                serde_json::json!({ "error": "the line is not UTF-8 (use robots_base64 for raw octets)" })
            }
        };
        writeln!(out, "{answer}").map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// An adapter `check` consults, or why it cannot.
struct CheckAdapter {
    /// The adapter id.
    id: String,
    /// The open adapter, or the reason it is unavailable.
    adapter: Result<Box<dyn robotstxt_adapters::Adapter>, robotstxt_adapters::Unavailable>,
}

/// Opens the adapters named by `check --adapter`, or your own (--adapter-command,
/// --adapters-config) when no --adapter is given; none when neither is.
fn open_adapters(args: &AdapterArgs) -> Result<Vec<CheckAdapter>, String> {
    if args.adapters.is_empty()
        && args.user.adapter_commands.is_empty()
        && args.user.adapters_config.is_none()
    {
        return Ok(Vec::new());
    }
    let options = args.options()?;
    Ok(args
        .ids(&options)?
        .into_iter()
        .map(|id| CheckAdapter {
            adapter: robotstxt_adapters::open(&id, &options),
            id,
        })
        .collect())
}

/// Asks every adapter one check; an unavailable adapter answers `unsupported` with its reason,
/// and so does one that cannot be asked (a fetch outcome it does not take, or a URL the oracle
/// finds `not-governed` under its claimed profile).
fn ask_adapters(
    adapters: &mut [CheckAdapter],
    request: &robotstxt_oracle::Request<'_>,
) -> Vec<(String, robotstxt_adapters::Answer)> {
    adapters
        .iter_mut()
        .map(|a| {
            let answer = match &mut a.adapter {
                Ok(adapter) => {
                    let identity = adapter.identity();
                    let not_governed = request.robots_url.is_some_and(|robots_url| {
                        robotstxt_oracle::scope::governs(identity.profile, robots_url, request.url)
                            .governs
                            == robotstxt_oracle::Governs::No
                    });
                    let skip = robotstxt_matrix::ask::not_asked(
                        identity,
                        request.fetch,
                        request.robots_url,
                        not_governed,
                    );
                    match skip {
                        Some(answer) => answer,
                        None => {
                            let query = robotstxt_adapters::Query {
                                agent: request.agent.to_string(),
                                url: robotstxt_matrix::ask::absolute_url(request.url),
                                fetch: request.fetch,
                                category: None,
                            };
                            adapter.answer(request.body, &[query]).remove(0)
                        }
                    }
                }
                Err(why) => robotstxt_adapters::Answer::Unsupported {
                    reason: why.to_string(),
                },
            };
            (a.id.clone(), answer)
        })
        .collect()
}

/// `{"<id>": answer}`: a verdict as a string (`"allowed"`), anything else as an object
/// (`{"answer": "crash", "message": "..."}`).
fn answers_json(answers: &[(String, robotstxt_adapters::Answer)]) -> serde_json::Value {
    answers
        .iter()
        .map(|(id, answer)| {
            let value = match answer.verdict() {
                Some(_) => serde_json::Value::from(answer.kind()),
                None => serde_json::to_value(answer).unwrap_or_default(),
            };
            (id.clone(), value)
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}
