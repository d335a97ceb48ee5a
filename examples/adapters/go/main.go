// A minimal adapter (adapters/PROTOCOL.md) in Go: put your parser in isAllowed, then run
// `robotstxt-conformance certify` on it (docs/certify.md). The toy here: the agent's group (else
// `*`), the longest matching path prefix wins, Allow on a tie; no wildcards.
package main

import (
	"bufio"
	"encoding/json"
	"os"
	"regexp"
	"strings"
)

// uriParts is RFC 3986 appendix B: a URI's five parts, split without decoding or re-encoding
// anything (never url.URL's RequestURI, which re-encodes). adapters/PROTOCOL.md, "Two kinds of
// library".
var uriParts = regexp.MustCompile(`^(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#((?s:.*)))?$`)

// pathAndQuery is for a library that takes a path: the path (`/` when empty) and query as
// written, the fragment dropped.
func pathAndQuery(raw string) string {
	m := uriParts.FindStringSubmatchIndex(raw)
	path := raw[m[6]:m[7]]
	if path == "" {
		path = "/"
	}
	if m[8] < 0 {
		return path
	}
	return path + "?" + raw[m[8]:m[9]]
}

// robotsURLOf is for a library that takes the robots.txt URL and checks the host: the robots.txt
// URL of the check's own origin.
func robotsURLOf(raw string) string {
	m := uriParts.FindStringSubmatch(raw)
	return m[1] + "://" + m[2] + "/robots.txt"
}

func isAllowed(body, agent, raw string) (bool, error) {
	target := pathAndQuery(raw)  // this toy takes a path; a host-checking library: robotsURLOf(raw)
	rules := map[bool][]string{} // prefix + ":a" or ":d", for me (true) or for `*` (false)
	var forMe, forAll, inAgents bool
	for _, line := range strings.Split(strings.ReplaceAll(body, "\r", "\n"), "\n") {
		key, value, _ := strings.Cut(strings.SplitN(line, "#", 2)[0], ":")
		key, value = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value)
		if key == "user-agent" {
			forMe, forAll = (inAgents && forMe) || strings.EqualFold(value, agent), (inAgents && forAll) || value == "*"
			inAgents = true
		} else if key == "allow" || key == "disallow" {
			inAgents = false
			for _, group := range []bool{true, false} {
				if value != "" && ((group && forMe) || (!group && forAll)) {
					rules[group] = append(rules[group], value+":"+key[:1])
				}
			}
		}
	}
	best := ""
	for _, r := range rules[len(rules[true]) > 0] {
		if p := r[:len(r)-2]; strings.HasPrefix(target, p) && (len(r) > len(best) || (len(r) == len(best) && r[len(r)-1] == 'a')) {
			best = r
		}
	}
	return best == "" || best[len(best)-1] == 'a', nil
}

func main() {
	out := json.NewEncoder(os.Stdout) // one line per message; os.Stdout is not buffered
	out.Encode(map[string]any{"protocol": "robotstxt-adapter/1", "id": "mine", "library": "toy", "version": "0.0.1",
		"language": "Go", "licence": "MIT", "source": "examples/adapters/go", "profile": "rfc9309", "url": "full"})
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	for in.Scan() {
		var req struct {
			Body       *string
			BodyBase64 []byte `json:"body_base64"`
			Checks     []struct{ Agent, URL string }
		}
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			os.Exit(1)
		}
		body := string(req.BodyBase64)
		if req.Body != nil {
			body = *req.Body
		}
		for i, c := range req.Checks {
			allowed, err := isAllowed(body, c.Agent, c.URL)
			answer := map[string]any{"check": i, "answer": map[bool]string{true: "allowed", false: "disallowed"}[allowed]}
			if err != nil {
				answer = map[string]any{"check": i, "answer": "error", "message": err.Error()}
			}
			out.Encode(answer)
		}
	}
}
