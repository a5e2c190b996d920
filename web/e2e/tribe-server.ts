/**
 * Starting the real binaries for the browser suite: `tribe serve` on a free loopback port with a
 * fresh data directory (the global setup's server, and the servers of specs that need other
 * settings, such as online payment or a language model), and the fake OpenAI-compatible provider
 * `bin/fakeai` (internal/agent/aitest/cmd/fakeai).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const READY_TIMEOUT_MS = 30_000;

/** Asks the OS for a free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not read the port of a probe socket'));
        return;
      }
      const { port } = address;
      server.close(() => resolvePort(port));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Stops a child process: SIGTERM, then SIGKILL after 10 s. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (exited(child)) return;
  const done = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timedOut = await Promise.race([done.then(() => false), sleep(10_000).then(() => true)]);
  if (timedOut) {
    child.kill('SIGKILL');
    await done;
  }
}

/** A binary of the repository's bin/ (TRIBE_BIN overrides tribe's path). */
function binary(name: 'tribe' | 'fakeai'): string {
  const path =
    name === 'tribe'
      ? resolve(webDir, process.env.TRIBE_BIN || '../bin/tribe')
      : resolve(webDir, '../bin/fakeai');
  if (!existsSync(path)) {
    throw new Error(
      `${name} not found at ${path}. Build it with \`make build bin/fakeai\` in the repository root` +
        (name === 'tribe' ? ', set TRIBE_BIN, or set E2E_BASE_URL to test a running server.' : '.'),
    );
  }
  return path;
}

export interface TribeServer {
  baseURL: string;
  stop: () => Promise<void>;
}

/**
 * Starts `tribe serve` with `env` added on a free port and a fresh data directory, logging
 * to test-results/`logName`, and waits for /readyz.
 */
export async function startTribe(
  logName: string,
  env: Record<string, string>,
): Promise<TribeServer> {
  const bin = binary('tribe');
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'tribe-e2e-'));
  const logDir = join(webDir, 'test-results');
  await mkdir(logDir, { recursive: true });
  // Workers start servers of the same name at once: each worker writes its own log.
  const worker = process.env.TEST_PARALLEL_INDEX;
  const logFile = join(logDir, worker ? logName.replace(/\.log$/, `-w${worker}.log`) : logName);
  const log = createWriteStream(logFile);
  const baseURL = `http://127.0.0.1:${port}`;
  const child = spawn(bin, ['serve'], {
    env: {
      ...process.env,
      TRIBE_ADDR: `127.0.0.1:${port}`,
      TRIBE_DATA_DIR: dataDir,
      TRIBE_BASE_URL: baseURL,
      // Reminders, lapsed holds and calendars within two seconds of their time, not thirty, so
      // the specs that wait for background work wait less.
      TRIBE_SWEEP_INTERVAL: '2s',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const stop = async () => {
    await stopChild(child);
    log.end();
    await rm(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError = 'no answer yet';
  while (Date.now() < deadline && !exited(child)) {
    try {
      const res = await fetch(`${baseURL}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return { baseURL, stop };
      lastError = `GET /readyz answered ${res.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await sleep(200);
  }
  const why = exited(child)
    ? `tribe exited early (code ${child.exitCode}, signal ${child.signalCode})`
    : `tribe was not ready within ${READY_TIMEOUT_MS / 1000} s (${lastError})`;
  await stop();
  const tail = (await readFile(logFile, 'utf8').catch(() => '')).slice(-4000);
  throw new Error(`${why}.\n${tail}`);
}

export interface FakeAI {
  /** The OpenAI-compatible base URL, for AI_BASE_URL. */
  url: string;
  stop: () => Promise<void>;
}

/**
 * Starts the fake provider (aitest.Echo): it calls search_knowledge_base with the question, then
 * answers "Fake model answer. The search found: …", a word per chunk.
 */
export async function startFakeAI(): Promise<FakeAI> {
  const child = spawn(binary('fakeai'), ['-addr', '127.0.0.1:0', '-pause', '10ms'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolveURL, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`fakeai did not start: ${out}`)), 10_000);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (piece: string) => {
      out += piece;
      const found = /^fakeai: serving (\S+)$/m.exec(out);
      if (found?.[1]) {
        clearTimeout(timer);
        resolveURL(found[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`fakeai exited (code ${code}): ${out}`));
    });
  });
  return { url, stop: () => stopChild(child) };
}
