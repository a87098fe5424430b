// Lets a bench import src/ as source: Node strips the types but does not map src/'s `.js` specifiers onto their `.ts`
// files (as src/scrape/extraction-worker.ts does for its thread). Imported first; src/ is then imported dynamically.
import { registerHooks } from 'node:module';

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
