use robotstxt_spec::{ProfileId, Suite};

fn main() {
    Suite::new("toy-robots")
        .profile(ProfileId::Rfc9309)
        .ledger("tests/robotstxt-spec.yaml")
        .run(|body: &[u8], agent: &str, url: &str| toy_robots::is_allowed(body, agent, url));
}
