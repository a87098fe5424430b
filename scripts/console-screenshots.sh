#!/usr/bin/env bash
# Regenerates docs/console/*.png: builds, installs a Japanese font when missing (or Japanese pages are captured as
# empty boxes), runs the console's Chromium test with KUMO_CONSOLE_SCREENSHOTS_DIR set, and shrinks the PNGs.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! fc-list 2>/dev/null | grep -qi "noto sans cjk"; then
  if command -v apt-get >/dev/null 2>&1; then
    apt-get install -y -qq fonts-noto-cjk >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq fonts-noto-cjk)
  else
    echo "warning: no Japanese font (fonts-noto-cjk) and no apt-get: Japanese pages will show empty boxes" >&2
  fi
fi
npm run build
KUMO_CONSOLE_SCREENSHOTS_DIR=docs/console npx vitest run test/e2e/console.e2e.test.ts
if command -v pngquant >/dev/null; then pngquant --quality=70-95 --speed 1 --force --ext .png docs/console/*.png; fi
