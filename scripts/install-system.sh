#!/usr/bin/env bash
# Installs the Debian packages Rackscore needs on a fresh machine:
#  - WeasyPrint's Pango stack and fonts that cover every rulebook language,
#  - poppler-utils (pdftotext/pdftoppm) for reading PDFs back in tests,
#  - gettext for compiling translations,
#  - chromium for the browser tests (Playwright drives the system browser),
#  - nginx, the load balancer in front of two nodes in `make cluster`,
#  - redis-server, the cache several nodes share (REDIS_URL; scripts/redis-up.sh).
# Idempotent: does nothing when everything is present.
set -euo pipefail
packages=(libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core fonts-dejavu-extra
          poppler-utils gettext chromium python3-venv nginx redis-server)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing system packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then SUDO=sudo; else
        echo "please install as root: apt-get install ${missing[*]}" >&2; exit 1
    fi
else SUDO=""; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
