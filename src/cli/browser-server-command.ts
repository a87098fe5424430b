// `kumo browser-server`: the remote browser for KUMO_BROWSER_WS, Chromium with Kumo's hardening.
import { loadConfigFromProcess } from '../config.js';
import { int, parse, print, UsageError } from './args.js';

/**
 * The only supported remote browser for KUMO_BROWSER_WS: Playwright's launchServer with the local launch's hardening
 * (quiet switches, no unproxied WebRTC UDP, refusing default proxy, sandbox setting, minimal environment).
 */
export async function browserServer(args: string[]): Promise<void> {
  const { values } = parse(args, { host: { type: 'string' }, port: { type: 'string' } });
  const port = int(values.port ?? '0', 'port')!;
  if (port > 65535) throw new UsageError('--port must be at most 65535');
  const config = loadConfigFromProcess();
  const { findChromium, launchHardenedBrowserServer, loopbackBypassReason } =
    await import('../browser/browser-pool.js');
  if (config.browser.loopbackBypass) throw new UsageError(loopbackBypassReason);
  const executablePath = config.browser.path === null ? null : findChromium(config.browser.path);
  if (!executablePath) throw new UsageError('no Chromium: install chromium-headless-shell or set KUMO_BROWSER_PATH');
  const server = await launchHardenedBrowserServer({
    executablePath,
    sandbox: config.browser.sandbox,
    env: config.browser.env,
    host: values.host ?? '127.0.0.1',
    port,
    // Where KUMO_BROWSER_WS is set here too (deploy/kubernetes/), serve at its path: one secret URL for both sides,
    // instead of a random path the API instances could not know.
    ...(config.browser.wsEndpoint === null ? {} : { wsPath: new URL(config.browser.wsEndpoint).pathname }),
    proxyBindHost: '127.0.0.1',
  });
  process.stderr.write(`browser server on ${server.wsEndpoint} (Ctrl-C stops); set KUMO_BROWSER_WS to it\n`);
  print({ ws_endpoint: server.wsEndpoint, sandbox: config.browser.sandbox });
  await new Promise<void>((resolve) => {
    const stop = () => void server.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
