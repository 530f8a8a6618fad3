// Reading /api/events in tests: an open Server-Sent Events stream read with fetch.
import type { AppEvent } from '../../src/server/events/bus.js';
import { ORIGIN, type TestUser } from './app.js';

export interface SseEvent {
  event: string;
  data: AppEvent;
}

/** An open /api/events stream read with fetch; `next` resolves with the next event matching a test. */
export async function openStream(baseUrl: string, user: TestUser, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/api/events`, {
    headers: { cookie: user.cookie, origin: ORIGIN, accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const comments: string[] = [];
  const received: SseEvent[] = [];
  let pending: Promise<ReadableStreamReadResult<string>> | undefined;

  const next = async (test: (e: SseEvent) => boolean, timeoutMs: number): Promise<SseEvent> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = received.findIndex(test);
      if (found >= 0) return received.splice(found, 1)[0]!;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event within ${timeoutMs} ms`);
      // One read stays pending across timeouts, so no chunk is ever dropped.
      pending ??= reader.read();
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        pending,
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), left);
        }),
      ]);
      clearTimeout(timer);
      if (chunk !== 'timeout') pending = undefined;
      if (chunk === 'timeout') continue;
      if (chunk.done) throw new Error('stream ended');
      buffer += chunk.value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message';
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) comments.push(line.slice(1).trim());
          else if (line.startsWith('event: ')) event = line.slice(7);
          else if (line.startsWith('data: ')) data += line.slice(6);
        }
        if (data) received.push({ event, data: JSON.parse(data) as AppEvent });
      }
    }
  };
  return {
    res,
    next,
    comments,
    close: () => {
      controller.abort();
      return reader.cancel().catch(() => {});
    },
  };
}
