// Recognises bot-challenge and block pages that arrive with a 2xx, so they end as target_blocked, not as data.

// Challenge pages are small; real product and data pages are not. Scanning only small bodies keeps a shop page
// that merely embeds a CAPTCHA widget (a login or contact form) from being mistaken for a block.
const maxChallengeBytes = 64 * 1024;

// Markers that appear on the interstitial itself, not on ordinary pages of a site behind the same vendor.
const challengeMarkers = [
  '<title>just a moment...</title>', // Cloudflare managed challenge
  'window._cf_chl_opt', // Cloudflare challenge bootstrap
  'attention required! | cloudflare', // Cloudflare block page
  'captcha-delivery.com', // DataDome challenge frame
  'px-captcha', // PerimeterX / HUMAN
  'awswafcaptcha', // AWS WAF CAPTCHA action (also matches AwsWafCaptcha)
  '/_sec/cp_challenge/', // Akamai Bot Manager challenge
  'incapsula incident id', // Imperva block page
];

// A CAPTCHA widget alone is a block only when it is nearly the whole page.
const maxWidgetPageBytes = 16 * 1024;
const widgetMarkers = ['g-recaptcha', 'h-captcha', 'cf-turnstile'];

/** Headers some vendors set on a challenge response whatever its status. */
export function isChallengeResponse(headers: Readonly<Record<string, string | string[] | undefined>>): boolean {
  const mitigated = headers['cf-mitigated'];
  return typeof mitigated === 'string' && mitigated.toLowerCase() === 'challenge';
}

/** A small 2xx body that is a CAPTCHA or block interstitial rather than the page asked for. */
export function looksLikeBlockPage(body: Uint8Array): boolean {
  if (body.byteLength > maxChallengeBytes) return false;
  // Markers are ASCII, so a byte-wise latin1 view finds them whatever the page's charset.
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1').toLowerCase();
  if (challengeMarkers.some((marker) => text.includes(marker))) return true;
  return body.byteLength <= maxWidgetPageBytes && widgetMarkers.some((marker) => text.includes(marker));
}
