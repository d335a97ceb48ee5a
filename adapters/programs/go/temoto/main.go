// go-temoto: github.com/temoto/robotstxt (the robots.txt parser of Colly and others), speaking
// robotstxt-adapter/1 (adapters/PROTOCOL.md).
package main

import (
	"strings"

	"github.com/temoto/robotstxt"

	"robotstxt-conformance.invalid/adapters/protocol"
)

// pathAndQuery is the URL's path (`/` when empty) and query as written, the fragment dropped (RFC
// 3986 3): what TestAgent takes. Nothing is decoded or re-encoded.
func pathAndQuery(url string) string {
	rest := url
	if colon := strings.IndexByte(rest, ':'); colon > 0 && isScheme(rest[:colon]) {
		rest = rest[colon+1:]
	}
	if strings.HasPrefix(rest, "//") {
		after := rest[2:]
		end := strings.IndexAny(after, "/?#")
		if end < 0 {
			end = len(after)
		}
		rest = after[end:]
	}
	if hash := strings.IndexByte(rest, '#'); hash >= 0 {
		rest = rest[:hash]
	}
	if rest == "" || rest[0] == '?' {
		rest = "/" + rest
	}
	return rest
}

// isScheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) (RFC 3986 3.1).
func isScheme(s string) bool {
	for i, c := range s {
		alpha := (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !alpha && (i == 0 || !((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}

func main() {
	version, source := protocol.Module("github.com/temoto/robotstxt")
	protocol.Serve(protocol.Hello{
		ID:       "go-temoto",
		Library:  "github.com/temoto/robotstxt",
		Version:  version,
		Language: "Go",
		Licence:  "MIT",
		Source:   source,
		// No standard is named; its doc comments quote "Google's spec" for grouping, precedence
		// and status codes ("in line with Google's interpretation of robots.txt files", README).
		Profile:      "google",
		Capabilities: map[string]bool{"fetch_status": false, "multiple_agents": false},
		URL:          "path-and-query",
		Notes: "robotstxt.FromBytes(octets) once per body, then TestAgent(path, agent) per check: " +
			"path first, then agent. The body's exact octets are passed. TestAgent takes a path: " +
			"the adapter passes the URL's path and query as written (from the first / after the " +
			"authority, `/` when empty, the fragment dropped), nothing decoded. A body FromBytes " +
			"rejects (it returns an error, e.g. for an invalid Crawl-delay) answers `error` on " +
			"every check. Agent groups are chosen by prefix: the longest group name that the " +
			"lower-cased agent starts with.",
	}, func(body []byte) func(agent, url string) (bool, error) {
		robots, err := robotstxt.FromBytes(body)
		return func(agent, url string) (bool, error) {
			if err != nil {
				return false, err
			}
			return robots.TestAgent(pathAndQuery(url), agent), nil
		}
	})
}
