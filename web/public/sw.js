// The site's service worker (docs/architecture.md, "Notification centre and Web Push"). It shows the
// notifications the server pushes and opens their page when one is clicked. It caches nothing and
// answers no request: pages and the API always come from the network, so a member never sees a stale
// page. Plain JavaScript, served as it is, outside the pages' bundles and their budget.

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** A link from a push is opened only when it is a path on this site. */
function safePath(link) {
  if (typeof link !== 'string' || !link.startsWith('/') || link.startsWith('//')) return '/members';
  return link;
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: event.data ? event.data.text() : '' };
  }
  const title = typeof data.title === 'string' && data.title !== '' ? data.title : 'The tribe';
  const options = {
    body: typeof data.body === 'string' ? data.body : '',
    icon: '/icon-192.png',
    badge: '/icon-192.png',
    data: { link: safePath(data.link) },
  };
  if (typeof data.tag === 'string' && data.tag !== '') {
    options.tag = data.tag;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const link = safePath(event.notification.data?.link);
  const target = new URL(link, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const w of windows) {
        if (w.url === target && 'focus' in w) return w.focus();
      }
      for (const w of windows) {
        if (new URL(w.url).origin === self.location.origin && 'navigate' in w) {
          return w.focus().then(() => w.navigate(target));
        }
      }
      return self.clients.openWindow(target);
    }),
  );
});
