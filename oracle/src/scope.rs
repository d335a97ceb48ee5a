//! Step 0, scope: whether the robots.txt file fetched from one URL governs another URL at all
//! (`rfc9309#2.3`, `google#file-location`, `draft-1996#3.1`, `norobots-1994#method`). A file that
//! does not govern a URL says nothing about it, so this step comes before the fetch outcome and
//! the body.
//!
//! Every document puts the file at `/robots.txt` at the top of something and lets it speak for
//! that something only: RFC 9309 the *service* (`scheme:[//authority]/robots.txt`, compared as
//! RFC 3986 compares URIs), Google the *host, protocol and port number*, the 1996 draft the
//! *site* (its examples name host and port; the Guide says a site is "defined by the hostname and
//! port number"), the 1994 standard the *server* whose local URL `/robots.txt` holds it. Where a
//! document is silent (an IDN against its punycode form outside Google, a trailing dot, user
//! information, an escaped file name outside RFC 9309), the answer is [`Governs::Open`].
//!
//! [`governs`] is a plain function of (profile, robots.txt URL, URL).

use serde::Serialize;

use crate::knobs::ProfileId;
use crate::url;

/// Whether a robots.txt file governs a URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Governs {
    /// The file's rules decide the URL.
    Yes,
    /// The file says nothing about the URL: verdict `not-governed`.
    No,
    /// The document permits both: verdict `either`.
    Open,
}

/// Step 0's answer: whether the file governs the URL, the rule that decides it, in words, and
/// where the document says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Scope {
    /// Whether the file governs the URL.
    pub governs: Governs,
    /// The deciding rule, in words.
    pub rule: &'static str,
    /// Where the document says so, e.g. `google#file-location`.
    pub citation: &'static str,
}

/// Whether the robots.txt file fetched from `robots_url` governs `url` under `profile`.
///
/// `url` without a scheme is a reference resolved against `robots_url` (RFC 3986 5.2): a path
/// (`/a`) is on the file's own service; `//host/a` takes the file's scheme.
pub fn governs(profile: ProfileId, robots_url: &str, url: &str) -> Scope {
    let file = match RobotsFile::of(robots_url) {
        Ok(file) => file,
        Err(why) => return not_a_robots_txt(profile, why),
    };
    let target = Origin::of_target(url, &file.origin);
    let pair = Pair {
        file: &file.origin,
        url: &target,
        escaped_name: file.escaped_name,
    };
    match profile {
        ProfileId::Rfc9309 => rfc9309(&pair),
        ProfileId::Google => google(&pair),
        ProfileId::Draft1996 => draft_1996(&pair),
        ProfileId::Original1994 => original_1994(&pair),
    }
}

const fn yes(rule: &'static str, citation: &'static str) -> Scope {
    Scope {
        governs: Governs::Yes,
        rule,
        citation,
    }
}

const fn no(rule: &'static str, citation: &'static str) -> Scope {
    Scope {
        governs: Governs::No,
        rule,
        citation,
    }
}

const fn open(rule: &'static str, citation: &'static str) -> Scope {
    Scope {
        governs: Governs::Open,
        rule,
        citation,
    }
}

/// rfc9309#2.3: the rules are in "/robots.txt" at the top-level path of the service, whose URI is
/// `scheme:[//authority]/robots.txt` "as per RFC 3986": the file speaks for URIs with the same
/// scheme and authority. RFC 3986 6.2.2.1: scheme and host compare case-insensitively; 6.2.3: an
/// empty or default port is the same as none.
fn rfc9309(pair: &Pair<'_>) -> Scope {
    const AT: &str = "rfc9309#2.3";
    if !pair.same_scheme() {
        return no(
            "another scheme is another service: the file's URI is scheme:[//authority]/robots.txt",
            AT,
        );
    }
    match pair.hosts() {
        Hosts::Same => {}
        Hosts::SameInPunycode => {
            return open(
                "an IDN against its punycode form: RFC 9309 and RFC 3986's comparison do not say \
                 they are one authority",
                AT,
            )
        }
        Hosts::SameButTrailingDot => {
            return open(
                "the same host name with and without its trailing dot: RFC 9309 and RFC 3986's \
                 comparison do not say they are one authority",
                AT,
            )
        }
        Hosts::Different | Hosts::GooglesIdnRow => {
            return no("another host is another authority", AT)
        }
    }
    if !pair.same_port() {
        return no(
            "another port is another authority (a default port is the same as none, RFC 3986 \
             6.2.3)",
            AT,
        );
    }
    if !pair.same_userinfo() {
        return open(
            "other user information makes another authority as written, but RFC 9309 does not \
             say whether it is another service",
            AT,
        );
    }
    yes(
        "the same scheme, host and port: the file is at the top-level path of this service \
         (scheme and host case-insensitive, a default port the same as none, an escaped \
         unreserved character the character: RFC 3986 6.2.2.1, 6.2.2.2, 6.2.3)",
        AT,
    )
}

/// google#file-location: "The rules listed in the robots.txt file apply only to the host,
/// protocol, and port number where the robots.txt file is hosted", with the table of valid
/// robots.txt URLs: a subdomain's file is only valid for that subdomain, an IP address's only for
/// that IP address, IDNs are equivalent to their punycode versions, and the standard ports (80
/// for HTTP, 443 for HTTPS, 21 for FTP) to no port.
fn google(pair: &Pair<'_>) -> Scope {
    const AT: &str = "google#file-location";
    if !pair.same_scheme() {
        return no(
            "the rules apply only to the protocol where the file is hosted",
            AT,
        );
    }
    match pair.hosts() {
        Hosts::Same => {}
        Hosts::SameInPunycode => {}
        Hosts::SameButTrailingDot => {
            return open(
                "the same host name with and without its trailing dot: the page does not say \
                 whether that is the same host",
                AT,
            )
        }
        Hosts::GooglesIdnRow => {
            return open(
                "the punycode of the file's IDN host without its \"www.\" label: the page's table \
                 lists it as valid (\"IDNs are equivalent to their punycode versions\"), while its \
                 rules make it another host (\"A robots.txt on a subdomain is only valid for that \
                 subdomain\"): the page contradicts itself",
                AT,
            )
        }
        Hosts::Different => {
            return no(
                "the rules apply only to the host where the file is hosted (a file on a \
                 subdomain, or on an IP address, is valid only for that host)",
                AT,
            )
        }
    }
    if !pair.same_port() {
        return no(
            "the rules apply only to the port number where the file is hosted (80 for HTTP, 443 \
             for HTTPS and 21 for FTP are the same as no port)",
            AT,
        );
    }
    if !matches!(pair.file.scheme.as_str(), "http" | "https" | "ftp") {
        return open(
            "the supported protocols are HTTP, HTTPS and FTP \"in case of Google Search\"; the \
             page does not say what a file on another protocol means",
            AT,
        );
    }
    if pair.escaped_name {
        return open(
            "the file's name is \"/robots.txt\" only once an escape is decoded: the page does \
             not say whether that is the file",
            AT,
        );
    }
    let rule = match pair.hosts() {
        Hosts::SameInPunycode => {
            "the same host (IDNs are equivalent to their punycode versions), protocol and port \
             number"
        }
        _ => "the same host, protocol and port number",
    };
    yes(rule, AT)
}

/// draft-1996#3.1: "The instructions must be accessible via HTTP from the site that the
/// instructions are to be applied to", at the standard relative path "/robots.txt"; its examples
/// give `http://www.bar.com:8001/` its own `http://www.bar.com:8001/robots.txt`. The Guide, the
/// draft's secondary reading: "a single robots.txt resource for the entire web site defined by
/// the hostname and port number" (`guide-ch9#web-sites`).
fn draft_1996(pair: &Pair<'_>) -> Scope {
    const AT: &str = "draft-1996#3.1";
    if !pair.file_is_http() {
        return no(
            "the instructions must be accessible via HTTP; a file on another protocol is not \
             them",
            AT,
        );
    }
    match pair.hosts() {
        Hosts::Same => {}
        Hosts::SameInPunycode => {
            return open(
                "an IDN against its punycode form: the draft does not say whether that is the \
                 same site",
                AT,
            )
        }
        Hosts::SameButTrailingDot => {
            return open(
                "the same host name with and without its trailing dot: the draft does not say \
                 whether that is the same site",
                AT,
            )
        }
        Hosts::Different | Hosts::GooglesIdnRow => {
            return no(
                "another host is another site (a site is defined by the hostname and port \
                 number, guide-ch9#web-sites)",
                AT,
            )
        }
    }
    if !pair.same_port() {
        return no(
            "another port is another site (the draft's example: http://www.bar.com:8001/ has \
             http://www.bar.com:8001/robots.txt)",
            AT,
        );
    }
    if !pair.same_scheme() {
        return open(
            "the same host and port under another scheme: the draft and the Guide define a site \
             by host and port only",
            AT,
        );
    }
    if pair.escaped_name {
        return open(
            "the file's name is \"/robots.txt\" only once an escape is decoded: the draft does \
             not say whether that is the resource",
            AT,
        );
    }
    yes(
        "the same site: the same host and port (the port a URL implies is the same as none)",
        AT,
    )
}

/// norobots-1994#method: the file is on the server, accessible via HTTP at the local URL
/// "/robots.txt": it speaks for the server a URL names (its host and port).
fn original_1994(pair: &Pair<'_>) -> Scope {
    const AT: &str = "norobots-1994#method";
    if !pair.file_is_http() {
        return no(
            "the file must be accessible via HTTP; a file on another protocol is not it",
            AT,
        );
    }
    match pair.hosts() {
        Hosts::Same => {}
        Hosts::SameInPunycode => {
            return open(
                "an IDN against its punycode form: the standard does not say whether that is \
                 the same server",
                AT,
            )
        }
        Hosts::SameButTrailingDot => {
            return open(
                "the same host name with and without its trailing dot: the standard does not \
                 say whether that is the same server",
                AT,
            )
        }
        Hosts::Different | Hosts::GooglesIdnRow => return no("another host is another server", AT),
    }
    if !pair.same_port() {
        return no(
            "another port is another server: /robots.txt is a local URL of the server the URL \
             names",
            AT,
        );
    }
    if !pair.same_scheme() {
        return open(
            "the same host and port under another scheme: the standard names the server only",
            AT,
        );
    }
    if pair.escaped_name {
        return open(
            "the file's name is \"/robots.txt\" only once an escape is decoded: the standard \
             does not say whether that is the file",
            AT,
        );
    }
    yes(
        "the same server: /robots.txt is the local URL of the server the URL names",
        AT,
    )
}

/// Why a robots.txt URL names no robots.txt file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NotARobotsTxt {
    /// It has no scheme (rfc9309#2.3's form starts with one).
    NotAbsolute,
    /// Its path is not `/robots.txt` at the top level, in lower case, without a query.
    NotTopLevel,
}

/// Every profile's reason that the file governs nothing: it is not the robots.txt file.
fn not_a_robots_txt(profile: ProfileId, why: NotARobotsTxt) -> Scope {
    if why == NotARobotsTxt::NotAbsolute {
        let citation = match profile {
            ProfileId::Rfc9309 => "rfc9309#2.3",
            ProfileId::Google => "google#file-location",
            ProfileId::Draft1996 => "draft-1996#3.1",
            ProfileId::Original1994 => "norobots-1994#method",
        };
        return no(
            "the robots.txt URL is not absolute (scheme:[//authority]/robots.txt), so it names \
             no file of any service",
            citation,
        );
    }
    match profile {
        ProfileId::Rfc9309 => no(
            "not the robots.txt file: the rules are in a file named \"/robots.txt\" (all \
             lowercase) in the top-level path of the service",
            "rfc9309#2.3",
        ),
        ProfileId::Google => no(
            "not a valid robots.txt file: it must be in the top-level directory (crawlers don't \
             check for robots.txt files in subdirectories), and the URL is case-sensitive",
            "google#file-location",
        ),
        ProfileId::Draft1996 => no(
            "not the instructions: they are the resource at the standard relative path \
             \"/robots.txt\" on the server",
            "draft-1996#3.1",
        ),
        ProfileId::Original1994 => no(
            "not the file: it is at the local URL /robots.txt of the server",
            "norobots-1994#method",
        ),
    }
}

/// The robots.txt URL, checked to be `scheme:[//authority]/robots.txt` (`rfc9309#2.3`).
struct RobotsFile {
    origin: Origin,
    /// The path is `/robots.txt` only once escaped unreserved characters are decoded
    /// (`/%72obots.txt`, RFC 3986 6.2.2.2).
    escaped_name: bool,
}

impl RobotsFile {
    fn of(robots_url: &str) -> Result<RobotsFile, NotARobotsTxt> {
        let (scheme, authority) = url::scheme_and_authority(robots_url);
        let Some(scheme) = scheme else {
            return Err(NotARobotsTxt::NotAbsolute);
        };
        // The path is exactly /robots.txt up to RFC 3986's equivalences, with no query.
        if !url::is_robots_txt_uri(&url::split(robots_url)) {
            return Err(NotARobotsTxt::NotTopLevel);
        }
        let split = url::split(robots_url);
        Ok(RobotsFile {
            origin: Origin::of(scheme, authority),
            escaped_name: split.path != b"/robots.txt",
        })
    }
}

/// What a URL's scheme and authority say about where it is, in the forms compared
/// (RFC 3986 6.2.2: scheme and host lower-cased, escaped unreserved characters decoded; 6.2.3:
/// the port a scheme implies).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Origin {
    /// The scheme, lower-cased.
    scheme: String,
    /// The user information as written (`user:pass` in `user:pass@host`).
    userinfo: Option<Vec<u8>>,
    /// The host, normalised (RFC 3986 6.2.2.1 and 6.2.2.2); empty when there is no authority.
    host: Vec<u8>,
    /// The port.
    port: Port,
}

/// A port as compared.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Port {
    /// A port number: given, or the scheme's default.
    Number(u64),
    /// No port given, and the scheme has no default we know.
    None,
    /// Not a number (not a valid port): compared as written.
    Other(Vec<u8>),
}

impl Origin {
    /// The origin of a URL with `scheme` and `authority`.
    fn of(scheme: &str, authority: Option<&str>) -> Origin {
        let scheme = scheme.to_ascii_lowercase();
        let authority = authority.unwrap_or("");
        // RFC 3986 3.2: authority = [ userinfo "@" ] host [ ":" port ].
        let (userinfo, host_port) = match authority.rfind('@') {
            Some(at) => (
                Some(authority.as_bytes()[..at].to_vec()),
                &authority[at + 1..],
            ),
            None => (None, authority),
        };
        // An IP-literal is bracketed and holds colons; otherwise the port follows the first ':'.
        let port_colon = if host_port.starts_with('[') {
            host_port
                .find(']')
                .and_then(|close| host_port[close..].find(':').map(|c| close + c))
        } else {
            host_port.find(':')
        };
        let (host, port) = match port_colon {
            Some(colon) => (&host_port[..colon], Some(&host_port[colon + 1..])),
            None => (host_port, None),
        };
        let port = match port {
            // RFC 3986 6.2.3: an empty port is the same as none.
            None | Some("") => default_port(&scheme).map_or(Port::None, Port::Number),
            Some(digits) if digits.bytes().all(|b| b.is_ascii_digit()) => digits
                .parse()
                .map_or_else(|_| Port::Other(digits.as_bytes().to_vec()), Port::Number),
            Some(other) => Port::Other(other.as_bytes().to_vec()),
        };
        Origin {
            host: url::unescape_unreserved(host.as_bytes())
                .map(|b| b.to_ascii_lowercase())
                .collect(),
            scheme,
            userinfo,
            port,
        }
    }

    /// The origin of the URL asked about: its own, or, for a reference without a scheme, the one
    /// RFC 3986 5.2.2 resolves it to against the robots.txt URL.
    fn of_target(url: &str, file: &Origin) -> Origin {
        match url::scheme_and_authority(url) {
            (Some(scheme), authority) => Origin::of(scheme, authority),
            (None, Some(authority)) => Origin::of(&file.scheme, Some(authority)),
            (None, None) => file.clone(),
        }
    }
}

/// The port a scheme implies (RFC 9110 4.2.1 and 4.2.2 for http and https, RFC 1738 3.2 for ftp;
/// the three Google's table names).
fn default_port(scheme: &str) -> Option<u64> {
    match scheme {
        "http" => Some(80),
        "https" => Some(443),
        "ftp" => Some(21),
        _ => None,
    }
}

/// How two hosts compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hosts {
    /// The same, case-insensitively.
    Same,
    /// Different as written, the same once IDNA turns each into ASCII (punycode).
    SameInPunycode,
    /// The same but for a trailing dot on one of them.
    SameButTrailingDot,
    /// The URL's host is the punycode of the file's IDN host without its `www.` label: the form
    /// Google's table lists as valid for `https://www.exämple.com/robots.txt`
    /// (`https://xn--exmple-cua.com/`), another host by every rule of every document.
    GooglesIdnRow,
    /// Different.
    Different,
}

/// The robots.txt file's origin and the URL's.
struct Pair<'a> {
    file: &'a Origin,
    url: &'a Origin,
    /// The file's name is `/robots.txt` only up to RFC 3986's escapes (`/%72obots.txt`).
    escaped_name: bool,
}

impl Pair<'_> {
    fn same_scheme(&self) -> bool {
        self.file.scheme == self.url.scheme
    }

    fn same_port(&self) -> bool {
        self.file.port == self.url.port
    }

    fn same_userinfo(&self) -> bool {
        self.file.userinfo == self.url.userinfo
    }

    /// HTTP, and HTTP over TLS (`https`, RFC 9110 4.2.2), the protocol the 1994 standard and the
    /// 1996 draft name.
    fn file_is_http(&self) -> bool {
        matches!(self.file.scheme.as_str(), "http" | "https")
    }

    fn hosts(&self) -> Hosts {
        let (a, b) = (&self.file.host, &self.url.host);
        if a == b {
            return Hosts::Same;
        }
        if a.strip_suffix(b".").unwrap_or(a) == b.strip_suffix(b".").unwrap_or(b) {
            return Hosts::SameButTrailingDot;
        }
        match (to_ascii(a), to_ascii(b)) {
            (Some(a), Some(b)) if a == b => Hosts::SameInPunycode,
            (Some(file), Some(url))
                if !is_ascii_name(&self.file.host)
                    && file.strip_prefix("www.") == Some(url.as_str()) =>
            {
                Hosts::GooglesIdnRow
            }
            _ => Hosts::Different,
        }
    }
}

/// Whether a host is written in ASCII, with no escape (`%C3%A4` is a non-ASCII octet).
fn is_ascii_name(host: &[u8]) -> bool {
    host.is_ascii() && !host.contains(&b'%')
}

/// A host name as IDNA's ToASCII gives it (punycode, lower case), when it is one. RFC 3986 3.2.2
/// lets a registered name hold "percent-encoded octets ... representing UTF-8 character
/// encodings": they are decoded first, so `ex%C3%A4mple.com` is `exämple.com`.
fn to_ascii(host: &[u8]) -> Option<String> {
    let decoded = crate::url::percent_decode(host);
    let text = std::str::from_utf8(&decoded).ok()?;
    idna::domain_to_ascii(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Governs::*;
    use ProfileId::*;

    /// [rfc9309, google, draft-1996, original-1994] for one pair.
    fn all(robots_url: &str, url: &str) -> [Governs; 4] {
        ProfileId::ALL.map(|p| governs(p, robots_url, url).governs)
    }

    // google#file-location, "Examples of valid robots.txt URLs", row by row.

    #[test]
    fn row_1_the_general_case() {
        let file = "https://example.com/robots.txt";
        for url in ["https://example.com/", "https://example.com/folder/file"] {
            assert_eq!(all(file, url), [Yes; 4], "{url}");
        }
        for url in [
            "https://other.example.com/",
            "http://example.com/",
            "https://example.com:8181/",
        ] {
            assert_eq!(all(file, url), [No; 4], "{url}");
        }
    }

    #[test]
    fn row_2_a_subdomain_is_only_valid_for_itself() {
        let file = "https://www.example.com/robots.txt";
        assert_eq!(all(file, "https://www.example.com/"), [Yes; 4]);
        for url in [
            "https://example.com/",
            "https://shop.www.example.com/",
            "https://www.shop.example.com/",
        ] {
            assert_eq!(all(file, url), [No; 4], "{url}");
        }
    }

    #[test]
    fn row_3_a_file_in_a_folder_is_not_a_robots_txt() {
        let file = "https://example.com/folder/robots.txt";
        for url in [
            "https://example.com/",
            "https://example.com/folder/",
            "https://example.com/folder/file",
        ] {
            assert_eq!(all(file, url), [No; 4], "{url}");
        }
    }

    #[test]
    fn row_4_idns_are_equivalent_to_their_punycode_versions_for_google() {
        let file = "https://www.exämple.com/robots.txt";
        assert_eq!(all(file, "https://www.exämple.com/"), [Yes; 4]);
        // The punycode of the same host: Google says equivalent; the others are silent.
        assert_eq!(
            all(file, "https://www.xn--exmple-cua.com/"),
            [Open, Yes, Open, Open]
        );
        // The row lists `https://xn--exmple-cua.com/` (no `www.`): another host by every rule of
        // every document, and valid by Google's table: open for Google, which contradicts itself.
        assert_eq!(all(file, "https://xn--exmple-cua.com/"), [No, Open, No, No]);
        // A host may be written as percent-encoded UTF-8 (RFC 3986 3.2.2): the same IDN.
        assert_eq!(
            all(file, "https://www.ex%C3%A4mple.com/"),
            [Open, Yes, Open, Open]
        );
        assert_eq!(
            all(
                "https://www.ex%c3%a4mple.com/robots.txt",
                "https://www.xn--exmple-cua.com/"
            ),
            [Open, Yes, Open, Open]
        );
        assert_eq!(all(file, "https://www.example.com/"), [No; 4]);
        // And the other way round.
        assert_eq!(
            all(
                "https://www.xn--exmple-cua.com/robots.txt",
                "https://www.exämple.com/a"
            ),
            [Open, Yes, Open, Open]
        );
    }

    #[test]
    fn row_5_ftp() {
        let file = "ftp://example.com/robots.txt";
        // rfc9309#2.3 names ftp://ftp.example.com/robots.txt; the 1994 and 1996 texts name HTTP.
        assert_eq!(all(file, "ftp://example.com/"), [Yes, Yes, No, No]);
        assert_eq!(all(file, "https://example.com/"), [No; 4]);
    }

    #[test]
    fn row_6_an_ip_address_is_only_valid_for_itself() {
        let file = "https://212.96.82.21/robots.txt";
        assert_eq!(all(file, "https://212.96.82.21/"), [Yes; 4]);
        assert_eq!(all(file, "https://example.com/"), [No; 4]);
    }

    #[test]
    fn row_7_a_standard_port_is_no_port() {
        let file = "https://example.com:443/robots.txt";
        assert_eq!(all(file, "https://example.com:443/"), [Yes; 4]);
        assert_eq!(all(file, "https://example.com/"), [Yes; 4]);
        assert_eq!(all(file, "https://example.com:444/"), [No; 4]);
        // The standard ports of the three protocols, both ways, and an empty port.
        assert_eq!(
            all("http://example.com/robots.txt", "http://example.com:80/a"),
            [Yes; 4]
        );
        assert_eq!(
            all("ftp://example.com:21/robots.txt", "ftp://example.com/a")[..2],
            [Yes; 2]
        );
        assert_eq!(
            all("https://example.com:/robots.txt", "https://example.com/a"),
            [Yes; 4]
        );
    }

    #[test]
    fn row_8_a_non_standard_port_is_only_valid_for_itself() {
        let file = "https://example.com:8181/robots.txt";
        assert_eq!(all(file, "https://example.com:8181/"), [Yes; 4]);
        assert_eq!(all(file, "https://example.com/"), [No; 4]);
    }

    // rfc9309#2.3 and RFC 3986.

    #[test]
    fn scheme_and_host_compare_case_insensitively_and_the_path_does_not() {
        assert_eq!(
            all("HTTPS://Example.COM/robots.txt", "https://example.com/a"),
            [Yes; 4]
        );
        assert_eq!(
            all("https://ex%61mple.com/robots.txt", "https://example.com/a"),
            [Yes; 4]
        );
        for file in [
            "https://example.com/ROBOTS.TXT",
            "https://example.com/Robots.txt",
            "https://example.com/robots.txt?x=1",
            "https://example.com/robots.txt/",
            "/robots.txt",
        ] {
            assert_eq!(all(file, "https://example.com/a"), [No; 4], "{file}");
        }
        // An escaped unreserved character is that character (RFC 3986 6.2.2.2); the other
        // documents do not say.
        assert_eq!(
            all("https://example.com/%72obots.txt", "https://example.com/a"),
            [Yes, Open, Open, Open]
        );
        assert_eq!(
            all(
                "https://example.com/%72obots.txt",
                "https://other.example.com/a"
            ),
            [No; 4]
        );
    }

    #[test]
    fn the_rfc_examples_govern_their_own_service() {
        assert_eq!(
            governs(
                Rfc9309,
                "https://www.example.com/robots.txt",
                "https://www.example.com/x"
            )
            .governs,
            Yes
        );
        assert_eq!(
            governs(
                Rfc9309,
                "ftp://ftp.example.com/robots.txt",
                "ftp://ftp.example.com/pub/x"
            )
            .governs,
            Yes
        );
        assert_eq!(
            governs(
                Rfc9309,
                "ftp://ftp.example.com/robots.txt",
                "https://ftp.example.com/x"
            )
            .governs,
            No
        );
    }

    #[test]
    fn a_reference_without_a_scheme_resolves_against_the_file() {
        let file = "https://example.com/robots.txt";
        assert_eq!(all(file, "/a?b"), [Yes; 4]);
        assert_eq!(all(file, "//example.com/a"), [Yes; 4]);
        assert_eq!(all(file, "//other.example.com/a"), [No; 4]);
    }

    #[test]
    fn where_the_documents_are_silent_scope_is_open() {
        let file = "https://example.com/robots.txt";
        assert_eq!(all(file, "https://example.com./a"), [Open; 4]);
        // User information is part of the RFC's authority, not of Google's host, protocol, port.
        assert_eq!(
            all(file, "https://user@example.com/a"),
            [Open, Yes, Yes, Yes]
        );
        // The same host and port under another scheme: 1994 and 1996 name host and port only.
        assert_eq!(all(file, "http://example.com:443/a"), [No, No, Open, Open]);
        // Google Search's protocols are HTTP, HTTPS and FTP.
        assert_eq!(
            all("gopher://example.com/robots.txt", "gopher://example.com/a"),
            [Yes, Open, No, No]
        );
    }

    #[test]
    fn ip_literals_keep_their_colons() {
        let file = "http://[2001:db8::1]:8080/robots.txt";
        assert_eq!(all(file, "http://[2001:DB8::1]:8080/a"), [Yes; 4]);
        assert_eq!(all(file, "http://[2001:db8::1]/a"), [No; 4]);
    }

    #[test]
    fn every_answer_cites_its_profiles_document() {
        for (file, url) in [
            ("https://example.com/robots.txt", "https://example.com/"),
            (
                "https://example.com/robots.txt",
                "https://other.example.com/",
            ),
            (
                "https://example.com/folder/robots.txt",
                "https://example.com/",
            ),
            ("robots.txt", "https://example.com/"),
        ] {
            for profile in ProfileId::ALL {
                let scope = governs(profile, file, url);
                let document = scope.citation.split('#').next().unwrap();
                let expected = match profile {
                    Rfc9309 => "rfc9309",
                    Google => "google",
                    Draft1996 => "draft-1996",
                    Original1994 => "norobots-1994",
                };
                assert_eq!(document, expected, "{profile:?} {file} {url}");
                assert!(!scope.rule.is_empty());
            }
        }
    }
}
