#!/bin/sh
# Re-creates ../player/noble.js and the two licence files from the npm registry: the exact
# versions and integrity hashes are those of package-lock.json (npm ci refuses anything else),
# bundled unminified by esbuild so the vendored file reads as the libraries' own source.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
player="$here/../player"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/package.json" "$here/package-lock.json" "$here/entry.js" "$work/"
cd "$work"
npm ci --no-audit --no-fund --silent
version() { node -p "require('./node_modules/$1/package.json').version"; }
banner="// @noble/hashes $(version @noble/hashes) and @noble/ciphers $(version @noble/ciphers)\
 (MIT: noble-hashes.LICENSE, noble-ciphers.LICENSE), bundled by\
 firmware/online/player-vendor/build.sh: do not edit."
node_modules/.bin/esbuild entry.js --bundle --format=iife --global-name=NavakankariNoble \
  --target=es2020 --charset=ascii --legal-comments=inline --log-level=warning \
  --banner:js="$banner" --outfile="$player/noble.js"
cp node_modules/@noble/hashes/LICENSE "$player/noble-hashes.LICENSE"
cp node_modules/@noble/ciphers/LICENSE "$player/noble-ciphers.LICENSE"
sha256sum "$player/noble.js"
