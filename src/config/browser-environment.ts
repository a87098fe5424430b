// What of the process environment Chromium is given: the few variables a browser needs, never credentials.

/**
 * What Chromium may see of the environment: where programs, home, temp files, locale and fonts are. Nothing else
 * passes (DATABASE_URL, REDIS_URL, KUMO_* hold credentials a compromised renderer must not read).
 */
export const browserEnvironmentNames = [
  'PATH',
  'HOME',
  'TMPDIR',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'FONTCONFIG_PATH',
  'FONTCONFIG_FILE',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_RUNTIME_DIR',
] as const;

export function browserEnvironment(source: Record<string, string | undefined>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of browserEnvironmentNames) {
    const value = source[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}
