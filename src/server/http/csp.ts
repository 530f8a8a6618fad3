// The service worker keeps the map tiles the rep viewed (vite.config.ts, CacheFirst). A worker's own fetch()
// obeys the Content-Security-Policy its script was served with, so `connect-src 'self'` alone makes every
// tile it fetches fail (the page then shows none, online too). The configured tile server is allowed here.

/**
 * The CSP sources of a Leaflet tile URL template: its origin, with a `{s}` subdomain placeholder as a wildcard
 * (`https://{s}.tile.example/{z}/{x}/{y}.png` -> `https://*.tile.example`); none for an empty or unusable URL
 * or one on the app's own origin ('self' covers it).
 */
export function tileSources(tileUrl: string): string[] {
  const template = tileUrl.trim();
  if (!template) return [];
  let url: URL;
  try {
    // Placeholders replaced by something a URL may hold; `{s}` is a subdomain, so it becomes a wildcard below.
    url = new URL(template.replace(/\{s\}/g, 'subdomain-wildcard').replace(/\{[^}]*\}/g, '0'));
  } catch {
    return [];
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return [];
  if (/[{}]/.test(url.host)) return [];
  const host = url.host.replace(/^subdomain-wildcard\./, '*.');
  if (host.includes('subdomain-wildcard')) return [];
  return [`${url.protocol}//${host}`];
}
