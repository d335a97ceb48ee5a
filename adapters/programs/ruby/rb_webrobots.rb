# rb-webrobots: the webrobots gem (Debian ruby-webrobots), speaking robotstxt-adapter/1
# (adapters/PROTOCOL.md). json and base64 are Ruby's standard library.
require 'base64'
require 'json'
require 'webrobots'

def write_message(message)
  $stdout.write(JSON.generate(message) + "\n")
end

# Where the library came from: the Debian package when dpkg knows it, else the gem.
def source
  debian = `dpkg-query -W -f '${Version}' ruby-webrobots 2>/dev/null`
  return "Debian ruby-webrobots #{debian}" if $?.success? && !debian.empty?
  "RubyGems webrobots #{Webrobots::VERSION} (not from a Debian package)"
rescue SystemCallError
  "RubyGems webrobots #{Webrobots::VERSION} (not from a Debian package)"
end

# The body as UTF-8 text, invalid sequences replaced by U+FFFD. (Given the binary string Net::HTTP
# returns, the library raises Encoding::CompatibilityError whenever a non-ASCII rule meets a URL
# with a %-encoded non-ASCII octet.)
def body_text(request)
  octets = if request.key?('body_base64')
             Base64.strict_decode64(request['body_base64'])
           else
             request.fetch('body')
           end
  octets.dup.force_encoding(Encoding::UTF_8).scrub("\u{FFFD}")
end

# Answers one request's checks. WebRobots binds the agent at construction and caches robots.txt
# per site, so each agent gets a fresh instance per request, whose http_get returns this body.
def answer(body, checks)
  robots_for = Hash.new do |robots, agent|
    robots[agent] = WebRobots.new(agent, http_get: ->(_uri) { body }, crawl_delay: :ignore)
  end
  checks.each_with_index do |check, index|
    allowed = robots_for[check.fetch('agent')].allowed?(check.fetch('url'))
    write_message(check: index, answer: allowed ? 'allowed' : 'disallowed')
  rescue StandardError, ScriptError, SystemStackError => e
    write_message(check: index, answer: 'error', message: "#{e.class}: #{e.message}"[0, 2000])
  end
end

$stdout.sync = true
$stdin.binmode
write_message(
  protocol: 'robotstxt-adapter/1',
  id: 'rb-webrobots',
  library: 'webrobots',
  version: Webrobots::VERSION,
  language: 'Ruby',
  licence: 'BSD-2-Clause',
  source: source,
  # No standard is named in its README ("a library to help write robots.txt compliant web
  # robots"); its rules follow Google's: longest match wins, Allow wins ties, * and $ wildcards.
  profile: 'google',
  capabilities: { fetch_status: false, multiple_agents: false },
  url: 'full',
  notes: "WebRobots.new(agent, http_get: ->(_) { body }, crawl_delay: :ignore).allowed?(url), " \
         'a fresh instance per agent per request. Text: the body as UTF-8 with invalid ' \
         'sequences replaced by U+FFFD; a BOM is kept. Lines end at LF only: with CRLF the CR ' \
         'stays in each value, so `User-agent: *` matches no agent and rules match nothing. ' \
         'The library always allows /robots.txt; ' \
         'a body its strict grammar rejects (e.g. a line without a colon) is recorded as an ' \
         'error and allows everything, which is the answer reported.'
)

$stdin.each_line do |line|
  next if line.strip.empty?
  begin
    request = JSON.parse(line)
  rescue JSON::ParserError => e
    # The runner never sends this: stop, it will report that we crashed.
    warn "malformed request: #{e.message}"
    exit 2
  end
  checks = request.fetch('checks')
  begin
    body = body_text(request)
  rescue StandardError => e
    checks.each_index { |i| write_message(check: i, answer: 'error', message: e.message) }
    next
  end
  answer(body, checks)
end
