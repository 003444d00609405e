/**
 * `npm run fuzz [-- --edits N] [--seed S] [--dump-slow DIR]`: the long stdio fuzz run of the built
 * server (default 100,000 edits). Prints a summary table; exits 1 on a crash, an unanswered
 * request, an error response or error logged by the server, a request whose service time (see
 * FuzzReport.latency) is over 100 ms, or a round trip over 100 ms per request in flight; 2 on
 * bad arguments. --dump-slow writes the document versions the server took over 100 ms to analyse,
 * and the documents (with the requests) that got an error response.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFuzz, type FuzzOptions, type FuzzReport } from './driver';

const LIMIT_MS = 100;
/** Requests in flight at most (the driver's default): a round trip waits behind the others at most. */
const IN_FLIGHT = 4;

interface Args {
  edits: number;
  seed: number;
  /** Where to write the documents whose analysis took over the limit (to reproduce them). */
  dumpSlow?: string;
}

function parseArgs(argv: string[]): Args {
  const o: Args = { edits: 100_000, seed: 7 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = inline ?? argv[++i];
    const n = Number(String(value).replace(/_/g, ''));
    if ((flag === '--edits' || flag === '--seed') && Number.isInteger(n) && n >= 0) o[flag === '--edits' ? 'edits' : 'seed'] = n;
    else if (flag === '--dump-slow' && value) o.dumpSlow = value;
    else {
      process.stderr.write(`fuzz: expected --edits N, --seed S (non-negative integers) and --dump-slow DIR, got '${argv.slice(i - (inline ? 0 : 1)).join(' ')}'\n`);
      process.exit(2);
    }
  }
  return o;
}

/** Hooks that write each document version the server took over LIMIT_MS to analyse into `dir` (at most 20). */
function slowDumper(dir: string): Pick<FuzzOptions, 'onEdit' | 'onServer'> {
  const texts = new Map<string, string>();
  let written = 0;
  fs.mkdirSync(dir, { recursive: true });
  return {
    onEdit: (uri, version, text) => {
      texts.set(`${uri}#${version}`, text);
      if (texts.size > 2000) texts.delete(texts.keys().next().value as string);
    },
    onServer: (server) =>
      server.connection.onNotification('ciRoutes/analysisTiming', (p: { uri: string; version: number; totalMs: number }) => {
        const text = texts.get(`${p.uri}#${p.version}`);
        if (p.totalMs <= LIMIT_MS || text === undefined || written >= 20) return;
        const name = `${path.basename(path.dirname(path.dirname(fileURLToPath(p.uri))))}-v${p.version}-${Math.round(p.totalMs)}ms.php`;
        fs.writeFileSync(path.join(dir, name), text);
        written++;
      }),
  };
}

const mb = (b?: number) => (b === undefined ? 'n/a' : `${(b / 1024 / 1024).toFixed(1)} MB`);

function table(r: FuzzReport): string {
  const rows: [string, string][] = [
    ['seed', String(r.seed)],
    ['edits', String(r.edits)],
    ['requests', `${r.requests} (${r.cancelled} cancelled at once)`],
    ['unanswered', String(r.unanswered)],
    ['error responses', String(r.failed.length)],
    ['server errors logged', String(r.serverErrors.length)],
    ['crashes', String(r.crashes)],
    ['messages shown / linked', `${r.messages.shown} / ${r.messages.linked.length}`],
    ['round trip max / p99', `${r.latency.max.toFixed(1)} ms (${r.latency.slowest || '-'}) / ${r.latency.p99.toFixed(1)} ms`],
    ['service time max / p99', `${r.latency.serviceMax.toFixed(1)} ms / ${r.latency.serviceP99.toFixed(1)} ms`],
    [`service over ${LIMIT_MS} ms`, String(r.latency.overLimit)],
    ['RSS first / last / max', `${mb(r.rss.first)} / ${mb(r.rss.last)} / ${mb(r.rss.max)} (${r.rss.samples} samples)`],
    ['duration', `${r.seconds.toFixed(1)} s`],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  const methods = Object.entries(r.byMethod)
    .sort((a, b) => b[1].serviceMax - a[1].serviceMax)
    .map(([m, s]) => `  ${m.padEnd(32)} ${String(s.count).padStart(7)}  round trip max ${s.max.toFixed(1).padStart(6)} ms  service max ${s.serviceMax.toFixed(1).padStart(6)} ms`);
  return [...rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`), 'per request method (answers, slowest):', ...methods].join('\n');
}

async function main(): Promise<void> {
  const { edits, seed, dumpSlow } = parseArgs(process.argv.slice(2));
  process.stderr.write(`fuzzing the language server: ${edits} edits, seed ${seed}\n`);
  const report = await runFuzz({
    edits,
    seed,
    slowMs: LIMIT_MS,
    maxInFlight: IN_FLIGHT,
    ...(dumpSlow ? slowDumper(dumpSlow) : {}),
    onProgress: (done) => process.stderr.isTTY && process.stderr.write(`\r${done}/${edits} edits`),
  });
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  process.stdout.write(`${table(report)}\n`);
  for (const d of report.crashDetails) process.stdout.write(`crash: ${d}\n`);
  for (const f of report.failed.slice(0, 10)) process.stdout.write(`error response to ${f.method}: ${f.message}\n`);
  if (dumpSlow && report.slowestRequest) {
    const { text, ...request } = report.slowestRequest;
    fs.writeFileSync(path.join(dumpSlow, 'slowest-request.php'), text ?? '');
    fs.writeFileSync(path.join(dumpSlow, 'slowest-request.json'), `${JSON.stringify(request, null, 2)}\n`);
  }
  if (dumpSlow) {
    // The document each failed request was about, as it was when sent, with the request.
    report.failed.slice(0, 20).forEach((f, i) => {
      fs.writeFileSync(path.join(dumpSlow, `failed-${i}.php`), f.text ?? '');
      fs.writeFileSync(path.join(dumpSlow, `failed-${i}.json`), `${JSON.stringify({ method: f.method, params: f.params, message: f.message }, null, 2)}\n`);
    });
  }
  for (const e of report.serverErrors.slice(0, 10)) process.stdout.write(`server error: ${e}\n`);
  const ok = report.crashes === 0 && report.unanswered === 0 && report.failed.length === 0 && report.serverErrors.length === 0 && report.latency.overLimit === 0 && report.latency.max <= IN_FLIGHT * LIMIT_MS && report.messages.linked.length === 0;
  process.stdout.write(ok ? 'fuzz: OK\n' : 'fuzz: FAILED\n');
  process.exitCode = ok ? 0 : 1;
}

main().catch((e: unknown) => {
  process.stderr.write(`fuzz: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
