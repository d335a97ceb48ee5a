//! `site`: everything a `run` and a `realworld` run found, as a static site to cite and link
//! (`docs/site.md`). Plain files with relative links: any static host serves it as is, and it
//! works from `file://`. No page loads anything from outside the site.
//!
//! Pages: the index (`index`), one per parser (`parser`, its divergences by cause in `divergence`,
//! their real-world buckets in `impact`, its upstream reports in `upstream`), one per parser and
//! profile where they differ (`differs`), one per knob and per deviation (`cause_page`, names in
//! `causes`), one per case with an anchor per check (`case`), one per source document (`documents`),
//! the run's matrix (`report::html::pages`) and the real-world report (`realworld::html`), each as
//! its command writes it, and the playground (`playground`: the oracle compiled to WebAssembly,
//! `playground/`, and the Rust parsers, `rust-peers/`).
//!
//! The `site` command reads its [`Inputs`] (a run's `results.json`, a `realworld.json`, the corpus
//! and the ledgers, the two WebAssembly modules); [`build`] makes every file in memory ([`Site`]),
//! and the files are written at once. Every citation on every page links to its section's anchor
//! ([`page::link_citations`]).

pub mod case;
pub mod cause_page;
pub mod causes;
pub mod differs;
pub mod divergence;
pub mod documents;
pub mod impact;
pub mod index;
pub mod page;
pub mod parser;
pub mod playground;
pub mod upstream;

use std::collections::BTreeMap;
use std::path::Path;

use robotstxt_matrix::cases::load::Corpus;
use robotstxt_matrix::ledger::Ledger;
use robotstxt_matrix::results::Results;
use robotstxt_realworld::tally::Results as RealWorld;

/// What the site is made from.
pub struct Inputs {
    /// The `run` results (`results.json`).
    pub results: Results,
    /// When that run was made (`2026-11-25`), as the index shows it.
    pub run_date: String,
    /// The `realworld` results (`realworld.json`).
    pub realworld: RealWorld,
    /// The corpus the run read (the exact bodies and the notes).
    pub corpus: Corpus,
    /// Each adapter's ledger, by adapter id (absent when it has none).
    pub ledgers: BTreeMap<String, Ledger>,
    /// The playground's WebAssembly module (`robotstxt_playground.wasm`): the oracle.
    pub wasm: Vec<u8>,
    /// The playground's second module (`robotstxt_rust_peers.wasm`): the Rust parsers.
    pub peers_wasm: Vec<u8>,
}

/// The site, as files in memory: site path → content.
#[derive(Default)]
pub struct Site {
    /// Every file.
    pub files: BTreeMap<String, Vec<u8>>,
}

impl Site {
    /// Adds a file.
    pub fn add(&mut self, path: impl Into<String>, content: impl Into<Vec<u8>>) {
        self.files.insert(path.into(), content.into());
    }

    /// The number of HTML pages.
    pub fn pages(&self) -> usize {
        self.files.keys().filter(|p| p.ends_with(".html")).count()
    }

    /// The total size in octets.
    pub fn bytes(&self) -> u64 {
        self.files.values().map(|c| c.len() as u64).sum()
    }

    /// Writes every file under `dir` (created as needed; other files there are left alone).
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        for (path, content) in &self.files {
            let file = dir.join(path);
            if let Some(parent) = file.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&file, content)?;
        }
        Ok(())
    }
}

/// Builds every page and file of the site.
pub fn build(inputs: &Inputs) -> Site {
    let mut site = Site::default();
    site.add("style.css", page::STYLE);
    index::add(&mut site, inputs);
    parser::add(&mut site, inputs);
    differs::add(&mut site, inputs);
    cause_page::add(&mut site, inputs);
    case::add(&mut site, inputs);
    documents::add(&mut site, inputs);
    playground::add(&mut site, inputs);
    site.add(
        "realworld.html",
        page::link_citations(
            &robotstxt_realworld::html::render_with_nav(&inputs.realworld, &page::nav("")),
            "",
        ),
    );
    for (path, yaml) in robotstxt_realworld::html::case_files(&inputs.realworld) {
        site.add(path, yaml);
    }
    // The run's matrix, as `run` writes it, its citations linked to the documents' pages.
    for (path, html) in robotstxt_matrix::report::html::pages(&inputs.results) {
        let root = page::SitePath(path.clone()).root();
        site.add(path, page::link_citations(&html, &root));
    }
    for adapter in &inputs.results.adapters {
        let id = &adapter.identity.id;
        site.add(
            format!("badges/{}", robotstxt_matrix::report::badge::file_name(id)),
            robotstxt_matrix::report::badge::svg(&inputs.results, id, adapter.identity.profile),
        );
    }
    site
}
