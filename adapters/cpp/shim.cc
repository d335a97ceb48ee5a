// Our C interface to Google's robots.txt matcher (upstream robots.cc, fetched at build time by
// ../build.rs; none of Google's code is in this repository).
//
// Every argument is a pointer and a length: bodies are raw bytes and may hold NUL or invalid UTF-8.
// No C++ exception crosses into Rust: each is caught and turned into a negative return value.

#include <cstddef>
#include <new>
#include <string>

#include "robots.h"

extern "C" {

// Is `url` allowed for the product token `agent` by the robots.txt `body`?
// Returns 1 (allowed), 0 (disallowed), -1 (out of memory) or -2 (any other C++ exception).
// When `matching_line` is not null it receives the line that decided (0: none matched).
int robotstxt_google_one_agent_allowed(const char* body, size_t body_len, const char* agent,
                                       size_t agent_len, const char* url, size_t url_len,
                                       int* matching_line) {
  try {
    const std::string robots_txt(body, body_len);
    googlebot::RobotsMatcher matcher;
    const bool allowed = matcher.OneAgentAllowedByRobots(
        robots_txt, std::string(agent, agent_len), std::string(url, url_len));
    if (matching_line != nullptr) *matching_line = matcher.matching_line();
    return allowed ? 1 : 0;
  } catch (const std::bad_alloc&) {
    return -1;
  } catch (...) {
    return -2;
  }
}

}  // extern "C"
