// Issue 20: Background Sync for the outbox. The page registers the 'outbox' sync tag when it queues a write;
// when the browser sees the connection return it wakes this worker, which asks the open pages to send their
// queue (the queue lives in the rep's IndexedDB and is sent by the page, with the rep's session).
self.addEventListener('sync', (event) => {
  if (event.tag !== 'outbox') return;
  event.waitUntil(
    self.clients.matchAll({ type: 'window' }).then((clients) => {
      for (const client of clients) client.postMessage({ type: 'flush-outbox' });
    }),
  );
});
