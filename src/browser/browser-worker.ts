// Worker-thread entry of the browser thread. From dist/ it is plain JavaScript; from src/ (tests run TypeScript) a
// resolve hook maps the `.js` specifiers of our sources onto their `.ts` files first, as extraction-worker.ts does.
import { registerHooks } from 'node:module';

if (import.meta.url.endsWith('.ts')) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (/^\.\.?\//.test(specifier) && specifier.endsWith('.js')) {
        try {
          return nextResolve(specifier, context);
        } catch {
          return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
        }
      }
      return nextResolve(specifier, context);
    },
  });
}

await import('./browser-thread.js');
