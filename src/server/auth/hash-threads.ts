// Password hashing on threads of its own, at the lowest CPU priority (for the morning burst). better-auth's
// scrypt runs on libuv's thread pool at the same priority as the event loop, so a team signing in at once takes
// the CPU the scans need. Here each hash runs synchronously on a worker thread that lowered its own priority to
// nice 19 (Linux: a thread's nice value is its own), so the kernel gives the event loop the CPU first and the
// hashes take what is left: sign-ins wait in a burst, scans do not. Where a thread cannot be reniced (not
// Linux), the hashes still leave the event loop and the pool alone.
//
// The hash is better-auth's own (@better-auth/utils/password: `salt:key` in hex, scrypt N 16384, r 16, p 1, 64
// bytes, the password NFKC-normalised), so nothing stored changes; test/unit/passwords.test.ts verifies hashes
// both ways against better-auth's functions.
import { Worker } from 'node:worker_threads';

/** Runs inside each worker thread (CommonJS, no imports of ours). */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { randomBytes, scryptSync } = require('node:crypto');
let tid = null;
try {
  tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(tid, 19);
} catch {}
const key = (password, salt) =>
  scryptSync(password.normalize('NFKC'), salt, 64, { N: 16384, r: 16, p: 1, maxmem: 128 * 16384 * 16 * 2 });
parentPort.postMessage({ ready: true, tid });
parentPort.on('message', ({ id, op, password, hash }) => {
  try {
    if (op === 'hash') {
      const salt = randomBytes(16).toString('hex');
      parentPort.postMessage({ id, value: salt + ':' + key(password, salt).toString('hex') });
    } else {
      const [salt, stored] = String(hash).split(':');
      if (!salt || !stored) throw new Error('Invalid password hash');
      parentPort.postMessage({ id, value: key(password, salt).toString('hex') === stored });
    }
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface Reply {
  id?: number;
  value?: string | boolean;
  error?: string;
  ready?: boolean;
  tid?: number | null;
}

interface Pending {
  resolve(value: string | boolean): void;
  reject(error: Error): void;
}

/** One worker thread; one hash at a time (the queue in passwords.ts decides how many threads are busy). */
class HashThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  /** The thread's id in the kernel (Linux), once it started; for tests and diagnostics. */
  readonly tid: Promise<number | null>;
  dead = false;

  constructor() {
    this.worker = new Worker(WORKER_SOURCE, { eval: true });
    // Idle threads do not keep the process alive (tests, a CLI that hashed one password).
    this.worker.unref();
    let started!: (tid: number | null) => void;
    this.tid = new Promise((resolve) => (started = resolve));
    this.worker.on('message', (reply: Reply) => {
      if (reply.ready) return started(reply.tid ?? null);
      const job = reply.id === undefined ? undefined : this.pending.get(reply.id);
      if (!job) return;
      this.pending.delete(reply.id!);
      if (reply.error !== undefined) job.reject(new Error(reply.error));
      else job.resolve(reply.value!);
      if (this.pending.size === 0) this.worker.unref();
    });
    const fail = (error: Error) => {
      this.dead = true;
      started(null);
      for (const job of this.pending.values()) job.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`password hashing thread exited (${code})`)));
  }

  run(message: { op: 'hash'; password: string } | { op: 'verify'; password: string; hash: string }) {
    return new Promise<string | boolean>((resolve, reject) => {
      const id = this.next++;
      this.pending.set(id, { resolve, reject });
      // Busy: keep the process alive until the answer arrives.
      this.worker.ref();
      this.worker.postMessage({ id, ...message });
    });
  }

  busy() {
    return this.pending.size > 0;
  }

  terminate() {
    return this.worker.terminate();
  }
}

const threads: HashThread[] = [];

/** A thread with nothing to do (a new one while fewer than `limit` exist; a dead one is replaced). */
function idleThread(limit: number): HashThread {
  for (let i = threads.length - 1; i >= 0; i--) if (threads[i]!.dead) threads.splice(i, 1);
  const idle = threads.find((t) => !t.busy());
  if (idle) return idle;
  const thread = new HashThread();
  threads.push(thread);
  // More threads than the queue lets run at once would only sit idle.
  while (threads.length > limit) {
    const spare = threads.findIndex((t) => !t.busy() && t !== thread);
    if (spare < 0) break;
    void threads.splice(spare, 1)[0]!.terminate();
  }
  return thread;
}

/** better-auth's hash of a password, computed on a low-priority thread. */
export async function hashOnThread(password: string, limit: number): Promise<string> {
  return (await idleThread(limit).run({ op: 'hash', password })) as string;
}

/** Whether a password matches a better-auth hash, checked on a low-priority thread. */
export async function verifyOnThread(hash: string, password: string, limit: number): Promise<boolean> {
  return (await idleThread(limit).run({ op: 'verify', password, hash })) as boolean;
}

/** The kernel thread ids of the hashing threads started so far (Linux; null elsewhere). */
export const hashThreadIds = (): Promise<(number | null)[]> => Promise.all(threads.map((t) => t.tid));
