// go-grobotstxt: github.com/jimsmart/grobotstxt, a Go port of Google's C++ robots.txt parser,
// speaking robotstxt-adapter/1 (adapters/PROTOCOL.md).
package main

import (
	"github.com/jimsmart/grobotstxt"

	"robotstxt-conformance.invalid/adapters/protocol"
)

func main() {
	version, source := protocol.Module("github.com/jimsmart/grobotstxt")
	protocol.Serve(protocol.Hello{
		ID:       "go-grobotstxt",
		Library:  "github.com/jimsmart/grobotstxt",
		Version:  version,
		Language: "Go",
		Licence:  "Apache-2.0",
		Source:   source,
		// README: "a native Go port of Google's robots.txt parser and matcher C++ library ...
		// Preserves all behaviour of original library".
		Profile:      "google",
		Capabilities: map[string]bool{"fetch_status": false, "multiple_agents": false},
		URL:          "full",
		Notes: "grobotstxt.AgentAllowed(body, agent, url), a fresh matcher per check: body first, " +
			"then agent, then the full URL unchanged. The body's exact octets are passed (a Go " +
			"string holds any octets). Unlike Google's C++, the library first runs the URL through " +
			"Go's url.Parse and String (its doc: \"Departing from Googlebot's behaviour ... we " +
			"normalise the URI here\"), and a URL that does not parse is disallowed.",
	}, func(body []byte) func(agent, url string) (bool, error) {
		text := string(body)
		return func(agent, url string) (bool, error) {
			return grobotstxt.AgentAllowed(text, agent, url), nil
		}
	})
}
