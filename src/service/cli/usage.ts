import { DEFAULT_HOST, DEFAULT_PORT, VERSION } from '../compose/config'
import { defaultDataDir } from '../compose/data-dir'

/** `voicedesk --help`. */
export const USAGE = `VoiceDesk ${VERSION}: a local workbench for voice agents, with the /v1 service.

Usage:
  voicedesk serve [--port N] [--host H] [--data-dir DIR | --database-url URL] [--log-level LEVEL] [--force-new]
                  [--allowed-host NAME]... [--cors-origin ORIGIN]... [--allow-webhook-host HOST]...
                  [--max-media-size SIZE] [--media-fetch-timeout SECONDS] [--media-fetch-deadline SECONDS]
                  [--max-calls N] [--sip-port N|off] [--sip-host H] [--sip-allow-outbound HOST[:PORT],...]
                  [--journal on|off] [--seed FILE]
  voicedesk keys create [--name NAME] [--data-dir DIR | --database-url URL]
  voicedesk keys list [--data-dir DIR | --database-url URL]
  voicedesk keys revoke <key id> [--data-dir DIR | --database-url URL]
  voicedesk sip-user add NAME | list | reset NAME | remove NAME [--data-dir DIR | --database-url URL]
  voicedesk ai-engine [offline | openai-compatible --base-url URL --model NAME [--api-key KEY]] [--data-dir DIR | --database-url URL]
  voicedesk stt-engine [off | openai-compatible --base-url URL [--model NAME] [--api-key KEY]] [--data-dir DIR | --database-url URL]
  voicedesk webhook-secret [generate | set <whsec_...> | clear] [--data-dir DIR | --database-url URL]
  voicedesk test-agent <agentId> --suite FILE [--concurrency N] [--repeat N] [--junit FILE] [--json FILE]
                       [--base-url URL] [--api-key KEY]
  voicedesk test-agent <agentId> --generate FILE [--force] [--base-url URL] [--api-key KEY]
  voicedesk export FILE [--passphrase-file F] [--data-dir DIR | --database-url URL]
  voicedesk import FILE [--passphrase-file F] [--data-dir DIR | --database-url URL]
  voicedesk snapshot NAME | restore NAME | snapshots [--data-dir DIR | --database-url URL]
  voicedesk reset --yes [--data-dir DIR | --database-url URL]
  voicedesk --version | --help

In a checkout, run it as "npx voicedesk ..." (or "npm run serve -- ...").

serve      Runs the /v1 service headless (no window). Listens on ${DEFAULT_HOST}:${DEFAULT_PORT}
           unless --port / VOICEDESK_PORT say otherwise (0 picks a free port).
           VOICEDESK_API_KEY, if set, is a key that will work (for demos and CI; at least
           20 characters of A-Z a-z 0-9 _ -).
           --allowed-host    another name clients may use in the Host header (a proxy, a LAN name)
           --cors-origin     a web origin allowed to call /v1 (* for any); replaces the default
                             (http://localhost:* and http://127.0.0.1:*)
           --allow-webhook-host  a webhook host allowed although its address is link-local
           --max-media-size  the largest media uploaded or fetched from a URL for a transcription
                             (bytes, or with a unit: 500MB, 2GiB; default 2GiB)
           --media-fetch-timeout  seconds a media URL's server may stay silent (default 30)
           --media-fetch-deadline  seconds a media URL's whole fetch may take (default 600); a
                             fetch slower than 4 KiB/s over 30 s ends sooner
           --max-calls       the most live calls this service runs at once (default 50; in
                             team mode, per instance); the next is refused, TOO_MANY_CALLS
           --sip-port        the SIP line's UDP and TCP port (default 5060; 0 picks a free one; off for
                             none; VOICEDESK_SIP_PORT): an assigned number answers at sip:<number>@host:port
           --sip-host        the SIP line's address (default 127.0.0.1); another address only once SIP
                             users exist (sip-user add): REGISTER, and INVITEs from other machines,
                             then need a user's password (digest authentication)
           --sip-allow-outbound  hosts (HOST or HOST:PORT, IP addresses) whose sip: URIs the agents may
                             call (POST /v1/voice-agents/call); this machine's loopback always
           --journal         on (the default) or off: the request journal of /v1 requests and
                             sockets, read at /_voicedesk/requests (7 days, 50,000 entries at most)
           --force-new       start over with a new database when the old one went missing
           --seed            a seed applied when the default project is empty: JSON of agents and
                             phone numbers, or a state archive (.tar.gz); default: the data folder's
                             voicedesk.seed.json, if any. A bad seed stops the start.
keys       Manages the API keys of the default project. A new key is shown once.
sip-user   Manages the SIP line's users (softphones that register, and that agents call):
           add prints a new random password once, reset prints a new one; only a digest hash
           is stored. Exit 1 when the user exists (add) or does not (reset, remove).
ai-engine  Shows or chooses the engine of AI-content jobs: offline (the default), or an
           OpenAI-compatible chat endpoint such as a local Ollama (base URL .../v1).
           Takes effect at the next start of the service. Translation jobs need the
           OpenAI-compatible one (offline: they fail, LLM_ENGINE_NOT_CONFIGURED); they read
           the choice for each job.
stt-engine Shows or chooses speech recognition for live calls: off (the default), or an
           OpenAI-compatible /audio/transcriptions server such as whisper.cpp's server,
           speaches or LocalAI (base URL .../v1). Takes effect at the next start.
export     Writes the default project's state (agents, numbers, jobs and their media, webhook
           deliveries, settings) to FILE (.tar.gz). Secrets stay sealed with this data folder's
           key, and settings' secrets are left out; with --passphrase-file (a file whose first
           line is the passphrase, 8 characters or more) they are sealed under the passphrase,
           so another service can import them.
import     Reads FILE into the default project, which must be empty (reset first).
snapshot   Keeps the project's state under NAME (A-Z a-z 0-9 . _ -, up to 64); snapshots lists
           them; restore NAME puts the project back as it was (settings stay as they are).
reset      Empties the default project (agents, numbers, jobs, deliveries); keys stay. Needs --yes.
webhook-secret
           Shows whether webhooks are signed, or sets the Standard Webhooks signing secret
           (generate prints a new one once; give it to your receivers). A running service
           follows within a second.
test-agent Plays a test suite (JSON: docs/api.md, "Test suites and runs") against an agent of a
           RUNNING service, over HTTP: one line per scenario as it ends (PASS/FAIL, the failing
           fields as "field: expected X, got Y", the conversation id), then a summary with
           first-audio and voice-to-voice p50/p95. Exit 0 when every scenario passed, 1 when one
           failed, 2 on a usage or connection error (unreachable service, refused key, no such agent).
           --base-url        the service (default http://${DEFAULT_HOST}:${DEFAULT_PORT}, or VOICEDESK_PORT's port)
           --api-key         a key of the service; default VOICEDESK_API_KEY
           --concurrency     calls at once, 1 to 20 (default 4); --repeat plays the suite N rounds (1 to 50)
           --junit, --json   also write the run as JUnit XML (for CI) or as JSON
           --generate        writes the agent's starter suite to FILE; an existing FILE is kept
                             unless --force
           Ctrl-C stops following the run (exit 130); the service finishes it.

Data folder: --data-dir, else VOICEDESK_DATA_DIR, else ${defaultDataDir()}

Team mode: --database-url postgres://USER:PASSWORD@HOST:5432/DB (or VOICEDESK_DATABASE_URL) runs
on PostgreSQL 15 or newer instead of a data folder; any number of instances may share one
database. Every instance needs the same VOICEDESK_SECRET_KEY (32 random bytes in base64 or
hex; make one with: openssl rand -base64 32).`
