// Package protocol is the loop every Go adapter program shares: it speaks robotstxt-adapter/1
// (adapters/PROTOCOL.md) on standard input and output, and asks the program's library one question
// at a time.
package protocol

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
)

// Hello is the handshake: what the program says about its library.
type Hello struct {
	Protocol     string          `json:"protocol"`
	ID           string          `json:"id"`
	Library      string          `json:"library"`
	Version      string          `json:"version"`
	Language     string          `json:"language"`
	Licence      string          `json:"licence"`
	Source       string          `json:"source"`
	Profile      string          `json:"profile"`
	Capabilities map[string]bool `json:"capabilities"`
	URL          string          `json:"url"`
	Notes        string          `json:"notes"`
}

// Prepare is given a request's body (its exact octets) and returns the function that answers
// one (agent, url) check about it: allowed, or an error the library raised.
type Prepare func(body []byte) func(agent, url string) (bool, error)

// Module is the version and go.sum hash of dependency `path` as compiled into this program (read at
// run time from the build information), and the Go it was built with.
func Module(path string) (version, source string) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown", "no build information"
	}
	for _, dep := range info.Deps {
		if dep.Replace != nil {
			dep = dep.Replace
		}
		if dep.Path == path {
			version = dep.Version
			if len(version) > 0 && version[0] == 'v' {
				version = version[1:]
			}
			return version, fmt.Sprintf("Go module proxy %s@%s (%s in go.sum; built with %s)",
				path, dep.Version, dep.Sum, runtime.Version())
		}
	}
	return "unknown", "not in the build information"
}

type request struct {
	Body       *string `json:"body"`
	BodyBase64 []byte  `json:"body_base64"`
	Checks     []struct {
		Agent string `json:"agent"`
		URL   string `json:"url"`
	} `json:"checks"`
}

type response struct {
	Check   int    `json:"check"`
	Answer  string `json:"answer"`
	Message string `json:"message,omitempty"`
}

// Serve prints the handshake, then answers every request of standard input until it closes. A
// panic in the library is caught and answered as a crash of that check.
func Serve(hello Hello, prepare Prepare) {
	hello.Protocol = "robotstxt-adapter/1"
	out := bufio.NewWriter(os.Stdout)
	encoder := json.NewEncoder(out)
	encoder.SetEscapeHTML(false)
	emit := func(v any) {
		if err := encoder.Encode(v); err != nil {
			os.Exit(1)
		}
		if err := out.Flush(); err != nil {
			os.Exit(1)
		}
	}
	emit(hello)
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			var req request
			if jerr := json.Unmarshal(line, &req); jerr != nil {
				fmt.Fprintln(os.Stderr, "malformed request:", jerr)
				os.Exit(2)
			}
			body := req.BodyBase64
			if req.Body != nil {
				body = []byte(*req.Body)
			}
			var ask func(agent, url string) (bool, error)
			var prepared any
			func() {
				defer func() { prepared = recover() }()
				ask = prepare(body)
			}()
			for i, check := range req.Checks {
				emit(answer(i, prepared, ask, check.Agent, check.URL))
			}
		}
		if err != nil {
			return
		}
	}
}

// answer asks one check, turning an error into `error` and a panic into `crash`.
func answer(i int, prepared any, ask func(agent, url string) (bool, error), agent, url string) (r response) {
	r.Check = i
	if prepared != nil {
		return response{Check: i, Answer: "crash", Message: fmt.Sprint("panic: ", prepared)}
	}
	defer func() {
		if p := recover(); p != nil {
			r = response{Check: i, Answer: "crash", Message: fmt.Sprint("panic: ", p)}
		}
	}()
	allowed, err := ask(agent, url)
	switch {
	case err != nil:
		return response{Check: i, Answer: "error", Message: err.Error()}
	case allowed:
		r.Answer = "allowed"
	default:
		r.Answer = "disallowed"
	}
	return r
}
