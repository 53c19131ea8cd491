#!/usr/bin/env bash
# System packages the tests need: Debian's HIP toolchain (syntax-only compiles of translated
# code; clang-15 also compiles against the HIP 6.3 headers in ../shared/hip-6.3), Chromium
# (renders the HTML report) and acl (setfacl/getfacl: rewrites keep ACLs). Installs only
# what is missing; needs root.
set -euo pipefail
pkgs=(hipcc libamdhip64-dev rocm-device-libs libhipsparse-dev libhiprand-dev librocprim-dev
      librocrand-dev librocsparse-dev clang-15
      chromium git acl)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "tests/setup-system.sh: need root to install: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "system packages ready: ${pkgs[*]}"
