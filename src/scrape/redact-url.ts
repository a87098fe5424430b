// Removes caller credentials carried in query parameters (e.g. e-Stat `appId`) before a URL is stored, logged or echoed.

export function redactUrl(url: URL, secretQueryParams: readonly string[]): string {
  if (secretQueryParams.length === 0) return url.href;
  const copy = new URL(url.href);
  for (const name of secretQueryParams) {
    // Case-insensitive: `APPID=` must not slip through because the site happens to accept it.
    for (const present of [...copy.searchParams.keys()]) {
      if (present.toLowerCase() === name.toLowerCase()) copy.searchParams.delete(present);
    }
  }
  return copy.href;
}
