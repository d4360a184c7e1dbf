# Source or run: installs Debian's headless-capable Chromium (and its WebDriver) when missing,
# and exports HALLUCHECK_CHROMIUM for the browser tests (tests/service/test_dashboard.py).
if [ ! -x /usr/bin/chromium ]; then
  echo "setup-chromium: installing chromium from Debian" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >&2
fi
export HALLUCHECK_CHROMIUM=/usr/bin/chromium
