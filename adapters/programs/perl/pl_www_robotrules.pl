#!/usr/bin/perl
# pl-www-robotrules: WWW::RobotRules (Debian libwww-robotrules-perl), speaking robotstxt-adapter/1
# (adapters/PROTOCOL.md). JSON::PP and MIME::Base64 are core Perl.
use strict;
use warnings;

use JSON::PP ();
use MIME::Base64 ();
use URI ();
use WWW::RobotRules ();

my $json = JSON::PP->new->utf8->canonical;    # UTF-8 octets in and out, one line per message

sub write_message {
    print STDOUT $json->encode($_[0]), "\n";
}

# The Debian package that installed the module, when dpkg knows it.
sub debian_source {
    my $version = `dpkg-query -W -f '\${Version}' libwww-robotrules-perl 2>/dev/null`;
    return $? == 0 && $version ne ''
      ? "Debian libwww-robotrules-perl $version"
      : "Perl module WWW::RobotRules $WWW::RobotRules::VERSION (not from a Debian package)";
}

# The body's octets: `body` is decoded JSON text (characters), so encode it back to UTF-8.
sub body_octets {
    my ($request) = @_;
    return MIME::Base64::decode_base64($request->{body_base64}) if exists $request->{body_base64};
    my $body = $request->{body};
    utf8::encode($body);
    return $body;
}

# One check: a fresh rules object per agent and robots.txt URL (the library keeps rules per host
# and forgets them all when the agent changes), parsed once per request.
sub answer_check {
    my ($rules_for, $body, $check) = @_;
    my ($agent, $url) = ($check->{agent}, $check->{url});
    utf8::encode($agent);
    utf8::encode($url);
    my $uri = URI->new($url);
    my $http = ($uri->scheme // '') =~ /^https?$/;    # the library allows anything else unparsed
    my $robots_url = $http ? $uri->scheme . '://' . $uri->host_port . '/robots.txt' : '';
    my $rules = $rules_for->{"$agent\n$robots_url"} //= do {
        my $r = WWW::RobotRules->new($agent);
        $r->parse($robots_url, $body) if $http;
        $r;
    };
    my $allowed = $rules->allowed($url);
    return { answer => 'allowed' } if $allowed && $allowed eq '1';
    return { answer => 'disallowed' } if !$allowed;
    return { answer => 'error', message => "allowed() returned $allowed" };
}

$| = 1;    # flush after every line
binmode STDIN;
binmode STDOUT;
write_message({
    protocol => 'robotstxt-adapter/1',
    id => 'pl-www-robotrules',
    library => 'WWW::RobotRules',
    version => "$WWW::RobotRules::VERSION",
    language => 'Perl',
    licence => 'Artistic-1.0-Perl OR GPL-1.0-or-later',
    source => debian_source(),
    # POD: "parses /robots.txt files as specified in "A Standard for Robot Exclusion", at
    # <http://www.robotstxt.org/wc/norobots.html>" (the 1994 document).
    profile => 'original-1994',
    capabilities => { fetch_status => JSON::PP::false, multiple_agents => JSON::PP::false },
    url => 'full',
    notes => 'WWW::RobotRules->new(agent); parse(robots_url, octets); allowed(url). robots_url '
      . 'is the check URL\'s scheme://host:port/robots.txt; rules are kept per agent and '
      . 'robots_url within a request. The body\'s exact octets are given (Perl byte string). '
      . 'Allow lines and wildcards are ignored; a record applies when its User-agent value '
      . 'is a substring of the agent (case-insensitive); non-http(s) URLs are allowed.',
});

while (my $line = <STDIN>) {
    next unless $line =~ /\S/;
    my $request = eval { $json->decode($line) };
    if (!$request) {
        # The runner never sends this: stop, it will report that we crashed.
        print STDERR "malformed request: $@";
        exit 2;
    }
    my $checks = $request->{checks};
    my $body = eval { body_octets($request) };
    my $failure = $@;
    my %rules_for;
    for my $index (0 .. $#$checks) {
        my $answer = $failure
          ? { answer => 'error', message => $failure }
          : eval { answer_check(\%rules_for, $body, $checks->[$index]) }
          || { answer => 'error', message => substr("$@", 0, 2000) };
        write_message({ check => $index, %$answer });
    }
}
