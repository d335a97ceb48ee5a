// java-crawler-commons: crawler-commons' SimpleRobotRulesParser (the robots.txt parser of Apache
// Nutch and StormCrawler), speaking robotstxt-adapter/1 (adapters/PROTOCOL.md).
//
// Built by `robotstxt-conformance peers install`: Maven fetches the pinned jars of pom.xml, whose
// sha256 are checked against checksums.txt, then javac compiles this file against them.

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

public final class JavaCrawlerCommons {
    /** The robots.txt URL handed to parseContent: the protocol never sends the real one. */
    static final String ROBOTS_URL = "http://example.com/robots.txt";

    /** What parseContent is told the body's media type is. */
    static final String CONTENT_TYPE = "text/plain";

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        Gson gson = new GsonBuilder().disableHtmlEscaping().create();
        String version = libraryVersion();
        Map<String, Object> hello = new LinkedHashMap<>();
        hello.put("protocol", "robotstxt-adapter/1");
        hello.put("id", "java-crawler-commons");
        hello.put("library", "crawler-commons");
        hello.put("version", version);
        hello.put("language", "Java");
        hello.put("licence", "Apache-2.0");
        hello.put(
                "source",
                "Maven Central com.github.crawler-commons:crawler-commons:"
                        + version
                        + " (sha256 pinned in checksums.txt; Java "
                        + System.getProperty("java.version")
                        + ")");
        // The class's documentation: "Robots.txt parser following RFC 9309"; release notes of 1.4
        // claim RFC 9309 compliance.
        hello.put("profile", "rfc9309");
        hello.put("capabilities", Map.of("fetch_status", false, "multiple_agents", false));
        hello.put("url", "full");
        hello.put(
                "notes",
                "new SimpleRobotRulesParser() (defaults: exact user-agent matching, max crawl-delay "
                        + "300 s, after which everything is disallowed), then per check "
                        + "parseContent(\"" + ROBOTS_URL + "\", octets, \"" + CONTENT_TYPE + "\", "
                        + "Set.of(agent lower-cased)) and isAllowed(url). The body's exact octets "
                        + "are passed (the library decodes them as UTF-8, or UTF-16 after a BOM); "
                        + "agent names are lower-cased with Locale.ROOT because the API requires "
                        + "it (an upper-case name is an IllegalArgumentException), and the agent `*`, "
                        + "which it refuses, is answered `unsupported`; the URL is "
                        + "passed unchanged (the library parses it with java.net.URI and matches "
                        + "path and query). The robots.txt URL given is fixed: the protocol never "
                        + "sends the real one, and the library uses it only in log messages.");
        out.println(gson.toJson(hello));
        out.flush();

        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) {
                continue;
            }
            JsonObject request = JsonParser.parseString(line).getAsJsonObject();
            byte[] body =
                    request.has("body")
                            ? request.get("body").getAsString().getBytes(StandardCharsets.UTF_8)
                            : Base64.getDecoder().decode(request.get("body_base64").getAsString());
            JsonArray checks = request.getAsJsonArray("checks");
            Map<String, SimpleRobotRules> byAgent = new HashMap<>();
            for (int i = 0; i < checks.size(); i++) {
                JsonObject check = checks.get(i).getAsJsonObject();
                Map<String, Object> answer = new LinkedHashMap<>();
                answer.put("check", i);
                try {
                    String agent = check.get("agent").getAsString().toLowerCase(Locale.ROOT);
                    if (agent.equals("*")) {
                        // parseContent throws IllegalArgumentException for it: its API asks for
                        // an empty collection to read the `*` group, which is not this question.
                        answer.put("answer", "unsupported");
                        answer.put(
                                "reason",
                                "the API refuses `*` as a robot name (IllegalArgumentException)");
                        out.println(gson.toJson(answer));
                        out.flush();
                        continue;
                    }
                    SimpleRobotRules rules = byAgent.get(agent);
                    if (rules == null) {
                        rules = new SimpleRobotRulesParser()
                                .parseContent(ROBOTS_URL, body, CONTENT_TYPE, Set.of(agent));
                        byAgent.put(agent, rules);
                    }
                    boolean allowed = rules.isAllowed(check.get("url").getAsString());
                    answer.put("answer", allowed ? "allowed" : "disallowed");
                } catch (RuntimeException | StackOverflowError e) {
                    answer.put("answer", "error");
                    answer.put("message", e.toString());
                }
                out.println(gson.toJson(answer));
                out.flush();
            }
        }
    }

    /** The version Maven recorded in the crawler-commons jar (its pom.properties). */
    static String libraryVersion() throws java.io.IOException {
        java.util.Properties properties = new java.util.Properties();
        try (java.io.InputStream in =
                SimpleRobotRulesParser.class.getResourceAsStream(
                        "/META-INF/maven/com.github.crawler-commons/crawler-commons/pom.properties")) {
            if (in == null) {
                return "unknown";
            }
            properties.load(in);
        }
        return properties.getProperty("version", "unknown");
    }
}
